import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  Budget,
  CollectingObserver,
  InMemoryStore,
  Invoker,
  NoInvoker,
  NoopObserver,
  NoopTrace,
  RequestBuilder,
  retry,
  RunContext,
} from "@agentkit/testing/runtime";
import { Scope } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, makeTestCtx, RecordingTracer } from "@agentkit/testing/testing";

Deno.test("makeTestCtx() builds a real RunContext with real Services and a real Invoker", () => {
  const llm = new FakeLLM("ok");
  const ctx = makeTestCtx({ llm, chatMiddleware: [retry()] });
  assertInstanceOf(ctx, RunContext);
  assertInstanceOf(ctx.invoker, Invoker);
  assertEquals(ctx.invoker?.llm, llm);
  assertEquals(ctx.invoker?.chatMiddleware.map((m) => m.name), ["retry"]);
});

Deno.test("makeTestCtx() wires every knob", () => {
  const knobs = {
    scope: new Scope({ orgId: 7, domainId: 2 }),
    budget: new Budget({ maxCalls: 3 }),
    store: new InMemoryStore(),
    observer: new CollectingObserver(),
    trace: new RecordingTracer(),
    clock: new FakeClock({ start: 5 }),
    signal: new AbortController().signal,
    asker: { ask: () => Promise.resolve("yes") },
    vector: {
      upsert: () => Promise.resolve(),
      query: () => Promise.resolve([]),
      delete: () => Promise.resolve(false),
    },
    checkpointer: {
      save: () => Promise.resolve(),
      load: () => Promise.resolve(undefined),
      list: () => Promise.resolve([]),
    },
    meters: [],
    correlationId: "run-42",
    autonomy: "manual" as const,
  };
  const ctx = makeTestCtx(knobs);
  assertEquals(ctx.scope.key(), "org7:dom2");
  assertEquals([ctx.budget, ctx.store, ctx.observer, ctx.trace, ctx.clock, ctx.signal], [
    knobs.budget,
    knobs.store,
    knobs.observer,
    knobs.trace,
    knobs.clock,
    knobs.signal,
  ]);
  assertEquals([ctx.asker, ctx.vector, ctx.checkpointer], [
    knobs.asker,
    knobs.vector,
    knobs.checkpointer,
  ]);
  assertEquals([ctx.correlationId, ctx.autonomy, ctx.allMeters], ["run-42", "manual", [
    knobs.budget,
  ]]);
});

Deno.test("makeTestCtx() defaults: tenant zero, Noop observer and trace (never undefined), a FakeClock, no store", () => {
  const ctx = makeTestCtx();
  assertEquals(ctx.scope.key(), "org0:dom0");
  assertInstanceOf(ctx.observer, NoopObserver);
  assertInstanceOf(ctx.trace, NoopTrace);
  assertInstanceOf(ctx.clock, FakeClock);
  assertEquals([ctx.store, ctx.invoker, ctx.budget, ctx.autonomy, ctx.signal.aborted], [
    undefined,
    undefined,
    undefined,
    "auto",
    false,
  ]);
  ctx.trace.span("x", "internal").end();
});

Deno.test("makeTestCtx() rejects llm with invoker, and middleware with a built invoker", () => {
  const llm = new FakeLLM("x");
  assertThrows(
    () => makeTestCtx({ llm, invoker: new Invoker({ llm }) }),
    TypeError,
    "both llm and invoker",
  );
  assertThrows(
    () => makeTestCtx({ invoker: new Invoker({ llm }), chatMiddleware: [retry()] }),
    TypeError,
    "a built invoker",
  );
});

Deno.test("makeTestCtx() names a mistyped knob and the nearest valid one", () => {
  assertThrows(
    () => makeTestCtx({ chat_middleware: [] } as never),
    TypeError,
    'unknown option "chat_middleware"; did you mean "chatMiddleware"?',
  );
  assertThrows(
    () => makeTestCtx({ llM: new FakeLLM("x") } as never),
    TypeError,
    'did you mean "llm"?',
  );
});

Deno.test("makeTestCtx() with neither llm nor invoker: capability code works, running an agent fails with NoInvoker", async () => {
  const ctx = makeTestCtx();
  const messages = await new RequestBuilder().build(
    { name: "a", model: "m", system: "s" },
    "task",
    ctx,
  );
  assertEquals(messages.length, 2);
  const e = await assertRejects(
    () => new Agent("analyst", { model: "fake-model" }).run("go", ctx),
    NoInvoker,
  );
  assert(e.message.includes('"analyst"') && e.message.includes("pass llm"), e.message);
});

Deno.test("makeTestCtx({ invoker }) uses the invoker as built", async () => {
  const llm = new FakeLLM("from invoker");
  const ctx = makeTestCtx({ invoker: new Invoker({ llm }) });
  assertEquals(
    (await new Agent("a", { model: "fake-model" }).run("go", ctx)).output,
    "from invoker",
  );
  assertEquals(llm.calls, 1);
});

Deno.test("makeTestCtx() refuses model requests and names the run, unless told otherwise", () => {
  const ctx = makeTestCtx();
  assertEquals([ctx.allowModelRequests, ctx.correlationId], [false, "test-run"]);
  const open = makeTestCtx({ allowModelRequests: true, correlationId: "r-1" });
  assertEquals([open.allowModelRequests, open.correlationId], [true, "r-1"]);
  assertEquals(makeTestCtx({ allowModelRequests: false }).allowModelRequests, false);
  assertThrows(() => makeTestCtx({ llms: 1 } as never), TypeError, "makeTestCtx(): unknown option");
});

Deno.test("makeTestCtx({ toolMiddleware: [retry()] }) says retry() retries model calls, and how to retry a tool", () => {
  const e = assertThrows(
    () => makeTestCtx({ llm: new FakeLLM("x"), toolMiddleware: [retry()] as never }),
    TypeError,
    "makeTestCtx(): toolMiddleware[0] is retry(), which retries model calls: it is a chat middleware",
  );
  assert(e.message.includes("To retry a tool"), e.message);
});
