/**
 * An agent built on the Vercel AI SDK (`ai` 7), tested offline with a script.
 *
 * The agent is plain AI SDK code: a `ToolLoopAgent` with one tool that reads
 * a host's certificate. It takes its model as a parameter, as most apps do
 * (production passes `openai("gpt-4.1")`). The test passes
 * `aiSdkModel(FakeLLM.script([...]))` instead, so the SDK's own tool loop,
 * retries and streaming run for real against scripted turns, with no network,
 * no key, and retry waits in virtual time.
 *
 * Run it: `deno run --allow-env --allow-sys=hostname examples/ai_sdk_agent.ts`
 */
import { type LanguageModel, stepCountIs, tool, ToolLoopAgent } from "ai";
import { z } from "zod";
import { aiSdkModel, FakeClock, FakeLLM, RateLimitError, toolCall } from "@agentkit/testing";
import { assertEquals } from "@std/assert";

// --- the agent, as it would ship -------------------------------------------

/** Reads the expiry date of a host's certificate (a TLS probe in production). */
type CertProbe = (host: string) => Promise<string>;

function certAgent(model: LanguageModel, probe: CertProbe) {
  return new ToolLoopAgent({
    model,
    instructions: "You diagnose failed deploys. Check certificates before you answer.",
    tools: {
      check_cert: tool({
        description: "Read the expiry date of a host's TLS certificate",
        inputSchema: z.object({ host: z.string() }),
        execute: async ({ host }) => ({ host, notAfter: await probe(host) }),
      }),
    },
    stopWhen: stepCountIs(5),
  });
}

// --- the test ----------------------------------------------------------------

// The provider rate-limits the first call; the SDK retries after the 2 s the
// provider asked for. The clock is installed, so that wait is virtual.
const clock = new FakeClock();
using _installed = clock.install();

using llm = FakeLLM.script([
  { toolCalls: [toolCall("c1", "check_cert", { host: "api.example.com" })] },
  { chunks: ["The certificate of api.example.com ", "expired on 2026-08-01."] },
], { failTimes: 1, failWith: new RateLimitError("rate limited", { retryAfterMs: 2_000 }) });

const probed: string[] = [];
const agent = certAgent(aiSdkModel(llm), (host) => {
  probed.push(host);
  return Promise.resolve("2026-08-01");
});

const started = Date.now();
const result = await agent.generate({ prompt: "Why did the deploy to api.example.com fail?" });

console.log("answer:", result.text);
// answer: The certificate of api.example.com expired on 2026-08-01.
assertEquals(result.text, "The certificate of api.example.com expired on 2026-08-01.");
assertEquals(probed, ["api.example.com"]);
assertEquals(llm.calls, 3); // one 429, then two turns
assertEquals(Date.now() - started, 2_000); // virtual: the run took no real time waiting

// What the model was shown on its second turn: the tool's result.
console.log("the tool result the model saw:", llm.requests[2].messages.at(-1)?.content);
// the tool result the model saw: {"host":"api.example.com","notAfter":"2026-08-01"}
assertEquals(llm.requests[2].messages.at(-1), {
  role: "tool",
  content: '{"host":"api.example.com","notAfter":"2026-08-01"}',
  toolCallId: "c1",
});
