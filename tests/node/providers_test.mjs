// The wire on Node, against the npm build: the real ports parse SSE with the
// package's npm dependency (eventsource-parser), and FakeProvider serves them
// in-process and over node:http on loopback.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RateLimitError, toolCall } from "@jsr/agentkit__testing/ports";
import { AnthropicLLM, OpenAIChatLLM, RunContext } from "@jsr/agentkit__testing/runtime";
import { FakeLLM, FakeProvider } from "@jsr/agentkit__testing/testing";

const hi = { model: "m", messages: [{ role: "user", content: "hi" }] };

async function drain(events) {
  const out = [];
  for await (const e of events) out.push(e);
  return out;
}

test("OpenAIChatLLM streams deltas and tool calls from FakeProvider.fetch", async () => {
  const llm = FakeLLM.script([{
    chunks: ["Hel", "lo"],
    toolCalls: [toolCall("call_1", "f", { a: 1 })],
    usage: { inputTokens: 4, outputTokens: 2, cachedInputTokens: 6 },
  }]);
  const port = new OpenAIChatLLM({ apiKey: "sk-test", fetch: new FakeProvider({ llm }).fetch });
  const events = await drain(port.stream(hi));
  assert.deepEqual(events.map((e) => e.type), [
    "message_start",
    "text_delta",
    "text_delta",
    "tool_call",
    "message_end",
  ]);
  assert.deepEqual(events.at(-1).usage, { inputTokens: 4, outputTokens: 2, cachedInputTokens: 6 });
});

test("FakeProvider.listen() serves AnthropicLLM over node:http, and a 429 becomes a RateLimitError", async () => {
  const llm = FakeLLM.script([
    { chunks: ["Bon", "jour"] },
    { error: new RateLimitError("slow down", { retryAfterMs: 250 }) },
  ]);
  const server = await new FakeProvider({ llm }).listen();
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new AnthropicLLM({ apiKey: "k", baseURL: server.url });
    const ctx = new RunContext();
    const events = await drain(port.stream(hi, ctx));
    assert.equal(events.filter((e) => e.type === "text_delta").map((e) => e.content).join(""), "Bonjour");
    await assert.rejects(() => port.chat(hi, ctx), (e) => e instanceof RateLimitError && e.retryAfterMs === 250);
  } finally {
    await server.close();
  }
});

test("FakeProvider.listen(): a stall over node:http ends when the port's signal aborts", async () => {
  const llm = FakeLLM.script([{ chunks: ["wait"], stall: true }]);
  const server = await new FakeProvider({ llm }).listen();
  try {
    const port = new OpenAIChatLLM({ apiKey: "k", baseURL: `${server.url}/v1` });
    const controller = new AbortController();
    const reason = new Error("enough");
    const seen = [];
    await assert.rejects(async () => {
      for await (const e of port.stream(hi, new RunContext({ signal: controller.signal }))) {
        seen.push(e.type);
        if (e.type === "text_delta") controller.abort(reason);
      }
    }, (e) => e === reason);
    assert.deepEqual(seen, ["message_start", "text_delta"]);
  } finally {
    await server.close();
  }
});
