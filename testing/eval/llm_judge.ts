/**
 * LLM-as-judge: the prompt, the call and the parsing of the verdict.
 *
 * @module
 */
import type { LLMPort } from "../../ports/llm.ts";
import type { Metric } from "./evaluation_result.ts";
import { thresholdMetric } from "./_threshold_metric.ts";
import { checkOptions, is } from "../../runtime/internal.ts";

/** Options for {@linkcode LLMJudge}. */
export interface LLMJudgeOptions {
  /**
   * The model the judge is asked as.
   * @default {"judge-model"}
   */
  readonly model?: string;
  /**
   * The judge's score needed to pass, from 0 to 1.
   * @default {0.5}
   */
  readonly threshold?: number;
}

/**
 * A parsed verdict.
 *
 * @example
 * ```ts
 * import type { Verdict } from "@agentkit/testing/testing";
 * const v: Verdict = { score: 0.9, reason: "Same facts." };
 * ```
 */
export interface Verdict {
  /** From 0 to 1. */
  readonly score: number;
  /** The judge's one-sentence reason (empty when it gave none). */
  readonly reason: string;
}

/**
 * The system prompt of the judge.
 *
 * @example
 * ```ts
 * import { JUDGE_SYSTEM_PROMPT } from "@agentkit/testing/testing";
 * import { assertStringIncludes } from "@std/assert";
 *
 * assertStringIncludes(JUDGE_SYSTEM_PROMPT, '"score"');
 * ```
 */
export const JUDGE_SYSTEM_PROMPT: string = [
  "You grade an AI agent's answer against one or more reference answers.",
  "The answer is correct when it states the same facts as at least one reference answer.",
  "Wording, length, order and politeness do not matter; a contradiction, a wrong fact or a missing key fact does.",
  'Reply with only a JSON object: {"score": <a number from 0 to 1>, "reason": "<one sentence>"}.',
].join("\n");

/**
 * Asks a model whether an answer matches the expected ones, through any
 * `LLMPort` (`llm.complete`); in tests, a `FakeLLM`. The judge answers
 * `{"score": 0..1, "reason": "..."}`; the verdict parser also accepts that
 * object inside a code fence or prose, `{"verdict": "pass" | "fail"}`, and a
 * bare `score: 0.8`. A reply with none of these is a failed metric with
 * code `"judge_unparseable"`, showing the reply.
 *
 * @example
 * ```ts
 * import { FakeLLM, LLMJudge } from "@agentkit/testing/testing";
 * import { assertEquals, assertStringIncludes } from "@std/assert";
 *
 * const llm = new FakeLLM('{"score": 0.9, "reason": "Same winner."}');
 * const judge = new LLMJudge(llm);
 * const m = await judge.evaluate("Sri Lanka.", ["Sri Lanka won the 1996 world cup."], "Who won in 1996?");
 * assertEquals([m.passed, m.score, m.reason], [true, 0.9, "Same winner."]);
 * assertStringIncludes(llm.requests[0].messages[1].content, "Question: Who won in 1996?");
 * ```
 */
export class LLMJudge {
  /** The model port. */
  readonly llm: LLMPort;
  /** The model name asked for. */
  readonly model: string;
  /** The score needed to pass. */
  readonly threshold: number;

  /**
   * Creates a judge.
   *
   * @param llm The model port.
   * @param options Model and threshold.
   */
  constructor(llm: LLMPort, options: LLMJudgeOptions = {}) {
    if (!llm || typeof llm.complete !== "function") {
      throw new TypeError(
        "Cannot build an LLMJudge without a model: pass an LLMPort (a FakeLLM in tests)",
      );
    }
    checkOptions("new LLMJudge()", options, { model: is.text, threshold: is.fraction });
    const threshold = options.threshold ?? 0.5;
    this.llm = llm;
    this.model = options.model ?? "judge-model";
    this.threshold = threshold;
  }

