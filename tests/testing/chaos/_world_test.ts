// The world of one chaos run, taken on its own: how stop() and finish() end
// what is under way, what its ctx() and tool() accept, and the record the
// invariants read (the turns in call order, the faults, the harness errors,
// the progress the watchdog reads).
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import type { ToolPort } from "@agentkit/testing/ports";
import { FakeTool, InvalidScript, ScriptExhausted } from "@agentkit/testing/testing";
import { parseTurn, type Turn } from "../../../testing/llm/turn.ts";
import type { PlannedFault } from "../../../testing/chaos/_faults.ts";
import { ChaosStopped } from "../../../testing/chaos/_stopped.ts";
import { type RunSetup, World } from "../../../testing/chaos/_world.ts";

const ENDED =
  "chaos() stopped this run: it was still going after its scenario settled, and chaos() had moved on";

const world = (setup: Partial<RunSetup> = {}): World =>
  new World({
    run: 1,
    faults: [],
    turns: ["one", "two", "three"].map((t) => parseTurn(t, "the test script")),
    maxSteps: 20,
    maxVirtualMs: 300_000,
    ...setup,
  });
const fault = (kind: string, at: number, params: PlannedFault["params"] = {}): PlannedFault => ({
  kind,
  at,
  params,
});
const REQUEST = { model: "fake-model", messages: [{ role: "user" as const, content: "q" }] };
const lookup = () => new FakeTool({ name: "lookup", responder: "found" });

Deno.test("stop(): the signal aborts, a stall ends, and every later call and wait fails, naming the first reason", async () => {
  const w = world({ faults: [fault("stall", 1)] });
  const tool = lookup();
  const wrapped = w.tool(tool);
  // No signal on this call: only the run's stop can end the stall.
  const stalled = w.llm.chat(REQUEST);
  w.stop("made more than maxSteps (3) model calls");
  w.stop("ran past maxVirtualMs");
  const said = "chaos() stopped this run: it made more than maxSteps (3) model calls";
  assertEquals(w.stoppedBy, "made more than maxSteps (3) model calls");
  assert(w.signal.aborted);
  assertInstanceOf(w.signal.reason, ChaosStopped);
  assertEquals((w.signal.reason as ChaosStopped).message, said);
  await assertRejects(() => stalled, ChaosStopped, said);
  await assertRejects(() => w.llm.chat(REQUEST), ChaosStopped, said);
  await assertRejects(() => wrapped.call({}, w.ctx()), ChaosStopped, said);
  await assertRejects(() => w.clock.sleep(10), ChaosStopped, said);
  assertEquals([tool.calls, w.clock.sleeps], [[], []]);
  // The later call played no turn: the stall is the only one.
  assertEquals(w.outcome("stopped", undefined, undefined).turns.length, 1);
  // Stopped already: finish() has nothing more to end.
  assertEquals(w.finish(), false);
  assertEquals(w.stoppedBy, "made more than maxSteps (3) model calls");
});

Deno.test("stop() before any call: the record holds no turn", async () => {
  const w = world();
  w.stop("made no progress");
  await assertRejects(() => w.llm.chat(REQUEST), ChaosStopped);
  const outcome = w.outcome("stopped", undefined, undefined);
  assertEquals([outcome.turns, outcome.modelCalls], [[], 1]);
});

Deno.test("finish(): with nothing under way it ends nothing and says so, yet a call after it fails as late", async () => {
  const w = world();
  assertEquals((await w.llm.chat(REQUEST, w.ctx())).content, "one");
  const tool = lookup();
  assertEquals(await w.tool(tool).call({}, w.ctx()), "found");
  assertEquals(w.finish(), false);
  assertEquals([w.signal.aborted, w.stoppedBy], [false, undefined]);
  // A loop still going once chaos() moved on meets the end at its next step.
  await assertRejects(() => w.llm.chat(REQUEST), ChaosStopped, ENDED);
  await assertRejects(() => w.tool(tool).call({}, w.ctx()), ChaosStopped, ENDED);
  await assertRejects(() => w.clock.sleep(5), ChaosStopped, ENDED);
  assertEquals(tool.calls.length, 1);
  assertEquals(w.finish(), false);
  assertEquals(w.stoppedBy, undefined);
});

Deno.test("finish(): a model call still under way (a stall nobody cancelled) is ended through its signal", async () => {
  const w = world({ faults: [fault("stall", 1)] });
  const stalled = w.llm.chat(REQUEST, w.ctx());
  assertEquals(w.finish(), true);
  await assertRejects(() => stalled, ChaosStopped, ENDED);
  assertEquals((w.signal.reason as ChaosStopped).reason, ENDED.slice(ENDED.indexOf("was")));
  // Ended, not stopped: `terminates` does not count it against the run.
  assertEquals(w.stoppedBy, undefined);
  assertEquals(w.finish(), false);
});

