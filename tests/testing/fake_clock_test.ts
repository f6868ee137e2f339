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
  const ownNow = () => Object.prototype.hasOwnProperty.call(performance, "now");
  const hadOwnNow = ownNow();
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
    const installedNow = performance.now;
    performance.now = () => -1; // code under test may stub it in turn
    assertEquals(performance.now(), -1);
    performance.now = installedNow;
  }
  assertEquals([globalThis.setTimeout, globalThis.Date, performance.now], [
    realSetTimeout,
    realDate,
    realNow,
  ]);
  assert(Date.now() > Date.UTC(2026, 0, 1) - 365 * 86_400_000, "the real Date is back");
  assertEquals(ownNow(), hadOwnNow, "no own performance.now is left where there was none");
});

Deno.test("FakeClock.next() fires the earliest pending timer, moving time to it, and says whether one fired", async () => {
  const clock = new FakeClock({ start: 50, autoAdvance: false });
  assertEquals([clock.next(), clock.now(), clock.pending], [false, 50, 0]);
  const fired: string[] = [];
  const late = clock.sleep(300).then(() => fired.push(`late@${clock.now()}`));
  const early = clock.sleep(100).then(() => fired.push(`early@${clock.now()}`));
  assertEquals(clock.pending, 2);
  assertEquals([clock.next(), clock.now(), clock.pending], [true, 150, 1]);
  await early;
  assertEquals(fired, ["early@150"]);
  assertEquals([clock.next(), clock.now(), clock.pending], [true, 350, 0]);
  await late;
  assertEquals(fired, ["early@150", "late@350"]);
  assertEquals([clock.next(), clock.now()], [false, 350]);
});

Deno.test("FakeClock.now() follows advance() from its start", () => {
  const clock = new FakeClock({ start: 1_000, autoAdvance: false });
  clock.advance(0);
  assertEquals(clock.now(), 1_000);
  clock.advance(234);
  assertEquals([clock.now(), clock.sleeps], [1_234, []]);
});

Deno.test("FakeClock reports autoAdvance and rejects a start or a wait that is not a number of ms", async () => {
  assertEquals([new FakeClock().autoAdvance, new FakeClock({ autoAdvance: false }).autoAdvance], [
    true,
    false,
  ]);
  for (const start of [NaN, Infinity, -Infinity]) {
    assertThrows(() => new FakeClock({ start }), RangeError, "start");
  }
  assertEquals(new FakeClock({ start: -5 }).now(), -5);
  const clock = new FakeClock();
  await assertRejects(() => clock.sleep(NaN), RangeError);
  assertThrows(() => clock.advance(NaN), RangeError);
  assertEquals(clock.sleeps, [], "a refused sleep is not recorded");
});

Deno.test("FakeClock.sleep() under a signal that never fires resolves, and an aborted signal still records the sleep", async () => {
  const clock = new FakeClock();
  const controller = new AbortController();
  await clock.sleep(10, controller.signal);
  controller.abort(new Error("late abort"));
  assertEquals(clock.now(), 10);
  await assertRejects(() => clock.sleep(5, controller.signal), Error, "late abort");
  assertEquals([clock.sleeps, clock.pending, clock.now()], [[10, 5], 0, 10]);
});

Deno.test("FakeClock.install(): a cleared timer never fires, setTimeout passes its arguments and defaults to 0 ms", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  using _installed = clock.install();
  const calls: unknown[] = [];
  const id = setTimeout(() => calls.push("cleared"), 100);
  clearTimeout(id);
  const interval = setInterval(() => calls.push("interval"), 100);
  clearInterval(interval);
  assertEquals(clock.pending, 0);
  clock.advance(1_000);
  assertEquals(calls, []);
  setTimeout((a: unknown, b: unknown) => calls.push([a, b]), undefined, "x", 2);
  assertEquals(clock.pending, 1);
  clock.advance(0);
  assertEquals([calls, clock.now()], [[["x", 2]], 1_000]);
  await Promise.resolve();
});

