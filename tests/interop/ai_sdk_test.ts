// The Vercel AI SDK (ai 7, provider specification v4) driven by FakeLLM
// scripts through aiSdkModel. `ai` is a test-only import, pinned in deno.json.
import {
  APICallError,
  generateObject,
  generateText,
  Output,
  RetryError,
  stepCountIs,
  streamText,
  tool,
  ToolLoopAgent,
} from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { z } from "zod";
import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import {
  ProviderResponseError,
  RateLimitError,
  toolCall,
  type Usage,
} from "@agentkit/testing/ports";
import {
  aiSdkModel,
  FakeClock,
  FakeLLM,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

// The SDK logs every warning; the test that checks warnings reads them from the result.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const weather = tool({
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, sky: "rain" }),
});

// The real clock, read before any FakeClock is installed: proves a retry
// cost no wall time while virtual time moved.
const wallNow = performance.now.bind(performance);

Deno.test("aiSdkModel() is a LanguageModelV4 the SDK accepts", () => {
  const model: LanguageModelV4 = aiSdkModel(new FakeLLM("hi"), { modelId: "gpt-test" });
  assertEquals([model.specificationVersion, model.provider, model.modelId], [
    "v4",
    "agentkit",
    "gpt-test",
  ]);
});

Deno.test("aiSdkModel() under generateText: text, usage, finish reason and the request", async () => {
  using llm = FakeLLM.script([{
    content: "Hello, Ada.",
    usage: { inputTokens: 12, outputTokens: 3, cachedInputTokens: 4 },
  }]);
  const result = await generateText({
    model: aiSdkModel(llm, { modelId: "fake-model" }),
    system: "Be brief.",
    prompt: "Greet Ada.",
    maxOutputTokens: 64,
    temperature: 0,
  });
  assertEquals(result.text, "Hello, Ada.");
  assertEquals(result.finishReason, "stop");
  assertEquals(result.usage.inputTokens, 16);
  assertEquals(result.usage.inputTokenDetails.cacheReadTokens, 4);
  assertEquals(result.usage.inputTokenDetails.noCacheTokens, 12);
  assertEquals(result.usage.outputTokens, 3);
  assertEquals(result.response.modelId, "fake-model");
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Greet Ada." },
  ]);
  assertEquals(llm.requests[0].settings, {
    jsonSchema: undefined,
    jsonSchemaName: undefined,
    maxTokens: 64,
    temperature: 0,
  });
  assertEquals(llm.requests[0].streaming, false);
});

Deno.test("aiSdkModel() runs the SDK's tool loop: calls, results in the next request, summed usage", async () => {
  using llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
    { content: "It rains in Oslo.", usage: { inputTokens: 30, outputTokens: 5 } },
  ]);
  const result = await generateText({
    model: aiSdkModel(llm),
    prompt: "Weather in Oslo?",
    tools: { weather },
    stopWhen: stepCountIs(5),
  });
  assertEquals(result.text, "It rains in Oslo.");
  assertEquals(result.steps.length, 2);
  assertEquals(result.steps[0].finishReason, "tool-calls");
  assertEquals(result.steps[0].toolCalls[0].input, { city: "Oslo" });
  assertEquals(result.steps[0].toolResults[0].output, { city: "Oslo", sky: "rain" });
  assertEquals(result.totalUsage.inputTokens, 40);
  assertEquals(result.totalUsage.outputTokens, 5);
  assertEquals(llm.requests[0].tools.map((t) => t.name), ["weather"]);
  assertEquals(llm.requests[0].tools[0].description, "The weather in a city");
  assertEquals(
    (llm.requests[0].tools[0].parameters as { required?: string[] }).required,
    ["city"],
  );
  assertEquals(llm.requests[1].messages, [
    { role: "user", content: "Weather in Oslo?" },
    { role: "assistant", content: "", toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
    { role: "tool", content: '{"city":"Oslo","sky":"rain"}', toolCallId: "c1" },
  ]);
});

Deno.test("aiSdkModel() under ToolLoopAgent: a failing tool reaches the model as an error result", async () => {
  using llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup", { host: "a" })] },
    { content: "The lookup failed." },
  ]);
  const agent = new ToolLoopAgent({
    model: aiSdkModel(llm),
    instructions: "You look things up.",
    tools: {
      lookup: tool({
        inputSchema: z.object({ host: z.string() }),
        execute: (): Promise<string> => Promise.reject(new Error("host unreachable")),
      }),
    },
  });
  const result = await agent.generate({ prompt: "Look up a." });
  assertEquals(result.text, "The lookup failed.");
  const toolMessage = llm.requests[1].messages.at(-1)!;
  assertEquals([toolMessage.role, toolMessage.toolCallId, toolMessage.isError], [
    "tool",
    "c1",
    true,
  ]);
  assert(toolMessage.content.includes("host unreachable"), toolMessage.content);
  assertEquals(llm.requests[0].messages[0], { role: "system", content: "You look things up." });
});

