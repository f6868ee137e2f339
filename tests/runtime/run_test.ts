import { assert, assertEquals, assertInstanceOf, assertRejects } from "@std/assert";
import {
  Agent,
  Budget,
  type Cognition,
  meter,
  ReActCognition,
  Run,
  type StreamChunk,
  UnhandledToolCalls,
} from "@agentkit/testing/runtime";
import { ProviderResponseError, type StreamEvent, toolCall } from "@agentkit/testing/ports";
import {
  drainChunks,
  drainEvents,
  FakeLLM,
  FakeTool,
  makeTestCtx,
} from "@agentkit/testing/testing";

const plain = new Agent("a", { model: "fake-model" });
const react = (tool: FakeTool, maxIterations = 10): Agent =>
  new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool], maxIterations }),
  });

// Lets every pending microtask and one macrotask run: no time passes.
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function collect(run: Run): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const c of run.events) out.push(c);
  return out;
}

Deno.test("Agent.start() returns a Run whose result is the run's, equal to agent.run()'s", async () => {
  const tool = new FakeTool({ name: "lookup", responder: "2026-08-01" });
  const script = () =>
    FakeLLM.script([
      {
        chunks: ["Let me look. "],
        toolCalls: [toolCall("c1", "lookup", {})],
        usage: { inputTokens: 100, outputTokens: 5 },
      },
      { chunks: ["It expired ", "on 2026-08-01."], usage: { inputTokens: 140, outputTokens: 9 } },
    ]);
  const run = react(tool).start("why?", makeTestCtx({ llm: script() }));
  assertInstanceOf(run, Run);
  const result = await run.result;
  assertEquals(result.output, "It expired on 2026-08-01.");
  assertEquals(result.usage, { inputTokens: 240, outputTokens: 14 });
  assertEquals(result.stopReason, "stop");
  assertEquals(result.messages, [
    { role: "user", content: "why?" },
    { role: "assistant", content: "Let me look. ", toolCalls: [toolCall("c1", "lookup", {})] },
    { role: "tool", content: "2026-08-01", toolCallId: "c1" },
    { role: "assistant", content: "It expired on 2026-08-01." },
  ]);
  assertEquals(run.isDone, true);
  // The same script through agent.run (blocking model calls) gives the same result.
  assertEquals(await react(tool).run("why?", makeTestCtx({ llm: script() })), result);
});

Deno.test("Agent.start() reports a run a beforeRun hook answered as halted", async () => {
  const llm = new FakeLLM("never asked");
  const agent = new Agent("a", {
    model: "fake-model",
    hooks: {
      beforeRun: [{ name: "closed", beforeRun: () => ({ reply: "closed for maintenance" }) }],
    },
  });
  const run = agent.start("go", makeTestCtx({ llm }));
  const result = await run.result;
  assertEquals([result.output, result.stopReason, llm.calls], [
    "closed for maintenance",
    "halted",
    0,
  ]);
});

Deno.test("Run.events is buffered: a late consumer and several consumers each see every event", async (t) => {
  await t.step("attaching after the run finished", async () => {
    const run = plain.start("go", makeTestCtx({ llm: FakeLLM.script([{ chunks: ["a", "b"] }]) }));
    await run.result;
    const types = (await collect(run)).map((c) => c.event.type);
    assertEquals(types, ["message_start", "text_delta", "text_delta", "message_end"]);
  });
  await t.step("two consumers, one attached mid-run", async () => {
    const gate = Promise.withResolvers<void>();
    const tool = new FakeTool({ name: "t", responder: "r" });
    const scripted = FakeLLM.script([
      { chunks: ["x"], toolCalls: [toolCall("c1", "t", {})] },
      { content: "y", gate: gate.promise },
    ]);
    const run = react(tool).start("go", makeTestCtx({ llm: scripted }));
    const early = collect(run);
    await turn(); // the first turn is streamed; the second waits on the gate
    assertEquals(run.isDone, false);
    const late = collect(run);
    gate.resolve();
    const [a, b] = await Promise.all([early, late]);
    assertEquals(a.length, 7);
    assertEquals(b, a);
  });
  await t.step("breaking out of one consumer does not cancel the run", async () => {
    const run = plain.start(
      "go",
      makeTestCtx({ llm: FakeLLM.script([{ chunks: ["a", "b", "c"] }]) }),
    );
    for await (const _ of run.events) break;
    assertEquals((await run.result).output, "abc");
    assertEquals((await collect(run)).length, 5);
  });
});