Deno.test("finish(): a stall on a call made without a signal ends too (it waits on the run, not on a signal)", async () => {
  const w = world({ faults: [fault("stall", 1)] });
  const stalled = w.llm.chat(REQUEST);
  assertEquals(w.finish(), true);
  await assertRejects(() => stalled, ChaosStopped, ENDED);
});

Deno.test("finish() right after stop(), the stopped call not yet settled: the run counts as stopped, nothing more is ended", async () => {
  const w = world({ faults: [fault("stall", 1)] });
  const stalled = w.llm.chat(REQUEST, w.ctx());
  w.stop("made no progress");
  assertEquals(w.finish(), false);
  await assertRejects(() => stalled, ChaosStopped, "it made no progress");
  assertEquals((w.signal.reason as ChaosStopped).reason, "made no progress");
});

Deno.test("finish(): a failed or answered model call is no longer under way", async () => {
  const w = world({ faults: [fault("serverError", 1, { v: 0 })] });
  await assertRejects(() => w.llm.chat(REQUEST, w.ctx()));
  assertEquals((await w.llm.chat(REQUEST, w.ctx())).content, "one");
  assertEquals(w.finish(), false);
});

Deno.test("finish(): a tool call held by slowTool is under way until it answers", async () => {
  const held = world({ faults: [fault("slowTool", 1, { v: 1 })] });
  const tool = lookup();
  const late = held.tool(tool).call({}, held.ctx());
  assertEquals(held.finish(), true);
  await assertRejects(() => late, ChaosStopped, ENDED);
  assertEquals(tool.calls, []);

  const answered = world({ faults: [fault("slowTool", 1, { v: 1 })] });
  assertEquals(await answered.tool(tool).call({}, answered.ctx()), "found");
  assertEquals(answered.clock.now(), 5000);
  assertEquals(answered.finish(), false);
});

Deno.test("finish(): a tool call failed by toolError, before or after the tool ran, is no longer under way", async () => {
  for (const ranFirst of [false, true]) {
    const w = world({ faults: [fault("toolError", 1, { ranFirst })] });
    const tool = lookup();
    await assertRejects(
      () => w.tool(tool).call({}, w.ctx()),
      Error,
      ranFirst ? 'tool "lookup" ran, but its answer was lost' : 'tool "lookup" failed: the service',
    );
    assertEquals(tool.calls.length, ranFirst ? 1 : 0);
    assertEquals(w.finish(), false);
  }
});

Deno.test("toolError with ranFirst: the answer is lost however the tool itself ended", async () => {
  const failing: ToolPort = {
    name: "flaky",
    description: "",
    parameters: { type: "object" },
    call: () => {
      throw new RangeError("the tool's own failure");
    },
  };
  const w = world({ faults: [fault("toolError", 1, { ranFirst: true })] });
  await assertRejects(
    () => w.tool(failing).call({}, w.ctx()),
    Error,
    'tool "flaky" ran, but its answer was lost: the connection dropped (chaos toolError, tool call 1)',
  );
  assertEquals(w.outcome("threw", undefined, undefined).toolCalls.map((c) => c.ran), [true]);
});

Deno.test("slowTool holds a call made without a context too (a caller outside the runtime)", async () => {
  const w = world({ faults: [fault("slowTool", 1, { v: 2 })] });
  assertEquals(await w.tool(lookup()).call({}, undefined as never), "found");
  assertEquals(w.clock.now(), 120_000);
});

Deno.test("world.ctx() takes makeTestCtx's options object, and nothing else", () => {
  const w = world();
  for (
    const [bad, shown] of [[null, "null"], [5, "5"], ["fast", '"fast"'], [[], "an array ([])"]]
  ) {
    assertThrows(
      () => w.ctx(bad as never),
      TypeError,
      `world.ctx() takes an options object: makeTestCtx's options without llm, invoker and clock, or nothing; got ${shown}`,
    );
  }
});

Deno.test("world.ctx() refuses llm, invoker and clock, saying which of the world's parts it is wired to", () => {
  const w = world();
  const said = {
    llm: "world.ctx(): do not pass llm; the context is wired to the world's model (world.llm)",
    invoker:
      "world.ctx(): do not pass invoker; the context is wired to the world's model (world.llm)",
    clock:
      "world.ctx(): do not pass clock; the context is wired to the world's clock (world.clock)",
  };
  for (const [knob, message] of Object.entries(said)) {
    const e = assertThrows(() => w.ctx({ [knob]: {} } as never), TypeError);
    assertEquals(e.message, `${message}, which is what chaos() injects faults into`);
  }
});

