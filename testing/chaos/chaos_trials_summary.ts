/**
 * What `chaos(scenario, { passHatK })` returns: a trial report over the
 * seeded fault schedules, with the chaos summary's counts.
 *
 * @module
 */
import { TrialReport, type TrialReportInit } from "../eval/trial_report.ts";
import type { ChaosSummary } from "./chaos.ts";

/**
 * What `chaos(scenario, { passHatK: k })` returns: every run a trial (a
 * broken invariant fails it; an invariant of yours that breaks by a bug,
 * throwing something other than an assertion, is an error), reported with
 * the statistics of `trials()`: `passRate` and its Wilson `interval`,
 * `passHatK()` at the k given (or any k), `passAtK()`, `assert()`, the
 * failing runs with their invariant and transcript, `toJSON()` for a
 * baseline; and the summary's `runs`, `faultsInjected`, `byKind`, `seed`.
 * A trial's index is its run's fast-check path: replay it with
 * `chaos(scenario, { ..., seed, path: String(index) })`.
 *
 * @example
 * ```ts
 * import type { ChaosTrialsSummary } from "@agentkit/testing/testing";
 * const holds = (s: ChaosTrialsSummary) => s.assert({ passRate: 0.95, passHatK: 0.9 });
 * ```
 */
export class ChaosTrialsSummary extends TrialReport implements ChaosSummary {
  /** How many runs there were. */
  readonly runs: number;
  /** How many faults fired, in all. */
  readonly faultsInjected: number;
  /** How many of each kind fired. */
  readonly byKind: Readonly<Record<string, number>>;
  /** The seed: pass it back to get the same runs. */
  declare readonly seed: number;
  /** The k asked for (`passHatK`'s default). */
  declare readonly k: number;

  /**
   * Built by `chaos()` from its runs.
   *
   * @param init The runs as trials, the seed and k, and the summary's counts.
   */
  constructor(
    init: TrialReportInit & {
      readonly seed: number;
      readonly k: number;
      readonly runs: number;
      readonly faultsInjected: number;
      readonly byKind: Readonly<Record<string, number>>;
    },
  ) {
    super(init);
    this.runs = init.runs;
    this.faultsInjected = init.faultsInjected;
    this.byKind = init.byKind;
  }

  /** The report itself (the same object: a `ChaosTrialsSummary` is a `TrialReport`). */
  get report(): TrialReport {
    return this;
  }
}