Deno.test("Run.events chunks project only text_delta into delta; the property always exists", async () => {
  const llm = FakeLLM.script([{ chunks: ["a", "b"], toolCalls: [toolCall("c1", "t", {})] }]);
  const run = plain.start("go", makeTestCtx({ llm }));
  const chunks: StreamChunk[] = [];
  // Tool calls on a single-shot agent fail the run (UnhandledToolCalls), after its events.
  await assertRejects(async () => {
    for await (const c of run.events) chunks.push(c);
  }, UnhandledToolCalls);
  assertEquals(
    chunks.map((c) => [c.event.type, "delta" in c, c.delta]),
    [
      ["message_start", true, undefined],
      ["text_delta", true, "a"],
      ["text_delta", true, "b"],
      ["tool_call", true, undefined],
      ["message_end", true, undefined],
    ],
  );
});

Deno.test("Run.result: a length-cut turn ends with stopReason length, dispatches nothing and is billed", async (t) => {
  await t.step("a truthful length with a partial tool call (error event)", async () => {
    const tool = new FakeTool({ name: "task", responder: "x" });
    const budget = new Budget();
    const llm = FakeLLM.script([{
      chunks: ["Spawning: "],
      toolCalls: [{ id: "c1", name: "task", args: {}, rawArgs: '{"prompt":"do the' }],
      finishReason: "length",
      error: "Hit max tokens",
      usage: { inputTokens: 198_000, outputTokens: 590 },
    }]);
    const run = react(tool).start("go", makeTestCtx({ llm, budget, chatMiddleware: [meter()] }));
    const result = await run.result;
    assertEquals([result.stopReason, result.output], ["length", "Spawning: "]);
    assertEquals(result.usage, { inputTokens: 198_000, outputTokens: 590 });
    assertEquals([tool.calls.length, llm.calls, budget.tokens], [0, 1, 198_590]);
    const last = (await drainEvents(run)).at(-1);
    assertEquals([last?.type, last?.type === "error" && last.finishReason], ["error", "length"]);
  });
  await t.step("a cut after chunks (failAfterChunks) with finishReason length", async () => {
    const tool = new FakeTool({ name: "task", responder: "x" });
    const llm = FakeLLM.script([{
      chunks: ["I will start by ", "reading the"],
      failAfterChunks: 2,
      toolCalls: [toolCall("c1", "task", {})],
      finishReason: "length",
      usage: { inputTokens: 10, outputTokens: 7 },
    }]);
    const result = await react(tool).start("go", makeTestCtx({ llm })).result;
    assertEquals([result.stopReason, result.output, tool.calls.length], [
      "length",
      "I will start by reading the",
      0,
    ]);
  });
  await t.step("message_end with finishReason length", async () => {
    const tool = new FakeTool({ name: "task", responder: "x" });
    const llm = FakeLLM.script([{
      content: "Spawning: ",
      toolCalls: [toolCall("c1", "task", {})],
      finishReason: "length",
    }]);
    const result = await react(tool).start("go", makeTestCtx({ llm })).result;
    assertEquals([result.stopReason, tool.calls.length], ["length", 0]);
  });
});

Deno.test("Run.result rejects with the error of a stream that ends on an error event, after billing it", async () => {
  const budget = new Budget();
  const llm = FakeLLM.script([{
    chunks: ["par"],
    failAfterChunks: 1,
    usage: { inputTokens: 100, outputTokens: 50 },
  }]);
  const run = plain.start("go", makeTestCtx({ llm, budget, chatMiddleware: [meter()] }));
  const error = await assertRejects(() => run.result, ProviderResponseError, "after 1 chunk");
  assertEquals([error.phase, error.retryable], ["mid_stream", false]);
  assertEquals([budget.calls, budget.spent()], [1, "0.002500"]);
  assertEquals((await drainEvents(run)).map((e) => e.type), [
    "message_start",
    "text_delta",
    "error",
  ]);
});

