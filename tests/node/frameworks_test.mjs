// The other agent stacks on Node, against the npm build: the Vercel AI SDK
// over aiSdkModel (ai 7 needs Node 22 or later, so it is skipped on older
// lines) and OpenAI Agents JS over FakeProvider.fetch. The frameworks are the
// consumer project's devDependencies, pinned by scripts/test_node.ts to the
// versions deno.json pins for the Deno interop tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { RateLimitError, toolCall } from "@jsr/agentkit__testing/ports";
import {
  aiSdkModel,
  FakeClock,
  FakeLLM,
  FakeProvider,
  ScriptExhausted,
  UnusedTurns,
} from "@jsr/agentkit__testing/testing";

const major = Number(process.versions.node.split(".")[0]);
const noAi = major < 22 && "ai 7 supports Node 22 and later";
const wallNow = performance.now.bind(performance);

test("AI SDK: generateText runs the tool loop over a script", { skip: noAi }, async () => {
  const { generateText, stepCountIs, tool } = await import("ai");
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "weather", { city: "Oslo" })] },
    { content: "It rains in Oslo." },
  ]);
  const result = await generateText({
    model: aiSdkModel(llm),
    prompt: "Weather in Oslo?",
    tools: {
      weather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: ({ city }) => `rain in ${city}`,
      }),
    },
    stopWhen: stepCountIs(5),
  });
  assert.equal(result.text, "It rains in Oslo.");
  assert.deepEqual(llm.requests[1].messages.at(-1), {
    role: "tool",
    content: "rain in Oslo",
    toolCallId: "c1",
  });
  llm.verify();
});

test("AI SDK: streamText streams the script's chunks", { skip: noAi }, async () => {
  const { streamText } = await import("ai");
  const llm = FakeLLM.script([{ chunks: ["Hel", "lo"] }]);
  const result = streamText({ model: aiSdkModel(llm), prompt: "Say hello." });
  const deltas = [];
  for await (const part of result.fullStream) if (part.type === "text-delta") deltas.push(part.text);
  assert.deepEqual(deltas, ["Hel", "lo"]);
});

test("AI SDK: a scripted 429 is retried in virtual time", { skip: noAi }, async () => {
  const { generateText } = await import("ai");
  const clock = new FakeClock();
  const installed = clock.install();
  try {
    const llm = FakeLLM.script(["Done."], {
      failTimes: 2,
      failWith: new RateLimitError("slow down", { retryAfterMs: 1_500 }),
    });
    const wall = wallNow();
    const start = Date.now();
    const result = await generateText({ model: aiSdkModel(llm), prompt: "Go." });
    assert.equal(result.text, "Done.");
    assert.equal(Date.now() - start, 3_000);
    assert.ok(wallNow() - wall < 1_000);
  } finally {
    installed[Symbol.dispose]();
  }
});

test("AI SDK: ScriptExhausted surfaces; verify() catches an unused turn", { skip: noAi }, async () => {
  const { generateText } = await import("ai");
  const llm = FakeLLM.script(["one"]);
  await generateText({ model: aiSdkModel(llm), prompt: "Go." });
  await assert.rejects(
    () => generateText({ model: aiSdkModel(llm), prompt: "Again." }),
    ScriptExhausted,
  );
  const unused = FakeLLM.script(["one", "two"]);
  await generateText({ model: aiSdkModel(unused), prompt: "Go." });
  assert.throws(() => unused.verify(), UnusedTurns);
});

test("OpenAI Agents: run() with a tool over FakeProvider.fetch, streamed", async () => {
  const { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } = await import(
    "@openai/agents"
  );
  const { default: OpenAI } = await import("openai");
  setTracingDisabled(true);
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] },
    { chunks: ["It ", "rains."] },
  ]);
  const provider = new FakeProvider({ llm });
  const agent = new Agent({
    name: "forecaster",
    model: new OpenAIChatCompletionsModel(
      new OpenAI({ apiKey: "sk-test", fetch: provider.fetch, maxRetries: 0 }),
      "gpt-4o-mini",
    ),
    tools: [tool({
      name: "weather",
      description: "The weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => `rain in ${city}`,
    })],
  });
  const stream = await run(agent, "Weather in Oslo?", { stream: true });
  for await (const _ of stream);
  await stream.completed;
  assert.equal(stream.finalOutput, "It rains.");
  provider.verify();
});