Deno.test("aiSdkModel() under streamText: every stream part, in order", async () => {
  using llm = FakeLLM.script([{
    chunks: ["Hel", "lo"],
    usage: { inputTokens: 7, outputTokens: 2 },
  }]);
  const result = streamText({ model: aiSdkModel(llm), prompt: "Say hello." });
  const parts: string[] = [];
  for await (const part of result.fullStream) {
    parts.push(part.type === "text-delta" ? `text-delta:${part.text}` : part.type);
  }
  assertEquals(parts, [
    "start",
    "start-step",
    "text-start",
    "text-delta:Hel",
    "text-delta:lo",
    "text-end",
    "finish-step",
    "finish",
  ]);
  assertEquals(await result.text, "Hello");
  assertEquals((await result.usage).outputTokens, 2);
  assertEquals(await result.finishReason, "stop");
  assertEquals(llm.requests[0].streaming, true);
});

Deno.test("aiSdkModel() under streamText: a streamed tool loop", async () => {
  using llm = FakeLLM.script([
    { chunks: ["Checking. "], toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
    { chunks: ["It ", "rains."] },
  ]);
  const result = streamText({
    model: aiSdkModel(llm),
    prompt: "Weather in Oslo?",
    tools: { weather },
    stopWhen: stepCountIs(3),
  });
  const parts: string[] = [];
  for await (const part of result.fullStream) parts.push(part.type);
  assertEquals(
    parts.filter((p) => p.startsWith("tool")),
    ["tool-input-start", "tool-input-delta", "tool-input-end", "tool-call", "tool-result"],
  );
  assertEquals(await result.text, "It rains.");
  assertEquals((await result.steps).length, 2);
  assertEquals(llm.requests[1].messages[1], {
    role: "assistant",
    content: "Checking. ",
    toolCalls: [toolCall("c1", "weather", { city: "Oslo" })],
  });
});

Deno.test("aiSdkModel() gives structured output its schema: Output.object and generateObject", async (t) => {
  const schema = z.object({ name: z.string(), age: z.number() });
  await t.step("Output.object", async () => {
    using llm = FakeLLM.script([{ content: '{"name":"Ada","age":36}' }]);
    const result = await generateText({
      model: aiSdkModel(llm),
      prompt: "Who?",
      output: Output.object({ schema }),
    });
    assertEquals(result.output, { name: "Ada", age: 36 });
    const jsonSchema = llm.requests[0].settings?.jsonSchema as { properties?: object };
    assertEquals(Object.keys(jsonSchema.properties ?? {}), ["name", "age"]);
  });
  await t.step("generateObject", async () => {
    using llm = FakeLLM.script([{ content: '{"name":"Ada","age":36}' }]);
    const result = await generateObject({
      model: aiSdkModel(llm),
      prompt: "Who?",
      schema,
      schemaName: "person",
    });
    assertEquals(result.object, { name: "Ada", age: 36 });
    assertEquals(llm.requests[0].settings?.jsonSchemaName, "person");
  });
});

Deno.test("aiSdkModel(): a scripted 429 is an APICallError the SDK retries, in virtual time", async (t) => {
  const clock = new FakeClock();
  using _installed = clock.install();
  await t.step("generateText", async () => {
    using llm = FakeLLM.script(["Done."], {
      failTimes: 2,
      failWith: new RateLimitError("slow down", { retryAfterMs: 1_500 }),
    });
    const wall = wallNow();
    const virtual = Date.now();
    const result = await generateText({ model: aiSdkModel(llm), prompt: "Go." });
    assertEquals(result.text, "Done.");
    assertEquals(llm.calls, 3);
    assertEquals(Date.now() - virtual, 3_000); // two waits of retry-after-ms
    assert(wallNow() - wall < 1_000, "the retries waited in virtual time");
  });
  await t.step("streamText", async () => {
    using llm = FakeLLM.script([{ chunks: ["Do", "ne."] }], {
      failTimes: 1,
      failWith: new RateLimitError("slow down", { retryAfterMs: 800 }),
    });
    const virtual = Date.now();
    const result = streamText({ model: aiSdkModel(llm), prompt: "Go." });
    assertEquals(await result.text, "Done.");
    assertEquals(llm.calls, 2);
    assertEquals(Date.now() - virtual, 800);
  });
  await t.step("retries run out: RetryError, the last error's cause is ours", async () => {
    const limit = new RateLimitError("slow down", { retryAfterMs: 10 });
    using llm = FakeLLM.script(["never"], { failTimes: 3, failWith: limit, allowUnused: true });
    const error = await assertRejects(
      () => generateText({ model: aiSdkModel(llm), prompt: "Go.", maxRetries: 2 }),
      RetryError,
    );
    assert(APICallError.isInstance(error.lastError));
    assertEquals((error.lastError as APICallError).statusCode, 429);
    assertEquals((error.lastError as APICallError).responseHeaders, { "retry-after-ms": "10" });
    assertEquals((error.lastError as Error).cause, limit);
    assertEquals(llm.calls, 3);
  });
});

Deno.test("aiSdkModel(): a non-retryable provider error fails at once, carrying ours", async () => {
  using llm = FakeLLM.script([{ error: new ProviderResponseError("Bad request: no such model") }]);
  const error = await assertRejects(() => generateText({ model: aiSdkModel(llm), prompt: "Go." }));
  assert(APICallError.isInstance(error));
  assertEquals([error.isRetryable, error.statusCode], [false, 400]);
  assertInstanceOf(error.cause, ProviderResponseError);
  assertEquals(llm.calls, 1);
});

Deno.test("aiSdkModel(): a stream cut mid-way is an error part, then the finish with reason and billed usage", async () => {
  const usage: Usage = { inputTokens: 100, outputTokens: 7 };
  using llm = FakeLLM.script([{
    chunks: ["I will ", "read the"],
    failAfterChunks: 2,
    finishReason: "length",
    error: "Hit max tokens",
    usage,
  }]);
  const result = streamText({ model: aiSdkModel(llm), prompt: "Go.", onError: () => {} });
  const errors: unknown[] = [];
  let text = "";
  for await (const part of result.fullStream) {
    if (part.type === "error") errors.push(part.error);
    if (part.type === "text-delta") text += part.text;
  }
  assertEquals(text, "I will read the");
  assertEquals(errors.length, 1);
  assert(APICallError.isInstance(errors[0]));
  assertEquals((errors[0] as APICallError).isRetryable, false); // tokens were sent
  assertInstanceOf((errors[0] as Error).cause, ProviderResponseError);
  assertEquals(llm.calls, 1);
});

Deno.test("aiSdkModel(): a script that runs out surfaces as ScriptExhausted", async (t) => {
  await t.step("generateText rejects with it", async () => {
    const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] }]);
    await assertRejects(
      () =>
        generateText({
          model: aiSdkModel(llm),
          prompt: "Weather?",
          tools: { weather },
          stopWhen: stepCountIs(5),
        }),
      ScriptExhausted,
      "has 1 turn(s), but the agent asked for turn 2",
    );
  });
  await t.step("streamText puts it in the stream, and verify() rethrows it", async () => {
    const llm = FakeLLM.script(["one"]);
    await generateText({ model: aiSdkModel(llm), prompt: "Go." });
    const result = streamText({ model: aiSdkModel(llm), prompt: "Go.", onError: () => {} });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
    assertInstanceOf(errors[0], ScriptExhausted);
    assertThrows(() => llm.verify(), ScriptExhausted, "asked for turn 2");
  });
});

