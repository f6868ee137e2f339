// A timer callback that throws under autoAdvance is reported as an uncaught
// error, as a real timer's is, and does not stop the clock. (A file of its
// own: the mutation harness counts any uncaught error as a failing test, so
// tools/mutation/targets.json leaves this file out.)
import { assert, assertEquals } from "@std/assert";
import { FakeClock } from "@agentkit/testing/testing";

Deno.test("FakeClock.install() with autoAdvance: an error thrown by a timer's callback is reported as uncaught, and later waits still fire", async () => {
  const clock = new FakeClock();
  const seen: unknown[] = [];
  const onError = (event: ErrorEvent) => {
    event.preventDefault();
    seen.push(event.error);
  };
  globalThis.addEventListener("error", onError);
  try {
    using _installed = clock.install();
    setTimeout(() => {
      throw new Error("boom in a timer");
    }, 10);
    await clock.sleep(50);
    assertEquals(clock.now(), 50);
    await clock.sleep(50);
    assertEquals(clock.now(), 100);
  } finally {
    globalThis.removeEventListener("error", onError);
  }
  assertEquals(seen.length, 1);
  assert(seen[0] instanceof Error && seen[0].message === "boom in a timer");
});
