import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  type ChatMiddleware,
  type Cognition,
  type CognitionResult,
  Invoker,
  NullCtx,
  RequestBuilder,
  RunContext,
  Services,
  Session,
  UnmeteredBudget,
} from "@agentkit/testing/runtime";
import { Scope, type StreamEvent } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx, RecordingTracer } from "@agentkit/testing/testing";
import { isInternalError } from "../fuzz/_fuzz.ts";
import { z } from "zod";

Deno.test("Agent.run() composes system prompt, earlier context and the task, and returns an AgentResult", async () => {
  const llm = new FakeLLM("answer");
  const agent = new Agent("analyst", { model: "fake-model", system: "Be brief." });
  const context = [{ role: "user" as const, content: "earlier" }, {
    role: "assistant" as const,
    content: "reply",
  }];
  const r = await agent.run("now", makeTestCtx({ llm }), { context });
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Be brief." },
    ...context,
    { role: "user", content: "now" },
  ]);
  assertEquals(r.messages.at(-1), { role: "assistant", content: "answer", toolCalls: undefined });
  assertEquals([r.output, r.stopReason, r.usage], ["answer", "stop", {
    inputTokens: 10,
    outputTokens: 0,
  }]);
});

Deno.test("Agent.run() maps a length finish to stopReason length", async () => {
  const llm = FakeLLM.script([{ content: "cut", finishReason: "length" }]);
  assertEquals(
    (await new Agent("a", { model: "m" }).run("go", makeTestCtx({ llm }))).stopReason,
    "length",
  );
});

Deno.test("Agent rejects a missing model and a non-string task clearly", async () => {
  assertThrows(
    () => new Agent("a", {} as never),
    TypeError,
    'new Agent("a", { model: "fake-model" })',
  );
  assertThrows(
    () => new Agent("a", { model: "m", sytem: "Be brief." } as never),
    TypeError,
    'unknown option "sytem"; did you mean "system"?',
  );
  await assertRejects(
    () => new Agent("a", { model: "m" }).run(42 as never, makeTestCtx()),
    TypeError,
    "must be a string",
  );
});

Deno.test("Agent.run() checks cancellation before calling the model", async () => {
  const llm = new FakeLLM("x");
  const controller = new AbortController();
  controller.abort(new Error("user cancelled"));
  await assertRejects(
    () => new Agent("a", { model: "m" }).run("go", makeTestCtx({ llm, signal: controller.signal })),
    Error,
    "user cancelled",
  );
  assertEquals(llm.calls, 0);
});

Deno.test("Invoker runs chat middleware outermost first, around the model call", async () => {
  const order: string[] = [];
  const mw = (name: string): ChatMiddleware => ({
    name,
    async chat(req, ctx, next) {
      order.push(`${name}>`);
      const res = await next(req, ctx);
      order.push(`<${name}`);
      return res;
    },
  });
  const llm = new FakeLLM(() => (order.push("llm"), "ok"));
  await new Agent("a", { model: "m" }).run(
    "go",
    makeTestCtx({ llm, chatMiddleware: [mw("outer"), mw("inner")] }),
  );
  assertEquals(order, ["outer>", "inner>", "llm", "<inner", "<outer"]);
});

Deno.test("Invoker rejects a middleware factory passed uncalled", () => {
  assertThrows(
    () => new Invoker({ llm: new FakeLLM("x"), chatMiddleware: [(() => {}) as never] }),
    TypeError,
    "retry()",
  );
});

Deno.test("RunContext.emit() stamps observations with the clock's time; checkCancelled() throws once aborted", async () => {
  const seen: unknown[] = [];
  const controller = new AbortController();
  const ctx = makeTestCtx({
    observer: { emit: (o) => void seen.push(o), close() {} },
    signal: controller.signal,
  });
  await ctx.emit("step", "planning", { agent: "a", payload: { n: 1 } });
  assertEquals(seen, [{ kind: "step", text: "planning", agent: "a", payload: { n: 1 }, at: 0 }]);
  ctx.checkCancelled();
  controller.abort(new Error("stop"));
  assertThrows(() => ctx.checkCancelled(), Error, "stop");
});

