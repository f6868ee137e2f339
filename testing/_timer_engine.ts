// The FakeClock's timer engine, @sinonjs/fake-timers' standalone clock
// factory, loaded when the first clock first needs an engine.
import type FakeTimers from "@sinonjs/fake-timers";
import { syncImport } from "../runtime/internal.ts";

type Timers = ReturnType<typeof FakeTimers.withGlobal>;

/** What deno.json maps `@sinonjs/fake-timers` to (a test keeps the two the same). */
export const FAKE_TIMERS_SPECIFIER = "npm:@sinonjs/fake-timers@^15.0.0";

// The engine's globals as they were at import, before any install() (ours or
// another library's) replaced them: the engine's Date is built on this Date.
// No `process`: the engine's clocks need none of what withGlobal takes from
// it (hrtime, nextTick), and under Deno reading it starts the Node
// compatibility layer.
const REAL_GLOBALS: Record<string, unknown> = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: (globalThis as Record<string, unknown>).setImmediate,
  clearImmediate: (globalThis as Record<string, unknown>).clearImmediate,
  queueMicrotask: globalThis.queueMicrotask,
  Date: globalThis.Date,
  performance: globalThis.performance,
  Performance: (globalThis as Record<string, unknown>).Performance,
  Intl: globalThis.Intl,
  Promise: globalThis.Promise,
};

// `withGlobal` probes the timers and Date once, not per clock (that cost more
// than the rest of makeTestCtx together), and fake-timers itself is loaded
// only then: a test whose clock never waits never loads it (a cold start
// saved about 35 ms on Node 22, 30 ms under Deno; runtime/_lazy/sync_import.ts).
let timers: Timers | undefined;

/** The factory of engine clocks (`createClock`), built on first call. */
export function engineTimers(): Timers {
  return timers ??= syncImport<typeof FakeTimers>(
    FAKE_TIMERS_SPECIFIER,
    "FakeClock's timer engine",
  ).withGlobal(REAL_GLOBALS as unknown as typeof globalThis);
}

/**
 * fake-timers through a dynamic import. Nothing on the clock's path awaits
 * it; the literal `import()` is what keeps the package in Deno's module
 * graph, so a JSR install downloads it though nothing imports it statically.
 */
export function importTimerEngine(): Promise<{ default: typeof FakeTimers }> {
  return import("@sinonjs/fake-timers");
}
