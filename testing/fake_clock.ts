/**
 * The clock double, on `@sinonjs/fake-timers`' standalone clock.
 *
 * @module
 */
import type { ClockPort } from "../ports/clock.ts";
import { checkOptions, describe, is, type Rule } from "../runtime/internal.ts";
import { engineTimers } from "./_timer_engine.ts";
import { ClockLeftInstalled } from "./errors.ts";

/** Options for {@linkcode FakeClock}. */
export interface FakeClockOptions {
  /**
   * The virtual time `now()` starts at (ms).
   * @default {0}
   */
  readonly start?: number;
  /**
   * Jump to the next pending timer as soon as every task is waiting on the
   * clock, so waits cost no wall time and concurrent waits fire in deadline
   * order. A task is waiting once no promise work is left to run (checked a
   * macrotask later, so an in-process fetch of many promise turns is not
   * mistaken for a wait); a task waiting on real I/O (a socket, a file) is
   * not seen. With `false`, time moves only through `advance()`.
   * @default {true}
   */
  readonly autoAdvance?: boolean;
}

// "Every task is waiting on the clock" is decided one macrotask later: a
// macrotask runs only once the microtask queue is empty, however many promise
// turns the work in it took (an in-process fetch round trip by an SDK, its
// bodies read through streams: well over a hundred turns). Counting turns
// instead jumped time under a request still in flight, and the client's own
// timeout fired on a call that had succeeded. setImmediate (Deno and Node)
// costs a few microseconds a hop where a nested setTimeout(0) is clamped to
// milliseconds, and is no timer to Deno's sanitizers; it is taken at import,
// before any install().
// What waits on a real operation (a socket, a file, WebCrypto) is not seen:
// time may jump under it, as it would under any other wait off the clock.
const MACROTASK: (fn: () => void) => void = macrotask();
// An interval under autoAdvance would fire forever; stop after this many
// consecutive firings with no new sleep in between.
const MAX_CHAINED_FIRINGS = 10_000;
const CLOCK_OPTIONS: Readonly<Record<string, Rule>> = {
  start: is.number(),
  autoAdvance: is.boolean,
};

// deno-lint-ignore no-explicit-any
type EngineClock = any;

/**
 * Virtual time. `sleep(ms)` records `ms` in `.sleeps` and waits on a virtual
 * timer; with `autoAdvance` (the default) time jumps to the earliest pending
 * timer once every task is waiting, so a 30 s backoff costs nothing and a
 * 150 ms deadline beats a 500 ms tool. `advance(ms)` moves time without
 * recording a sleep. `sleep` and `now` are bound, so they can be passed
 * around (`retry({ sleep: clock.sleep })`).
 *
 * @example Backoffs cost no wall time
 * ```ts
 * import { FakeClock } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const clock = new FakeClock();
 * await clock.sleep(30_000);
 * await clock.sleep(30_000);
 * assertEquals([clock.now(), clock.sleeps], [60_000, [30_000, 30_000]]);
 * ```
 *
 * @example Concurrent waits fire in deadline order
 * ```ts
 * import { FakeClock } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const clock = new FakeClock();
 * const winner = await Promise.race([
 *   clock.sleep(500).then(() => "tool"),
 *   clock.sleep(150).then(() => "deadline"),
 * ]);
 * assertEquals([winner, clock.now()], ["deadline", 150]);
 * ```
 */
export class FakeClock implements ClockPort, Disposable {
  /** Every `sleep(ms)` requested, in order. */
  readonly sleeps: number[] = [];
  /** Whether time jumps by itself. */
  readonly autoAdvance: boolean;
  readonly #start: number;
  #built?: EngineClock;
  #scheduled = false;
  #chained = 0;
  #install?: ActiveInstall;

  /**
   * Time starts at `start` (0) and moves only in virtual steps: a sleep advances it (with `autoAdvance`, the default) or a test does.
   *
   * @param options Start time and auto-advance.
   */
  constructor(options: FakeClockOptions = {}) {
    checkOptions("new FakeClock()", options, CLOCK_OPTIONS);
    const start = options.start ?? 0;
    this.autoAdvance = options.autoAdvance ?? true;
    this.#start = start;
  }