Deno.test("RunContext.with() replaces fields and shares the rest", () => {
  const ctx = new RunContext({ services: new Services(), correlationId: "r1" });
  const other = ctx.with({ scope: new Scope({ orgId: 9 }) });
  assertEquals([other.scope.key(), other.correlationId, other.services === ctx.services], [
    "org9:dom0",
    "r1",
    true,
  ]);
  assertThrows(() => new RunContext({ autonomy: "yolo" as never }), TypeError, "autonomy");
});

Deno.test("new Services() is fully usable with no arguments", async () => {
  const ctx = new RunContext();
  ctx.trace.span("s", "internal").end();
  await ctx.emit("k", "t");
  await ctx.clock.sleep(0);
  assert(ctx.correlationId.startsWith("run-"));
  await new NullCtx().emit("k", "t");
});

// A cognition that streams `events`, then returns `returned`; `closed` counts
// the times its stream was closed (finished or stopped early).
function scripted(
  events: StreamEvent[],
  returned?: unknown,
  onClose: () => void = () => {},
): Cognition {
  return {
    name: "scripted",
    async *stream() {
      try {
        for (const e of events) yield e;
        return returned as CognitionResult;
      } finally {
        onClose();
      }
    },
  };
}

const said = (id: string, text: string): StreamEvent[] => [
  { type: "message_start", messageId: id },
  { type: "text_delta", messageId: id, content: text },
  {
    type: "message_end",
    messageId: id,
    finishReason: "stop",
    usage: { inputTokens: 1, outputTokens: 2 },
  },
];

Deno.test("new Agent() checks its name and options bag, and the ports it is given", () => {
  for (const name of ["", 5, undefined]) {
    assertThrows(() => new Agent(name as never, { model: "m" }), TypeError);
  }
  for (const options of [undefined, null]) {
    const e = assertThrows(() => new Agent("a", options as never), TypeError);
    assert(!isInternalError(e), e.message);
  }
  const bad = [{ builder: {} }, { builder: { build: 1 } }, { output: {} }, { hooks: 5 }, {
    cognition: {},
  }];
  for (const extra of bad) {
    assertThrows(() => new Agent("a", { model: "m", ...extra } as never), TypeError);
  }
});

Deno.test("new Agent() and agent.run() point a misplaced key to where it belongs", async () => {
  const where: Record<string, string> = {
    tools: "ReActCognition",
    tool: "ReActCognition",
    provider: "ReActCognition",
    maxIterations: "ReActCognition",
    llm: "makeTestCtx",
    budget: "makeTestCtx",
    chatMiddleware: "makeTestCtx",
  };
  for (const [key, place] of Object.entries(where)) {
    const e = assertThrows(() => new Agent("a", { model: "m", [key]: 1 } as never), TypeError);
    assert(e.message.includes(place), `${key}: ${e.message}`);
  }
  const agent = new Agent("a", { model: "m" });
  const e = await assertRejects(
    () => agent.run("x", makeTestCtx(), { budget: 1 } as never),
    TypeError,
  );
  assert(e.message.includes("makeTestCtx"), e.message);
  assertThrows(() => agent.start("x", makeTestCtx(), { budget: 1 } as never), TypeError);
  await assertRejects(() => agent.run("x", makeTestCtx(), { session: {} } as never), TypeError);
  const partial = { beginRun() {}, endRun() {}, run() {} };
  await assertRejects(
    () => agent.run("x", makeTestCtx(), { session: partial } as never),
    TypeError,
  );
});

