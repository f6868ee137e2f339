import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { FakeClock } from "@agentkit/testing/testing";

Deno.test("FakeClock starts at start (default 0) and records each sleep", async () => {
  assertEquals(new FakeClock().now(), 0);
  const clock = new FakeClock({ start: 1_000 });
  await clock.sleep(250);
  await clock.sleep(0);
  assertEquals([clock.now(), clock.sleeps], [1_250, [250, 0]]);
});

Deno.test("FakeClock autoAdvance makes long waits cost no wall time", async () => {
  const clock = new FakeClock();
  const started = performance.now();
  for (let i = 0; i < 10; i++) await clock.sleep(30_000);
  assertEquals(clock.now(), 300_000);
  assert(performance.now() - started < 1_000);
});

Deno.test("FakeClock autoAdvance fires concurrent waits in deadline order", async () => {
  const clock = new FakeClock();
  const order: string[] = [];
  await Promise.all([
    clock.sleep(500).then(() => order.push(`tool@${clock.now()}`)),
    clock.sleep(150).then(() => order.push(`deadline@${clock.now()}`)),
    clock.sleep(300).then(() => order.push(`middle@${clock.now()}`)),
  ]);
  assertEquals(order, ["deadline@150", "middle@300", "tool@500"]);
});

Deno.test("FakeClock autoAdvance waits for tasks that are still busy before jumping", async () => {
  const clock = new FakeClock();
  const order: string[] = [];
  const slowStarter = async () => {
    // A few awaits of real (non-clock) work before this task asks for its short wait.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    await clock.sleep(100);
    order.push("short");
  };
  await Promise.all([clock.sleep(1_000).then(() => order.push("long")), slowStarter()]);
  assertEquals(order, ["short", "long"]);
});

Deno.test("FakeClock with autoAdvance false moves only through advance(), which records no sleep", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  let done = false;
  const p = clock.sleep(100).then(() => done = true);
  await Promise.resolve();
  assertEquals([done, clock.pending], [false, 1]);
  clock.advance(99);
  await Promise.resolve();
  assertEquals(done, false);
  clock.advance(1);
  await p;
  assertEquals([done, clock.now(), clock.sleeps], [true, 100, [100]]);
});

Deno.test("FakeClock.sleep and now are bound, so they can be passed around", async () => {
  const clock = new FakeClock();
  const { sleep, now } = clock;
  await sleep(42);
  assertEquals(now(), 42);
});

Deno.test("FakeClock.sleep rejects with the abort reason and drops its timer", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  const p = clock.sleep(1_000, controller.signal);
  controller.abort(new Error("cancelled"));
  await assertRejects(() => p, Error, "cancelled");
  assertEquals(clock.pending, 0);
  await assertRejects(() => clock.sleep(1, controller.signal), Error, "cancelled");
});

Deno.test("FakeClock rejects negative durations", async () => {
  const clock = new FakeClock();
  await assertRejects(() => clock.sleep(-1), RangeError);
  assertThrows(() => clock.advance(-1), RangeError);
});

Deno.test("FakeClock.install() drives Date, setTimeout, setInterval and performance.now, and disposal restores them", async () => {
  const realSetTimeout = globalThis.setTimeout;
  const realDate = globalThis.Date;
  const realNow = performance.now;
  const clock = new FakeClock({ start: Date.UTC(2026, 0, 1) });
  {
    using _installed = clock.install();
    assert(globalThis.setTimeout !== realSetTimeout);
    assertEquals(new Date().toISOString(), "2026-01-01T00:00:00.000Z");
    const before = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    assertEquals(new Date().toISOString(), "2026-01-01T00:01:00.000Z");
    assertEquals(performance.now() - before, 60_000);
    let ticks = 0;
    const id = setInterval(() => ticks++, 10);
    await clock.sleep(35);
    clearInterval(id);
    assertEquals(ticks, 3);
    assertThrows(() => clock.install(), TypeError, "twice");
  }
  assertEquals([globalThis.setTimeout, globalThis.Date, performance.now], [
    realSetTimeout,
    realDate,
    realNow,
  ]);
  assert(Date.now() > Date.UTC(2026, 0, 1) - 365 * 86_400_000, "the real Date is back");
});
