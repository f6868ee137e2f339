/**
 * The evaluator seam of the `AgentTest` harness.
 *
 * @module
 */
import { HarnessError } from "../../runtime/harness_error.ts";
import type { EvaluationMode, Metric } from "./evaluation_result.ts";
import type { LLMJudge } from "./llm_judge.ts";

/**
 * What an evaluator is asked to score.
 *
 * @example
 * ```ts
 * import type { ScoreInput } from "@agentkit/testing/testing";
 * const input: ScoreInput = { actual: "4", expected: ["4", "four"], question: "2+2?" };
 * ```
 */
export interface ScoreInput {
  /** The agent's answer. */
  readonly actual: string;
  /** The acceptable answers (at least one). */
  readonly expected: readonly string[];
  /** The score needed to pass, when the caller set one (else the evaluator's default). */
  readonly threshold?: number;
  /** The prompt the agent answered, when known. */
  readonly question?: string;
}

/**
 * What an evaluator is given to judge with an LLM: the input and a ready
 * judge (its model, prompt and verdict parsing).
 *
 * @example
 * ```ts
 * import { FakeLLM, LLMJudge, type LLMInput } from "@agentkit/testing/testing";
 * const input: LLMInput = { actual: "4", expected: ["4"], judge: new LLMJudge(new FakeLLM('{"score": 1}')) };
 * ```
 */
export interface LLMInput extends ScoreInput {
  /** The judge. */
  readonly judge: LLMJudge;
}

/**
 * A way of deciding whether an answer matches the expected ones. Implement
 * `evaluateByScore` for offline, deterministic scoring and `evaluateByLlm`
 * for LLM-as-judge; an evaluator that lacks the method a mode needs fails
 * with {@linkcode MetricNotSupported}. Built in: `"quasiExact"` and
 * `"levenshtein"`. Pass your own as an object, or name it in
 * `agentkit.test.json` as `"./my_eval.ts#MyEvaluator"` (a class is
 * constructed with no arguments).
 *
 * @example A keyword evaluator
 * ```ts
 * import { AgentTest, type Evaluator } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const keywords: Evaluator = {
 *   name: "keywords",
 *   evaluateByScore: ({ actual, expected, threshold = 1 }) => {
 *     const words = expected[0].toLowerCase().split(/\s+/);
 *     const score = words.filter((w) => actual.toLowerCase().includes(w)).length / words.length;
 *     const passed = score >= threshold;
 *     return { name: "keywords", mode: "score", score, threshold, passed, code: passed ? "passed" : "below_threshold" };
 *   },
 * };
 * const r = await AgentTest.compare("Sri Lanka won in 1996", ["sri lanka 1996"], { evaluator: keywords, config: false });
 * assertEquals(r.passed, true);
 * ```
 */
export interface Evaluator {
  /** The evaluator's name, for messages and results. */
  readonly name: string;
  /** Scores offline; the `score` mode and the first step of `fallback`. */
  evaluateByScore?(input: ScoreInput): Metric | Promise<Metric>;
  /** Asks the judge; the `llm` mode and the second step of `fallback`. */
  evaluateByLlm?(input: LLMInput): Metric | Promise<Metric>;
}

/**
 * An evaluator cannot evaluate in the mode asked for (it has no
 * `evaluateByScore` for `score`, or no `evaluateByLlm` for `llm`; `fallback`
 * needs both and is checked before anything runs). A harness error: the
 * test's configuration is wrong, and `returnMetrics` does not turn it into
 * a result.
 *
 * @example
 * ```ts
 * import { AgentTest, FakeLLM, MetricNotSupported } from "@agentkit/testing/testing";
 * import { assertRejects } from "@std/assert";
 *
 * const judgeOnly = { name: "judge-only", evaluateByLlm: () => { throw new Error("unused"); } };
 * await assertRejects(
 *   () => AgentTest.compare("4", ["4"], { mode: "score", evaluator: judgeOnly, config: false }),
 *   MetricNotSupported,
 *   'cannot evaluate in mode "score"',
 * );
 * ```
 */
export class MetricNotSupported extends HarnessError {
  /** The evaluator's name. */
  readonly evaluator: string;
  /** The mode it cannot do. */
  readonly mode: EvaluationMode;

  /**
   * The message names the mode the evaluator lacks and the one it supports.
   *
   * @param evaluator The evaluator's name.
   * @param mode The mode it cannot do.
   * @param missing The method it lacks.
   */
  constructor(evaluator: string, mode: EvaluationMode, missing: string) {
    super(
      `Evaluator "${evaluator}" cannot evaluate in mode "${mode}": it has no ${missing}(); choose a mode it supports${
        missing === "evaluateByScore" ? ' ("llm")' : ' ("score")'
      }, or an evaluator that has ${missing}() (the built-in "quasiExact" and "levenshtein" have both)`,
    );
    this.evaluator = evaluator;
    this.mode = mode;
  }
}

/**
 * The old spelling of {@linkcode LLMInput}.
 *
 * @deprecated Use LLMInput; removed in the next minor release.
 *
 * @example
 * ```ts
 * import { FakeLLM, LLMJudge, type LlmInput } from "@agentkit/testing/testing";
 * const input: LlmInput = { actual: "4", expected: ["4"], judge: new LLMJudge(new FakeLLM('{"score": 1}')) };
 * ```
 */
export type LlmInput = LLMInput;