Deno.test("Agent spans: one invoke_agent span per run, its model, stop reason, streaming flag, ended", async () => {
  const ended: string[] = [];
  const trace = new RecordingTracer({ exporter: (s) => void ended.push(s.name) });
  const agent = new Agent("analyst", { model: "fake-model" });
  const ctx = () => makeTestCtx({ llm: FakeLLM.script(["a", "b", "c"]), trace });
  await agent.run("x", ctx());
  await Array.fromAsync(agent.stream("x", ctx()));
  const [run, stream] = trace.named("invoke_agent");
  assertEquals([run.kind, run.attrs], ["client", {
    "gen_ai.agent.name": "analyst",
    "gen_ai.request.model": "fake-model",
    "agentkit.stop_reason": "stop",
  }]);
  assertEquals(stream.attrs.streaming, true);
  assertEquals(ended.filter((n) => n === "invoke_agent").length, 2);
});

Deno.test("Agent spans: a run that fails on an error event, or throws, records the error on its span", async () => {
  const trace = new RecordingTracer();
  const agent = new Agent("a", { model: "fake-model" });
  const failing = FakeLLM.script([{ error: "the model broke" }]);
  await assertRejects(() => agent.run("x", makeTestCtx({ llm: failing, trace })), Error, "broke");
  const throwing: Cognition = {
    name: "throws",
    stream() {
      throw new RangeError("no way");
    },
  };
  await assertRejects(
    () => new Agent("b", { model: "m", cognition: throwing }).run("x", makeTestCtx({ trace })),
    RangeError,
  );
  const spans = trace.named("invoke_agent");
  assertEquals(spans.map((s) => s.events.map((e) => e.name)), [["error"], ["error"]]);
});

Deno.test("Agent.stream(): a run that fails on an error event returns its result, unsaved and without afterRun", async () => {
  const after: unknown[] = [];
  const agent = new Agent("a", {
    model: "fake-model",
    hooks: { afterRun: [{ name: "after", afterRun: (r) => void after.push(r) }] },
  });
  const session = new Session("s1");
  const events = agent.stream("x", makeTestCtx({ llm: FakeLLM.script([{ error: "broke" }]) }), {
    session,
  });
  let step = await events.next();
  while (!step.done) step = await events.next();
  assertEquals([step.value.stopReason, session.transcript.length, after.length], ["error", 0, 0]);
});

Deno.test("Agent: a consumer that stops early closes the cognition's stream; a failing close is dropped unless fatal", async () => {
  let closed = 0;
  const agent = new Agent("a", {
    model: "m",
    cognition: scripted([...said("m1", "one"), ...said("m2", "two")], undefined, () => closed++),
  });
  for await (const e of agent.stream("x", makeTestCtx())) if (e.type === "text_delta") break;
  assertEquals(closed, 1);
  // A finished stream is not closed twice.
  await agent.run("x", makeTestCtx());
  assertEquals(closed, 2);
  const failingClose = (error: Error) =>
    new Agent("b", {
      model: "m",
      cognition: scripted(said("m", "x"), undefined, () => {
        throw error;
      }),
    });
  for await (const e of failingClose(new Error("cleanup")).stream("x", makeTestCtx())) {
    if (e.type === "text_delta") break;
  }
  await assertRejects(async () => {
    for await (const e of failingClose(new UnmeteredBudget()).stream("x", makeTestCtx())) {
      if (e.type === "text_delta") break;
    }
  }, UnmeteredBudget);
});