Deno.test("FakeClock.install(): performance.now starts at 0 and moves with virtual time", async () => {
  const clock = new FakeClock({ start: 5_000 });
  await clock.sleep(700);
  {
    using _installed = clock.install();
    assertEquals(performance.now(), 0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assertEquals([performance.now(), clock.now(), Date.now()], [1_500, 7_200, 7_200]);
  }
});

Deno.test("FakeClock.install(): disposing the handle or the clock restores every global, and it can install again", async () => {
  const g = globalThis as unknown as Record<string, unknown>;
  const names = ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"];
  const real = names.map((n) => g[n]);
  const hadOwnNow = Object.prototype.hasOwnProperty.call(performance, "now");
  const realNow = performance.now;
  const clock = new FakeClock({ autoAdvance: false });
  clock[Symbol.dispose](); // not installed: nothing to restore
  const handle = clock.install();
  for (const [i, n] of names.entries()) assert(g[n] !== real[i], `${n} is replaced`);
  assert(performance.now !== realNow);
  handle[Symbol.dispose]();
  handle[Symbol.dispose]();
  assertEquals(names.map((n) => g[n]), real);
  assertEquals(
    [performance.now, Object.prototype.hasOwnProperty.call(performance, "now")],
    [realNow, hadOwnNow],
  );
  const again = clock.install();
  clock[Symbol.dispose]();
  assertEquals(names.map((n) => g[n]), real);
  again[Symbol.dispose]();
  assert(performance.now() > 0, "the real performance.now is back");
  await Promise.resolve();
});

Deno.test("FakeClock.install(): an own performance.now (another stub) is put back as it was", () => {
  const stub = () => 42;
  Object.defineProperty(performance, "now", { value: stub, configurable: true, writable: true });
  try {
    const clock = new FakeClock({ autoAdvance: false });
    {
      using _installed = clock.install();
      assertEquals(performance.now(), 0);
    }
    assertEquals(performance.now, stub);
    assert(Object.prototype.hasOwnProperty.call(performance, "now"));
    const next = () => 7;
    performance.now = next; // still a writable stub, as it was
    assertEquals(performance.now(), 7);
  } finally {
    delete (performance as unknown as Record<string, unknown>).now;
  }
  assert(performance.now() !== 42);
});

Deno.test("FakeClock.install() with autoAdvance: an interval that is never cleared stops firing after 10,000 firings instead of spinning forever", async () => {
  // One auto-advance pass per macrotask: hop until two hops in a row see no
  // new firing (bounded, so a clock that never stops fails instead of hanging).
  const hop = () => new Promise((resolve) => setImmediate(resolve));
  const clock = new FakeClock();
  let ticks = 0;
  {
    using _installed = clock.install();
    const id = setInterval(() => ticks++, 1);
    let seen = -1;
    for (let hops = 0; ticks !== seen && hops < 100_000; hops++) {
      seen = ticks;
      await hop();
      await hop();
    }
    assertEquals([ticks, clock.now(), clock.pending], [10_000, 10_000, 1]);
    clearInterval(id);
  }
  await clock.sleep(5);
  assertEquals(clock.now(), 10_005, "a new sleep is served again");
});

Deno.test("FakeClock.sleep() and advance() take finite milliseconds, 0 or more, and say so", async () => {
  const clock = new FakeClock();
  for (
    const [ms, type] of [[Infinity, RangeError], [-Infinity, RangeError], [
      "10",
      TypeError,
    ]] as const
  ) {
    const e = await assertRejects(() => clock.sleep(ms as never), type);
    assertEquals(
      e.message,
      `FakeClock.sleep(): ms must be a finite number of milliseconds, 0 or more, got ${
        typeof ms === "string" ? `"${ms}"` : ms
      }`,
    );
    assertThrows(
      () => clock.advance(ms as never),
      type,
      "FakeClock.advance(): ms must be a finite",
    );
  }
  await assertRejects(() => clock.sleep(undefined as never), TypeError, "got undefined");
  await assertRejects(
    () => clock.sleep(1, 5 as never),
    TypeError,
    "the signal must be an AbortSignal, got 5",
  );
  // A refused wait is not recorded and moves no time.
  assertEquals([clock.sleeps, clock.now(), clock.pending], [[], 0, 0]);
  await clock.sleep(0);
  clock.advance(0);
  assertEquals(clock.sleeps, [0]);
});
