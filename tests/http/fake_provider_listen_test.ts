// FakeProvider.listen(): the same wire over loopback, for clients that only
// take a URL. Runs with --allow-net=127.0.0.1 only.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { assertEquals, assertRejects } from "@std/assert";
import { type LLMPort, RateLimitError, toolCall } from "@agentkit/testing/ports";
import { AnthropicLLM, OpenAIChatLLM, RunContext } from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "hi" }];

Deno.test("FakeProvider.listen() serves the openai client by baseURL on 127.0.0.1", async () => {
  const llm = FakeLLM.script([
    { content: "blocking" },
    { chunks: ["str", "eamed"] },
    { toolCalls: [toolCall("call_1", "f", { a: 1 })] },
  ]);
  await using server = await new FakeProvider({ llm }).listen();
  assertEquals(new URL(server.url).hostname, "127.0.0.1");
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1`, maxRetries: 0 });
  const res = await client.chat.completions.create({ model: "m", messages });
  assertEquals(res.choices[0].message.content, "blocking");
  const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  assertEquals(text, "streamed");
  const tools = await client.chat.completions.create({ model: "m", messages });
  assertEquals(tools.choices[0].message.tool_calls?.[0].id, "call_1");
});

Deno.test("FakeProvider.listen(): faults over a socket", async (t) => {
  await t.step("429 is the client's RateLimitError", async () => {
    const llm = FakeLLM.script([{ error: new RateLimitError("slow down", { retryAfterMs: 10 }) }]);
    await using server = await new FakeProvider({ llm }).listen();
    const client = new OpenAI({ apiKey: "k", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const e = await assertRejects(
      () => client.chat.completions.create({ model: "m", messages }),
      OpenAI.RateLimitError,
    );
    assertEquals(e.status, 429);
  });
  await t.step("a cut drops the connection after the chunks sent", async () => {
    const llm = FakeLLM.script([{ chunks: ["a", "b"], failAfterChunks: 1 }]);
    await using server = await new FakeProvider({ llm }).listen();
    const client = new OpenAI({ apiKey: "k", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
    let text = "";
    await assertRejects(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    });
    assertEquals(text, "a");
  });
  await t.step("a stall holds the socket open until the port's signal aborts", async () => {
    const llm = FakeLLM.script([{ chunks: ["wait"], stall: true }]);
    await using server = await new FakeProvider({ llm }).listen();
    const port = new OpenAIChatLLM({ apiKey: "k", baseURL: `${server.url}/v1` });
    const controller = new AbortController();
    const reason = new Error("enough");
    const ctx = new RunContext({ signal: controller.signal });
    const seen: string[] = [];
    const error = await assertRejects(async () => {
      for await (
        const e of port.stream(
          { model: "m", messages: [{ role: "user" as const, content: "hi" }] },
          ctx,
        )
      ) {
        seen.push(e.type);
        if (e.type === "text_delta") controller.abort(reason);
      }
    });
    assertEquals([error, seen], [reason, ["message_start", "text_delta"]]);
  });
  await t.step("closing the server ends a stream still open", async () => {
    const llm = FakeLLM.script([{ chunks: ["wait"], stall: true }]);
    const server = await new FakeProvider({ llm }).listen();
    const port = new OpenAIChatLLM({ apiKey: "k", baseURL: `${server.url}/v1` });
    const events = port.stream({ model: "m", messages: [{ role: "user" as const, content: "hi" }] })
      [Symbol.asyncIterator]();
    assertEquals((await events.next()).value?.type, "message_start");
    assertEquals((await events.next()).value?.type, "text_delta");
    await server.close();
    const end = (await events.next()).value;
    assertEquals(end?.type, "error");
    assertEquals(llm.cancelled.length, 1);
  });
  await t.step(
    "closing the server aborts the model's call with an AbortError saying so",
    async () => {
      let reason: unknown;
      const llm: LLMPort = {
        chat: () => Promise.reject(new Error("unused")),
        complete: () => Promise.reject(new Error("unused")),
        async *stream(request) {
          yield { type: "message_start", messageId: "m" };
          yield { type: "text_delta", messageId: "m", content: "wait" };
          await new Promise((resolve) => request.signal!.addEventListener("abort", resolve));
          reason = request.signal!.reason;
        },
      };
      const server = await new FakeProvider({ llm }).listen();
      const port = new OpenAIChatLLM({ apiKey: "k", baseURL: `${server.url}/v1` });
      const events = port.stream({
        model: "m",
        messages: [{ role: "user" as const, content: "hi" }],
      })[Symbol.asyncIterator]();
      await events.next();
      await events.next();
      await server.close();
      await events.next();
      assertEquals(
        [reason instanceof DOMException, (reason as DOMException).name, (reason as Error).message],
        [true, "AbortError", "The FakeProvider closed"],
      );
    },
  );
});

Deno.test("FakeProvider.listen() serves @anthropic-ai/sdk and AnthropicLLM by baseURL", async () => {
  const llm = FakeLLM.script([
    { chunks: ["Bon", "jour"] },
    { toolCalls: [toolCall("toolu_1", "f", { a: 1 })], usage: { inputTokens: 3, outputTokens: 4 } },
  ]);
  await using server = await new FakeProvider({ llm }).listen();
  const client = new Anthropic({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
  const text: string[] = [];
  const stream = client.messages.stream({
    model: "claude-sonnet-4-5",
    max_tokens: 64,
    messages: [{ role: "user", content: "hi" }],
  });
  stream.on("text", (t) => text.push(t));
  await stream.finalMessage();
  assertEquals(text, ["Bon", "jour"]);
  // Over a socket the port sends from a production context (a test context would refuse).
  const port = new AnthropicLLM({ apiKey: "k", baseURL: server.url });
  const res = await port.chat({
    model: "claude-sonnet-4-5",
    messages: [{ role: "user", content: "hi" }],
  }, new RunContext());
  assertEquals(res.toolCalls, [{ id: "toolu_1", name: "f", args: { a: 1 } }]);
  // The API always reports its cache reads (0 here), and the port reads them.
  assertEquals(res.usage, { inputTokens: 3, outputTokens: 4, cachedInputTokens: 0 });
});
