// ChaosClock: a wait counts as progress when it starts and again when it
// wakes (then the run checks its deadline), and once the run is stopped a
// wait fails at once with the run's error, without starting.
import { assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import { ChaosClock } from "../../../testing/chaos/_chaos_clock.ts";

function recorded(stopError: () => Error | undefined = () => undefined) {
  const log: string[] = [];
  const clock = new ChaosClock({
    tick: () => log.push(`tick@${clock.now()}`),
    stopError,
    moved: () => log.push(`moved@${clock.now()}`),
  });
  return { clock, log };
}

Deno.test("ChaosClock: a wait ticks as it starts, then ticks and reports the move as it wakes", async () => {
  const { clock, log } = recorded();
  await clock.sleep(1500);
  assertEquals(log, ["tick@0", "tick@1500", "moved@1500"]);
  // A 0 ms wait moves no time, yet it is the run doing something: it ticks.
  await clock.sleep(0);
  assertEquals(log.slice(3), ["tick@1500", "tick@1500", "moved@1500"]);
  assertEquals(clock.sleeps, [1500, 0]);
});

Deno.test("ChaosClock: a wait still pending has ticked once; it wakes with the time it waited for", async () => {
  const { clock, log } = recorded();
  const first = clock.sleep(500);
  const second = clock.sleep(200);
  assertEquals(log, ["tick@0", "tick@0"]);
  await Promise.all([first, second]);
  assertEquals(log.slice(2), ["tick@200", "moved@200", "tick@500", "moved@500"]);
});

Deno.test("ChaosClock: once the run is stopped, a wait fails with its error, neither ticking nor recorded", async () => {
  const run: { stopped?: Error } = {};
  const { clock, log } = recorded(() => run.stopped);
  await clock.sleep(10);
  run.stopped = new Error("the run is stopped");
  const error = await assertRejects(() => clock.sleep(1000));
  assertStrictEquals(error, run.stopped);
  assertEquals(log, ["tick@0", "tick@10", "moved@10"]);
  assertEquals([clock.sleeps, clock.now()], [[10], 10]);
});

Deno.test("ChaosClock: a wait the caller cancels rejects with the signal's reason and reports no wake", async () => {
  const { clock, log } = recorded();
  const controller = new AbortController();
  const wait = clock.sleep(60_000, controller.signal);
  controller.abort(new Error("cancelled"));
  await assertRejects(() => wait, Error, "cancelled");
  assertEquals(log, ["tick@0"]);
});
