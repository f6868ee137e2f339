// The official openai client's Responses API (what OpenAI Agents JS uses by
// default), unchanged, against FakeProvider.fetch.
import OpenAI from "openai";
import { assertEquals, assertRejects } from "@std/assert";
import { RateLimitError, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

function client(provider: FakeProvider): OpenAI {
  return new OpenAI({ apiKey: "sk-test", fetch: provider.fetch, maxRetries: 0 });
}

Deno.test("FakeProvider serves openai responses.create: output_text, usage, instructions", async () => {
  const llm = FakeLLM.script([{
    content: "Hello.",
    usage: { inputTokens: 5, outputTokens: 2, cachedInputTokens: 5 },
  }]);
  const provider = new FakeProvider({ llm });
  const res = await client(provider).responses.create({
    model: "gpt-4.1",
    instructions: "Be brief.",
    input: "hi",
  });
  assertEquals([res.output_text, res.status], ["Hello.", "completed"]);
  assertEquals(res.usage?.input_tokens, 10);
  assertEquals(res.usage?.input_tokens_details.cached_tokens, 5);
  assertEquals(res.usage?.output_tokens, 2);
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "hi" },
  ]);
  assertEquals(provider.requests[0].api, "responses");
});

Deno.test("FakeProvider serves openai responses streams: deltas, then response.completed", async () => {
  const provider = new FakeProvider({ llm: FakeLLM.script([{ chunks: ["Hel", "lo"] }]) });
  const stream = await client(provider).responses.create({
    model: "gpt-4.1",
    input: "hi",
    stream: true,
  });
  const deltas: string[] = [];
  let completed: OpenAI.Responses.Response | undefined;
  for await (const event of stream) {
    if (event.type === "response.output_text.delta") deltas.push(event.delta);
    if (event.type === "response.completed") completed = event.response;
  }
  assertEquals(deltas, ["Hel", "lo"]);
  const message = completed?.output[0];
  assertEquals(message?.type === "message" && message.content[0], {
    type: "output_text",
    text: "Hello",
    annotations: [],
    logprobs: [],
  });
  assertEquals(completed?.status, "completed");
});

Deno.test("FakeProvider serves openai responses function calls, and reads their outputs back", async () => {
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("call_1", "get_weather", { city: "Paris" })] },
    { content: "Sunny." },
  ]);
  const provider = new FakeProvider({ llm });
  const openai = client(provider);
  const tools: OpenAI.Responses.Tool[] = [{
    type: "function",
    name: "get_weather",
    description: "Weather",
    parameters: { type: "object", properties: { city: { type: "string" } } },
    strict: false,
  }];
  const first = await openai.responses.create({ model: "gpt-4.1", input: "weather?", tools });
  const call = first.output[0];
  assertEquals(call.type === "function_call" && [call.call_id, call.name, call.arguments], [
    "call_1",
    "get_weather",
    '{"city":"Paris"}',
  ]);
  const second = await openai.responses.create({
    model: "gpt-4.1",
    tools,
    input: [
      { role: "user", content: "weather?" },
      {
        type: "function_call",
        call_id: "call_1",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
      },
      { type: "function_call_output", call_id: "call_1", output: "sunny" },
    ],
  });
  assertEquals(second.output_text, "Sunny.");
  assertEquals(llm.requests[1].messages, [
    { role: "user", content: "weather?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "get_weather", args: { city: "Paris" } }],
    },
    { role: "tool", content: "sunny", toolCallId: "call_1" },
  ]);
  assertEquals(llm.requests[0].tools.map((t) => t.name), ["get_weather"]);
});

Deno.test("FakeProvider serves a streamed function call and a length cut as response.incomplete", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([
      { toolCalls: [toolCall("call_7", "f", { a: 1 })] },
      { content: "trunc", finishReason: "length" },
    ]),
  });
  const openai = client(provider);
  const stream = openai.responses.stream({ model: "gpt-4.1", input: "go" });
  const final = await stream.finalResponse();
  const item = final.output[0];
  assertEquals(item.type === "function_call" && JSON.parse(item.arguments), { a: 1 });
  const cut = await openai.responses.create({ model: "gpt-4.1", input: "go" });
  assertEquals([cut.status, cut.incomplete_details?.reason], ["incomplete", "max_output_tokens"]);
});

Deno.test("FakeProvider: a scripted 429 on /v1/responses is openai's RateLimitError", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ error: new RateLimitError("slow down", { retryAfterMs: 1 }) }]),
  });
  const e = await assertRejects(
    () => client(provider).responses.create({ model: "gpt-4.1", input: "x", stream: true }),
    OpenAI.RateLimitError,
  );
  assertEquals(e.status, 429);
});
