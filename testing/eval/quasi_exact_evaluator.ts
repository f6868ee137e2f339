/**
 * The exact-match evaluator, after normalisation.
 *
 * @module
 */
import type { Metric } from "./evaluation_result.ts";
import type { Evaluator, LLMInput, ScoreInput } from "./evaluator.ts";

// Whole words only, by Unicode letters: `\b` knows only ASCII, so it saw the
// article "a" in "aéroport" and "an" in "anécdota".
const ARTICLES = /(?<![\p{L}\p{M}\p{N}])(?:a|an|the)(?![\p{L}\p{M}\p{N}])/gu;
const PUNCTUATION = /[\p{P}\p{S}]/gu;

/**
 * Normalises an answer for comparison: lower case, punctuation and symbols
 * removed, the articles "a", "an" and "the" removed, whitespace collapsed.
 *
 * @param text The answer.
 * @returns The normal form.
 *
 * @example
 * ```ts
 * import { normalizeAnswer } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(normalizeAnswer("  The answer is: 4! "), "answer is 4");
 * ```
 */
export function normalizeAnswer(text: string): string {
  return text.toLowerCase().replace(PUNCTUATION, " ").replace(ARTICLES, " ").replace(/\s+/g, " ")
    .trim();
}

/**
 * Scores 1 when the normalised answer equals a normalised expected answer
 * (whole-string equality, no partial credit) and 0 otherwise; offline and
 * deterministic. In `llm` mode it asks the judge. The default evaluator.
 *
 * @example
 * ```ts
 * import { QuasiExactEvaluator } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const ev = new QuasiExactEvaluator();
 * assertEquals(ev.evaluateByScore({ actual: "The answer is 4.", expected: ["answer is 4"] }).passed, true);
 * assertEquals(ev.evaluateByScore({ actual: "It is 4.", expected: ["answer is 4"] }).code, "no_match");
 * ```
 */
export class QuasiExactEvaluator implements Evaluator {
  /** `"quasiExact"`. */
  readonly name: string = "quasiExact";

  /**
   * Compares normal forms.
   * @param input The answer and the expected ones.
   * @returns The metric (threshold 1: only an exact match passes).
   */
  evaluateByScore(input: ScoreInput): Metric {
    const actual = normalizeAnswer(input.actual);
    const passed = input.expected.some((e) => normalizeAnswer(e) === actual);
    return {
      name: this.name,
      mode: "score",
      score: passed ? 1 : 0,
      threshold: 1,
      passed,
      code: passed ? "passed" : "no_match",
    };
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
