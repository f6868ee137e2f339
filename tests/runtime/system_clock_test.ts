import { assert, assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import { SystemClock } from "@agentkit/testing/runtime";
import { trackedSignal as tracked } from "../fixtures/tracked_signal.ts";

// The real clock is the one place a test may touch real timers: each wait
// here is a zero-length timer or an aborted one, never a delay.

Deno.test("SystemClock.now() is the wall clock", () => {
  const before = Date.now();
  const now = new SystemClock().now();
  assert(now >= before && now <= Date.now(), `${now}`);
});

Deno.test("SystemClock.sleep() resolves on a real timer and removes its abort listener", async () => {
  const clock = new SystemClock();
  assertEquals(await clock.sleep(0), undefined);
  const s = tracked();
  await clock.sleep(0, s.signal);
  assertEquals(s.live(), 0);
});

Deno.test("SystemClock.sleep() rejects with the reason on abort and clears its timer", async () => {
  // A timer left behind would fail this test under Deno's op sanitizer.
  const s = tracked();
  const sleeping = new SystemClock().sleep(60_000, s.signal);
  assertEquals(s.live(), 1);
  const reason = new Error("stop");
  s.controller.abort(reason);
  const err = await assertRejects(() => sleeping);
  assertStrictEquals(err, reason);
});

Deno.test("SystemClock.sleep() on an aborted signal rejects without a timer", async () => {
  const err = await assertRejects(() => new SystemClock().sleep(60_000, AbortSignal.abort("no")));
  assertEquals(err, "no");
});
