import * as A from "@std/assert";
import * as R from "@agentkit/testing/runtime";
import {
  assert,
  assertEquals,
  assertNotEquals,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import {
  Budget,
  InMemoryCheckpointStore,
  InMemoryStore,
  InMemoryVector,
  Invoker,
  NoInvoker,
  RunContext,
  Services,
} from "@agentkit/testing/runtime";
import { FakeEmbedder, FakeLLM } from "@agentkit/testing/testing";
import type { Meter } from "@agentkit/testing/runtime";

const meter = (name: string): Meter => ({ name, check() {}, charge() {} });

Deno.test("RunContext defaults: fresh services, a new correlation id per run, models allowed", () => {
  const a = new RunContext();
  const b = new RunContext();
  assert(/^run-\d+$/.test(a.correlationId), a.correlationId);
  assertEquals(Number(b.correlationId.slice(4)), Number(a.correlationId.slice(4)) + 1);
  assertEquals([a.autonomy, a.allowModelRequests, a.signal.aborted], ["auto", true, false]);
  assertEquals([a.meters, a.allMeters, a.budget], [[], [], undefined]);
  assertEquals(a.scope.key(), "org0:dom0");
  assertEquals(new RunContext({ allowModelRequests: false }).allowModelRequests, false);
  assertEquals(new RunContext({ correlationId: "req-7" }).correlationId, "req-7");
});

Deno.test("RunContext.allMeters: the budget first, then the meters", () => {
  const budget = new Budget({ maxCalls: 3 });
  const quota = meter("quota");
  assertEquals(new RunContext({ budget, meters: [quota] }).allMeters, [budget, quota]);
  assertEquals(new RunContext({ meters: [quota] }).allMeters, [quota]);
  assertEquals(new RunContext({ budget }).allMeters, [budget]);
});

Deno.test("RunContext hands out its services' adapters", () => {
  const store = new InMemoryStore();
  const vector = new InMemoryVector({ embedder: new FakeEmbedder() });
  const checkpointer = new InMemoryCheckpointStore();
  const invoker = new Invoker({ llm: new FakeLLM("x") });
  const services = new Services({ store, vector, checkpointer, invoker });
  const ctx = new RunContext({ services });
  assertStrictEquals(ctx.services, services);
  assertStrictEquals(ctx.store, store);
  assertStrictEquals(ctx.vector, vector);
  assertStrictEquals(ctx.checkpointer, checkpointer);
  assertStrictEquals(ctx.invoker, invoker);
  assertStrictEquals(ctx.observer, services.observer);
  assertStrictEquals(ctx.clock, services.clock);
  assertStrictEquals(ctx.trace, services.trace);
  assertStrictEquals(ctx.requireInvoker("a"), invoker);
});

Deno.test("RunContext.requireInvoker() without an invoker names the agent", () => {
  const ctx = new RunContext();
  assertEquals([ctx.invoker, ctx.store, ctx.vector, ctx.checkpointer], [
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  const e = assertThrows(() => ctx.requireInvoker("analyst"), NoInvoker);
  assert(e.message.includes('"analyst"'), e.message);
});

Deno.test("new RunContext() checks its options by name", () => {
  assertThrows(
    () => new RunContext({ autonomy: "sometimes" } as never),
    TypeError,
    "new RunContext():",
  );
  assertNotEquals(new RunContext().correlationId, new RunContext().correlationId);
});

Deno.test("RunContext.with() checks its overrides as the constructor does; emit() takes strings", async () => {
  const ctx = new R.RunContext();
  A.assertThrows(() => ctx.with(5 as never), TypeError, "ctx.with() takes an options object");
  A.assertThrows(
    () => ctx.with({ scop: ctx.scope } as never),
    TypeError,
    'ctx.with(): unknown option "scop"; did you mean "scope"?',
  );
  A.assertThrows(() => ctx.with({ correlationId: "" }), RangeError, 'option "correlationId"');
  await A.assertRejects(
    () => ctx.emit(5 as never, "x"),
    TypeError,
    'ctx.emit(): kind and text must be strings, got 5 and "x"',
  );
  await A.assertRejects(
    () => ctx.emit("step", 5 as never),
    TypeError,
    'ctx.emit(): kind and text must be strings, got "step" and 5',
  );
  A.assertEquals(ctx.with({ correlationId: "r2" }).correlationId, "r2");
});
