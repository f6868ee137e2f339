import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import { NullCtx, RequestBuilder } from "@agentkit/testing/runtime";
import { type Ctx, Scope } from "@agentkit/testing/ports";
import { FakeClock, FakeCtx, FakeGrounder } from "@agentkit/testing/testing";

Deno.test("FakeCtx.spans records every span opened through ctx.trace", async () => {
  const ctx = new FakeCtx();
  const builder = new RequestBuilder({ grounder: new FakeGrounder(["a fact"]), version: "v7" });
  await builder.build({ name: "sre", model: "m", system: "hi" }, "task", ctx);
  assertEquals(ctx.spans.map((s) => [s.name, s.kind, s.ended]), [["compose", "compose", true]]);
  assertEquals(ctx.spans[0].attrs["agentkit.prompt.version"], "v7");
  assertEquals(ctx.spans[0].attrs["agentkit.grounding.count"], 1);
});

Deno.test("FakeCtx.observations records emits stamped with its clock", async () => {
  const clock = new FakeClock({ start: 1_000 });
  const ctx = new FakeCtx({ clock });
  await ctx.emit("step", "planning", { agent: "sre", payload: { n: 1 } });
  await clock.sleep(500);
  await ctx.emit("result", "done");
  assertEquals(ctx.observations, [
    { kind: "step", text: "planning", agent: "sre", payload: { n: 1 }, at: 1_000 },
    { kind: "result", text: "done", agent: undefined, payload: undefined, at: 1_500 },
  ]);
});

Deno.test("FakeCtx defaults: tenant zero, a FakeClock, a signal that never aborts", () => {
  const ctx = new FakeCtx();
  assertEquals([ctx.scope.key(), ctx.correlationId, ctx.signal.aborted], [
    "org0:dom0",
    "fake-ctx",
    false,
  ]);
  assertInstanceOf(ctx.clock, FakeClock);
  ctx.checkCancelled();
  const tenant = new FakeCtx({ scope: new Scope({ orgId: 7 }), correlationId: "run-9" });
  assertEquals([tenant.scope.key(), tenant.correlationId], ["org7:dom0", "run-9"]);
});

Deno.test("FakeCtx.checkCancelled() throws the abort reason once aborted", () => {
  const controller = new AbortController();
  const ctx = new FakeCtx({ signal: controller.signal });
  ctx.checkCancelled();
  const reason = new Error("stop");
  controller.abort(reason);
  assertStrictEquals(assertThrows(() => ctx.checkCancelled()), reason);
});

Deno.test("FakeCtx and NullCtx are interchangeable Ctx values; only FakeCtx records", async () => {
  const use = async (ctx: Ctx) => {
    ctx.trace.span("work", "internal").end();
    await ctx.emit("step", "x");
  };
  const fake = new FakeCtx();
  await use(fake);
  await use(new NullCtx());
  assert(fake.spans.length === 1 && fake.observations.length === 1);
});

Deno.test("new FakeCtx() names itself and says what a clock needs", () => {
  assertThrows(
    () => new FakeCtx({ clock: { now: () => 0 } as never }),
    TypeError,
    "new FakeCtx(): clock must be a clock, got an object with now without sleep()",
  );
});

Deno.test("FakeCtx.emit() refuses a kind or a text that is not a string", async () => {
  const ctx = new K.FakeCtx();
  await A.assertRejects(
    () => ctx.emit(5 as never, "x"),
    TypeError,
    "FakeCtx.emit(): the kind must be a string, got 5",
  );
  await A.assertRejects(
    () => ctx.emit("step", {} as never),
    TypeError,
    "the text must be a string, got {}",
  );
  A.assertEquals(ctx.observations, []);
});
