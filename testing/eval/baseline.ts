/**
 * Baselines: a trial report saved with the code, and compared case by case.
 *
 * @module
 */
// A report is compared with a saved one, case by case, by Fisher's
// exact test on the pass counts, and the files that hold them.
import type * as Fs from "node:fs";
import type * as Path from "node:path";
import type * as Url from "node:url";
import { builtin } from "../../runtime/internal.ts";
import { AssertionError } from "../assert/assertion_error.ts";
import { env } from "../_env.ts";
import { fisherExact } from "./_stats.ts";
import { TrialReport, type TrialReportJSON } from "./trial_report.ts";

/**
 * How a case moved against the baseline.
 *
 * @example
 * ```ts
 * import type { BaselineLabel } from "@agentkit/testing/testing";
 * const label: BaselineLabel = "regressed";
 * ```
 */
export type BaselineLabel = "regressed" | "improved" | "unchanged" | "new" | "missing";

/**
 * One case of a {@linkcode BaselineComparison}.
 *
 * @example
 * ```ts
 * import type { CaseComparison } from "@agentkit/testing/testing";
 * const row: CaseComparison = { name: "refund", label: "unchanged", pValue: 0.61 };
 * ```
 */
export interface CaseComparison {
  /** The case's name. */
  readonly name: string;
  /** `regressed` / `improved` (significant at α), `unchanged`, or `new` / `missing` on one side only. */
  readonly label: BaselineLabel;
  /** The baseline's passes and trials. */
  readonly before?: { readonly passes: number; readonly n: number; readonly passRate: number };
  /** This run's passes and trials. */
  readonly after?: { readonly passes: number; readonly n: number; readonly passRate: number };
  /** Fisher's exact two-sided p-value (1 when a side is missing). */
  readonly pValue: number;
}

/**
 * What `report.compare(baseline)` found.
 *
 * @example
 * ```ts
 * import { type BaselineComparison, TrialReport } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const r = new TrialReport({ trials: [{ index: 0, seed: 0, outcome: "pass" }] });
 * const c: BaselineComparison = r.compare(r);
 * assertEquals([c.unchanged, c.regressed], [["all"], []]);
 * ```
 */
export interface BaselineComparison {
  /** Every case, in this run's order, then the baseline's missing ones. */
  readonly cases: readonly CaseComparison[];
  /** Names of the cases that regressed. */
  readonly regressed: readonly string[];
  /** Names of the cases that improved. */
  readonly improved: readonly string[];
  /** Names of the cases whose difference is noise. */
  readonly unchanged: readonly string[];
  /** True when `AGENTKIT_UPDATE_BASELINE=1` rewrote the baseline file instead. */
  readonly updated: boolean;
  /** The significance level used. */
  readonly alpha: number;
  /** Throws an AssertionError naming the regressed cases, if any. */
  assert(): void;
  /** One line per case that moved, for a pull request's comment. */
  toString(): string;
}

function fs(): typeof Fs {
  return builtin<typeof Fs>("node:fs", "A trials baseline");
}

function toPath(path: string | URL): string {
  if (!(path instanceof URL)) return path;
  return builtin<typeof Url>("node:url", "A trials baseline").fileURLToPath(path);
}

/**
 * Writes a report to a file as JSON (a baseline to commit), creating its
 * folder. Failing trials' errors and transcripts are kept as the report
 * holds them: already redacted.
 *
 * @param path The file.
 * @param report The report (or its JSON).
 *
 * @example
 * ```ts
 * import { readBaseline, TrialReport, writeBaseline } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * writeBaseline(path, new TrialReport({ trials: [{ index: 0, seed: 0, outcome: "pass" }] }));
 * assertEquals(readBaseline(path).passes, 1);
 * await Deno.remove(path);
 * ```
 */
export function writeBaseline(path: string | URL, report: TrialReport | TrialReportJSON): void {
  const file = toPath(path);
  const json = report instanceof TrialReport
    ? report.toJSON()
    : TrialReport.fromJSON(report).toJSON();
  const { dirname } = builtin<typeof Path>("node:path", "A trials baseline");
  fs().mkdirSync(dirname(file), { recursive: true });
  fs().writeFileSync(file, JSON.stringify(json, null, 2) + "\n");
}