Deno.test("Run.result: a cognition that throws rejects result, and events end by throwing the same error", async () => {
  const boom = new Error("cognition broke");
  const cognition: Cognition = {
    name: "broken",
    run: () => Promise.reject(boom),
    async *stream(): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m" };
      throw boom;
    },
  };
  const run = new Agent("a", { model: "m", cognition }).start("go", makeTestCtx());
  assertEquals(await assertRejects(() => run.result), boom);
  const seen: string[] = [];
  const thrown = await assertRejects(async () => {
    for await (const c of run.events) seen.push(c.event.type);
  });
  assertEquals([thrown, seen], [boom, ["message_start"]]);
  assertEquals((await drainChunks(run)).length, 1);
});

Deno.test("Run.result is max_iterations when the last turn asked for tools no model call answered", async () => {
  const tool = new FakeTool({ name: "fetch", responder: "more" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "fetch", {})] }], { repeatLast: true });
  const result = await react(tool, 2).start("go", makeTestCtx({ llm })).result;
  assertEquals([result.stopReason, llm.calls, tool.calls.length], ["max_iterations", 2, 2]);
});

Deno.test("Run.cancel() reaches the provider, rejects result at once and ends the consumers", async (t) => {
  await t.step("a stalled stream", async () => {
    const llm = FakeLLM.script([{ chunks: ["thinking"], stall: true }]);
    const run = plain.start("go", makeTestCtx({ llm }));
    const consumer = collect(run);
    await turn();
    assertEquals(run.isDone, false);
    run.cancel();
    assertEquals([run.isDone, run.signal.aborted], [true, true]);
    const reason = await assertRejects(() => run.result, DOMException, "was cancelled");
    assertEquals(reason.name, "AbortError");
    await assertRejects(() => consumer, DOMException);
    await run.drained;
    assertEquals(llm.cancelled, ["fake-stream-1"]);
    assertEquals((await drainEvents(run)).map((e) => e.type), ["message_start", "text_delta"]);
  });
  await t.step("a gated call, with the caller's reason", async () => {
    const llm = FakeLLM.script([{ content: "never", gate: new Promise(() => {}) }]);
    const run = plain.start("go", makeTestCtx({ llm }));
    await turn();
    const why = new Error("user pressed stop");
    run.cancel(why);
    assertEquals(await assertRejects(() => run.result), why);
    await run.drained;
    assertEquals(llm.cancelled, ["fake-stream-1"]);
  });
  await t.step("cancel after the run finished does nothing", async () => {
    const run = plain.start("go", makeTestCtx({ llm: new FakeLLM("ok") }));
    await run.result;
    run.cancel();
    assertEquals([(await run.result).output, run.signal.aborted], ["ok", false]);
  });
});

Deno.test("Run is cancelled by the context's signal, linked by hand", async (t) => {
  await t.step("aborting mid-run", async () => {
    const controller = new AbortController();
    const llm = FakeLLM.script([{ chunks: ["..."], stall: true }]);
    const run = plain.start("go", makeTestCtx({ llm, signal: controller.signal }));
    await turn();
    controller.abort(new Error("shutting down"));
    await assertRejects(() => run.result, Error, "shutting down");
    await run.drained;
    assertEquals(llm.cancelled, ["fake-stream-1"]);
  });
  await t.step("already aborted: the model is never called", async () => {
    const controller = new AbortController();
    controller.abort(new Error("too late"));
    const llm = new FakeLLM("x");
    const run = plain.start("go", makeTestCtx({ llm, signal: controller.signal }));
    await assertRejects(() => run.result, Error, "too late");
    await run.drained;
    assertEquals(llm.calls, 0);
  });
  await t.step("the run's own cancel does not abort the caller's signal", async () => {
    const controller = new AbortController();
    const llm = FakeLLM.script([{ chunks: ["..."], stall: true }]);
    const run = plain.start("go", makeTestCtx({ llm, signal: controller.signal }));
    run.cancel();
    await run.drained;
    assertEquals([run.signal.aborted, controller.signal.aborted], [true, false]);
  });
});