  // The timer engine is built on first use: a test that never waits never
  // pays for it (it is most of what a FakeClock costs).
  get #engine(): EngineClock {
    return this.#built ??= engineTimers().createClock(this.#start, MAX_CHAINED_FIRINGS);
  }

  /** The virtual time (ms). */
  now = (): number => this.#built ? this.#built.now : this.#start;

  /**
   * Waits `ms` of virtual time: a finite number of milliseconds, 0 or more
   * (`Infinity` would never wake, `"10"` is a string). Rejects with
   * `signal.reason` on abort (and drops the timer); `signal` is an
   * `AbortSignal` when given.
   */
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    const problem = durationProblem("FakeClock.sleep()", ms) ??
      (signal === undefined || signal instanceof AbortSignal ? undefined : new TypeError(
        `FakeClock.sleep(): the signal must be an AbortSignal, got ${describe(signal)}`,
      ));
    if (problem) return Promise.reject(problem);
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#chained = 0;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#engine.clearTimeout(id);
        reject(signal!.reason);
      };
      const id = this.#engine.setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#kick();
    });
  };

  /**
   * Moves time forward by `ms`, firing every timer that falls due, without
   * recording a sleep (time that passed outside the code under test).
   * @param ms How far: a finite number of milliseconds, 0 or more.
   * @throws {TypeError} When `ms` is not a number.
   * @throws {RangeError} When `ms` is negative, NaN or infinite.
   */
  advance(ms: number): void {
    const problem = durationProblem("FakeClock.advance()", ms);
    if (problem) throw problem;
    this.#engine.tick(ms);
  }

  /**
   * Fires the earliest pending timer now, moving time to it.
   * @returns Whether a timer fired.
   */
  next(): boolean {
    if (this.#engine.countTimers() === 0) return false;
    this.#engine.next();
    return true;
  }

  /** How many timers are pending. */
  get pending(): number {
    return this.#engine.countTimers();
  }

  /**
   * Drives the global `Date`, `setTimeout`, `clearTimeout`, `setInterval`,
   * `clearInterval` and `performance.now` from this clock's virtual time, so
   * third-party code that uses timers itself runs in virtual time too (and
   * `autoAdvance` fires its timers). Dispose the result to restore them.
   *
   * @returns A handle that restores the globals.
   * @throws {TypeError} When this clock is already installed.
   *
   * @example
   * ```ts
   * import { FakeClock } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const clock = new FakeClock({ start: Date.UTC(2026, 0, 1) });
   * {
   *   using _installed = clock.install();
   *   await new Promise((resolve) => setTimeout(resolve, 60_000));
   *   assertEquals(new Date().toISOString(), "2026-01-01T00:01:00.000Z");
   * }
   * assertEquals(new Date().getUTCFullYear() >= 2026, true);
   * ```
   */
  install(): Disposable {
    const at = installSite(new Error().stack);
    if (this.#install) {
      throw new TypeError(
        `Cannot install a FakeClock twice: dispose the first install() first (\`using _installed = clock.install();\` disposes it at scope exit). The first was installed at:\n    ${this.#install.at}`,
      );
    }
    reportLeftInstall("FakeClock.install()", this);
    const g = globalThis as unknown as Record<string, unknown>;
    const saved = {
      setTimeout: g.setTimeout,
      clearTimeout: g.clearTimeout,
      setInterval: g.setInterval,
      clearInterval: g.clearInterval,
      Date: g.Date,
    };
    const perf = globalThis.performance;
    const hadOwnNow = Object.prototype.hasOwnProperty.call(perf, "now");
    const savedNow = perf.now;
    const engine = this.#engine;
    g.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const id = engine.setTimeout(fn, ms ?? 0, ...args);
      this.#kick();
      return id;
    };
    g.setInterval = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const id = engine.setInterval(fn, ms ?? 0, ...args);
      this.#kick();
      return id;
    };
    g.clearTimeout = (id: unknown) => engine.clearTimeout(id);
    g.clearInterval = (id: unknown) => engine.clearInterval(id);
    g.Date = engine.Date;
    const origin = engine.now;
    Object.defineProperty(perf, "now", {
      value: () => engine.now - origin,
      configurable: true,
      writable: true,
    });
    const install: ActiveInstall = {
      clock: this,
      at,
      restore: () => {
        if (this.#install !== install) return;
        Object.assign(g, saved);
        if (hadOwnNow) {
          Object.defineProperty(perf, "now", {
            value: savedNow,
            configurable: true,
            writable: true,
          });
        } else delete (perf as unknown as Record<string, unknown>).now;
        this.#install = undefined;
        releaseGlobals(install);
      },
    };
    this.#install = install;
    holdGlobals(install);
    return { [Symbol.dispose]: install.restore };
  }

  /** Restores the globals if installed. */
  [Symbol.dispose](): void {
    this.#install?.restore();
  }

  // Schedules one auto-advance pass for the next macrotask: if timers are
  // still pending then, every task is waiting on one.
  #kick(): void {
    if (!this.autoAdvance || this.#scheduled) return;
    this.#scheduled = true;
    MACROTASK(this.#fire);
  }

  // Fires the earliest timer. A callback that throws escapes this macrotask,
  // so it is reported as uncaught, as a real timer's is; the next pass is
  // scheduled before it escapes, so the other waits still fire.
  #fire = (): void => {
    this.#scheduled = false;
    if (this.#engine.countTimers() === 0) return;
    if (++this.#chained > MAX_CHAINED_FIRINGS) return;
    try {
      this.#engine.next();
    } finally {
      this.#kick();
    }
  };
}

function macrotask(): (fn: () => void) => void {
  const g = globalThis as { setImmediate?: (fn: () => void) => unknown };
  const immediate = g.setImmediate;
  if (typeof immediate === "function") return (fn) => void immediate(fn);
  const timeout = globalThis.setTimeout;
  return (fn) => void timeout(fn, 0);
}

// A wait is a finite count of milliseconds: Infinity would park a test until
// its timeout (no timer ever fires), and a string would be coerced by the
// timer engine ("10" sleeps 10 ms, "soon" sleeps 0) instead of failing.
function durationProblem(where: string, ms: unknown): Error | undefined {
  if (typeof ms === "number" && ms >= 0 && ms !== Infinity) return undefined;
  const text = `${where}: ms must be a finite number of milliseconds, 0 or more, got ${
    describe(ms)
  }`;
  return typeof ms === "number" ? new RangeError(text) : new TypeError(text);
}

// The install that holds the global timers now, and where it was made. An
// install a test never disposed would leave every later test on virtual time
// (Deno's sanitizers see no timer, no op), so the next install() of another
// clock, or makeTestCtx() (./make_test_ctx.ts reads the same global key),
// reports it with the stack captured at install, and undoes it. Kept on
// globalThis under a registered symbol, so that two copies of the package
// (a JSR and an npm one) see each other's installs, as they share the timers.
interface ActiveInstall {
  readonly clock: object;
  /** The stack at install(), its first frame the caller's. */
  readonly at: string;
  readonly restore: () => void;
}

const INSTALL = Symbol.for("@agentkit/testing: the FakeClock install holding the timers");
const holder = globalThis as unknown as Record<symbol, ActiveInstall | undefined>;

function holdGlobals(install: ActiveInstall): void {
  holder[INSTALL] = install;
}

function releaseGlobals(install: ActiveInstall): void {
  if (holder[INSTALL] === install) holder[INSTALL] = undefined;
}

// Where install() was called, from a stack captured inside it.
function installSite(stack: string | undefined): string {
  const frames = (stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  // Drop install()'s own frame; keep the caller's few.
  return frames.slice(1, 7).map((l) => l.trim()).join("\n    ") || "(no stack)";
}

// Throws ClockLeftInstalled, after undoing that install, when another
// clock's install still holds the globals.
function reportLeftInstall(where: string, clock: object): void {
  const left = holder[INSTALL];
  if (left === undefined || left.clock === clock) return;
  left.restore();
  throw new ClockLeftInstalled(where, left.at);
}
