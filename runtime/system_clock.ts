/**
 * The real clock.
 *
 * @module
 */
import type { ClockPort } from "../ports/clock.ts";

/**
 * Wall-clock time and real timers; the default clock of `Services`.
 *
 * @example
 * ```ts
 * import { SystemClock } from "@agentkit/testing/runtime";
 * import { assert } from "@std/assert";
 *
 * const clock = new SystemClock();
 * assert(clock.now() > 0);
 * await clock.sleep(0);
 * ```
 */
export class SystemClock implements ClockPort {
  /** Milliseconds since the epoch. */
  now = (): number => Date.now();

  /**
   * Waits `ms` on a real timer; rejects with `signal.reason` on abort and
   * clears the timer, so nothing leaks.
   */
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(id);
        reject(signal!.reason);
      };
      const id = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  };
}
