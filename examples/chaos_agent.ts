/**
 * Chaos finds an agent's bugs for you: a naive agent (no retry, no timeout,
 * trusting its tool's arguments) passes its happy-path test, and `chaos()`
 * breaks it three ways, each shrunk to the one fault that does it, with a
 * script that replays it; the fixed agent and an AI SDK agent run green.
 *
 * Run it: `deno run --allow-env --allow-sys=hostname examples/chaos_agent.ts`
 */
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import {
  Agent,
  chaos,
  ChaosFailure,
  type ChaosOutcome,
  type ChaosWorld,
  FakeLLM,
  FakeTool,
  type LLMPort,
  makeTestCtx,
  type Message,
  RateLimitError,
  ReActCognition,
  retry,
  type RunContext,
  timeout,
  toolCall,
  type ToolPort,
} from "@agentkit/testing";
import { assertEquals, assertRejects } from "@std/assert";

const PARAMETERS = {
  type: "object" as const,
  properties: { city: { type: "string" as const } },
  required: ["city"],
};
const forecast = new FakeTool({
  name: "forecast",
  parameters: PARAMETERS,
  responder: ({ city }: { city: string }) => `Rain in ${city.toUpperCase()}`,
});
const script = [{ toolCalls: [toolCall("c1", "forecast", { city: "Paris" })] }, "Rain in Paris."];

// --- the naive agent -----------------------------------------------------------

async function naive(llm: LLMPort, weather: ToolPort, ctx: RunContext): Promise<string> {
  const messages: Message[] = [{ role: "user", content: "Weather in Paris?" }];
  const tools = [{
    name: "forecast",
    description: "The weather in a city",
    parameters: PARAMETERS,
  }];
  for (;;) {
    const res = await llm.chat({ model: "fake-model", messages, tools }, ctx);
    messages.push({ role: "assistant", content: res.content, toolCalls: res.toolCalls });
    if (res.toolCalls.length === 0) return res.content;
    for (const call of res.toolCalls) {
      const city = (call.args.city as string).toUpperCase(); // trusts the model
      const content = String(await weather.call({ city }, ctx));
      messages.push({ role: "tool", content, toolCallId: call.id });
    }
  }
}

const happy = await naive(FakeLLM.script(script), forecast, makeTestCtx());
console.log("happy path:", happy);
// happy path: Rain in Paris.
assertEquals(happy, "Rain in Paris.");

const answers = (o: ChaosOutcome) => {
  if (o.status !== "returned") throw o.error;
};
const scenario = (world: ChaosWorld) => naive(world.llm, world.tool(forecast), world.ctx());
const found: string[] = [];
for (const kind of ["rateLimit", "stall", "invalidToolJson"] as const) {
  const failure = await assertRejects(
    () => chaos(scenario, { script, faults: [kind], seed: 1, invariants: { answers } }),
    ChaosFailure,
  );
  found.push(`${failure.invariant} <- ${failure.faults}`);
  console.log("chaos found:", found.at(-1));
}
// chaos found: answers <- call 1: rateLimit(retryAfterMs=1500)
// chaos found: terminates <- call 1: stall()
// chaos found: typedFailure <- call 1: invalidToolJson("forecast")
assertEquals(found, [
  "answers <- call 1: rateLimit(retryAfterMs=1500)",
  "terminates <- call 1: stall()",
  'typedFailure <- call 1: invalidToolJson("forecast")',
]);

// The first failure's reproduction, and the same failure replayed from it without chaos.
const first = await assertRejects(
  () => chaos(scenario, { script, faults: ["rateLimit"], seed: 1, invariants: { answers } }),
  ChaosFailure,
);
const line = first.reproduction.split("\n")[1].trim();
console.log("reproduction:", line);
// reproduction: { error: new RateLimitError("Rate limit reached for requests (chaos rateLimit)", { retryAfterMs: 1500 }) }, // call 1: rateLimit(retryAfterMs=1500)
assertEquals(
  line,
  '{ error: new RateLimitError("Rate limit reached for requests (chaos rateLimit)", { retryAfterMs: 1500 }) }, // call 1: rateLimit(retryAfterMs=1500)',
);
const replay = FakeLLM.script([
  {
    error: new RateLimitError("Rate limit reached for requests (chaos rateLimit)", {
      retryAfterMs: 1500,
    }),
  },
]);
await assertRejects(() => naive(replay, forecast, makeTestCtx()), RateLimitError);

// --- the fix: the runtime's loop, retry() and timeout() ----------------------

const fixed = (world: ChaosWorld) =>
  new Agent("weather", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [world.tool(forecast)] }),
  }).run(
    "Weather in Paris?",
    world.ctx({ chatMiddleware: [retry({ maxAttempts: 4 }), timeout({ ms: 20_000 })] }),
  );
const green = await chaos(fixed, {
  script,
  faults: ["rateLimit", "serverError", "timeout", "stall", "invalidToolJson", "toolError"],
  seed: 1,
  runs: 100,
  invariants: { answers },
});
console.log("fixed agent:", `${green.runs} runs, ${green.faultsInjected} faults, all answered`);
// fixed agent: 100 runs, 47 faults, all answered
assertEquals([green.runs, green.faultsInjected], [100, 47]); // the same seed, the same runs

// --- an AI SDK agent: no step timeout, then one ------------------------------

function sdkAgent(stepMs?: number) {
  return async (world: ChaosWorld): Promise<string> => {
    const weather = world.tool(forecast);
    const result = await generateText({
      model: world.aiSdkModel(),
      prompt: "Weather in Paris?",
      stopWhen: stepCountIs(5),
      ...(stepMs ? { timeout: { stepMs } } : {}),
      tools: {
        forecast: tool({
          inputSchema: jsonSchema<{ city: string }>(PARAMETERS),
          execute: (args) => weather.call(args, world.ctx()),
        }),
      },
    });
    return result.text;
  };
}
const hang = await assertRejects(
  () => chaos(sdkAgent(), { script, faults: ["stall"], seed: 1 }),
  ChaosFailure,
);
console.log("AI SDK agent:", `${hang.invariant} <- ${hang.faults}`);
// AI SDK agent: terminates <- call 1: stall()
assertEquals(hang.faults, "call 1: stall()");
const sdkGreen = await chaos(sdkAgent(10_000), {
  script,
  faults: ["stall", "rateLimit", "serverError"],
  seed: 1,
  runs: 40,
});
console.log("AI SDK agent, with timeout: { stepMs: 10_000 }:", `${sdkGreen.runs} runs green`);
// AI SDK agent, with timeout: { stepMs: 10_000 }: 40 runs green
assertEquals(sdkGreen.runs, 40);