Deno.test("Agent: a cognition's returned result is the answer, unless a hook rewrote the stream", async () => {
  const returned: CognitionResult = {
    output: "returned",
    usage: { inputTokens: 5, outputTokens: 5 },
    messages: [{ role: "user", content: "x" }, { role: "assistant", content: "streamed" }],
    stopReason: "stop",
  };
  const plain = new Agent("a", {
    model: "m",
    cognition: scripted(said("m", "streamed"), returned),
  });
  assertEquals((await plain.run("x", makeTestCtx())).output, "returned");
  const seen: string[] = [];
  const watching = new Agent("b", {
    model: "m",
    cognition: scripted(said("m", "streamed"), returned),
    hooks: { onStreamEvent: [{ name: "watch", onStreamEvent: (e) => void seen.push(e.type) }] },
  });
  assertEquals((await watching.run("x", makeTestCtx())).output, "returned");
  assertEquals(seen, ["message_start", "text_delta", "message_end"]);
  const rewriting = new Agent("c", {
    model: "m",
    cognition: scripted(said("m", "streamed"), returned),
    hooks: {
      onStreamEvent: [{
        name: "upper",
        onStreamEvent: (e) =>
          e.type === "text_delta" ? [{ ...e, content: "REWRITTEN" }] : undefined,
      }],
    },
  });
  assertEquals((await rewriting.run("x", makeTestCtx())).output, "REWRITTEN");
});

Deno.test("Agent: a cognition's stream must return a CognitionResult or nothing", async () => {
  const good: CognitionResult = {
    output: "o",
    usage: { inputTokens: 0, outputTokens: 0 },
    messages: [],
    stopReason: "stop",
  };
  const bads = [
    null,
    "text",
    5,
    { ...good, output: 1 },
    { ...good, usage: null },
    { ...good, usage: 1 },
    { ...good, messages: {} },
    { ...good, stopReason: undefined },
    { output: "o" },
    Object.assign(() => {}, good),
  ];
  for (const bad of bads) {
    const agent = new Agent("a", { model: "m", cognition: { ...scripted([], bad), name: "odd" } });
    const e = await assertRejects(() => agent.run("x", makeTestCtx()), TypeError);
    assert(
      e.message.includes("odd") && !isInternalError(e),
      `${JSON.stringify(bad)}: ${e.message}`,
    );
  }
  const fine = new Agent("a", { model: "m", cognition: scripted([], good) });
  assertEquals((await fine.run("x", makeTestCtx())).output, "o");
});

Deno.test("Agent: a session of another tenant is refused before the run begins; its volatile cache is kept", async () => {
  const session = new Session("s", { scope: new Scope({ orgId: 1 }) });
  session.volatile.set("k", 1);
  const llm = new FakeLLM("x");
  await assertRejects(
    () =>
      new Agent("a", { model: "m" }).run(
        "go",
        makeTestCtx({ llm, scope: new Scope({ orgId: 2 }) }),
        {
          session,
        },
      ),
    TypeError,
  );
  assertEquals([session.volatile.get("k"), llm.calls], [1, 0]);
});

Deno.test("Agent: a session's transcript goes before the task, with no context given", async () => {
  const session = new Session("s");
  const llm = FakeLLM.script(["first", "second"]);
  const agent = new Agent("a", { model: "m" });
  await agent.run("one", makeTestCtx({ llm }), { session });
  await agent.run("two", makeTestCtx({ llm }), { session });
  assertEquals(llm.requests[1].messages, [
    { role: "user", content: "one" },
    { role: "assistant", content: "first" },
    { role: "user", content: "two" },
  ]);
});

Deno.test("Agent: a run halted with an empty reply streams no text", async () => {
  const agent = new Agent("a", {
    model: "m",
    hooks: { beforeRun: [{ name: "stop", beforeRun: () => ({ reply: "" }) }] },
  });
  const llm = new FakeLLM("x");
  const events = await Array.fromAsync(agent.stream("go", makeTestCtx({ llm })));
  assertEquals(events.map((e) => e.type), ["message_start", "message_end"]);
  assertEquals([(await agent.run("go", makeTestCtx({ llm }))).stopReason, llm.calls], [
    "halted",
    0,
  ]);
});