/**
 * Reads a baseline file `writeBaseline` wrote.
 *
 * @param path The file.
 * @returns The report.
 * @throws {Error} When the file does not exist (the message says how to make it).
 * @throws {TypeError} When it is not a report.
 *
 * @example
 * ```ts
 * import { readBaseline } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * assertThrows(() => readBaseline("/nonexistent/baseline.json"), Error, "AGENTKIT_UPDATE_BASELINE=1");
 * ```
 */
export function readBaseline(path: string | URL): TrialReport {
  const file = toPath(path);
  let text: string;
  try {
    text = fs().readFileSync(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") {
      throw new Error(
        `Cannot read the baseline ${file}: there is no such file; write one with writeBaseline(path, report), or run once with AGENTKIT_UPDATE_BASELINE=1`,
        { cause: error },
      );
    }
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TypeError(
      `Cannot read the baseline ${file}: it is not JSON (${(error as Error).message})`,
    );
  }
  return TrialReport.fromJSON(json);
}

function counts(r: TrialReport) {
  return { passes: r.passes, n: r.n, passRate: r.passRate };
}

function byCase(r: TrialReport): ReadonlyArray<readonly [string, TrialReport]> {
  if (r.cases.length) return r.cases.map((c) => [c.name!, c] as const);
  return [[r.name ?? "all", r]];
}

/** The comparison behind `TrialReport.compare`. */
export function compareReports(
  report: TrialReport,
  baseline: TrialReport | TrialReportJSON | string | URL,
  options: { readonly alpha?: number },
): BaselineComparison {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) {
    throw new RangeError(
      `report.compare(): option "alpha" must be a number between 0 and 1, got ${alpha}`,
    );
  }
  let updated = false;
  let base: TrialReport;
  if (typeof baseline === "string" || baseline instanceof URL) {
    if (env("AGENTKIT_UPDATE_BASELINE") === "1") {
      writeBaseline(baseline, report);
      updated = true;
      base = report;
    } else base = readBaseline(baseline);
  } else if (baseline instanceof TrialReport) base = baseline;
  else base = TrialReport.fromJSON(baseline);
  const before = new Map(byCase(base));
  const rows: CaseComparison[] = [];
  for (const [name, now] of byCase(report)) {
    const then = before.get(name);
    before.delete(name);
    if (!then) {
      rows.push({ name, label: "new", after: counts(now), pValue: 1 });
      continue;
    }
    const pValue = fisherExact(now.passes, now.n - now.passes, then.passes, then.n - then.passes);
    const label: BaselineLabel = pValue >= alpha || now.passRate === then.passRate
      ? "unchanged"
      : now.passRate < then.passRate
      ? "regressed"
      : "improved";
    rows.push({ name, label, before: counts(then), after: counts(now), pValue });
  }
  for (const [name, then] of before) {
    rows.push({ name, label: "missing", before: counts(then), pValue: 1 });
  }
  const named = (label: BaselineLabel) => rows.filter((r) => r.label === label).map((r) => r.name);
  const regressed = named("regressed");
  const line = (r: CaseComparison) =>
    `${r.label.padEnd(9)} ${r.name}: ${r.before ? `${r.before.passes}/${r.before.n}` : "-"} -> ${
      r.after ? `${r.after.passes}/${r.after.n}` : "-"
    } (Fisher p = ${r.pValue.toFixed(4)})`;
  return {
    cases: rows,
    regressed,
    improved: named("improved"),
    unchanged: named("unchanged"),
    updated,
    alpha,
    assert() {
      if (regressed.length === 0) return;
      throw new AssertionError(
        `${regressed.length} case(s) regressed against the baseline (Fisher's exact test, α ${alpha}):\n${
          rows.filter((r) => r.label === "regressed").map(line).join("\n")
        }\nIf the change is intended, rerun with AGENTKIT_UPDATE_BASELINE=1 and commit the baseline`,
      );
    },
    toString() {
      if (updated) return `baseline rewritten (AGENTKIT_UPDATE_BASELINE=1): ${rows.length} case(s)`;
      const moved = rows.filter((r) => r.label !== "unchanged");
      return [
        `${regressed.length} regressed, ${named("improved").length} improved, ${
          named("unchanged").length
        } unchanged (Fisher's exact test, α ${alpha})`,
        ...moved.map(line),
      ].join("\n");
    },
  };
}
