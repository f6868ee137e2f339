/**
 * An agent built on the OpenAI Agents SDK (`@openai/agents`), tested offline.
 *
 * The agent is plain OpenAI Agents code: an `Agent` with one tool, run by
 * `run()`. It takes its OpenAI client as a parameter (production passes
 * `new OpenAI()`). The test passes a client whose `fetch` is a `FakeProvider`
 * serving a `FakeLLM` script over the Chat Completions wire, so the SDK's own
 * tool loop, streaming and the client's retries run for real, in-process,
 * with no key, no network and no real waiting.
 *
 * Run it: `deno run --allow-env --allow-sys=hostname,homedir examples/openai_agents_agent.ts`
 */
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";
import { FakeClock, FakeLLM, FakeProvider, RateLimitError, toolCall } from "@agentkit/testing";
import { assertEquals } from "@std/assert";

// --- the agent, as it would ship -------------------------------------------

/** Looks up an order's status (a database query in production). */
type OrderLookup = (orderId: string) => Promise<string>;

function supportAgent(client: OpenAI, lookup: OrderLookup): Agent {
  return new Agent({
    name: "support",
    instructions: "You help customers with their orders. Look the order up before you answer.",
    model: new OpenAIChatCompletionsModel(client, "gpt-4o-mini"),
    tools: [tool({
      name: "order_status",
      description: "The status of an order",
      parameters: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => ({ orderId, status: await lookup(orderId) }),
    })],
  });
}

// --- the test ----------------------------------------------------------------

setTracingDisabled(true); // tracing would export spans to OpenAI
const clock = new FakeClock();
using _installed = clock.install(); // the client's retry waits become virtual

// The provider rate-limits the first request; the openai client waits the
// 1.5 s it asked for and tries again.
using llm = FakeLLM.script([
  { toolCalls: [toolCall("call_1", "order_status", { orderId: "A-17" })] },
  { chunks: ["Order A-17 ", "shipped yesterday."] },
], { failTimes: 1, failWith: new RateLimitError("rate limited", { retryAfterMs: 1_500 }) });
const provider = new FakeProvider({ llm });
const client = new OpenAI({ apiKey: "sk-test", fetch: provider.fetch, maxRetries: 2 });

const looked: string[] = [];
const agent = supportAgent(client, (orderId) => {
  looked.push(orderId);
  return Promise.resolve("shipped");
});

const started = Date.now();
const stream = await run(agent, "Where is my order A-17?", { stream: true });
let streamed = "";
for await (const event of stream) {
  if (event.type === "raw_model_stream_event" && event.data.type === "output_text_delta") {
    streamed += event.data.delta;
  }
}
await stream.completed;

console.log("final output:", stream.finalOutput);
// final output: Order A-17 shipped yesterday.
assertEquals(stream.finalOutput, "Order A-17 shipped yesterday.");
assertEquals(streamed, "Order A-17 shipped yesterday.");
assertEquals(looked, ["A-17"]);
assertEquals(llm.calls, 3); // one 429, then two turns
assertEquals(Date.now() - started, 1_500); // virtual: no real time spent waiting

// What the model was shown on its second turn: the tool's answer.
console.log("the tool result the model saw:", llm.requests[2].messages.at(-1)?.content);
// the tool result the model saw: {"orderId":"A-17","status":"shipped"}
assertEquals(llm.requests[2].messages.at(-1)?.toolCallId, "call_1");
