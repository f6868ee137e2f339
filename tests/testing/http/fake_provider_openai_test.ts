// The official openai client, unchanged, against FakeProvider.fetch.
import OpenAI from "openai";
import { assertEquals, assertInstanceOf, assertRejects } from "@std/assert";
import { ProviderResponseError, RateLimitError, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

function client(provider: FakeProvider): OpenAI {
  return new OpenAI({ apiKey: "sk-test", fetch: provider.fetch, maxRetries: 0 });
}

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "hi" }];

Deno.test("FakeProvider serves openai's chat.completions.create: text and usage", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{
      content: "Hello.",
      usage: { inputTokens: 4, outputTokens: 2, cachedInputTokens: 6 },
    }]),
  });
  const res = await client(provider).chat.completions.create({ model: "gpt-4o-mini", messages });
  assertEquals(res.choices[0].message.content, "Hello.");
  assertEquals(res.choices[0].finish_reason, "stop");
  assertEquals(res.model, "gpt-4o-mini");
  assertEquals(res.usage?.prompt_tokens, 10);
  assertEquals(res.usage?.completion_tokens, 2);
  assertEquals(res.usage?.prompt_tokens_details?.cached_tokens, 6);
  assertEquals(provider.requests[0].headers.authorization, "Bearer ***");
});

Deno.test("FakeProvider serves openai's streamed deltas and the usage chunk", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{
      chunks: ["Hel", "lo", "!"],
      usage: { inputTokens: 3, outputTokens: 3 },
    }]),
  });
  const stream = await client(provider).chat.completions.create({
    model: "gpt-4o-mini",
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  const deltas: string[] = [];
  let usage: OpenAI.CompletionUsage | undefined | null;
  let finish: string | null | undefined;
  for await (const chunk of stream) {
    const c = chunk.choices[0];
    if (c?.delta.content) deltas.push(c.delta.content);
    if (c?.finish_reason) finish = c.finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  assertEquals(deltas, ["Hel", "lo", "!"]);
  assertEquals(finish, "stop");
  assertEquals([usage?.prompt_tokens, usage?.completion_tokens], [3, 3]);
});

Deno.test("FakeProvider serves openai tool calls, blocking and streamed (runTools-style accumulation)", async () => {
  const call = toolCall("call_1", "get_weather", { city: "Paris" });
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ toolCalls: [call] }, { toolCalls: [call] }]),
  });
  const tools: OpenAI.ChatCompletionTool[] = [{
    type: "function",
    function: {
      name: "get_weather",
      description: "Weather by city",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  }];
  const openai = client(provider);
  const res = await openai.chat.completions.create({ model: "gpt-4o", messages, tools });
  const blocking = res.choices[0].message.tool_calls?.[0];
  assertEquals(res.choices[0].finish_reason, "tool_calls");
  assertEquals(blocking?.type === "function" && blocking.function, {
    name: "get_weather",
    arguments: '{"city":"Paris"}',
  });
  const streamed = await openai.chat.completions.stream({ model: "gpt-4o", messages, tools })
    .finalChatCompletion();
  const s = streamed.choices[0].message.tool_calls?.[0];
  assertEquals(s?.id, "call_1");
  assertEquals(s?.type === "function" && JSON.parse(s.function.arguments), { city: "Paris" });
  const llm = provider.llm as FakeLLM;
  assertEquals(llm.requests[0].tools[0].name, "get_weather");
});

Deno.test("FakeProvider faults reach the openai client as its own errors", async (t) => {
  await t.step("a RateLimitError is a 429 RateLimitError", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ error: new RateLimitError("slow down", { retryAfterMs: 20 }) }]),
    });
    const e = await assertRejects(
      () => client(provider).chat.completions.create({ model: "m", messages }),
      OpenAI.RateLimitError,
    );
    assertEquals(e.status, 429);
    assertEquals(e.headers?.get("retry-after-ms"), "20");
  });
  await t.step("a ProviderResponseError with a status is that status", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ error: new ProviderResponseError("no such model", { status: 404 }) }]),
    });
    const e = await assertRejects(
      () => client(provider).chat.completions.create({ model: "m", messages }),
      OpenAI.NotFoundError,
    );
    assertEquals(e.message, "404 no such model");
  });
  await t.step("a cut after chunks is a connection error mid-stream", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ chunks: ["a", "b", "c"], failAfterChunks: 1 }]),
    });
    const stream = await client(provider).chat.completions.create({
      model: "m",
      messages,
      stream: true,
    });
    const seen: string[] = [];
    await assertRejects(async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
    });
    assertEquals(seen.join(""), "a");
  });
  await t.step("a stall stays open until the client aborts", async () => {
    const llm = FakeLLM.script([{ chunks: ["wait"], stall: true }]);
    const provider = new FakeProvider({ llm });
    const stream = await client(provider).chat.completions.create({
      model: "m",
      messages,
      stream: true,
    });
    const seen: string[] = [];
    // openai's Stream ends its iteration quietly on the caller's own abort.
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) {
        seen.push(chunk.choices[0].delta.content);
        stream.controller.abort();
      }
    }
    assertEquals(stream.controller.signal.aborted, true);
    assertEquals([seen, llm.cancelled.length], [["wait"], 1]);
  });
  await t.step("no API key is the provider's 401", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("x") });
    const res = await provider.fetch("https://api.openai.com/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "m", messages }),
    });
    assertEquals(res.status, 401);
    assertEquals((await res.json()).error.type, "invalid_request_error");
    assertEquals((provider.llm as FakeLLM).calls, 0);
  });
  await t.step("malformed JSON, a wrong shape and an unknown path are 400 and 404", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("x") });
    const post = (path: string, body: string) =>
      provider.fetch(`https://api.openai.com${path}`, {
        method: "POST",
        headers: { authorization: "Bearer k" },
        body,
      });
    const badJson = await post("/v1/chat/completions", "{nope");
    assertEquals(badJson.status, 400);
    const noMessages = await post("/v1/chat/completions", JSON.stringify({ model: "m" }));
    assertEquals([noMessages.status, (await noMessages.json()).error.param], [400, "messages"]);
    await badJson.body?.cancel();
    const e = await assertRejects(() => client(provider).models.list(), OpenAI.NotFoundError);
    assertEquals(e.status, 404);
    assertInstanceOf(e, OpenAI.APIError);
    assertEquals((provider.llm as FakeLLM).calls, 0);
  });
});
