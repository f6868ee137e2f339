/**
 * The evaluation harness: start an agent module, talk to it in a session,
 * and compare its answers with the expected ones, offline or with a judge.
 *
 * @module
 */
import type { LLMPort } from "../../ports/llm.ts";
import type { Agent } from "../../runtime/agent.ts";
import type { AgentResult } from "../../runtime/cognition/cognition.ts";
import type { RunContext } from "../../runtime/context.ts";
import { Session } from "../../runtime/sessions/session.ts";
import { cwdUrl, resolveSpecifier } from "../_env.ts";
import { loadExport } from "./_load_export.ts";
import { nearest } from "../_validate.ts";
import { checkOptions, is, ports, type Rule } from "../../runtime/internal.ts";
import {
  EvaluationFailed,
  type EvaluationMode,
  type EvaluationResult,
  type Metric,
} from "./evaluation_result.ts";
import { type Evaluator, MetricNotSupported } from "./evaluator.ts";
import { LevenshteinEvaluator } from "./levenshtein_evaluator.ts";
import { LLMJudge } from "./llm_judge.ts";
import { makeTestCtx } from "../make_test_ctx.ts";
import { QuasiExactEvaluator } from "./quasi_exact_evaluator.ts";
import { type AgentTestConfig, loadTestConfig } from "./test_config.ts";
import type { Message } from "../../ports/message.ts";
import type { TrialReport } from "./trial_report.ts";
import { type Trial, trials, type TrialsOptions } from "./trials.ts";

/** How answers are evaluated; each option wins over `agentkit.test.json`. */
export interface EvaluationOptions {
  /**
   * `"score"` (offline), `"llm"` (the judge) or `"fallback"` (score, then the
   * judge when the score fails).
   * @default {"fallback" when there is a judge, else "score"}
   */
  readonly mode?: EvaluationMode;
  /**
   * `"quasiExact"`, `"levenshtein"`, an {@linkcode Evaluator} object, or a
   * module specifier `"./my_eval.ts#MyEvaluator"` (relative to the working
   * directory).
   * @default {"quasiExact"}
   */
  readonly evaluator?: Evaluator | string;
  /**
   * The score needed to pass in score mode (the evaluator's default when
   * unset: 0.8 for `levenshtein`; `quasiExact` needs an exact match).
   * @default {undefined}
   */
  readonly threshold?: number;
  /**
   * The judge's model port, for `llm` and `fallback` (a `FakeLLM` in tests).
   * @default {undefined}
   */
  readonly judge?: LLMPort;
  /**
   * The model the judge is asked as.
   * @default {"judge-model"}
   */
  readonly judgeModel?: string;
  /**
   * The judge's score needed to pass, from 0 to 1.
   * @default {0.5}
   */
  readonly judgeThreshold?: number;
  /**
   * A config file to read instead of looking for one, or `false` to ignore
   * config files.
   * @default {AGENTKIT_TEST_CONFIG, else ./agentkit.test.json when present}
   */
  readonly config?: string | false;
}

/** Options of {@linkcode AgentTest.compare} and {@linkcode AgentTest.expect}. */
export interface CompareOptions extends EvaluationOptions {
  /**
   * Return the {@linkcode EvaluationResult} of a failing comparison instead
   * of throwing (configuration errors such as `MetricNotSupported` still throw).
   * @default {false}
   */
  readonly returnMetrics?: boolean;
  /**
   * The question the answer responds to, shown to the judge.
   * @default {the last prompt sent, for expect(); none for compare()}
   */
  readonly question?: string;
  /**
   * Repeat: a number of trials, or the options of `trials()`. `compare`
   * evaluates the answer that many times (a judge's verdict varies);
   * `expect` runs the last prompt again that many times, each in a copy of
   * the conversation as it was before that prompt (the reply already
   * received is trial 0). Either then returns a `TrialReport` and, unless
   * `returnMetrics`, asserts its pass rate reaches `threshold` (every
   * trial, without one).
   * @default {undefined: once, returning the EvaluationResult}
   */
  readonly trials?: number | TrialsOptions;
}

/**
 * {@linkcode CompareOptions} with `trials`: the comparison returns a `TrialReport`.
 *
 * @example
 * ```ts
 * import type { CompareTrialsOptions } from "@agentkit/testing/testing";
 * const options: CompareTrialsOptions = { trials: { n: 5, threshold: 0.8 }, mode: "score" };
 * ```
 */
export interface CompareTrialsOptions extends CompareOptions {
  /** A number of trials, or the options of `trials()`. */
  readonly trials: number | TrialsOptions;
}

