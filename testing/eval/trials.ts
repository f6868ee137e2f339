/**
 * `trials()`: run a check n times and report a rate with an honest
 * interval, not a bit.
 *
 * @module
 */
import { checkOptions } from "../../runtime/internal.ts";
import { checkTrialSettings, freshSeed, TRIAL_RULES } from "./_trial_settings.ts";
import { type Job, runTrials, type Trial } from "./_run_trials.ts";
import { trialSeed } from "./_seeds.ts";
import { TrialReport } from "./trial_report.ts";

export type { Trial } from "./_run_trials.ts";

/**
 * Options of {@linkcode trials}; `n` is required.
 *
 * @example
 * ```ts
 * import { trials, type TrialsOptions } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const options: TrialsOptions = { n: 20, k: 3, threshold: 0.8, seed: 1, earlyStop: true };
 * assertEquals((await trials(() => {}, options)).n, 16); // 16/16: [0.806, 1] is wholly above 0.8
 * ```
 */
export interface TrialsOptions {
  /** How many trials. */
  readonly n: number;
  /** The default k of `passAtK()`, `passHatK()` and `assert({ passHatK })`; at most n. */
  readonly k?: number;
  /**
   * The pass rate that matters: `earlyStop` stops when the interval is
   * wholly on one side of it, and `report.assert()` with no arguments
   * requires it.
   * @default {undefined: assert() then requires every trial to pass}
   */
  readonly threshold?: number;
  /** The seed each trial's seed derives from. @default {a random one, kept in the report} */
  readonly seed?: number;
  /** How many trials run at once. @default {1} */
  readonly concurrency?: number;
  /**
   * Stop starting trials once this much was spent, in USD: what the
   * trials' `trial.ctx()` budgets were charged (by `meter()`) plus what
   * they `trial.charge()`d. Trials already running finish.
   * @default {no limit}
   */
  readonly budgetUsd?: number | string;
  /**
   * Stop once the Wilson interval lies wholly above or below `threshold`
   * (which it needs): more trials could not change the verdict.
   * @default {false}
   */
  readonly earlyStop?: boolean;
  /** The report's name (for its table and JUnit suite). */
  readonly name?: string;
}

/**
 * Runs `fn(trial)` `n` times and reports how often it passed. A trial
 * passes when `fn` returns (or its promise resolves); fails when it throws
 * an assertion or evaluation failure (an `AssertionError` of this package
 * or `@std/assert`, `EvaluationFailed`, chai's or Jest's); and is an error
 * when it throws anything else. A harness error (`ScriptExhausted`: the
 * test itself is wrong) is not a trial's outcome: it stops the trials and
 * is thrown. Each trial gets `trial.index` and `trial.seed` (derived from
 * `seed` and the index alone, so trial 7 is the same trial on every run);
 * `trial.ctx()` gives a test context whose FakeLLM's transcript is kept
 * when the trial fails, and whose budget counts toward `budgetUsd`.
 *
 * @param fn One trial: throw to fail.
 * @param options `n`, and `k`, `threshold`, `seed`, `concurrency`, `budgetUsd`, `earlyStop`.
 * @returns The report.
 * @throws {TypeError} For a bad option (an unknown key names the nearest one).
 * @throws {RangeError} For a number out of range.
 *
 * @example A flaky agent: a rate with an interval, and pass^k
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, trials } from "@agentkit/testing/testing";
 * import { assertEquals, assertThrows } from "@std/assert";
 *
 * const agent = new Agent("capital", { model: "fake-model" });
 * const report = await trials(async (trial) => {
 *   // A stand-in for a model that is wrong one time in five.
 *   const llm = new FakeLLM(trial.index % 5 === 4 ? "Lyon." : "Paris.");
 *   const { output } = await agent.run("Capital of France?", trial.ctx({ llm }));
 *   assertEquals(output, "Paris.");
 * }, { n: 20, k: 3, seed: 7 });
 * assertEquals([report.passes, report.failures, report.errors], [16, 4, 0]);
 * assertEquals(report.passRate, 0.8);
 * assertEquals(report.interval.low.toFixed(3), "0.584");
 * assertEquals(report.passHatK().toFixed(3), "0.491"); // C(16,3)/C(20,3)
 * report.assert({ passRate: 0.75 });
 * assertThrows(() => report.assert({ passHatK: 0.9 }));
 * ```
 *
 * @example Stop early once the verdict is clear
 * ```ts
 * import { trials } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const report = await trials(() => {}, { n: 100, threshold: 0.5, earlyStop: true, seed: 1 });
 * assertEquals([report.n, report.stoppedBy], [4, "earlyStop"]); // 4/4: [0.510, 1] is wholly above 0.5
 * ```
 */
export async function trials(
  fn: (trial: Trial) => unknown,
  options: TrialsOptions,
): Promise<TrialReport> {
  const where = "trials()";
  if (typeof fn !== "function") {
    throw new TypeError(
      `${where}: the first argument must be the trial, a function (trial) => void that throws to fail, got ${typeof fn}`,
    );
  }
  checkOptions(where, options, TRIAL_RULES, { required: ["n"] });
  checkTrialSettings(where, options, options.n);
  const seed = options.seed ?? freshSeed();
  const jobAt = (i: number): Job => ({ index: i, seed: trialSeed(seed, i) });
  const { outcomes, stoppedBy } = await runTrials(options.n, jobAt, (trial) => fn(trial), {
    concurrency: options.concurrency ?? 1,
    budgetUsd: options.budgetUsd === undefined ? undefined : Number(options.budgetUsd),
    earlyStopAt: options.earlyStop ? options.threshold : undefined,
  });
  if ((options.concurrency ?? 1) > 1) outcomes.sort((a, b) => a.index - b.index);
  return new TrialReport({
    name: options.name,
    trials: outcomes,
    planned: options.n,
    k: options.k,
    threshold: options.threshold,
    stoppedBy,
    seed,
  });
}
