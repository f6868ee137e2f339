/**
 * Time, as a port: every wait in the runtime goes through one.
 *
 * @module
 */

/**
 * A clock. Milliseconds everywhere.
 *
 * @example A clock that never waits
 * ```ts
 * import type { ClockPort } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * let t = 0;
 * const clock: ClockPort = { now: () => t, sleep: (ms) => { t += ms; return Promise.resolve(); } };
 * await clock.sleep(50);
 * assertEquals(clock.now(), 50);
 * ```
 */
export interface ClockPort {
  /** Milliseconds since the epoch (or since the fake clock's start). */
  now(): number;
  /** Waits `ms`; rejects with `signal.reason` when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