  /**
   * The prompt for one grading.
   *
   * @param actual The answer to grade.
   * @param expected The reference answers.
   * @param question The question, when known.
   * @returns The system and user prompts.
   *
   * @example
   * ```ts
   * import { FakeLLM, JUDGE_SYSTEM_PROMPT, LLMJudge } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const p = new LLMJudge(new FakeLLM("")).prompt("4", ["4", "four"]);
   * assertEquals(p.system, JUDGE_SYSTEM_PROMPT);
   * assertEquals(p.user, "Reference answers:\n1. 4\n2. four\n\nAnswer to grade:\n4");
   * ```
   */
  prompt(
    actual: string,
    expected: readonly string[],
    question?: string,
  ): { readonly system: string; readonly user: string } {
    const parts: string[] = [];
    if (question) parts.push(`Question: ${question}`, "");
    parts.push("Reference answers:", ...expected.map((e, i) => `${i + 1}. ${e}`), "");
    parts.push("Answer to grade:", actual);
    return { system: JUDGE_SYSTEM_PROMPT, user: parts.join("\n") };
  }

  /**
   * Reads a verdict out of the judge's reply.
   *
   * @param reply The reply text.
   * @returns The verdict, or `undefined` when the reply holds none.
   *
   * @example
   * ```ts
   * import { FakeLLM, LLMJudge } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const judge = new LLMJudge(new FakeLLM(""));
   * const fence = "\u0060\u0060\u0060";
   * assertEquals(judge.parse(`${fence}json\n{"score": 0.25, "reason": "Wrong year."}\n${fence}`), { score: 0.25, reason: "Wrong year." });
   * assertEquals(judge.parse('{"verdict": "pass"}'), { score: 1, reason: "" });
   * assertEquals(judge.parse("I think it is fine."), undefined);
   * ```
   */
  parse(reply: string): Verdict | undefined {
    const start = reply.indexOf("{");
    const end = reply.lastIndexOf("}");
    if (start >= 0 && end > start) {
      try {
        const o = JSON.parse(reply.slice(start, end + 1)) as Record<string, unknown>;
        const reason = typeof o.reason === "string" ? o.reason : "";
        const score = toScore(o.score);
        if (score !== undefined) return { score, reason };
        const verdict = typeof o.verdict === "string" ? o.verdict.toLowerCase() : undefined;
        if (verdict === "pass" || verdict === "fail") {
          return { score: verdict === "pass" ? 1 : 0, reason };
        }
      } catch {
        // not JSON: try the looser form below
      }
    }
    const m = /\bscore\b["']?\s*[:=]\s*([0-9]*\.?[0-9]+)/i.exec(reply);
    const score = m ? toScore(Number(m[1])) : undefined;
    return score === undefined ? undefined : { score, reason: "" };
  }

  /**
   * Grades an answer: one `complete` call, then the verdict.
   *
   * @param actual The answer.
   * @param expected The reference answers.
   * @param question The question, when known.
   * @returns The judge's metric.
   */
  async evaluate(actual: string, expected: readonly string[], question?: string): Promise<Metric> {
    const { system, user } = this.prompt(actual, expected, question);
    const res = await this.llm.complete({ system, user, model: this.model });
    const verdict = this.parse(res.content);
    if (!verdict) {
      const shown = res.content.length > 200 ? `${res.content.slice(0, 200)}...` : res.content;
      return {
        name: "llmJudge",
        mode: "llm",
        score: 0,
        threshold: this.threshold,
        passed: false,
        code: "judge_unparseable",
        reason: `the judge's reply has no score: ${JSON.stringify(shown)}`,
      };
    }
    return thresholdMetric("llmJudge", "llm", verdict.score, this.threshold, verdict.reason);
  }
}

function toScore(v: unknown): number | undefined {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && n >= 0 && n <= 1 ? n : undefined;
}

/**
 * The old spelling of {@linkcode LLMJudge}, the same class.
 *
 * @deprecated Use LLMJudge; removed in the next minor release.
 *
 * @example
 * ```ts
 * import { LlmJudge, LLMJudge } from "@agentkit/testing/testing";
 * import { assertStrictEquals } from "@std/assert";
 *
 * assertStrictEquals(LlmJudge, LLMJudge);
 * ```
 */
export const LlmJudge: typeof LLMJudge = LLMJudge;
/**
 * The old spelling of {@linkcode LLMJudge}, the same class.
 *
 * @deprecated Use LLMJudge; removed in the next minor release.
 */
export type LlmJudge = LLMJudge;

/**
 * The old spelling of {@linkcode LLMJudgeOptions}.
 *
 * @deprecated Use LLMJudgeOptions; removed in the next minor release.
 *
 * @example
 * ```ts
 * import type { LlmJudgeOptions } from "@agentkit/testing/testing";
 * const options: LlmJudgeOptions = { threshold: 0.7 };
 * ```
 */
export type LlmJudgeOptions = LLMJudgeOptions;
