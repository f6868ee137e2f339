// A script one turn short, under each stack's own retry policy (none of the
// clients is given maxRetries, so each keeps its default: LangChain's
// ChatOpenAI 6 retries with backoff, the AI SDK 2, the openai and Anthropic
// SDKs 2): the FakeProvider answers the exhausted script with a 400 that no
// client retries, so the run fails at its first try, with no backoff and no
// wall wait, and verify() rethrows the ScriptExhausted. No FakeClock is
// installed: a retry would wait in real time, and the request counts below
// would catch it.
import Anthropic from "@anthropic-ai/sdk";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { ChatOpenAI } from "@langchain/openai";
import { tool as lcTool } from "@langchain/core/tools";
import { Agent as OaAgent, run, setTracingDisabled, tool as oaTool } from "@openai/agents";
import { generateText, stepCountIs, tool as aiTool } from "ai";
import { createAgent } from "langchain";
import OpenAI from "openai";
import { z } from "zod";
import {
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, ScriptExhausted } from "@agentkit/testing/testing";

setTracingDisabled(true);

const SHORT = "has 1 turn(s), but the agent asked for turn 2";

// One tool call, then nothing: the agent's second turn runs the script out.
function oneTurnShort(): FakeLLM {
  return FakeLLM.script([{ toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] }]);
}

// What every stack must show: two requests (no retry), the client's error
// carrying the harness error's words, and verify() rethrowing it.
function assertFailedAtOnce(provider: FakeProvider, llm: FakeLLM, error: unknown): void {
  assertEquals(provider.requests.length, 2, "the client did not retry the exhausted turn");
  assertEquals(llm.calls, 2);
  assertStringIncludes(String((error as Error).message), "ScriptExhausted");
  assertStringIncludes(String((error as Error).message), SHORT);
  const thrown = assertThrows(() => provider.verify(), ScriptExhausted, SHORT);
  assertEquals([thrown.requested, thrown.retries], [2, 0]);
}

Deno.test("FakeProvider answers an exhausted script with a 400 no client retries, and x-should-retry: false", async () => {
  const llm = FakeLLM.script(["one"]);
  const provider = new FakeProvider({ llm });
  const post = () =>
    provider.fetch("https://api.openai.com/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
  assertEquals((await post()).status, 200);
  const res = await post();
  assertEquals(res.status, 400);
  assertEquals(res.headers.get("x-should-retry"), "false");
  const body = await res.json();
  assertStringIncludes(body.error.message, "ScriptExhausted: FakeLLM.script has 1 turn(s)");
  assertStringIncludes(body.error.message, "provider.verify() rethrows it");
  assertThrows(() => provider.verify(), ScriptExhausted);
});

Deno.test("LangChain createAgent with ChatOpenAI's default retries: a script one turn short fails at once", async () => {
  const llm = oneTurnShort();
  const provider = new FakeProvider({ llm });
  const weather = lcTool(({ city }: { city: string }) => `rain in ${city}`, {
    name: "weather",
    description: "The weather in a city",
    schema: z.object({ city: z.string() }),
  });
  const model = new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    configuration: { fetch: provider.fetch },
  });
  const agent = createAgent({ model, tools: [weather] });
  const error = await assertRejects(() =>
    agent.invoke({ messages: [{ role: "user", content: "Weather?" }] })
  );
  assertFailedAtOnce(provider, llm, error);
});

Deno.test("AI SDK generateText with its default maxRetries: a script one turn short fails at once", async () => {
  const llm = oneTurnShort();
  const provider = new FakeProvider({ llm });
  const google = createGoogleGenerativeAI({ apiKey: "AIza-test", fetch: provider.fetch });
  const error = await assertRejects(() =>
    generateText({
      model: google("gemini-2.5-flash"),
      prompt: "Weather?",
      tools: {
        weather: aiTool({
          description: "The weather in a city",
          inputSchema: z.object({ city: z.string() }),
          execute: ({ city }) => Promise.resolve(`rain in ${city}`),
        }),
      },
      stopWhen: stepCountIs(5),
    })
  );
  assertFailedAtOnce(provider, llm, error);
});

Deno.test("openai and Anthropic SDKs with their default maxRetries: the second call fails at once", async () => {
  for (const stack of ["openai", "anthropic"] as const) {
    const llm = FakeLLM.script(["one"]);
    const provider = new FakeProvider({ llm });
    const ask = (content: string) =>
      stack === "openai"
        ? new OpenAI({ apiKey: "sk-test", fetch: provider.fetch }).chat.completions.create({
          model: "gpt-4o-mini",
          messages: [{ role: "user", content }],
        })
        : new Anthropic({ apiKey: "sk-ant-test", fetch: provider.fetch }).messages.create({
          model: "claude-sonnet-5-5",
          max_tokens: 100,
          messages: [{ role: "user", content }],
        });
    await ask("first");
    const error = await assertRejects(() => ask("second"));
    assertEquals((error as { status?: number }).status, 400, stack);
    assertFailedAtOnce(provider, llm, error);
  }
});

Deno.test("OpenAI Agents run() with the openai client's default retries: a script one turn short fails at once", async () => {
  const llm = oneTurnShort();
  const provider = new FakeProvider({ llm });
  const agent = new OaAgent({
    name: "forecaster",
    instructions: "You answer questions about the weather.",
    model: "gpt-4o-mini",
    tools: [oaTool({
      name: "weather",
      description: "The weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => `rain in ${city}`,
    })],
  });
  const { OpenAIResponsesModel } = await import("@openai/agents");
  const model = new OpenAIResponsesModel(
    new OpenAI({ apiKey: "sk-test", fetch: provider.fetch }),
    "gpt-4o-mini",
  );
  const error = await assertRejects(() => run(agent.clone({ model }), "Weather?"));
  assertFailedAtOnce(provider, llm, error);
});

Deno.test("using provider: after a stack's 400, the dispose rethrows the ScriptExhausted over it", async () => {
  const llm = FakeLLM.script(["one"]);
  const error = await assertRejects(async () => {
    using provider = new FakeProvider({ llm });
    const client = new OpenAI({ apiKey: "sk-test", fetch: provider.fetch });
    const ask = (content: string) =>
      client.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content }],
      });
    await ask("first");
    await ask("second");
  });
  // The scope's error (the client's 400) is suppressed by the dispose's.
  assertInstanceOf(error, SuppressedError);
  assertInstanceOf(error.error, ScriptExhausted);
  assertEquals((error.suppressed as { status?: number }).status, 400);
});
