// A FakeClock.install() a test never disposes: Deno's sanitizers see nothing
// (no timer, no op), so the next install() or makeTestCtx() reports it, with
// the stack captured at install, and undoes it so later tests run on real time.
// The tests run in order: each leaks an install for the next to find.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { HarnessError } from "@agentkit/testing/runtime";
import { ClockLeftInstalled, FakeClock, makeTestCtx } from "@agentkit/testing/testing";

const realSetTimeout = globalThis.setTimeout;
const realDate = globalThis.Date;

function leakyHelper(): void {
  new FakeClock({ start: 0 }).install(); // never disposed
}

Deno.test("a test that leaks an install (the next test finds it)", () => {
  leakyHelper();
  assertEquals(Date.now(), 0);
});

Deno.test("makeTestCtx() reports the install an earlier test never disposed, where it was made, and undoes it", () => {
  assert(globalThis.Date !== realDate, "the leak is still in place here");
  const e = assertThrows(() => makeTestCtx(), ClockLeftInstalled);
  assertInstanceOf(e, HarnessError);
  assertEquals(e.name, "ClockLeftInstalled");
  assertStringIncludes(e.message, "was never disposed");
  assertStringIncludes(e.message, "makeTestCtx()");
  assertStringIncludes(e.message, "makeTestCtx({ clock })");
  assertStringIncludes(e.installedAt, "leakyHelper");
  assertStringIncludes(e.installedAt, "fake_clock_left_installed_test.ts:19");
  assertStringIncludes(e.message, e.installedAt);
  assertEquals([globalThis.setTimeout, globalThis.Date], [realSetTimeout, realDate]);
  assert(Date.now() > Date.UTC(2020, 0, 1), "real time is back");
  makeTestCtx(); // nothing left to report
});

Deno.test("another leak, for install() to find", () => {
  leakyHelper();
});

Deno.test("the next install() of another clock reports it and installs on the real globals", () => {
  const clock = new FakeClock({ start: 5 });
  const e = assertThrows(() => clock.install(), ClockLeftInstalled, "FakeClock.install()");
  assertStringIncludes(e.installedAt, "leakyHelper");
  assertEquals([globalThis.setTimeout, globalThis.Date], [realSetTimeout, realDate]);
  {
    using _installed = clock.install();
    assertEquals(Date.now(), 5);
  }
  assertEquals([globalThis.setTimeout, globalThis.Date], [realSetTimeout, realDate]);
});

Deno.test("an install in use is not a leak: its own clock, a clock passed to makeTestCtx, a disposed one", () => {
  const clock = new FakeClock();
  {
    using _installed = clock.install();
    makeTestCtx({ clock });
    makeTestCtx({ clock: new FakeClock() });
    const twice = assertThrows(
      () => clock.install(),
      TypeError,
      "Cannot install a FakeClock twice",
    );
    assertStringIncludes(twice.message, "fake_clock_left_installed_test.ts");
  }
  makeTestCtx();
  const handle = clock.install();
  handle[Symbol.dispose]();
  handle[Symbol.dispose](); // a second dispose does nothing
  new FakeClock().install()[Symbol.dispose]();
  makeTestCtx();
  assertEquals(globalThis.Date, realDate);
});