Deno.test("Agent with output: a consumer that stops during the second answer closes that stream too", async () => {
  let calls = 0;
  let closed = 0;
  const cognition: Cognition = {
    name: "twice",
    async *stream() {
      calls++;
      try {
        yield* said(`m${calls}`, calls === 1 ? "not json" : '{"n":1}');
      } finally {
        closed++;
      }
    },
  };
  const agent = new Agent("a", { model: "m", cognition, output: z.object({ n: z.number() }) });
  for await (const e of agent.stream("x", makeTestCtx())) {
    if (e.type === "text_delta" && e.messageId === "m2") break;
  }
  assertEquals([calls, closed], [2, 2]);
});

Deno.test("Agent: a RequestBuilder is taken as the builder; a bad ctx or session is the package's error, not a crash", async () => {
  const llm = new FakeLLM("ok");
  const agent = new Agent("a", { model: "m", builder: new RequestBuilder() });
  assertEquals((await agent.run("go", makeTestCtx({ llm }))).output, "ok");
  for (const ctx of [{}, null, { checkCancelled() {} }]) {
    const e = await assertRejects(() => agent.run("go", ctx as never), TypeError);
    assert(e.message.includes("ctx") && !isInternalError(e), e.message);
  }
  for (const session of [{}, { beginRun() {}, endRun() {}, run() {} }]) {
    const e = await assertRejects(
      () => agent.run("go", makeTestCtx({ llm }), { session } as never),
      TypeError,
    );
    assert(!isInternalError(e), e.message);
  }
});

Deno.test("Agent spans: a streamed run that ends on an error event records the error on its span", async () => {
  const trace = new RecordingTracer();
  const agent = new Agent("a", { model: "fake-model" });
  const ctx = makeTestCtx({ llm: FakeLLM.script([{ error: "the model broke" }]), trace });
  const events = await Array.fromAsync(agent.stream("x", ctx));
  assertEquals(events.at(-1)?.type, "error");
  assertEquals(trace.named("invoke_agent")[0].events.map((e) => e.name), ["error"]);
});

// agent.stream() is hand-written (runtime/agent.ts, AgentStream); these pin the
// async generator's contract it keeps.

function textAgent(hooks?: ConstructorParameters<typeof Agent>[1]["hooks"]): Agent {
  return new Agent("a", { model: "fake-model", hooks });
}

Deno.test("Agent.stream(): return() or throw() before the first step ends the run before it starts", async () => {
  const llm = FakeLLM.script([{ chunks: ["x"] }], { repeatLast: true });
  const tracer = new RecordingTracer();
  const ctx = makeTestCtx({ llm, trace: tracer });
  const returned = textAgent().stream("go", ctx);
  assertEquals(await returned.return(undefined as never), { done: true, value: undefined });
  assertEquals(await returned.next(), { done: true, value: undefined });
  const thrown = textAgent().stream("go", ctx);
  await assertRejects(() => thrown.throw(new Error("stop")), Error, "stop");
  assertEquals(await thrown.next(), { done: true, value: undefined });
  assertEquals([llm.calls, tracer.spans.length], [0, 0]);
});

Deno.test("Agent.stream(): return(), throw() and disposal mid-run close the run; it then answers done", async (t) => {
  const ways: Array<[string, (s: AsyncGenerator<StreamEvent, unknown>) => Promise<unknown>]> = [
    [
      "return()",
      async (s) => assertEquals(await s.return(undefined), { done: true, value: undefined }),
    ],
    [
      "throw()",
      (s) => assertRejects(() => s.throw(new Error("consumer gave up")), Error, "gave up"),
    ],
    ["asyncDispose", (s) => s[Symbol.asyncDispose]()],
  ];
  for (const [name, stop] of ways) {
    await t.step(name, async () => {
      const tracer = new RecordingTracer();
      const llm = FakeLLM.script([{ chunks: ["a", "b"] }]);
      const s = textAgent().stream("go", makeTestCtx({ llm, trace: tracer }));
      assertEquals((await s.next()).value, { type: "message_start", messageId: "fake-stream-1" });
      await stop(s);
      assertEquals(await s.next(), { done: true, value: undefined });
      const span = tracer.spans.find((sp) => sp.name === "invoke_agent")!;
      assert(span.ended);
      assertEquals(
        span.events.map((e) => e.attrs.message),
        name === "throw()" ? ["consumer gave up"] : [],
      );
      await assertRejects(() => s.throw(new Error("after")), Error, "after");
    });
  }
});

