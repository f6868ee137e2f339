/**
 * What repeated trials found: counts, a Wilson interval, pass@k and pass^k,
 * every failing trial with its error and transcript, and the report as JSON,
 * a terminal table and JUnit XML.
 *
 * @module
 */
import { AssertionError } from "../assert/assertion_error.ts";
import { type Interval, passAtK, passHatK, wilson } from "./_stats.ts";

export type { Interval } from "./_stats.ts";
import { type BaselineComparison, compareReports } from "./baseline.ts";
import { reportTable } from "./_report_table.ts";
import { reportJUnit } from "./_report_junit.ts";

/**
 * How one trial ended: it passed, failed an assertion or evaluation, or broke.
 *
 * @example
 * ```ts
 * import type { TrialVerdict } from "@agentkit/testing/testing";
 * const v: TrialVerdict = "failure";
 * ```
 */
export type TrialVerdict = "pass" | "failure" | "error";

/**
 * One trial, as the report keeps it (and as `toJSON()` writes it).
 *
 * @example
 * ```ts
 * import type { TrialOutcome } from "@agentkit/testing/testing";
 * const t: TrialOutcome = { index: 2, seed: 812, outcome: "failure", error: { name: "AssertionError", message: "got 5" } };
 * ```
 */
export interface TrialOutcome {
  /** The trial's index within its case, from 0. */
  readonly index: number;
  /** The trial's seed. */
  readonly seed: number;
  /** The case it belongs to (`evaluate`), when there are cases. */
  readonly case?: string;
  /** Pass, failure or error. */
  readonly outcome: TrialVerdict;
  /**
   * What a failing trial threw: the Error itself (check its class with
   * `instanceof`), or only its name and message when the message held a
   * secret (redacted) or after a JSON round trip.
   */
  readonly error?: { readonly name: string; readonly message: string };
  /** The failing trial's transcript (secrets redacted), when it has one. */
  readonly transcript?: string;
  /** The answer the case's task gave (`evaluate`). */
  readonly answer?: string;
  /** What the trial spent, in USD, when anything was charged. */
  readonly spentUsd?: number;
}

/**
 * The expectations of {@linkcode TrialReport.assert}: the least acceptable value of each.
 *
 * @example
 * ```ts
 * import type { TrialExpectations } from "@agentkit/testing/testing";
 * const e: TrialExpectations = { passRate: 0.9, passHatK: { k: 3, min: 0.75 } };
 * ```
 */
export interface TrialExpectations {
  /** The least pass rate (the point estimate; the message shows its interval). */
  readonly passRate?: number;
  /**
   * The least pass^k, at the report's `k` (the `k` given to `trials()`),
   * or `{ k, min }`.
   */
  readonly passHatK?: number | { readonly k: number; readonly min: number };
}

/**
 * What a report is built from (and what `toJSON()` holds, less the derived numbers).
 *
 * @example
 * ```ts
 * import { TrialReport, type TrialReportInit } from "@agentkit/testing/testing";
 * const init: TrialReportInit = { trials: [{ index: 0, seed: 1, outcome: "pass" }], k: 1 };
 * new TrialReport(init).assert({ passHatK: 1 });
 * ```
 */
export interface TrialReportInit {
  /** The report's (or case's) name. */
  readonly name?: string;
  /** Every trial that ran. */
  readonly trials: readonly TrialOutcome[];
  /** The trials asked for (more than ran when stopped early or sharded). */
  readonly planned?: number;
  /** The default k of `passAtK()`, `passHatK()` and `assert({ passHatK })`. */
  readonly k?: number;
  /** The pass rate `earlyStop` and `assert()` measure against. */
  readonly threshold?: number;
  /** Why the trials stopped before `planned`: `"earlyStop"` or `"budget"`. */
  readonly stoppedBy?: "earlyStop" | "budget";
  /** The cases in order, each with the trials planned for it (`evaluate`). */
  readonly cases?: ReadonlyArray<{ readonly name: string; readonly planned: number }>;
  /** The shard this report is (`"2/4"`), when sharded. */
  readonly shard?: string;
  /** The seed every trial's seed was derived from. */
  readonly seed?: number;
}

