// OpenAI Agents JS, unchanged, against FakeProvider.fetch: run() with tools
// on both OpenAIResponsesModel (/v1/responses, the SDK's default) and
// OpenAIChatCompletionsModel (/v1/chat/completions), streamed and not. The
// frameworks are test-only imports, pinned in deno.json.
import {
  Agent,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  run,
  setTracingDisabled,
  tool,
} from "@openai/agents";
import OpenAI from "openai";
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

// Tracing would export spans to OpenAI; a test has nowhere to send them.
setTracingDisabled(true);

const wallNow = performance.now.bind(performance);

function client(provider: FakeProvider, maxRetries = 0): OpenAI {
  return new OpenAI({ apiKey: "sk-test", fetch: provider.fetch, maxRetries });
}

const weather = tool({
  name: "weather",
  description: "The weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `rain in ${city}`,
});

type ModelKind = "responses" | "chat completions";
const KINDS: readonly ModelKind[] = ["responses", "chat completions"];
const PATH: Record<ModelKind, string> = {
  "responses": "/v1/responses",
  "chat completions": "/v1/chat/completions",
};

function weatherAgent(provider: FakeProvider, kind: ModelKind, maxRetries = 0): Agent {
  const openai = client(provider, maxRetries);
  return new Agent({
    name: "forecaster",
    instructions: "You answer questions about the weather.",
    model: kind === "responses"
      ? new OpenAIResponsesModel(openai, "gpt-4o-mini")
      : new OpenAIChatCompletionsModel(openai, "gpt-4o-mini"),
    tools: [weather],
  });
}

for (const kind of KINDS) {
  Deno.test(`OpenAI Agents run() on the ${kind} model: a tool-calling agent`, async () => {
    using llm = FakeLLM.script([
      { toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] },
      { content: "It rains in Oslo." },
    ]);
    const provider = new FakeProvider({ llm });
    const result = await run(weatherAgent(provider, kind), "Weather in Oslo?");
    assertEquals(result.finalOutput, "It rains in Oslo.");
    assertEquals(provider.requests.map((r) => r.path), [PATH[kind], PATH[kind]]);
    assertEquals(llm.requests[0].messages[0], {
      role: "system",
      content: "You answer questions about the weather.",
    });
    assertEquals(llm.requests[0].tools.map((t) => t.name), ["weather"]);
    assertEquals(llm.requests[1].messages.at(-1), {
      role: "tool",
      content: "rain in Oslo",
      toolCallId: "call_1",
    });
  });

  Deno.test(`OpenAI Agents run(..., { stream: true }) on the ${kind} model`, async () => {
    using llm = FakeLLM.script([
      { toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] },
      { chunks: ["It ", "rains."] },
    ]);
    const provider = new FakeProvider({ llm });
    const stream = await run(weatherAgent(provider, kind), "Weather in Oslo?", { stream: true });
    const deltas: string[] = [];
    for await (const event of stream) {
      if (event.type === "raw_model_stream_event" && event.data.type === "output_text_delta") {
        deltas.push(event.data.delta);
      }
    }
    await stream.completed;
    assertEquals(deltas, ["It ", "rains."]);
    assertEquals(stream.finalOutput, "It rains.");
    assert(llm.requests.every((r) => r.streaming));
    assert(provider.requests.every((r) => r.stream && r.path === PATH[kind]));
  });

  Deno.test(`OpenAI Agents on the ${kind} model: the client retries a scripted 429 in virtual time`, async () => {
    const clock = new FakeClock();
    using _installed = clock.install();
    using llm = FakeLLM.script(["Sunny."], {
      failTimes: 2,
      failWith: new RateLimitError("slow down", { retryAfterMs: 1_500 }),
    });
    const provider = new FakeProvider({ llm });
    const wall = wallNow();
    const virtual = Date.now();
    const result = await run(weatherAgent(provider, kind, 2), "Weather?");
    assertEquals(result.finalOutput, "Sunny.");
    assertEquals(llm.calls, 3);
    assertEquals(Date.now() - virtual, 3_000); // the client honoured retry-after-ms twice
    assert(wallNow() - wall < 1_000, "and cost no wall time");
  });

  Deno.test(`OpenAI Agents on the ${kind} model: ScriptExhausted surfaces; verify() catches an unused turn`, async () => {
    const short = FakeLLM.script([{
      toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })],
    }]);
    const provider = new FakeProvider({ llm: short });
    const error = await assertRejects(() => run(weatherAgent(provider, kind), "Weather?"));
    assertStringIncludes((error as Error).message, "has 1 turn(s), but the agent asked for turn 2");
    assertThrows(() => provider.verify(), ScriptExhausted);

    const long = FakeLLM.script([
      { toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] },
      { content: "It rains." },
      { content: "a turn the agent never asks for" },
    ]);
    await run(weatherAgent(new FakeProvider({ llm: long }), kind), "Weather?");
    assertThrows(() => long.verify(), UnusedTurns, "has 3 turn(s), but the run used only 2");
  });
}