Deno.test("Agent.stream(): a finished run answers done, and its hooks ran once", async () => {
  let after = 0;
  const llm = FakeLLM.script([{ chunks: ["x"] }], { repeatLast: true });
  const s = textAgent({ afterRun: [{ afterRun: () => void after++ }] }).stream(
    "go",
    makeTestCtx({ llm }),
  );
  const types: string[] = [];
  for await (const e of s) types.push(e.type);
  assertEquals(types, ["message_start", "text_delta", "message_end"]);
  assertEquals(await s.next(), { done: true, value: undefined });
  assertEquals(await s.return(undefined as never), { done: true, value: undefined });
  assertEquals([after, llm.calls], [1, 1]);
});

Deno.test("Agent.stream(): calls made without waiting are served one at a time, in order", async () => {
  // An async beforeRun hook keeps the first step busy while the others are asked for.
  const llm = FakeLLM.script([{ chunks: ["a", "b"] }]);
  const s = textAgent({ beforeRun: [{ beforeRun: async () => {} }] }).stream(
    "go",
    makeTestCtx({ llm }),
  );
  const steps = await Promise.all([s.next(), s.next(), s.next(), s.next(), s.next(), s.next()]);
  assertEquals(steps.map((st) => st.done ? "done" : st.value.type), [
    "message_start",
    "text_delta",
    "text_delta",
    "message_end",
    "done",
    "done",
  ]);
  assertEquals((steps[4].value as { output: string }).output, "ab");
  assertEquals(await s.next(), { done: true, value: undefined });
});

// A cognition whose stream is a bare iterator: one event, then its result;
// it counts the calls to its return(), when it has one.
function bareCognition(withReturn: boolean, closed: { count: number }): Cognition {
  return {
    name: "bare",
    stream(input) {
      const events: StreamEvent[] = [
        { type: "message_start", messageId: "m" },
        { type: "text_delta", messageId: "m", content: "hi" },
      ];
      let i = 0;
      const result: CognitionResult = {
        output: "hi",
        usage: { inputTokens: 1, outputTokens: 1 },
        messages: [...input.messages, { role: "assistant", content: "hi" }],
        stopReason: "stop",
      };
      const it: AsyncIterator<StreamEvent, CognitionResult> = {
        next: () =>
          Promise.resolve(
            i < events.length ? { done: false, value: events[i++] } : { done: true, value: result },
          ),
      };
      if (withReturn) {
        it.return = () => {
          closed.count++;
          return Promise.resolve({ done: true, value: result });
        };
      }
      return { [Symbol.asyncIterator]: () => it };
    },
  };
}

Deno.test("Agent.stream(): return() mid-run on a cognition stream without return() still ends the run", async () => {
  const tracer = new RecordingTracer();
  const s = new Agent("a", { model: "m", cognition: bareCognition(false, { count: 0 }) }).stream(
    "go",
    makeTestCtx({ trace: tracer }),
  );
  assertEquals((await s.next()).value, { type: "message_start", messageId: "m" });
  assertEquals(await s.return(undefined as never), { done: true, value: undefined });
  assertEquals(await s.next(), { done: true, value: undefined });
  assert(tracer.spans.find((sp) => sp.name === "invoke_agent")!.ended);
});

