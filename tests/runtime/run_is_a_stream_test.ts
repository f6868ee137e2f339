// A run is a stream: agent.run() drains the stream agent.start() folds, so
// for any script both give the same AgentResult (tool messages, stop reason,
// usage) or fail with the same error; onStreamEvent hooks apply to both.
import { assertEquals } from "@std/assert";
import fc from "fast-check";
import {
  Agent,
  type AgentResult,
  ReActCognition,
  type StreamEventHook,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx, type Turn } from "@agentkit/testing/testing";

const WORDS = ["The cert ", "secret ", "expired", ".", ""];
const usage = fc.record({
  inputTokens: fc.integer({ min: 0, max: 500 }),
  outputTokens: fc.integer({ min: 0, max: 500 }),
});
const chunks = fc.array(fc.constantFrom(...WORDS), { maxLength: 3 });
const call = fc.record({
  id: fc.constantFrom("c1", "c2", "c3"),
  name: fc.constantFrom("lookup", "broken", "missing"),
  host: fc.constantFrom("a.example", "b.example"),
}).map(({ id, name, host }) => toolCall(id, name, { host }));

// Turns chat() and stream() both can play. A failing turn carries no text or
// calls: a blocking provider that fails returns none, a stream would.
const turn: fc.Arbitrary<Turn> = fc.oneof(
  fc.record({ chunks, usage }, { requiredKeys: ["chunks"] }),
  fc.record({
    chunks,
    toolCalls: fc.array(call, { minLength: 1, maxLength: 2 }),
    usage,
  }, { requiredKeys: ["toolCalls"] }),
  fc.record({
    chunks,
    finishReason: fc.constantFrom("length", "content_filter") as fc.Arbitrary<
      "length" | "content_filter"
    >,
  }),
  fc.record({
    error: fc.constant("Hit max tokens"),
    finishReason: fc.constant("length" as const),
    usage,
  }),
  fc.record({ error: fc.constant("upstream broke") }),
);

const redact: StreamEventHook = {
  name: "redact",
  onStreamEvent: (event) =>
    event.type === "text_delta" && event.content.includes("secret")
      ? [{ ...event, content: event.content.replaceAll("secret", "[redacted]") }]
      : undefined,
};

interface Case {
  readonly turns: Turn[];
  readonly react: boolean;
  readonly maxIterations: number;
  readonly hooked: boolean;
}

function agentFor(c: Case): Agent {
  const tools = [
    new FakeTool({
      name: "lookup",
      responder: ({ host }: { host: string }) => ({ host, ok: true }),
    }),
    new FakeTool({ name: "broken", responder: null, failWith: "the tool is down" }),
  ];
  return new Agent("a", {
    model: "fake-model",
    system: "Be brief.",
    ...(c.react
      ? { cognition: new ReActCognition({ tools, maxIterations: c.maxIterations }) }
      : {}),
    ...(c.hooked ? { hooks: { onStreamEvent: [redact] } } : {}),
  });
}

type Outcome = { result: AgentResult } | { error: string };

async function outcome(run: () => Promise<AgentResult>): Promise<Outcome> {
  try {
    return { result: await run() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

Deno.test("agent.run() and the fold of agent.start() give equal results for any script", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        turns: fc.array(turn, { minLength: 1, maxLength: 4 }),
        react: fc.boolean(),
        maxIterations: fc.integer({ min: 1, max: 4 }),
        hooked: fc.boolean(),
      }),
      async (c: Case) => {
        const script = () => FakeLLM.script(c.turns, { allowUnused: true });
        const blocking = await outcome(() =>
          agentFor(c).run("why?", makeTestCtx({ llm: script() }))
        );
        const streamed = await outcome(() =>
          agentFor(c).start("why?", makeTestCtx({ llm: script() })).result
        );
        assertEquals(streamed, blocking);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("an onStreamEvent hook applies to agent.run(): a redaction hook redacts its output and transcript", async () => {
  const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [redact] } });
  const llm = FakeLLM.script(["the secret is 42", { chunks: ["the secret ", "is 42"] }]);
  const ctx = makeTestCtx({ llm });
  const ran = await agent.run("tell me", ctx);
  const started = await agent.start("tell me", ctx).result;
  for (const r of [ran, started]) {
    assertEquals(r.output, "the [redacted] is 42");
    assertEquals(r.messages.at(-1)?.content, "the [redacted] is 42");
  }
});

Deno.test("agent.run() keeps the tool messages agent.stream() returns", async () => {
  const tool = new FakeTool({ name: "lookup", responder: "2026-08-01" });
  const agent = new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const turns = () =>
    FakeLLM.script([{ toolCalls: [toolCall("c1", "lookup", {})] }, "It expired on 2026-08-01."]);
  const events = agent.stream("why?", makeTestCtx({ llm: turns() }));
  let step = await events.next();
  while (!step.done) step = await events.next();
  const ran = await agent.run("why?", makeTestCtx({ llm: turns() }));
  assertEquals(step.value, ran);
  assertEquals(ran.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
  assertEquals(ran.stopReason, "stop");
});
