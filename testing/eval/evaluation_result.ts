/**
 * What an evaluation found, as data: one metric per step, a verdict and a
 * `code` a caller can branch on, and a formatter for messages.
 *
 * @module
 */
import { AssertionError } from "../assert/assertion_error.ts";
import { redactText } from "../../runtime/internal.ts";

/** How a comparison is made: offline scoring, an LLM judge, or score then judge. */
export type EvaluationMode = "score" | "llm" | "fallback";

/**
 * Why a metric or an evaluation came out as it did:
 * `"passed"`; `"no_match"` (no expected answer matched exactly);
 * `"below_threshold"` (a similarity or judge score under its threshold);
 * `"judge_unparseable"` (the judge's reply had no score in it).
 */
export type EvaluationCode = "passed" | "no_match" | "below_threshold" | "judge_unparseable";

/**
 * One step of an evaluation: a score-mode metric or the judge.
 *
 * @example
 * ```ts
 * import type { Metric } from "@agentkit/testing/testing";
 * const m: Metric = { name: "levenshtein", mode: "score", score: 0.9, threshold: 0.8, passed: true, code: "passed" };
 * ```
 */
export interface Metric {
  /** The metric (`"quasiExact"`, `"levenshtein"`, `"llmJudge"`). */
  readonly name: string;
  /** Which mode produced it. */
  readonly mode: "score" | "llm";
  /** The score, from 0 to 1 (the best over the expected answers). */
  readonly score: number;
  /** The score needed to pass. */
  readonly threshold: number;
  /** Whether it passed. */
  readonly passed: boolean;
  /** Why. */
  readonly code: EvaluationCode;
  /** The judge's reasoning, or other detail. */
  readonly reason?: string;
}

/**
 * The outcome of `AgentTest.compare` (returned instead of thrown with
 * `returnMetrics: true`).
 *
 * @example
 * ```ts
 * import { AgentTest } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const r = await AgentTest.compare("5", ["4"], { mode: "score", config: false, returnMetrics: true });
 * assertEquals([r.passed, r.code, r.metrics[0].score], [false, "no_match", 0]);
 * ```
 */
export interface EvaluationResult {
  /** Whether the actual answer passed. */
  readonly passed: boolean;
  /** `"passed"`, or the code of the step that decided the failure. */
  readonly code: EvaluationCode;
  /** The mode asked for. */
  readonly mode: EvaluationMode;
  /** The evaluator's name. */
  readonly evaluator: string;
  /** The agent's answer. */
  readonly actual: string;
  /** The acceptable answers. */
  readonly expected: readonly string[];
  /** Each step, in order (two in fallback mode when the score failed). */
  readonly metrics: readonly Metric[];
}

/**
 * Renders an evaluation for a message: the verdict, the actual and expected
 * answers, and every metric with its score and threshold, with credentials
 * masked as `[REDACTED]` as `transcript()` masks them.
 *
 * @param result The evaluation.
 * @returns Several lines of text.
 *
 * @example
 * ```ts
 * import { AgentTest, formatEvaluation } from "@agentkit/testing/testing";
 * import { assertStringIncludes } from "@std/assert";
 *
 * const r = await AgentTest.compare("5", ["4"], { mode: "score", config: false, returnMetrics: true });
 * assertStringIncludes(formatEvaluation(r), "quasiExact: score 0.00, needs 1.00 (no_match)");
 * ```
 */
export function formatEvaluation(result: EvaluationResult): string {
  const lines = [
    `The answer ${
      result.passed ? "passed" : "did not pass"
    } (mode ${result.mode}, evaluator ${result.evaluator})`,
    `  actual:   ${JSON.stringify(result.actual)}`,
    `  expected: ${result.expected.map((e) => JSON.stringify(e)).join(" or ")}`,
  ];
  for (const m of result.metrics) {
    lines.push(
      `  ${m.name}: score ${m.score.toFixed(2)}, needs ${m.threshold.toFixed(2)} (${m.code})${
        m.reason ? `: ${m.reason}` : ""
      }`,
    );
  }
  // A report is read in logs and CI output: the package's one redaction
  // engine masks what it masks everywhere else.
  return redactText(lines.join("\n"));
}

/**
 * A comparison failed. An {@linkcode AssertionError} whose message shows the
 * actual and expected answers and the scores, carrying the whole
 * {@linkcode EvaluationResult}.
 *
 * @example
 * ```ts
 * import { AgentTest, AssertionError, EvaluationFailed } from "@agentkit/testing/testing";
 * import { assert, assertRejects } from "@std/assert";
 *
 * const e = await assertRejects(() => AgentTest.compare("5", ["4"], { mode: "score", config: false }), EvaluationFailed);
 * assert(e instanceof AssertionError);
 * assert(e.result.metrics[0].score === 0);
 * ```
 */
export class EvaluationFailed extends AssertionError {
  /** The evaluation. */
  readonly result: EvaluationResult;

  /**
   * The message is the evaluation's report: the answer, what was expected, and each metric's score against its threshold.
   *
   * @param result The failed evaluation.
   */
  constructor(result: EvaluationResult) {
    super(formatEvaluation(result));
    this.result = result;
  }
}
