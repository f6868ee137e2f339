import { assert, assertEquals, assertInstanceOf } from "@std/assert";
import { NullCtx, SystemClock } from "@agentkit/testing/runtime";

Deno.test("NullCtx: tenant zero, never cancelled, a real clock, everything dropped", async () => {
  const ctx = new NullCtx();
  assertEquals(ctx.scope.key(), "org0:dom0");
  assertEquals(ctx.correlationId, "null");
  assert(!ctx.signal.aborted);
  ctx.checkCancelled();
  assertInstanceOf(ctx.clock, SystemClock);
  const emitted = ctx.emit("step", "ignored");
  assertInstanceOf(emitted, Promise);
  assertEquals(await emitted, undefined);
  ctx.trace.span("ignored", "internal").end();
});