Deno.test("Run.drained resolves after result on a cancelled run whose cognition is still winding down", async () => {
  // A cognition that, like a CLI child being killed, needs time to stop after
  // the abort, and tries to report one more event on its way out.
  const exited = Promise.withResolvers<void>();
  const cognition: Cognition = {
    name: "child-process",
    run: () => Promise.reject(new Error("stream only")),
    async *stream(_input, ctx): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m" };
      yield { type: "text_delta", messageId: "m", content: "working" };
      try {
        await new Promise((_, reject) => ctx.signal.addEventListener("abort", reject));
      } catch {
        await exited.promise;
        yield { type: "text_delta", messageId: "m", content: "stray" };
      }
    },
  };
  const run = new Agent("a", { model: "m", cognition }).start("go", makeTestCtx());
  let drained = false;
  run.drained.then(() => drained = true);
  await turn();
  run.cancel();
  await assertRejects(() => run.result, DOMException);
  await turn();
  assert(!drained, "drained must wait for the cognition to stop");
  exited.resolve();
  await run.drained;
  assertEquals(drained, true);
  // What it produced after the cancel went nowhere.
  assertEquals((await drainChunks(run)).map((c) => c.delta), [undefined, "working"]);
});

const said = (text: string): StreamEvent[] => [
  { type: "message_start", messageId: "m" },
  { type: "text_delta", messageId: "m", content: text },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { inputTokens: 1, outputTokens: 1 },
  },
];

Deno.test("new Run(): a producer that returns nothing settles with the result folded from its events", async () => {
  const run = new Run(async function* () {
    yield* said("folded");
  }, makeTestCtx());
  const result = await run.result;
  assertEquals([result.output, result.stopReason], ["folded", "stop"]);
  assertEquals(result.messages, [{ role: "assistant", content: "folded" }]);
});

Deno.test("new Run(): cancel() without a reason rejects with an AbortError naming the run; the parent's abort cancels it", async () => {
  const forever = async function* () {
    yield* said("one");
    await new Promise(() => {});
  };
  const named = new Run(forever, makeTestCtx(), { name: "nightly job" });
  await turn();
  named.cancel();
  const e = await assertRejects(() => named.result);
  assertInstanceOf(e, DOMException);
  assertEquals(e.name, "AbortError");
  assert(e.message.includes("nightly job"), e.message);
  const anonymous = new Run(forever, makeTestCtx());
  anonymous.cancel();
  const a = await assertRejects(() => anonymous.result);
  assert((a as Error).message.startsWith("run "), (a as Error).message);
  const parent = new AbortController();
  const child = new Run(forever, makeTestCtx({ signal: parent.signal }));
  const reason = new Error("parent stopped");
  parent.abort(reason);
  assertEquals(await assertRejects(() => child.result), reason);
  assertEquals(child.isDone, true);
});

Deno.test("Run.events: a consumer sees an event while the producer is still running; a closed cursor stays closed", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const run = new Run(async function* () {
    yield { type: "message_start", messageId: "m" } as StreamEvent;
    await gate;
    yield* said("late").slice(1);
  }, makeTestCtx());
  const cursor = run.events[Symbol.asyncIterator]();
  const first = await cursor.next();
  assertEquals([first.done, run.isDone], [false, false]);
  release();
  assertEquals(await cursor.return!(), { done: true, value: undefined });
  assertEquals((await cursor.next()).done, true);
  assertEquals((await run.result).output, "late");
});

Deno.test("Run: a producer cancelled between two events is closed, its finally run", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let closed = 0;
  const run = new Run(async function* () {
    try {
      yield { type: "message_start", messageId: "m" } as StreamEvent;
      await gate;
      yield* said("more").slice(1);
    } finally {
      closed++;
    }
  }, makeTestCtx());
  await turn();
  run.cancel(new Error("enough"));
  release();
  await run.drained;
  assertEquals(closed, 1);
  await assertRejects(() => run.result, Error, "enough");
});