Deno.test("world.ctx({ signal }): the context aborts with the caller's signal, and with the run's", () => {
  const w = world();
  const mine = new AbortController();
  const ctx = w.ctx({ signal: mine.signal });
  const other = w.ctx({ signal: new AbortController().signal });
  assertEquals([ctx.signal.aborted, other.signal.aborted], [false, false]);
  mine.abort(new Error("the caller's deadline"));
  assertEquals([ctx.signal.aborted, other.signal.aborted], [true, false]);
  w.stop("made no progress");
  assert(other.signal.aborted);
  assertInstanceOf(other.signal.reason, ChaosStopped);
});

Deno.test("world.tool(): the same wrapper for the same tool, and a wrapper is not wrapped again", async () => {
  const w = world();
  const tool = lookup();
  const wrapped = w.tool(tool);
  assertStrictEquals(w.tool(tool), wrapped);
  assertStrictEquals(w.tool(wrapped), wrapped);
  const other = lookup();
  assert(w.tool(other) !== wrapped);
  await w.tool(wrapped).call({}, w.ctx());
  // One call, counted once: a second wrapper would have made it two.
  assertEquals(w.outcome("returned", undefined, undefined).toolCalls.map((c) => c.n), [1]);
});

Deno.test("world.tool() refuses what is not a tool, saying what it got", () => {
  const w = world();
  for (
    const [bad, shown] of [
      [null, "null"],
      ["lookup", '"lookup"'],
      [{ name: "lookup" }, '{"name":"lookup"}'],
      [{ name: "lookup", call: "run" }, '{"name":"lookup","call":"run"}'],
      // A function has a call() of its own, and is still no tool.
      [function lookup() {}, "a function named lookup"],
    ] as const
  ) {
    const e = assertThrows(() => w.tool(bad as never), TypeError);
    assertEquals(
      e.message,
      `world.tool() takes a tool (a FakeTool, or any ToolPort with name and call), got ${shown}`,
    );
  }
});

Deno.test("outcome(): the turns in call order, fault turns included; a call that failed played none", async () => {
  let calls = 0;
  const w = world({
    turns: undefined,
    responder: () => {
      calls++;
      // Its second answer is call 3's: the fault answers call 2.
      if (calls === 2) throw new TypeError("the responder's own bug");
      return `answer ${calls}`;
    },
    faults: [fault("emptyAnswer", 2)],
  });
  assertEquals((await w.llm.chat(REQUEST)).content, "answer 1");
  assertEquals((await w.llm.chat(REQUEST)).content, "");
  await assertRejects(() => w.llm.chat(REQUEST), TypeError, "the responder's own bug");
  assertEquals((await w.llm.chat(REQUEST)).content, "answer 3");
  const o = w.outcome("returned", "answer 3", undefined);
  assertEquals(o.turns.map((t: Turn) => t.content), ["answer 1", "", "answer 3"]);
  assertEquals(o.modelCalls, 4);
  assertEquals(o.faults.map((f) => [f.target, f.at, f.label]), [[
    "model",
    2,
    "call 2: emptyAnswer()",
  ]]);
  // A plain error of the responder is the run's, not the harness's.
  assertEquals(w.harnessErrors, []);
});

Deno.test("outcome() is the run as it ended: what happens after it does not change it", async () => {
  const w = world({
    faults: [fault("emptyAnswer", 1), fault("toolError", 2, { ranFirst: false })],
  });
  await w.llm.chat(REQUEST);
  await w.tool(lookup()).call({}, w.ctx());
  const o = w.outcome("returned", undefined, undefined);
  const before = structuredClone({
    faults: o.faults,
    requests: o.requests.length,
    toolCalls: o.toolCalls.length,
  });
  await w.llm.chat(REQUEST);
  await assertRejects(() => w.tool(lookup()).call({}, w.ctx()));
  assertEquals(
    { faults: o.faults, requests: o.requests.length, toolCalls: o.toolCalls.length },
    before,
  );
  assertEquals(w.outcome("returned", undefined, undefined).faults.length, 2);
});