/**
 * The JSON form of a report (`report.toJSON()`), what baselines hold.
 *
 * @example
 * ```ts
 * import { TrialReport, type TrialReportJSON } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const json: TrialReportJSON = new TrialReport({ trials: [{ index: 0, seed: 1, outcome: "pass" }] }).toJSON();
 * assertEquals([json.passes, json.passRate], [1, 1]);
 * ```
 */
export interface TrialReportJSON extends TrialReportInit {
  /** Always `"agentkit-trials/1"`. */
  readonly format: "agentkit-trials/1";
  /** Passes. */
  readonly passes: number;
  /** Failures. */
  readonly failures: number;
  /** Errors. */
  readonly errors: number;
  /** The pass rate. */
  readonly passRate: number;
  /** Its Wilson 95% interval. */
  readonly interval: Interval;
}

/**
 * The format tag of a report's JSON.
 *
 * @example
 * ```ts
 * import { TRIAL_REPORT_FORMAT } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 * assertEquals(TRIAL_REPORT_FORMAT, "agentkit-trials/1");
 * ```
 */
export const TRIAL_REPORT_FORMAT = "agentkit-trials/1";

// A trial as JSON holds its error's name and message only.
function plainTrial(t: TrialOutcome): TrialOutcome {
  if (!t.error || Object.getPrototypeOf(t.error) === Object.prototype) return t;
  return { ...t, error: { name: t.error.name, message: t.error.message } };
}

function fmt(x: number): string {
  return x.toFixed(3);
}

/**
 * The report of {@linkcode trials} and {@linkcode evaluate}: counts kept
 * apart (`passes`, `failures`: an assertion or evaluation failed; `errors`:
 * anything else broke), the pass rate with its Wilson 95% interval, the
 * unbiased `passAtK(k)` and `passHatK(k)`, and every failing trial with its
 * error and transcript. Errors count as not passing in the pass rate. An
 * `evaluate` report has one sub-report per case in `cases`, and its own
 * numbers pool every trial.
 *
 * @example Eight passes of ten
 * ```ts
 * import { TrialReport } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const report = new TrialReport({
 *   trials: Array.from({ length: 10 }, (_, i) => ({ index: i, seed: i, outcome: i < 8 ? "pass" : "failure" })),
 *   k: 2,
 * });
 * assertEquals([report.passes, report.failures, report.passRate], [8, 2, 0.8]);
 * assertEquals(report.interval.low.toFixed(4), "0.4902");
 * assertEquals(report.passHatK().toFixed(4), "0.6222"); // C(8,2)/C(10,2)
 * ```
 */
export class TrialReport {
  /** The report's name (a case's name, in `evaluate`). */
  readonly name?: string;
  /** How many trials ran. */
  readonly n: number;
  /** How many were asked for. */
  readonly planned: number;
  /** Trials that passed. */
  readonly passes: number;
  /** Trials that failed an assertion or an evaluation. */
  readonly failures: number;
  /** Trials that broke otherwise (reported apart; not passes). */
  readonly errors: number;
  /** passes / n (0 with no trials). */
  readonly passRate: number;
  /** The pass rate's Wilson 95% interval. */
  readonly interval: Interval;
  /** The default k, when given. */
  readonly k?: number;
  /** The threshold, when given. */
  readonly threshold?: number;
  /** Why the trials stopped before `planned`, if they did. */
  readonly stoppedBy?: "earlyStop" | "budget";
  /** The shard this report is, when sharded. */
  readonly shard?: string;
  /** The seed every trial's seed was derived from, when known: pass it back to replay. */
  readonly seed?: number;
  /** What every trial spent, in USD. */
  readonly spentUsd: number;
  /** Every trial, in order. */
  readonly trials: readonly TrialOutcome[];
  /** The failing trials (failures and errors), each with its error and transcript. */
  readonly failed: readonly TrialOutcome[];
  /** One report per case (`evaluate`); empty for `trials()`. */
  readonly cases: readonly TrialReport[];

