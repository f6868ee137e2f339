// LangChain JS, unchanged, against FakeProvider.fetch: ChatOpenAI (through
// configuration.fetch), ChatAnthropic (through clientOptions.fetch), bindTools
// and a LangChain v1 createAgent tool loop.
// The frameworks are test-only imports, pinned in deno.json.
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { z } from "zod";
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { RateLimitError, toolCall } from "@agentkit/testing/ports";
import {
  FakeClock,
  FakeLLM,
  FakeProvider,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

const wallNow = performance.now.bind(performance);

function chatOpenAI(provider: FakeProvider, maxRetries = 0): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    maxRetries,
    configuration: { fetch: provider.fetch },
  });
}

function chatAnthropic(provider: FakeProvider, maxRetries = 0): ChatAnthropic {
  return new ChatAnthropic({
    model: "claude-sonnet-4-5",
    apiKey: "sk-ant-test",
    maxRetries,
    clientOptions: { fetch: provider.fetch },
  });
}

const weather = tool(({ city }: { city: string }) => `rain in ${city}`, {
  name: "weather",
  description: "The weather in a city",
  schema: z.object({ city: z.string() }),
});

Deno.test("LangChain ChatOpenAI.invoke over FakeProvider.fetch: text and usage", async () => {
  using llm = FakeLLM.script([{
    content: "Hello, Ada.",
    usage: { inputTokens: 9, outputTokens: 3 },
  }]);
  const provider = new FakeProvider({ llm });
  const message = await chatOpenAI(provider).invoke("Greet Ada.");
  assertEquals(message.content, "Hello, Ada.");
  assertEquals(message.usage_metadata?.input_tokens, 9);
  assertEquals(message.usage_metadata?.output_tokens, 3);
  assertEquals(llm.requests[0].messages, [{ role: "user", content: "Greet Ada." }]);
  assertEquals(provider.requests[0].headers.authorization, "Bearer ***");
});

Deno.test("LangChain bindTools: the script's tool call is the AIMessage's", async () => {
  using llm = FakeLLM.script([{ toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] }]);
  const provider = new FakeProvider({ llm });
  const message = await chatOpenAI(provider).bindTools([weather]).invoke("Weather in Oslo?");
  assertEquals(message.tool_calls?.map((c) => [c.id, c.name, c.args]), [
    ["call_1", "weather", { city: "Oslo" }],
  ]);
  assertEquals(llm.requests[0].tools.map((t) => t.name), ["weather"]);
});

Deno.test("LangChain v1 createAgent runs the tool loop; the tool result is in the next request", async () => {
  using llm = FakeLLM.script([
    { toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] },
    { content: "It rains in Oslo." },
  ]);
  const provider = new FakeProvider({ llm });
  const agent = createAgent({ model: chatOpenAI(provider), tools: [weather] });
  const result = await agent.invoke({ messages: [{ role: "user", content: "Weather in Oslo?" }] });
  assertEquals(result.messages.at(-1)?.content, "It rains in Oslo.");
  assertEquals(llm.requests[1].messages.at(-1), {
    role: "tool",
    content: "rain in Oslo",
    toolCallId: "call_1",
  });
});

Deno.test("LangChain ChatOpenAI.stream: the script's chunks arrive as chunks", async () => {
  using llm = FakeLLM.script([{ chunks: ["The cert ", "expired."] }]);
  const provider = new FakeProvider({ llm });
  const pieces: string[] = [];
  for await (const chunk of await chatOpenAI(provider).stream("Why?")) {
    if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
  }
  assertEquals(pieces, ["The cert ", "expired."]);
  assertEquals(provider.requests[0].stream, true);
  assertEquals(llm.requests[0].streaming, true);
});

Deno.test("LangChain retries a scripted 429 in virtual time", async () => {
  const clock = new FakeClock();
  using _installed = clock.install();
  using llm = FakeLLM.script(["Done."], {
    failTimes: 2,
    failWith: new RateLimitError("slow down", { retryAfterMs: 1_000 }),
  });
  const provider = new FakeProvider({ llm });
  const wall = wallNow();
  const virtual = Date.now();
  const message = await chatOpenAI(provider, 3).invoke("Go.");
  assertEquals(message.content, "Done.");
  assertEquals(llm.calls, 3);
  assert(Date.now() - virtual > 0, "the retries waited in virtual time");
  assert(wallNow() - wall < 1_000, "and cost no wall time");
});

Deno.test("LangChain: a script that runs out surfaces ScriptExhausted; verify() catches an unused turn", async () => {
  const short = FakeLLM.script([{ toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] }]);
  const provider = new FakeProvider({ llm: short });
  const agent = createAgent({ model: chatOpenAI(provider), tools: [weather] });
  const error = await assertRejects(() =>
    agent.invoke({ messages: [{ role: "user", content: "Weather?" }] })
  );
  assertStringIncludes(
    String((error as Error).message),
    "has 1 turn(s), but the agent asked for turn 2",
  );
  assertThrows(() => provider.verify(), ScriptExhausted);

  const long = FakeLLM.script(["one", "two"]);
  await chatOpenAI(new FakeProvider({ llm: long })).invoke("Go.");
  assertThrows(() => long.verify(), UnusedTurns, "used only 1");
});

Deno.test("LangChain ChatAnthropic over FakeProvider.fetch: invoke, stream and a createAgent tool loop", async (t) => {
  await t.step("invoke", async () => {
    using llm = FakeLLM.script([{ content: "Hello.", usage: { inputTokens: 7, outputTokens: 2 } }]);
    const provider = new FakeProvider({ llm });
    const message = await chatAnthropic(provider).invoke("Greet me.");
    assertEquals(message.content, "Hello.");
    assertEquals(message.usage_metadata?.output_tokens, 2);
    assertEquals(provider.requests[0].path, "/v1/messages");
    assertEquals(provider.requests[0].headers["x-api-key"], "***");
  });
  await t.step("stream", async () => {
    using llm = FakeLLM.script([{ chunks: ["The cert ", "expired."] }]);
    const provider = new FakeProvider({ llm });
    let text = "";
    for await (const chunk of await chatAnthropic(provider).stream("Why?")) {
      if (typeof chunk.content === "string") text += chunk.content;
    }
    assertEquals(text, "The cert expired.");
    assertEquals(provider.requests[0].stream, true);
  });
  await t.step("createAgent with bound tools", async () => {
    using llm = FakeLLM.script([
      { toolCalls: [toolCall("toolu_1", "weather", { city: "Oslo" })] },
      { content: "It rains in Oslo." },
    ]);
    const provider = new FakeProvider({ llm });
    const agent = createAgent({ model: chatAnthropic(provider), tools: [weather] });
    const result = await agent.invoke({
      messages: [{ role: "user", content: "Weather in Oslo?" }],
    });
    assertEquals(result.messages.at(-1)?.content, "It rains in Oslo.");
    assertEquals(llm.requests[1].messages.at(-1), {
      role: "tool",
      content: "rain in Oslo",
      toolCallId: "toolu_1",
    });
  });
  await t.step("a retried 429", async () => {
    const clock = new FakeClock();
    using _installed = clock.install();
    using llm = FakeLLM.script(["Done."], {
      failTimes: 1,
      failWith: new RateLimitError("slow down", { retryAfterMs: 500 }),
    });
    const message = await chatAnthropic(new FakeProvider({ llm }), 2).invoke("Go.");
    assertEquals([message.content, llm.calls], ["Done.", 2]);
  });
});