Deno.test("aiSdkModel(): verify() catches a turn the SDK never asked for", async () => {
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
    { content: "It rains." },
  ]);
  // No stopWhen: the SDK stops after one step, so the answer turn is never used.
  await generateText({ model: aiSdkModel(llm), prompt: "Weather?", tools: { weather } });
  assertThrows(() => llm.verify(), UnusedTurns, "has 2 turn(s), but the run used only 1");
});

Deno.test("aiSdkModel(): options the port cannot honour are SDK warnings, not silence", async () => {
  using llm = new FakeLLM("ok");
  const result = await generateText({
    model: aiSdkModel(llm),
    prompt: "Go.",
    topP: 0.5,
    seed: 7,
  });
  assertEquals(
    result.warnings?.map((w) => (w as { feature?: string }).feature),
    ["topP", "seed"],
  );
});

Deno.test("aiSdkModel(): the reported cost rides in providerMetadata", async () => {
  using llm = FakeLLM.script([{
    content: "ok",
    usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.25 },
  }]);
  const result = await generateText({ model: aiSdkModel(llm), prompt: "Go." });
  assertEquals(result.providerMetadata, { agentkit: { costUsd: 0.25 } });
});

Deno.test("aiSdkModel() checks its options where they are given", () => {
  const llm = new FakeLLM("ok");
  assertThrows(
    () => aiSdkModel(llm, { modelID: "x" } as never),
    TypeError,
    'unknown option "modelID"; did you mean "modelId"?',
  );
  assertThrows(
    () => aiSdkModel(llm, { modelId: 3 } as never),
    TypeError,
    'option "modelId" must be a non-empty string, got 3',
  );
  assertThrows(
    () => aiSdkModel(llm, { specificationVersion: "v5" } as never),
    TypeError,
    'option "specificationVersion" must be one of "v4", "v3"',
  );
  assertThrows(() => aiSdkModel({} as never), TypeError, "the llm must be an LLMPort");
});
