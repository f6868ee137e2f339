/**
 * An agent shipped on OpenAI's Responses API: the port is chosen once, its
 * options injectable, so the same function runs in production (the key from
 * OPENAI_API_KEY) and here against a FakeProvider on the same wire. On a
 * reasoning model the port keeps the reasoning between turns: each request
 * sends back the encrypted reasoning items of the turn before, in place.
 *
 * Run it: `deno run --allow-read --allow-env examples/responses_agent.ts`
 */
import {
  Agent,
  Invoker,
  OpenAIResponsesLLM,
  type OpenAIResponsesLLMOptions,
  ReActCognition,
  retry,
  RunContext,
  Services,
} from "@agentkit/testing";
import { FakeLLM, FakeProvider, FakeTool, toolCall, type ToolPort } from "@agentkit/testing";
import { assertEquals } from "@std/assert";

/** The production entry point: `checkHost("db1")` with no options ships on OpenAI. */
async function checkHost(
  host: string,
  lookup: ToolPort,
  port: OpenAIResponsesLLMOptions = {},
): Promise<string> {
  const invoker = new Invoker({ llm: new OpenAIResponsesLLM(port), chatMiddleware: [retry()] });
  const ctx = new RunContext({ services: new Services({ invoker }) });
  const agent = new Agent("ops", {
    model: "o4-mini",
    system: "You check hosts with the lookup tool.",
    cognition: new ReActCognition({ tools: [lookup] }),
  });
  return (await agent.run(`Is ${host} up?`, ctx)).output;
}

// The test: a script served over the Responses wire, strict as OpenAI's.
const provider = new FakeProvider({
  llm: FakeLLM.script([
    {
      reasoning: "I should look db1 up.",
      toolCalls: [toolCall("call_1", "lookup", { host: "db1" })],
    },
    { reasoning: "It answered up.", content: "db1 is up." },
  ]),
});
const lookup = new FakeTool({ name: "lookup", responder: () => "up" });
const answer = await checkHost("db1", lookup, { apiKey: "sk-test", fetch: provider.fetch });
console.log("answer:", answer); // answer: db1 is up.
assertEquals(answer, "db1 is up.");

const second = provider.requests[1].body as { store: boolean; input: { type: string }[] };
console.log("sent back:", second.input.map((item) => item.type).join(", "));
// sent back: message, reasoning, function_call, function_call_output
assertEquals(second.input.map((item) => item.type), [
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
]);
assertEquals(second.store, false);
console.log("refused requests:", provider.rejections.length); // refused requests: 0
assertEquals(provider.rejections.length, 0);