/** Options of {@linkcode AgentTest.start}: evaluation defaults and the session. */
export interface AgentTestOptions extends EvaluationOptions {
  /**
   * The conversation every `send` runs in.
   * @default {a new in-memory Session in the context's tenant}
   */
  readonly session?: Session;
}

/**
 * What an agent module exports for {@linkcode AgentTest.start}: the agent
 * (as `agent` or the default export), and optionally how to build its
 * context and how to release what it holds.
 *
 * @example examples/agents/support_agent.ts in this repository
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx, type AgentModule } from "@agentkit/testing/testing";
 *
 * const mod: AgentModule = {
 *   agent: new Agent("support", { model: "fake-model" }),
 *   makeCtx: () => makeTestCtx({ llm: new FakeLLM("Try turning it off and on again.") }),
 * };
 * ```
 */
export interface AgentModule {
  /** The agent. */
  readonly agent: Agent;
  /** Builds the context every `send` runs on. @default {makeTestCtx()} */
  readonly makeCtx?: () => RunContext | Promise<RunContext>;
  /** Called by `stop()`. */
  readonly stop?: () => void | Promise<void>;
}

const EVALUATION_RULES: Readonly<Record<string, Rule>> = {
  mode: is.oneOf(["score", "llm", "fallback"]),
  evaluator: is.either(is.text, is.port("an Evaluator", []), "an Evaluator or its name"),
  threshold: is.fraction,
  judge: ports.llm,
  judgeModel: is.text,
  judgeThreshold: is.fraction,
  config: is.either(is.text, is.oneOf([false]), "a path or false"),
};
const COMPARE_RULES: Readonly<Record<string, Rule>> = {
  ...EVALUATION_RULES,
  returnMetrics: is.boolean,
  question: is.string,
  trials: is.either(
    is.number({ min: 1, integer: true }),
    is.object,
    "a number of trials or trials() options",
  ),
};
const START_RULES: Readonly<Record<string, Rule>> = {
  ...EVALUATION_RULES,
  session: is.instance(Session),
};
const BUILT_IN: Readonly<Record<string, () => Evaluator>> = {
  quasiExact: () => new QuasiExactEvaluator(),
  levenshtein: () => new LevenshteinEvaluator(),
};
let harnesses = 0;

/**
 * The evaluation harness. `AgentTest.start(moduleUrl)` imports an agent
 * module and builds its context once; `send(prompt)` runs the agent in the
 * harness's session (so follow-ups see earlier turns); `expect(expected)`
 * compares the last reply; `stop()` (or `await using`) ends it.
 * `AgentTest.compare(actual, expected)` is the comparison alone, for
 * answers that came from elsewhere (an HTTP API).
 *
 * A failing comparison throws {@linkcode EvaluationFailed}, an
 * `AssertionError` showing the actual and expected answers and the scores.
 *
 * @example A conversation, compared offline
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { AgentTest, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script(["Sri Lanka won the 1996 cricket world cup.", "They beat Australia."]);
 * await using test = await AgentTest.start(
 *   { agent: new Agent("quiz", { model: "fake-model" }), makeCtx: () => makeTestCtx({ llm }) },
 *   { config: false },
 * );
 * await test.send("Who won the 1996 cricket world cup?");
 * await test.expect(["Sri Lanka won the 1996 cricket world cup."]);
 * await test.send("Whom did they beat in the final?");
 * await test.expect(["They beat Australia"]);
 * assertEquals(llm.requests[1].messages.length, 3); // the follow-up saw the first turn
 * ```
 */
export class AgentTest implements AsyncDisposable {
  /** The agent under test. */
  readonly agent: Agent;
  /** The context every `send` runs on. */
  readonly ctx: RunContext;
  /** The conversation. */
  readonly session: Session;
  readonly #defaults: EvaluationOptions;
  readonly #stop?: () => void | Promise<void>;
  readonly #results: AgentResult[] = [];
  #lastPrompt?: string;
  // The conversation as it was before the last send: where expect()'s trials branch from.
  #before: readonly Message[] = [];
  #stopped = false;

  private constructor(
    agent: Agent,
    ctx: RunContext,
    session: Session,
    defaults: EvaluationOptions,
    stop?: () => void | Promise<void>,
  ) {
    this.agent = agent;
    this.ctx = ctx;
    this.session = session;
    this.#defaults = defaults;
    this.#stop = stop;
  }