Deno.test("Agent.run(): a failure after the cognition's stream ended does not close it again", async () => {
  const closed = { count: 0 };
  const agent = new Agent("a", {
    model: "m",
    cognition: bareCognition(true, closed),
    hooks: {
      afterRun: [{ name: "audit", afterRun: () => Promise.reject(new Error("audit down")) }],
    },
  });
  await assertRejects(() => agent.run("go", makeTestCtx()), Error, "audit down");
  assertEquals(closed.count, 0);
  // Stopped early, the same stream is closed once.
  const s = agent.stream("go", makeTestCtx());
  await s.next();
  await s.return(undefined as never);
  assertEquals(closed.count, 1);
});

Deno.test("Agent.run(): a failing run settles only after its cognition's stream is closed", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  let closed = false;
  const cognition: Cognition = {
    name: "slow-close",
    stream() {
      let first = true;
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => {
            if (!first) return Promise.reject(new Error("model broke"));
            first = false;
            return Promise.resolve({
              done: false as const,
              value: { type: "message_start" as const, messageId: "m" },
            });
          },
          return: async () => {
            await gate;
            closed = true;
            return { done: true as const, value: undefined };
          },
        }),
      };
    },
  };
  let settled = false;
  const run = new Agent("a", { model: "m", cognition }).run("go", makeTestCtx()).finally(() => {
    settled = true;
  });
  for (let i = 0; i < 20; i++) await Promise.resolve();
  assertEquals([settled, closed], [false, false]);
  release();
  await assertRejects(() => run, Error, "model broke");
  assertEquals(closed, true);
});

Deno.test("Agent.run(): a failure to end the agent's span is the run's, not recorded on the span", async () => {
  const tracer = new RecordingTracer({
    exporter: (span) => {
      if (span.name === "invoke_agent") throw new Error("exporter down");
    },
  });
  const ctx = makeTestCtx({ llm: new FakeLLM("ok"), trace: tracer });
  await assertRejects(() => new Agent("a", { model: "m" }).run("go", ctx), Error, "exporter down");
  const span = tracer.spans.find((s) => s.name === "invoke_agent")!;
  assertEquals([span.ended, span.events], [true, []]);
});

Deno.test("Agent: run, stream and start name themselves when their arguments are wrong", async () => {
  const agent = new Agent("a", { model: "m" });
  await assertRejects(() => agent.run("go", {} as never), TypeError, "agent.run()");
  await assertRejects(() => agent.stream("go", {} as never).next(), TypeError, "agent.stream()");
  assertThrows(() => agent.start("go", {} as never), TypeError, "agent.start()");
  // Options are checked when the run starts, as a rejection.
  await assertRejects(() => agent.run("go", makeTestCtx(), null as never), TypeError);
});

Deno.test("Agent.start(): a run cancelled without a reason names the agent", async () => {
  const llm = FakeLLM.script([{ chunks: ["thinking"], stall: true }]);
  const run = new Agent("planner", { model: "m" }).start("go", makeTestCtx({ llm }));
  run.cancel();
  await assertRejects(() => run.result, DOMException, 'run of agent "planner" was cancelled');
  await run.drained;
});

Deno.test("Agent: a cognition without a name is named anonymous when it yields a bad event", async () => {
  const cognition = {
    async *stream() {
      yield "Hel";
    },
  } as unknown as Cognition;
  await assertRejects(
    () => new Agent("a", { model: "m", cognition }).run("go", makeTestCtx()),
    Error,
    'cognition "anonymous" yielded "Hel"',
  );
});

Deno.test("Agent.run(): a builder that composes asynchronously is awaited", async () => {
  class SlowBuilder extends RequestBuilder {
    override async build(
      ...args: Parameters<RequestBuilder["build"]>
    ): ReturnType<RequestBuilder["build"]> {
      await Promise.resolve();
      return [...await super.build(...args), { role: "user", content: "and be quick" }];
    }
  }
  const llm = new FakeLLM("done");
  const agent = new Agent("a", { model: "m", builder: new SlowBuilder() });
  assertEquals((await agent.run("go", makeTestCtx({ llm }))).output, "done");
  assertEquals(llm.requests[0].messages.at(-1), { role: "user", content: "and be quick" });
});