Deno.test("the script running out is the run's harness error, saying which turn was asked for", async () => {
  const w = world({ turns: [parseTurn("only", "the test script")] });
  await w.llm.chat(REQUEST);
  const e = await assertRejects(() => w.llm.chat(REQUEST), ScriptExhausted);
  assertEquals([e.scripted, e.requested], [1, 2]);
  assert(
    e.message.startsWith("chaos()'s script has 1 turn(s), but the agent asked for turn 2;"),
    e.message,
  );
  assertEquals(w.harnessErrors, [e]);
});

Deno.test("a responder's harness errors are recorded, so a run that swallows one is still caught", async (t) => {
  await t.step("an answer that is not a turn", async () => {
    const w = world({ turns: undefined, responder: () => 42 as never });
    const e = await assertRejects(() => w.llm.chat(REQUEST), InvalidScript);
    assert(e.message.includes("chaos(): the script responder's answer to call 1"), e.message);
    assertEquals(w.harnessErrors, [e]);
  });
  await t.step("thrown", async () => {
    const own = new ScriptExhausted("my responder", 2, 3);
    const w = world({
      turns: undefined,
      responder: () => {
        throw own;
      },
    });
    await assertRejects(() => w.llm.chat(REQUEST), ScriptExhausted);
    assertEquals(w.harnessErrors, [own]);
  });
  await t.step("rejected", async () => {
    const own = new ScriptExhausted("my responder", 2, 3);
    const w = world({ turns: undefined, responder: () => Promise.reject(own) });
    await assertRejects(() => w.llm.chat(REQUEST), ScriptExhausted);
    assertEquals(w.harnessErrors, [own]);
  });
  await t.step("an async answer that is not a turn", async () => {
    const w = world({ turns: undefined, responder: () => Promise.resolve({ nope: 1 } as never) });
    const e = await assertRejects(() => w.llm.chat(REQUEST), InvalidScript);
    assertEquals(w.harnessErrors, [e]);
  });
});

Deno.test("maxVirtualMs: a run may use all of it; past it, the next step stops the run", async () => {
  const w = world({ maxVirtualMs: 1000 });
  await w.clock.sleep(1000);
  assertEquals((await w.llm.chat(REQUEST)).content, "one");
  assertEquals(w.stoppedBy, undefined);
  await w.clock.sleep(1).catch(() => {});
  assertEquals(
    w.stoppedBy,
    "ran past maxVirtualMs (1000 ms of virtual time; the clock was at 1001 ms)",
  );
});

Deno.test("maxVirtualMs: time moved outside any wait (clock.advance) is caught at the next model call", async () => {
  const w = world({ maxVirtualMs: 1000 });
  w.clock.advance(2500);
  await assertRejects(
    () => w.llm.chat(REQUEST),
    ChaosStopped,
    "it ran past maxVirtualMs (1000 ms of virtual time; the clock was at 2500 ms)",
  );
});

Deno.test("maxSteps: the call past it stops the run; the calls up to it are answered", async () => {
  const w = world({ maxSteps: 2 });
  await w.llm.chat(REQUEST);
  await w.llm.chat(REQUEST);
  await assertRejects(
    () => w.llm.chat(REQUEST),
    ChaosStopped,
    "it made more than maxSteps (2) model calls",
  );
});

// The watchdog reads progress plus the clock's time, and only asks whether
// it changed: a step that lowered progress could cancel a move of the clock.
Deno.test("progress goes up as a model call starts, as its turn is chosen, and as it is billed", async () => {
  const marks: number[] = [];
  const w: World = world({
    turns: undefined,
    responder: () => {
      marks.push(w.progress);
      return "answer";
    },
  });
  marks.push(w.progress);
  await w.llm.chat(REQUEST);
  marks.push(w.progress);
  const [before, choosing, after] = marks;
  assert(choosing >= before + 2, `${before} -> ${choosing}: the call started, its turn was chosen`);
  assert(after > choosing, `${choosing} -> ${after}: the call was billed`);
});

Deno.test("progress goes up with every step: a model call, a tool call and run, and each wait", async () => {
  const w = world({ faults: [fault("slowTool", 1, { v: 1 })] });
  const marks = [w.progress];
  const mark = () => {
    assert(w.progress > marks.at(-1)!, `progress went from ${marks.at(-1)} to ${w.progress}`);
    marks.push(w.progress);
  };
  await w.llm.chat(REQUEST);
  mark();
  await w.tool(lookup()).call({}, w.ctx());
  mark();
  await w.tool(lookup()).call({}, w.ctx());
  mark();
  // A wait that moves no time still counts.
  await w.clock.sleep(0);
  mark();
  for await (const _ of w.llm.stream(REQUEST)) { /* drained */ }
  mark();
});