  /**
   * Imports an agent module (a path or URL; relative paths resolve against
   * the working directory) or takes one as an object, and builds its context.
   *
   * @param module The module's URL or path, or the module itself.
   * @param options Evaluation defaults for `expect`, and the session.
   * @returns The harness.
   * @throws {TypeError} When the module exports no agent.
   */
  static async start(
    module: string | URL | AgentModule,
    options: AgentTestOptions = {},
  ): Promise<AgentTest> {
    checkOptions("AgentTest.start()", options, START_RULES);
    let mod: AgentModule;
    let where: string;
    if (typeof module === "string" || module instanceof URL) {
      const url = typeof module === "string" ? resolveSpecifier(module, cwdUrl()) : module;
      where = String(url);
      const loaded = await import(where) as Record<string, unknown>;
      mod = {
        agent: (loaded.agent ?? loaded.default) as Agent,
        makeCtx: loaded.makeCtx as AgentModule["makeCtx"],
        stop: loaded.stop as AgentModule["stop"],
      };
    } else {
      mod = module;
      where = "the module object";
    }
    const agent = mod?.agent;
    if (!agent || typeof agent.run !== "function") {
      throw new TypeError(
        `Cannot start an AgentTest: ${where} exports no agent; export const agent = new Agent(...) (or export it as default)`,
      );
    }
    if (mod.makeCtx !== undefined && typeof mod.makeCtx !== "function") {
      throw new TypeError(
        `Cannot start an AgentTest: makeCtx in ${where} must be a function returning a RunContext`,
      );
    }
    const ctx = mod.makeCtx ? await mod.makeCtx() : makeTestCtx();
    const { session: given, ...defaults } = options;
    const session = given ?? new Session(`agent-test-${++harnesses}`, { scope: ctx.scope });
    return new AgentTest(agent, ctx, session, defaults, mod.stop);
  }

  /**
   * Compares an answer with the acceptable ones.
   *
   * @param actual The answer.
   * @param expected One acceptable answer, or several.
   * @param options Mode, evaluator, thresholds, judge, `returnMetrics`, `trials`.
   * @returns The evaluation (always passed, unless `returnMetrics`); with `trials`, the `TrialReport`.
   * @throws {EvaluationFailed} When the answer fails (unless `returnMetrics`).
   * @throws {MetricNotSupported} When the evaluator cannot do the mode.
   * @throws {TypeError} For a bad option, or `llm`/`fallback` without a judge.
   *
   * @example Levenshtein, then a judge
   * ```ts
   * import { AgentTest, FakeLLM } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const judge = new FakeLLM('{"score": 0.9, "reason": "Same answer."}');
   * const r = await AgentTest.compare("It's four.", ["The answer is 4"], {
   *   mode: "fallback", evaluator: "levenshtein", judge, config: false,
   * });
   * assertEquals(r.metrics.map((m) => [m.name, m.passed]), [["levenshtein", false], ["llmJudge", true]]);
   * assertEquals(judge.calls, 1);
   * ```
   *
   * @example A judge asked five times: a rate, not a bit
   * ```ts
   * import { AgentTest, FakeLLM } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const verdicts = ['{"score": 0.9}', '{"score": 0.2}', '{"score": 0.8}', '{"score": 0.9}', '{"score": 0.7}'];
   * const judge = FakeLLM.script(verdicts);
   * const report = await AgentTest.compare("It's four.", ["4"], {
   *   mode: "llm", judge, config: false, trials: { n: 5, threshold: 0.8, seed: 1 },
   * });
   * assertEquals([report.passes, report.failures], [4, 1]);
   * ```
   */
  static compare(
    actual: string,
    expected: string | readonly string[],
    options: CompareTrialsOptions,
  ): Promise<TrialReport>;
  /**
   * Compares an answer with the acceptable ones, once.
   *
   * @param actual The answer.
   * @param expected One acceptable answer, or several.
   * @param options Mode, evaluator, thresholds, judge, `returnMetrics`.
   * @returns The evaluation.
   */
  static compare(
    actual: string,
    expected: string | readonly string[],
    options?: CompareOptions,
  ): Promise<EvaluationResult>;
  static async compare(
    actual: string,
    expected: string | readonly string[],
    options: CompareOptions = {},
  ): Promise<EvaluationResult | TrialReport> {
    checkOptions("AgentTest.compare()", options, COMPARE_RULES);
    if (options.trials !== undefined) {
      const { trials: given, returnMetrics, ...once } = options;
      return repeat(given, returnMetrics, () => AgentTest.compare(actual, expected, once));
    }
    const wanted = typeof expected === "string" ? [expected] : expected;
    if (typeof actual !== "string") {
      throw new TypeError(
        `Cannot compare: the actual answer must be a string, got ${typeof actual}`,
      );
    }
    if (
      !Array.isArray(wanted) || wanted.length === 0 || wanted.some((e) => typeof e !== "string")
    ) {
      throw new TypeError(
        "Cannot compare: expected must be a string or a non-empty array of strings",
      );
    }
    const loaded = options.config === false
      ? { config: {} as AgentTestConfig, base: cwdUrl() }
      : await loadTestConfig({ path: options.config });
    const file = loaded.config;
    const evaluator = await resolveEvaluator(options.evaluator ?? file.evaluator, loaded.base);
    const judgeLlm = options.judge ??
      (file.judge ? await resolveJudge(file.judge, loaded.base) : undefined);
    const mode = options.mode ?? file.mode ?? (judgeLlm ? "fallback" : "score");
    // Capabilities are checked before anything runs, so a passing score
    // cannot hide a configuration that would fail the day the score fails.
    if (mode !== "llm" && typeof evaluator.evaluateByScore !== "function") {
      throw new MetricNotSupported(evaluator.name, mode, "evaluateByScore");
    }
    if (mode !== "score" && typeof evaluator.evaluateByLlm !== "function") {
      throw new MetricNotSupported(evaluator.name, mode, "evaluateByLlm");
    }
    if (mode !== "score" && !judgeLlm) {
      throw new TypeError(
        `Cannot compare in mode "${mode}" without a judge: pass { judge: llm } (a FakeLLM in tests), name one in agentkit.test.json as "judge": "./judge.ts#judge", or use mode "score"`,
      );
    }
    const input = {
      actual,
      expected: wanted,
      threshold: options.threshold ?? file.threshold,
      question: options.question,
    };
    const metrics: Metric[] = [];
    if (mode !== "llm") {
      metrics.push(checkMetric(await evaluator.evaluateByScore!(input), evaluator));
    }
    if (mode === "llm" || (mode === "fallback" && !metrics[0].passed)) {
      const judge = new LLMJudge(judgeLlm!, {
        model: options.judgeModel ?? file.judgeModel,
        threshold: options.judgeThreshold ?? file.judgeThreshold,
      });
      metrics.push(checkMetric(await evaluator.evaluateByLlm!({ ...input, judge }), evaluator));
    }
    const last = metrics[metrics.length - 1];
    const result: EvaluationResult = {
      passed: last.passed,
      code: last.passed ? "passed" : last.code,
      mode,
      evaluator: evaluator.name,
      actual,
      expected: [...wanted],
      metrics,
    };
    if (!result.passed && !options.returnMetrics) throw new EvaluationFailed(result);
    return result;
  }