Deno.test("Agent.stream(): calls made without waiting each wait for the step before, even one still in an async hook", async () => {
  const llm = FakeLLM.script([{ chunks: ["a", "b"] }]);
  const seen: string[] = [];
  // Each event's hook takes fewer turns than the one before: steps that ran
  // side by side would finish in reverse.
  let turns = 8;
  const s = textAgent({
    onStreamEvent: [{
      name: "slow",
      onStreamEvent: async (e) => {
        for (let i = turns--; i > 0; i--) await Promise.resolve();
        seen.push(e.type === "text_delta" ? e.content : e.type);
        return undefined;
      },
    }],
  }).stream("go", makeTestCtx({ llm }));
  const first = s.next();
  const second = s.next();
  // The first step is over and the second still in its hook: a call made
  // now waits for the second.
  await first;
  const rest = await Promise.all([second, s.next(), s.next(), s.next(), s.next()]);
  const steps = [await first, ...rest];
  const order = ["message_start", "a", "b", "message_end"];
  const shown = steps.map((st) =>
    st.done ? "done" : st.value.type === "text_delta" ? st.value.content : st.value.type
  );
  assertEquals(shown, [...order, "done", "done"]);
  assertEquals((steps[4].value as { output: string }).output, "ab");
  assertEquals(seen, order);
});

Deno.test("Agent.stream(): a next() asked for while return() or throw() is closing the run settles after it", async (t) => {
  for (const how of ["return", "throw"] as const) {
    await t.step(how, async () => {
      const llm = FakeLLM.script([{ chunks: ["a", "b"] }]);
      const s = textAgent().stream("go", makeTestCtx({ llm }));
      await s.next();
      const settled: string[] = [];
      const closing = how === "return"
        ? s.return(undefined as never)
        : s.throw(new Error("stop")).catch(() => ({ done: true, value: undefined }));
      const after = s.next();
      void closing.then(() => settled.push(how));
      void after.then(() => settled.push("next"));
      assertEquals(await after, { done: true, value: undefined });
      await closing;
      assertEquals(settled, [how, "next"]);
    });
  }
});

Deno.test("agent.run() checks each context message as a session does, naming the first bad one", async () => {
  const agent = new Agent("a", { model: "m" });
  const run = (context: unknown) =>
    agent.run("x", makeTestCtx({ llm: new FakeLLM("ok") }), { context } as never);
  const where = 'agent.run() of agent "a"';
  for (
    const [context, message] of [
      [5, `${where}: option "context" must be an array of messages ({ role, content }), got 5`],
      [
        { role: "user", content: "a" },
        `${where}: option "context" must be an array of messages ({ role, content }), got {"role":"user","content":"a"}`,
      ],
      [
        [{ role: "user", content: "a" }, "hi"],
        `${where}: context: message 2 is not a message object ({ role, content })`,
      ],
      [
        [{ role: "user", content: "a" }, { role: "user", content: "b" }, {
          role: "tool",
          content: 7,
        }],
        `${where}: context: message 3 has content 7; content must be a string ("" for a turn that only calls tools)`,
      ],
      [
        [{ role: "robot", content: "a" }],
        `${where}: context: message 1 has role "robot"; the roles are system, user, assistant, tool`,
      ],
    ] as const
  ) {
    const e = await assertRejects(() => run(context), TypeError);
    assertEquals(e.message, message);
  }
  // Good messages, every role among them, are the run's earlier turns.
  const context = [
    { role: "system", content: "s" },
    { role: "user", content: "u" },
    { role: "assistant", content: "" },
    { role: "user", content: "again" },
  ];
  const result = await run(context);
  assertEquals(result.messages.slice(0, 4), context);
  assertEquals((await run([])).messages[0], { role: "user", content: "x" });
});
