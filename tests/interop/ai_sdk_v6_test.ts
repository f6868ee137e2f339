// The previous AI SDK major (ai 6, provider specification v3), over the same
// adapter with { specificationVersion: "v3" }. `ai` is a test-only import.
import { APICallError, generateText, stepCountIs, tool, ToolLoopAgent } from "ai-v6";
import type { LanguageModelV3 } from "@ai-sdk/provider-v3";
import { z } from "zod";
import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { ProviderResponseError, RateLimitError, toolCall } from "@agentkit/testing/ports";
import {
  aiSdkModel,
  FakeClock,
  FakeLLM,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const weather = tool({
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => `rain in ${city}`,
});

const v3 = { specificationVersion: "v3" } as const;

Deno.test("aiSdkModel({ specificationVersion: 'v3' }) is a LanguageModelV3 for ai 6", () => {
  const model: LanguageModelV3 = aiSdkModel(new FakeLLM("hi"), v3);
  assertEquals(model.specificationVersion, "v3");
});

Deno.test("ai 6: generateText runs the tool loop over a script", async () => {
  using llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
    { content: "It rains in Oslo." },
  ]);
  const result = await generateText({
    model: aiSdkModel(llm, v3),
    prompt: "Weather in Oslo?",
    tools: { weather },
    stopWhen: stepCountIs(5),
  });
  assertEquals(result.text, "It rains in Oslo.");
  assertEquals(result.steps.length, 2);
  assertEquals(llm.requests[1].messages.at(-1), {
    role: "tool",
    content: "rain in Oslo",
    toolCallId: "c1",
  });
});

Deno.test("ai 6: ToolLoopAgent and a streamed run", async () => {
  using llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
    { chunks: ["It ", "rains."] },
  ]);
  const agent = new ToolLoopAgent({ model: aiSdkModel(llm, v3), tools: { weather } });
  const result = await agent.stream({ prompt: "Weather in Oslo?" });
  const deltas: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") deltas.push(part.text);
  }
  assertEquals(deltas, ["It ", "rains."]);
  assertEquals(await result.finishReason, "stop");
});

Deno.test("ai 6: a scripted 429 is retried in virtual time", async () => {
  const clock = new FakeClock();
  using _installed = clock.install();
  using llm = FakeLLM.script(["Done."], {
    failTimes: 2,
    failWith: new RateLimitError("slow down", { retryAfterMs: 1_000 }),
  });
  const start = Date.now();
  const result = await generateText({ model: aiSdkModel(llm, v3), prompt: "Go." });
  assertEquals([result.text, llm.calls, Date.now() - start], ["Done.", 3, 2_000]);
});

Deno.test("ai 6: a provider error is an APICallError with ours as the cause", async () => {
  using llm = FakeLLM.script([{ error: new ProviderResponseError("refused") }]);
  const error = await assertRejects(() =>
    generateText({ model: aiSdkModel(llm, v3), prompt: "Go." })
  );
  assert(APICallError.isInstance(error));
  assert(error.cause instanceof ProviderResponseError);
});

Deno.test("ai 6: ScriptExhausted surfaces and verify() catches an unused turn", async () => {
  const short = FakeLLM.script([{ toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] }]);
  await assertRejects(
    () =>
      generateText({
        model: aiSdkModel(short, v3),
        prompt: "Weather?",
        tools: { weather },
        stopWhen: stepCountIs(3),
      }),
    ScriptExhausted,
  );
  const long = FakeLLM.script(["one", "two"]);
  await generateText({ model: aiSdkModel(long, v3), prompt: "Go." });
  assertThrows(() => long.verify(), UnusedTurns);
});
