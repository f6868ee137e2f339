/**
 * Options shared by the CLI doubles.
 *
 * @module
 */

/**
 * Options of `FakeClaudeCli` and `FakeCodexCli`.
 *
 * @example
 * ```ts
 * import type { FakeCliOptions } from "@agentkit/testing/testing";
 * const paced: FakeCliOptions = { lineDelayMs: 100, allowUnused: true };
 * ```
 */
export interface FakeCliOptions {
  /**
   * Replay the last turn forever instead of throwing `ScriptExhausted`.
   * @default {false}
   */
  readonly repeatLast?: boolean;
  /**
   * `verify()` and disposal accept turns that were never asked for.
   * @default {false}
   */
  readonly allowUnused?: boolean;
  /**
   * Wait this long on the run's clock (`ctx.clock`) before writing each line,
   * so a stall, a timeout or a cancellation can land mid-stream under a
   * `FakeClock`. Without it every line is ready the moment it is read.
   * @default {0}
   */
  readonly lineDelayMs?: number;
}
