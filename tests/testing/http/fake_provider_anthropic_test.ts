// The official @anthropic-ai/sdk client, unchanged, against FakeProvider.fetch.
import Anthropic from "@anthropic-ai/sdk";
import { assert, assertEquals, assertRejects } from "@std/assert";
import { ProviderError, RateLimitError, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

function client(provider: FakeProvider): Anthropic {
  return new Anthropic({ apiKey: "sk-ant-test", fetch: provider.fetch, maxRetries: 0 });
}

const base = {
  model: "claude-sonnet-4-5",
  max_tokens: 256,
  messages: [{ role: "user" as const, content: "hi" }],
};

Deno.test("FakeProvider serves @anthropic-ai/sdk messages.create: text, stop reason, usage", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{
      content: "Hello.",
      usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 30 },
    }]),
  });
  const msg = await client(provider).messages.create({ ...base, system: "Be brief." });
  assertEquals(msg.content, [{ type: "text", text: "Hello." }] as unknown);
  assertEquals(msg.stop_reason, "end_turn");
  assertEquals([msg.usage.input_tokens, msg.usage.output_tokens], [9, 2]);
  assertEquals(msg.usage.cache_read_input_tokens, 30);
  const llm = provider.llm as FakeLLM;
  assertEquals(llm.requests[0].messages[0], { role: "system", content: "Be brief." });
  // This SDK sends the key as a bearer token; either way it is masked.
  assertEquals(provider.requests[0].headers.authorization, "Bearer ***");
});

Deno.test("FakeProvider serves @anthropic-ai/sdk streams: text deltas and the final message", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ chunks: ["Hel", "lo"], usage: { inputTokens: 7, outputTokens: 2 } }]),
  });
  const stream = client(provider).messages.stream(base);
  const deltas: string[] = [];
  stream.on("text", (delta) => deltas.push(delta));
  const final = await stream.finalMessage();
  assertEquals(deltas, ["Hel", "lo"]);
  assertEquals(final.content, [{ type: "text", text: "Hello" }] as unknown);
  assertEquals([final.usage.input_tokens, final.usage.output_tokens], [7, 2]);
  assertEquals(final.stop_reason, "end_turn");
});

Deno.test("FakeProvider serves @anthropic-ai/sdk tool_use, blocking and streamed", async () => {
  const call = toolCall("toolu_01", "get_weather", { city: "Paris" });
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ toolCalls: [call] }, { content: "On it.", toolCalls: [call] }]),
  });
  const tools: Anthropic.Tool[] = [{
    name: "get_weather",
    description: "Weather by city",
    input_schema: { type: "object", properties: { city: { type: "string" } } },
  }];
  const anthropic = client(provider);
  const msg = await anthropic.messages.create({ ...base, tools });
  assertEquals(msg.stop_reason, "tool_use");
  assertEquals(msg.content, [{
    type: "tool_use",
    id: "toolu_01",
    name: "get_weather",
    input: { city: "Paris" },
    caller: { type: "direct" },
  }] as unknown);
  const final = await anthropic.messages.stream({ ...base, tools }).finalMessage();
  assertEquals(final.stop_reason, "tool_use");
  assertEquals(final.content.map((b) => b.type), ["text", "tool_use"]);
  const use = final.content[1];
  assertEquals(use.type === "tool_use" && [use.id, use.input], ["toolu_01", { city: "Paris" }]);
  assertEquals((provider.llm as FakeLLM).requests[0].tools[0].name, "get_weather");
});

Deno.test("FakeProvider faults reach @anthropic-ai/sdk as its own errors", async (t) => {
  await t.step("a RateLimitError is the client's 429 RateLimitError", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ error: new RateLimitError("slow down", { retryAfterMs: 40 }) }]),
    });
    const e = await assertRejects(
      () => client(provider).messages.create(base),
      Anthropic.RateLimitError,
    );
    assertEquals([e.status, e.headers?.get("retry-after-ms")], [429, "40"]);
    assertEquals((e.error as { error: { type: string } }).error.type, "rate_limit_error");
  });
  await t.step("529 overloaded, streamed, is an APIError with that status", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ error: new ProviderError("Overloaded", { status: 529 }) }]),
    });
    const e = await assertRejects(
      () => client(provider).messages.stream(base).finalMessage(),
      Anthropic.APIError,
    );
    assertEquals(e.status, 529);
  });
  await t.step("a cut mid-stream fails the stream after the text sent", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ chunks: ["par", "tial"], failAfterChunks: 1 }]),
    });
    const stream = client(provider).messages.stream(base);
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    await assertRejects(() => stream.finalMessage());
    assertEquals(deltas, ["par"]);
  });
  await t.step("an error event mid-stream is the client's APIError", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ chunks: ["x"], error: "Overloaded" }]),
    });
    const e = await assertRejects(
      () => client(provider).messages.stream(base).finalMessage(),
      Anthropic.APIError,
    );
    assertEquals(e.message.includes("Overloaded"), true);
  });
  await t.step("no key is the provider's 401; no max_tokens its 400", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("x") });
    const post = (headers: Record<string, string>, body: unknown) =>
      provider.fetch("https://api.anthropic.com/v1/messages", {
        method: "POST",
        headers: { "anthropic-version": "2023-06-01", ...headers },
        body: JSON.stringify(body),
      });
    const noKey = await post({}, base);
    assertEquals([noKey.status, (await noKey.json()).error.type], [401, "authentication_error"]);
    const noMax = await post({ "x-api-key": "k" }, { model: "m", messages: base.messages });
    const answer = await noMax.json();
    assertEquals([answer.type, answer.error.type], ["error", "invalid_request_error"]);
    assert(answer.error.message.startsWith("max_tokens: Field required ["));
    assertEquals(provider.rejections.map((r) => [r.rule, r.path]), [
      ["max-tokens-required", "max_tokens"],
    ]);
    assertEquals((provider.llm as FakeLLM).calls, 0);
  });
});
