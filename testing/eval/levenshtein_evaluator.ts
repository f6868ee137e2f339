/**
 * The fuzzy-similarity evaluator.
 *
 * @module
 */
import { editDistance } from "../../runtime/internal.ts";
import type { Metric } from "./evaluation_result.ts";
import { thresholdMetric } from "./_threshold_metric.ts";
import type { Evaluator, LLMInput, ScoreInput } from "./evaluator.ts";

/**
 * The similarity of two texts from 0 to 1: one minus their edit distance
 * over the longer length, after lower-casing and collapsing whitespace.
 * Two empty texts are identical (1).
 *
 * @param a One text.
 * @param b The other.
 * @returns The ratio.
 *
 * @example
 * ```ts
 * import { levenshteinRatio } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(levenshteinRatio("kitten", "sitting"), 1 - 3 / 7);
 * assertEquals(levenshteinRatio("Hello  World", "hello world"), 1);
 * ```
 */
export function levenshteinRatio(a: string, b: string): number {
  const x = a.toLowerCase().replace(/\s+/g, " ").trim();
  const y = b.toLowerCase().replace(/\s+/g, " ").trim();
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - editDistance(x, y) / longest;
}

/**
 * Graded similarity: the best {@linkcode levenshteinRatio} over the expected
 * answers, passing at `threshold` (default 0.8); offline and deterministic.
 * In `llm` mode it asks the judge.
 *
 * @example
 * ```ts
 * import { LevenshteinEvaluator } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const ev = new LevenshteinEvaluator();
 * const m = ev.evaluateByScore({ actual: "Sri Lanka won the cup", expected: ["Sri Lanka won the cup."] });
 * assertEquals([m.passed, m.threshold], [true, 0.8]);
 * ```
 */
export class LevenshteinEvaluator implements Evaluator {
  /** `"levenshtein"`. */
  readonly name: string = "levenshtein";

  /**
   * Scores similarity.
   * @param input The answer, the expected ones and the threshold.
   * @returns The metric.
   */
  evaluateByScore(input: ScoreInput): Metric {
    const threshold = input.threshold ?? 0.8;
    const score = Math.max(...input.expected.map((e) => levenshteinRatio(input.actual, e)));
    return thresholdMetric(this.name, "score", score, threshold);
  }

  /**
   * Asks the judge.
   * @param input The answer, the expected ones and the judge.
   * @returns The judge's metric.
   */
  evaluateByLlm(input: LLMInput): Promise<Metric> {
    return input.judge.evaluate(input.actual, input.expected, input.question);
  }
}