  /**
   * Builds a report from its trials (the numbers are derived from them).
   *
   * @param init The trials and settings.
   */
  constructor(init: TrialReportInit) {
    this.name = init.name;
    this.trials = init.trials;
    this.n = init.trials.length;
    let passes = 0;
    let failures = 0;
    let spent = 0;
    const failed: TrialOutcome[] = [];
    // An indexed loop: this runs once a report, so mostly unoptimised, where
    // for-of's iterator calls cost more than the counting.
    const trials = init.trials;
    for (let i = 0; i < trials.length; i++) {
      const t = trials[i];
      if (t.outcome === "pass") passes++;
      else {
        if (t.outcome === "failure") failures++;
        failed.push(t);
      }
      if (t.spentUsd) spent += t.spentUsd;
    }
    this.passes = passes;
    this.failures = failures;
    this.errors = this.n - passes - failures;
    this.failed = failed;
    this.spentUsd = spent;
    this.passRate = this.n === 0 ? 0 : passes / this.n;
    this.interval = wilson(passes, this.n);
    this.planned = init.planned ?? this.n;
    this.k = init.k;
    this.threshold = init.threshold;
    this.stoppedBy = init.stoppedBy;
    this.shard = init.shard;
    this.seed = init.seed;
    this.cases = (init.cases ?? []).map(({ name, planned }) =>
      new TrialReport({
        name,
        planned,
        trials: init.trials.filter((t) => t.case === name),
        k: init.k,
        threshold: init.threshold,
      })
    );
  }

  /**
   * Rebuilds a report from its JSON (a baseline file's content).
   *
   * @param json What `toJSON()` returned.
   * @returns The report.
   * @throws {TypeError} When `json` is not a report's JSON.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const a = new TrialReport({ trials: [{ index: 0, seed: 1, outcome: "pass" }] });
   * assertEquals(TrialReport.fromJSON(JSON.parse(JSON.stringify(a))).passes, 1);
   * ```
   */
  static fromJSON(json: unknown): TrialReport {
    const j = json as Partial<TrialReportJSON> | null;
    if (
      !j || typeof j !== "object" || j.format !== TRIAL_REPORT_FORMAT || !Array.isArray(j.trials)
    ) {
      throw new TypeError(
        `Cannot read a trial report: expected the JSON of report.toJSON() (format "${TRIAL_REPORT_FORMAT}", a trials list), got ${
          j && typeof j === "object" ? `an object with ${Object.keys(j).join(", ")}` : typeof j
        }`,
      );
    }
    for (const t of j.trials) {
      if (
        !t || typeof t !== "object" || !Number.isInteger(t.index) ||
        !["pass", "failure", "error"].includes(t.outcome)
      ) {
        throw new TypeError(
          `Cannot read a trial report: every trial needs an index and an outcome ("pass", "failure" or "error"), got ${
            JSON.stringify(t)
          }`,
        );
      }
    }
    return new TrialReport({
      name: j.name,
      trials: j.trials,
      planned: j.planned,
      k: j.k,
      threshold: j.threshold,
      stoppedBy: j.stoppedBy,
      cases: j.cases?.map((c) => ({ name: c.name, planned: c.planned })),
      shard: j.shard,
      seed: j.seed,
    });
  }