  /** The last reply, or `undefined` before the first `send`. */
  get lastReply(): string | undefined {
    return this.#results[this.#results.length - 1]?.output;
  }

  /** Every result so far, in order. */
  get results(): readonly AgentResult[] {
    return this.#results;
  }

  /**
   * Runs the agent on a prompt in the harness's session.
   *
   * @param prompt What the user says.
   * @returns The agent's reply.
   */
  async send(prompt: string): Promise<string> {
    if (this.#stopped) {
      throw new Error(
        `Cannot send to agent "${this.agent.name}": this AgentTest was stopped; start another`,
      );
    }
    this.#lastPrompt = prompt;
    this.#before = [...this.session.transcript];
    const result = await this.agent.run(prompt, this.ctx, { session: this.session });
    this.#results.push(result);
    return result.output;
  }

  /**
   * Compares the last reply with the acceptable answers, using the options
   * given to `start` overridden by `options`; the judge sees the last prompt.
   *
   * With `trials`, the last prompt runs again in copies of the
   * conversation as it was before it, and the report is returned.
   *
   * @param expected One acceptable answer, or several.
   * @param options Overrides, and `trials`.
   * @returns The evaluation; with `trials`, the `TrialReport`.
   * @throws {EvaluationFailed} When the reply fails (unless `returnMetrics`).
   * @throws {AssertionError} With `trials`, when the pass rate misses the threshold.
   *
   * @example The same prompt, five times
   * ```ts
   * import { Agent } from "@agentkit/testing/runtime";
   * import { AgentTest, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const llm = FakeLLM.script(["Paris.", "Paris.", "Lyon.", "Paris.", "Paris."]);
   * await using test = await AgentTest.start(
   *   { agent: new Agent("geo", { model: "fake-model" }), makeCtx: () => makeTestCtx({ llm }) },
   *   { config: false },
   * );
   * await test.send("Capital of France?");
   * const report = await test.expect("Paris", { trials: { n: 5, threshold: 0.8, seed: 1 } });
   * assertEquals([report.passes, report.n], [4, 5]);
   * assertEquals(llm.requests[4].messages.length, 1); // each trial saw only the prompt, not the others' turns
   * ```
   */
  expect(
    expected: string | readonly string[],
    options: CompareTrialsOptions,
  ): Promise<TrialReport>;
  /**
   * Compares the last reply with the acceptable answers, once.
   *
   * @param expected One acceptable answer, or several.
   * @param options Overrides.
   * @returns The evaluation.
   */
  expect(
    expected: string | readonly string[],
    options?: CompareOptions,
  ): Promise<EvaluationResult>;
  expect(
    expected: string | readonly string[],
    options: CompareOptions = {},
  ): Promise<EvaluationResult | TrialReport> {
    const reply = this.lastReply;
    if (reply === undefined) {
      return Promise.reject(
        new Error("Cannot expect a reply before any was received: call send(prompt) first"),
      );
    }
    const merged = { question: this.#lastPrompt, ...this.#defaults, ...options };
    if (options.trials === undefined) return AgentTest.compare(reply, expected, merged);
    try {
      checkOptions("AgentTest.expect()", options, COMPARE_RULES);
    } catch (error) {
      return Promise.reject(error);
    }
    const { trials: given, returnMetrics, ...once } = merged;
    const prompt = this.#lastPrompt!;
    const before = this.#before;
    return repeat(given!, returnMetrics, async (trial) => {
      let answer = reply;
      if (trial.index > 0) {
        const session = new Session(`${this.session.id}-trial-${trial.index}`, {
          scope: this.session.scope,
          transcript: before,
        });
        const result = await this.agent.run(prompt, this.ctx, { session });
        trial.record(result);
        answer = result.output;
      }
      await AgentTest.compare(answer, expected, once);
    });
  }

  /** Ends the harness (idempotent): later sends fail; calls the module's `stop`. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await this.#stop?.();
  }

  /** `await using test = await AgentTest.start(...)` stops it. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

// Runs one comparison as trials and asserts the report unless asked for metrics.
async function repeat(
  given: number | TrialsOptions,
  returnMetrics: boolean | undefined,
  once: (trial: Trial) => Promise<unknown>,
): Promise<TrialReport> {
  const settings = typeof given === "number" ? { n: given } : given;
  const report = await trials(once, settings);
  if (!returnMetrics) report.assert();
  return report;
}

async function resolveEvaluator(
  given: Evaluator | string | undefined,
  base: URL,
): Promise<Evaluator> {
  if (given === undefined) return BUILT_IN.quasiExact();
  let value: unknown = given;
  if (typeof given === "string") {
    const builtIn = BUILT_IN[given];
    if (builtIn) return builtIn();
    if (!given.includes("#") && !/^(\.{1,2}\/|\/|[a-z][a-z0-9+.-]*:)/i.test(given)) {
      const near = nearest(given, Object.keys(BUILT_IN));
      throw new TypeError(
        `Unknown evaluator "${given}"${
          near ? `; did you mean "${near}"?` : ""
        }; the built-in ones are "quasiExact" and "levenshtein", and your own is "./module.ts#ExportName"`,
      );
    }
    value = await loadExport(given, base, "evaluator");
    if (typeof value === "function") value = new (value as new () => unknown)();
  }
  const ev = value as Partial<Evaluator> | null;
  if (
    !ev || typeof ev.name !== "string" ||
    (typeof ev.evaluateByScore !== "function" && typeof ev.evaluateByLlm !== "function")
  ) {
    throw new TypeError(
      `Cannot use ${
        typeof given === "string" ? `"${given}"` : "the object given"
      } as an evaluator: an Evaluator has a name and evaluateByScore() and/or evaluateByLlm()`,
    );
  }
  return ev as Evaluator;
}

async function resolveJudge(spec: string, base: URL): Promise<LLMPort> {
  let value = await loadExport(spec, base, "judge");
  if (typeof value === "function") value = new (value as new () => unknown)();
  if (!value || typeof (value as LLMPort).complete !== "function") {
    throw new TypeError(`Cannot use "${spec}" as the judge: it is not an LLMPort (no complete())`);
  }
  return value as LLMPort;
}

function checkMetric(m: Metric, evaluator: Evaluator): Metric {
  if (
    !m || typeof m !== "object" || typeof m.score !== "number" || typeof m.passed !== "boolean" ||
    typeof m.code !== "string"
  ) {
    throw new TypeError(
      `Evaluator "${evaluator.name}" returned ${
        JSON.stringify(m)
      }, which is not a Metric ({ name, mode, score, threshold, passed, code })`,
    );
  }
  return m;
}
