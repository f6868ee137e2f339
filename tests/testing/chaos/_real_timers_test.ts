// The real timers chaos()'s watchdog reads are the ones the package saw at
// import, whatever a test installed over the globals since.
import { assert, assertEquals, assertNotStrictEquals } from "@std/assert";
import { FakeClock } from "@agentkit/testing/testing";
import { realClearTimeout, realNow, realSetTimeout } from "../../../testing/chaos/_real_timers.ts";

Deno.test("_real_timers: a timer set through it fires in real time under an installed FakeClock", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  using _installed = clock.install();
  assertNotStrictEquals(globalThis.setTimeout, realSetTimeout);
  const before = realNow();
  // The installed clock never moves (autoAdvance: false): only a real timer can wake this.
  await new Promise<void>((resolve) => realSetTimeout(resolve, 1));
  assert(realNow() > before, "the real clock moved");
  assertEquals([performance.now(), clock.now()], [0, 0]);
});

Deno.test("_real_timers: a cleared real timer never fires", async () => {
  let fired = false;
  const id = realSetTimeout(() => fired = true, 0);
  realClearTimeout(id);
  await new Promise<void>((resolve) => realSetTimeout(resolve, 5));
  assertEquals(fired, false);
});