  #k(k: number | undefined, what: string): number {
    const chosen = k ?? this.k;
    if (chosen === undefined) {
      throw new TypeError(
        `${what}: no k: pass one, or give trials() its k ({ n, k: 3 })`,
      );
    }
    return chosen;
  }

  /**
   * The unbiased estimate of pass@k: the chance that at least one of k
   * tries passes, 1 − C(n−c, k)/C(n, k) (Chen et al. 2021).
   *
   * @param k The number of tries, from 1 to n. @default {the report's k}
   * @returns A number from 0 to 1.
   * @throws {RangeError} When k is not from 1 to n.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [0, 1, 2, 3].map((i) => ({ index: i, seed: i, outcome: i === 0 ? "pass" : "failure" })) });
   * assertEquals(r.passAtK(2), 0.5); // 1 − C(3,2)/C(4,2)
   * ```
   */
  passAtK(k?: number): number {
    return passAtK(this.n, this.passes, this.#k(k, "report.passAtK()"));
  }

  /**
   * The unbiased estimate of pass^k: the chance that every one of k tries
   * passes, C(c, k)/C(n, k) (Yao et al. 2024, τ-bench). For an agent,
   * "it works every time" is what counts.
   *
   * @param k The number of tries, from 1 to n. @default {the report's k}
   * @returns A number from 0 to 1.
   * @throws {RangeError} When k is not from 1 to n.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [0, 1, 2, 3].map((i) => ({ index: i, seed: i, outcome: i < 3 ? "pass" : "error" })) });
   * assertEquals(r.passHatK(2), 0.5); // C(3,2)/C(4,2)
   * ```
   */
  passHatK(k?: number): number {
    return passHatK(this.n, this.passes, this.#k(k, "report.passHatK()"));
  }

  /**
   * Throws an `AssertionError` when an expectation is not met; its message
   * shows the counts, the pass rate and its interval, and the first
   * failing trials. With no expectations, the pass rate must reach the
   * report's threshold (or 1, every trial, without one).
   *
   * @param expectations The least pass rate and/or pass^k.
   * @returns The report, for chaining.
   * @throws {AssertionError} When an expectation is not met.
   *
   * @example
   * ```ts
   * import { AssertionError, TrialReport } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [0, 1, 2, 3, 4].map((i) => ({ index: i, seed: i, outcome: i < 4 ? "pass" : "failure" })) });
   * r.assert({ passRate: 0.8 });
   * assertThrows(() => r.assert({ passHatK: { k: 3, min: 0.9 } }), AssertionError, "pass^3 0.400");
   * ```
   */
  assert(expectations: TrialExpectations = {}): this {
    const problems: string[] = [];
    const given = expectations.passRate !== undefined || expectations.passHatK !== undefined;
    const rate = given ? expectations.passRate : (this.threshold ?? 1);
    if (rate !== undefined && !(this.passRate >= rate)) {
      problems.push(`pass rate ${fmt(this.passRate)} is below ${fmt(rate)}`);
    }
    if (expectations.passHatK !== undefined) {
      const want = expectations.passHatK;
      const k = typeof want === "number"
        ? this.#k(undefined, "report.assert({ passHatK: min })")
        : want.k;
      const min = typeof want === "number" ? want : want.min;
      const got = this.passHatK(k);
      if (!(got >= min)) problems.push(`pass^${k} ${fmt(got)} is below ${fmt(min)}`);
    }
    if (problems.length === 0) return this;
    const lines = [
      `${this.name ? `"${this.name}": ` : ""}${problems.join("; ")}: ${this.summary()}`,
    ];
    for (const t of this.failed.slice(0, 3)) {
      lines.push(
        `  trial ${t.case ? `${t.case} ` : ""}#${t.index} (seed ${t.seed}) ${t.outcome}: ${
          t.error ? `${t.error.name}: ${t.error.message.split("\n")[0]}` : "no error"
        }`,
      );
    }
    if (this.failed.length > 3) {
      lines.push(`  ... and ${this.failed.length - 3} more failing trial(s)`);
    }
    throw new AssertionError(lines.join("\n"));
  }

  /**
   * One line: the counts, the pass rate and its interval.
   *
   * @returns `8/10 passed (2 failures, 0 errors), pass rate 0.800, 95% CI [0.490, 0.943]`.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [{ index: 0, seed: 0, outcome: "pass" }] });
   * assertEquals(r.summary(), "1/1 passed (0 failures, 0 errors), pass rate 1.000, 95% CI [0.207, 1.000]");
   * ```
   */
  summary(): string {
    return `${this.passes}/${this.n} passed (${this.failures} failures, ${this.errors} errors), pass rate ${
      fmt(this.passRate)
    }, 95% CI [${fmt(this.interval.low)}, ${fmt(this.interval.high)}]${
      this.stoppedBy ? `, stopped by ${this.stoppedBy} after ${this.n} of ${this.planned}` : ""
    }`;
  }

  /**
   * The case of this name (`evaluate`).
   *
   * @param name The case's name.
   * @returns Its report, or undefined.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [{ index: 0, seed: 0, case: "a", outcome: "pass" }], cases: [{ name: "a", planned: 1 }] });
   * assertEquals(r.case("a")?.passes, 1);
   * ```
   */
  case(name: string): TrialReport | undefined {
    return this.cases.find((c) => c.name === name);
  }

  /**
   * Compares with a baseline, case by case, by Fisher's exact two-sided
   * test on the pass counts at α 0.05: a case is `regressed` or `improved`
   * only when the difference is significant, never by a bare difference of
   * rates. The baseline is a saved report, its JSON, or the path of a file
   * `writeBaseline` wrote. With `AGENTKIT_UPDATE_BASELINE=1` and a path, the
   * file is rewritten with this report instead, and every case reads
   * `unchanged`.
   *
   * @param baseline A report, its JSON, or a path.
   * @param options `alpha`: the significance level.
   * @returns The comparison (`regressed`, `improved`, per-case rows, `assert()`).
   * @throws {TypeError} When the baseline is not a report.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const of = (passes: number) => new TrialReport({
   *   trials: Array.from({ length: 20 }, (_, i) => ({ index: i, seed: i, case: "refund", outcome: i < passes ? "pass" : "failure" })),
   *   cases: [{ name: "refund", planned: 20 }],
   * });
   * assertEquals(of(18).compare(of(19)).cases[0].label, "unchanged"); // noise
   * assertEquals(of(8).compare(of(19)).regressed, ["refund"]);
   * ```
   */
  compare(
    baseline: TrialReport | TrialReportJSON | string,
    options: { readonly alpha?: number } = {},
  ): BaselineComparison {
    return compareReports(this, baseline, options);
  }

  /**
   * The report as JSON (what `writeBaseline` writes and `mergeReports`
   * merges): every trial, and the derived numbers for readers.
   *
   * @returns A plain object.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [{ index: 0, seed: 0, outcome: "pass" }] });
   * assertEquals(r.toJSON().format, "agentkit-trials/1");
   * ```
   */
  toJSON(): TrialReportJSON {
    return {
      format: TRIAL_REPORT_FORMAT,
      ...(this.name !== undefined ? { name: this.name } : {}),
      passes: this.passes,
      failures: this.failures,
      errors: this.errors,
      passRate: this.passRate,
      interval: this.interval,
      planned: this.planned,
      ...(this.k !== undefined ? { k: this.k } : {}),
      ...(this.threshold !== undefined ? { threshold: this.threshold } : {}),
      ...(this.stoppedBy !== undefined ? { stoppedBy: this.stoppedBy } : {}),
      ...(this.shard !== undefined ? { shard: this.shard } : {}),
      ...(this.seed !== undefined ? { seed: this.seed } : {}),
      ...(this.cases.length
        ? { cases: this.cases.map((c) => ({ name: c.name!, planned: c.planned })) }
        : {}),
      trials: this.trials.map(plainTrial),
    };
  }

  /**
   * A table a terminal reads: one row per case (or one for the report),
   * with the counts, the pass rate, its interval and pass^k, then the
   * failing trials.
   *
   * @returns Text.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertStringIncludes } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [{ index: 0, seed: 0, outcome: "pass" }] });
   * assertStringIncludes(r.toString(), "[0.207, 1.000]");
   * ```
   */
  toString(): string {
    return reportTable(this);
  }

  /**
   * JUnit XML for CI: a testsuite with one testcase per case (or per
   * trial, for `trials()`), a `<failure>` or `<error>` holding the failing
   * trials' errors and transcripts, escaped.
   *
   * @param suiteName The testsuite's name. @default {the report's name, or "trials"}
   * @returns XML text.
   *
   * @example
   * ```ts
   * import { TrialReport } from "@agentkit/testing/testing";
   * import { assertStringIncludes } from "@std/assert";
   *
   * const r = new TrialReport({ trials: [{ index: 0, seed: 0, outcome: "failure", error: { name: "AssertionError", message: "a < b & c" } }] });
   * assertStringIncludes(r.toJUnit(), "a &lt; b &amp; c");
   * ```
   */
  toJUnit(suiteName?: string): string {
    return reportJUnit(this, suiteName);
  }
}
