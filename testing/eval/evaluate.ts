/**
 * `evaluate()`: a dataset of cases, each run for its trials and compared
 * with its expected answers, reported per case and per suite; sharded
 * across CI machines and merged back.
 *
 * @module
 */
import type * as Fs from "node:fs";
import {
  builtin,
  checkOptions,
  describe,
  is,
  redactText,
  type Rule,
} from "../../runtime/internal.ts";
import { AgentTest, type EvaluationOptions } from "./agent_test_harness.ts";
import { EvaluationFailed, type EvaluationResult } from "./evaluation_result.ts";
import { type Job, runTrials, type Trial } from "./_run_trials.ts";
import { hashString, trialSeed } from "./_seeds.ts";
import { checkTrialSettings, freshSeed, TRIAL_RULES } from "./_trial_settings.ts";
import { loadTestConfig } from "./test_config.ts";
import { TrialReport, type TrialReportJSON } from "./trial_report.ts";
import type { TrialsOptions } from "./trials.ts";

/**
 * One case of a dataset: a name (unique: the report and the baseline key
 * on it), the task's input, the acceptable answers, and optionally its own
 * number of trials.
 *
 * @example
 * ```ts
 * import type { EvalCase } from "@agentkit/testing/testing";
 * const c: EvalCase = { name: "capital", input: "Capital of France?", expected: ["Paris"], trials: 10 };
 * ```
 */
export interface EvalCase<I = unknown> {
  /** The case's name, unique in the dataset. */
  readonly name: string;
  /** What the task is given. */
  readonly input: I;
  /** One acceptable answer, or several. */
  readonly expected: string | readonly string[];
  /** This case's trials, over the suite's. */
  readonly trials?: number | { readonly n: number };
}

/**
 * What a task returns: the answer, or a result carrying it as `output`
 * (an agent's `AgentResult`; its transcript is kept if the trial fails).
 *
 * @example
 * ```ts
 * import type { TaskAnswer } from "@agentkit/testing/testing";
 * const answers: TaskAnswer[] = ["Paris", { output: "Paris" }];
 * ```
 */
export type TaskAnswer = string | { readonly output: string };

/**
 * The trial settings of a suite: a number of trials, or the options of `trials()` less `name`.
 *
 * @example
 * ```ts
 * import type { SuiteTrials } from "@agentkit/testing/testing";
 * const few: SuiteTrials = 5;
 * const many: SuiteTrials = { n: 50, threshold: 0.9, earlyStop: true };
 * ```
 */
export type SuiteTrials = number | Omit<TrialsOptions, "name">;

/**
 * Options of {@linkcode evaluate}: the trials, how answers are compared, the shard, the cache.
 *
 * @example
 * ```ts
 * import type { EvaluateOptions } from "@agentkit/testing/testing";
 * const options: EvaluateOptions = {
 *   trials: { n: 10, k: 3, threshold: 0.9, seed: 2026 },
 *   evaluator: "levenshtein",
 *   shard: "1/4",
 *   cache: "evals/cache.json",
 * };
 * ```
 */
export interface EvaluateOptions extends EvaluationOptions {
  /** Trials per case (a case's own `trials` wins). @default {1} */
  readonly trials?: SuiteTrials;
  /**
   * Run only a share of the case-trials: `"2/4"` is the second of four
   * (the same split on every machine: the case-trials in order, dealt
   * round-robin); merge the shards' reports with `mergeReports`.
   */
  readonly shard?: string;
  /**
   * A JSON file of answers and verdicts keyed by case, input, expected
   * answers and trial index: a rerun replays them at no cost, and every
   * trial keeps its own (a cached answer never stands in for another
   * trial). Answers are stored with secrets redacted.
   */
  readonly cache?: string;
  /** The suite's name (the report's and the JUnit testsuite's). */
  readonly name?: string;
}

const WHERE = "evaluate()";

const RULES: Readonly<Record<string, Rule>> = {
  mode: is.oneOf(["score", "llm", "fallback"]),
  evaluator: is.either(is.text, is.port("an Evaluator", []), "an Evaluator or its name"),
  threshold: is.fraction,
  judge: is.port("an LLMPort", ["chat", "stream"]),
  judgeModel: is.text,
  judgeThreshold: is.fraction,
  config: is.either(is.text, is.oneOf([false]), "a path or false"),
  trials: is.either(
    is.number({ min: 1, integer: true }),
    is.object,
    "a number of trials or trials options",
  ),
  shard: is.text,
  cache: is.text,
  name: is.text,
};

const CASE_RULES: Readonly<Record<string, Rule>> = {
  name: is.text,
  input: is.any,
  expected: is.either(
    is.string,
    is.arrayOf(is.string, 1),
    "a string or a non-empty array of strings",
  ),
  trials: is.either(is.number({ min: 1, integer: true }), is.object, "a number of trials or { n }"),
};

/** Parses `"i/n"`. */
function parseShard(where: string, shard: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new RangeError(
      `${where}: option "shard" must be "i/n" with i from 1 to n (the CI matrix's index and size, "2/4"), got ${
        describe(shard)
      }`,
    );
  }
  return { index, count };
}

function suiteTrials(trials: SuiteTrials | undefined): Partial<TrialsOptions> & { n: number } {
  if (trials === undefined) return { n: 1 };
  if (typeof trials === "number") return { n: trials };
  checkOptions(`${WHERE}: option "trials"`, trials, TRIAL_RULES, { required: ["n"] });
  if ((trials as { name?: unknown }).name !== undefined) {
    throw new TypeError(`${WHERE}: option "trials" takes no name; name the suite with { name }`);
  }
  return trials;
}

function caseTrials(c: EvalCase, i: number, fallback: number): number {
  if (c.trials === undefined) return fallback;
  if (typeof c.trials === "number") return c.trials;
  checkOptions(`${WHERE}: case ${i + 1} ("${c.name}"), option "trials"`, c.trials, {
    n: is.number({ min: 1, integer: true }),
  }, { required: ["n"] });
  return c.trials.n;
}

interface CacheEntry {
  answer?: string;
  /** The key of the answer as given (the stored one is redacted). */
  hash?: string;
  result?: EvaluationResult;
}

class AnswerCache {
  readonly #path: string;
  readonly #entries: Record<string, CacheEntry>;
  #dirty = false;

  constructor(path: string) {
    this.#path = path;
    let entries: Record<string, CacheEntry> = {};
    try {
      const json = JSON.parse(fs().readFileSync(path, "utf8"));
      if (json?.format !== "agentkit-eval-cache/1" || typeof json.entries !== "object") {
        throw new TypeError(
          `${WHERE}: the cache ${path} is not an evaluate() cache (format "agentkit-eval-cache/1"); delete it or pick another path`,
        );
      }
      entries = json.entries;
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
    this.#entries = entries;
  }

  get(key: string): CacheEntry | undefined {
    return this.#entries[key];
  }

  set(key: string, entry: CacheEntry): void {
    this.#entries[key] = { ...this.#entries[key], ...entry };
    this.#dirty = true;
  }

  save(): void {
    if (!this.#dirty) return;
    fs().writeFileSync(
      this.#path,
      JSON.stringify({ format: "agentkit-eval-cache/1", entries: this.#entries }, null, 1) + "\n",
    );
  }
}

function fs(): typeof Fs {
  return builtin<typeof Fs>("node:fs", "evaluate()'s cache");
}

function key(parts: unknown[]): string {
  const text = JSON.stringify(parts);
  return `${hashString(text).toString(16)}-${text.length.toString(16)}-${
    hashString(text.split("").reverse().join("")).toString(16)
  }`;
}

/**
 * Runs a dataset: every case's `task(input, trial)` for its trials, each
 * answer compared with the case's expected answers as `AgentTest.compare`
 * does (the same modes, evaluators and judge), a trial passing when the
 * comparison passes. Returns one report whose `cases` hold a report per
 * case (by name) and whose own numbers pool the suite. A trial whose task
 * throws an assertion failure counts as a failure, anything else as an
 * error; a harness error stops the suite.
 *
 * @param cases The dataset.
 * @param task Answers one input: the answer, or a result with `output`.
 * @param options `trials`, the comparison's options, `shard`, `cache`, `name`.
 * @returns The suite's report.
 * @throws {TypeError} For a bad case or option.
 *
 * @example A dataset with a FakeLLM agent, five trials per case, one case with more
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { evaluate, FakeLLM } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const agent = new Agent("geo", { model: "fake-model" });
 * const llm = new FakeLLM({ France: "Paris", Peru: "Lima", Chad: "Abuja" });
 * const report = await evaluate(
 *   [
 *     { name: "france", input: "Capital of France?", expected: "paris" },
 *     { name: "peru", input: "Capital of Peru?", expected: "Lima", trials: 8 },
 *     { name: "chad", input: "Capital of Chad?", expected: "N'Djamena" },
 *   ],
 *   (input, trial) => agent.run(String(input), trial.ctx({ llm })),
 *   { trials: { n: 5, seed: 1 }, config: false },
 * );
 * assertEquals(report.cases.map((c) => [c.name, c.passes, c.n]), [["france", 5, 5], ["peru", 8, 8], ["chad", 0, 5]]);
 * assertEquals([report.passes, report.n], [13, 18]);
 * assertEquals(report.case("chad")?.failed[0].answer, "Abuja");
 * ```
 */
export async function evaluate<I>(
  cases: readonly EvalCase<I>[],
  task: (input: I, trial: Trial) => TaskAnswer | Promise<TaskAnswer>,
  options: EvaluateOptions = {},
): Promise<TrialReport> {
  checkOptions(WHERE, options, RULES);
  if (typeof task !== "function") {
    throw new TypeError(
      `${WHERE}: the task must be a function (input, trial) => answer, got ${describe(task)}`,
    );
  }
  if (!Array.isArray(cases) || cases.length === 0) {
    throw new TypeError(
      `${WHERE}: cases must be a non-empty array of { name, input, expected }, got ${
        describe(cases)
      }`,
    );
  }
  const settings = suiteTrials(options.trials);
  checkTrialSettings(`${WHERE}: option "trials"`, settings, Infinity); // k is checked per case
  const names = new Set<string>();
  const planned: Array<{ name: string; planned: number }> = [];
  cases.forEach((c, i) => {
    checkOptions(`${WHERE}: case ${i + 1}`, c, CASE_RULES, {
      required: ["name", "input", "expected"],
    });
    if (names.has(c.name)) {
      throw new TypeError(
        `${WHERE}: case ${
          i + 1
        }: the name "${c.name}" is taken by an earlier case; the report and the baseline key on names, so each must be unique`,
      );
    }
    names.add(c.name);
    const n = caseTrials(c as EvalCase, i, settings.n);
    checkTrialSettings(`${WHERE}: case "${c.name}"`, settings, n);
    planned.push({ name: c.name, planned: n });
  });
  const shard = options.shard === undefined ? undefined : parseShard(WHERE, options.shard);
  if (shard && settings.earlyStop) {
    throw new TypeError(
      `${WHERE}: earlyStop and shard do not mix: a shard sees only part of a case's trials, so it cannot tell when the case's interval is decided; drop one`,
    );
  }
  const seed = settings.seed ?? freshSeed();
  const byName = new Map(cases.map((c) => [c.name, c]));
  const jobs: Job[] = [];
  let position = 0;
  for (const { name, planned: n } of planned) {
    const caseSeed = (seed ^ hashString(name)) | 0;
    for (let i = 0; i < n; i++, position++) {
      if (shard && position % shard.count !== shard.index - 1) continue;
      jobs.push({ case: name, index: i, seed: trialSeed(caseSeed, i) });
    }
  }
  const { trials: _t, shard: _s, cache: cachePath, name, ...evaluation } = options;
  // The config file is read once for the suite, not once per trial.
  let compareOptions: EvaluationOptions = evaluation;
  if (evaluation.config === undefined) {
    const loaded = await loadTestConfig();
    if (loaded.source === undefined) compareOptions = { ...evaluation, config: false };
  }
  const cache = cachePath === undefined ? undefined : new AnswerCache(cachePath); // node:fs resolves a relative path against the working directory
  const evaluatorName = typeof evaluation.evaluator === "object"
    ? evaluation.evaluator.name
    : evaluation.evaluator;
  const run = async (trial: Trial, job: Job): Promise<string> => {
    const c = byName.get(job.case!)!;
    const answerKey = cache && key(["answer", c.name, c.input, job.index]);
    const hit = answerKey ? cache!.get(answerKey) : undefined;
    let answer = hit?.answer;
    let hash = hit?.hash;
    if (answer === undefined) {
      const given = await task(c.input, trial);
      answer = answerOf(given, c.name);
      if (typeof given === "object" && "messages" in given && "stopReason" in given) {
        trial.record(given as never);
      }
      if (answerKey) {
        hash = key([answer]);
        cache!.set(answerKey, { answer: redactText(answer), hash });
      }
    }
    (trial as { answer?: string }).answer = answer;
    const verdictKey = cache && key([
      "verdict",
      c.name,
      hash,
      c.expected,
      evaluation.mode,
      evaluatorName,
      evaluation.threshold,
      evaluation.judgeThreshold,
      job.index,
    ]);
    const cached = verdictKey ? cache!.get(verdictKey)?.result : undefined;
    if (cached) {
      if (!cached.passed) throw new EvaluationFailed(cached);
      return answer;
    }
    const result = await AgentTest.compare(answer, c.expected, {
      ...compareOptions,
      question: typeof c.input === "string" ? c.input : undefined,
      returnMetrics: true,
    });
    if (verdictKey) {
      cache!.set(verdictKey, { result: redactedResult(result) });
    }
    if (!result.passed) throw new EvaluationFailed(result);
    return answer;
  };
  let outcome;
  try {
    outcome = await runTrials(jobs.length, (i) => jobs[i], run, {
      concurrency: settings.concurrency ?? 1,
      budgetUsd: settings.budgetUsd === undefined ? undefined : Number(settings.budgetUsd),
      earlyStopAt: settings.earlyStop ? settings.threshold : undefined,
    });
  } finally {
    cache?.save();
  }
  const order = new Map(planned.map((p, i) => [p.name, i]));
  outcome.outcomes.sort((a, b) => order.get(a.case!)! - order.get(b.case!)! || a.index - b.index);
  return new TrialReport({
    name,
    trials: outcome.outcomes,
    planned: planned.reduce((s, p) => s + p.planned, 0),
    k: settings.k,
    threshold: settings.threshold,
    stoppedBy: outcome.stoppedBy,
    cases: planned,
    shard: options.shard,
    seed,
  });
}

// What the cache file keeps of a verdict: the answer and the judge's reasons
// may quote a secret the agent saw.
function redactedResult(result: EvaluationResult): EvaluationResult {
  return {
    ...result,
    actual: redactText(result.actual),
    metrics: result.metrics.map((m) =>
      m.reason === undefined ? m : { ...m, reason: redactText(m.reason) }
    ),
  };
}

function answerOf(given: unknown, name: string): string {
  if (typeof given === "string") return given;
  const output = (given as { output?: unknown } | null)?.output;
  if (typeof output === "string") return output;
  throw new TypeError(
    `${WHERE}: the task for case "${name}" returned ${
      describe(given)
    }; return the answer (a string) or a result with output (agent.run's AgentResult)`,
  );
}

/**
 * Merges the reports of the shards of one suite (each `evaluate(..., {
 * shard })`'s report or its `toJSON()`) into the report an unsharded run
 * would give: the same trials, so the same statistics.
 *
 * @param reports The shards' reports, in any order.
 * @returns The suite's report.
 * @throws {TypeError} When the reports are of different suites, or a trial is in two of them.
 *
 * @example Two shards, merged
 * ```ts
 * import { evaluate, mergeReports } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const cases = [{ name: "a", input: "x", expected: "x" }, { name: "b", input: "y", expected: "z" }];
 * const task = (input: string) => input;
 * const options = { trials: { n: 3, seed: 5 }, config: false as const };
 * const shards = await Promise.all(["1/2", "2/2"].map((shard) => evaluate(cases, task, { ...options, shard })));
 * const merged = mergeReports(shards.map((r) => r.toJSON()));
 * const whole = await evaluate(cases, task, options);
 * assertEquals(merged.toJSON(), whole.toJSON());
 * ```
 */
export function mergeReports(reports: ReadonlyArray<TrialReport | TrialReportJSON>): TrialReport {
  if (!Array.isArray(reports) || reports.length === 0) {
    throw new TypeError(
      `mergeReports(): give the shards' reports (a non-empty array), got ${describe(reports)}`,
    );
  }
  const all = reports.map((r) => r instanceof TrialReport ? r : TrialReport.fromJSON(r));
  const first = all[0];
  const plan = JSON.stringify(first.cases.map((c) => [c.name, c.planned]));
  const seen = new Set<string>();
  const trials = [];
  for (const [i, r] of all.entries()) {
    if (JSON.stringify(r.cases.map((c) => [c.name, c.planned])) !== plan || r.seed !== first.seed) {
      throw new TypeError(
        `mergeReports(): report ${i + 1}${
          r.shard ? ` (shard ${r.shard})` : ""
        } is of another suite than report 1 (its cases, their trials or its seed differ); merge the shards of one run, given the same cases and seed`,
      );
    }
    for (const t of r.trials) {
      const id = `${t.case ?? ""}\u0000${t.index}`;
      if (seen.has(id)) {
        throw new TypeError(
          `mergeReports(): trial ${t.index}${
            t.case !== undefined ? ` of case "${t.case}"` : ""
          } is in two reports; is a shard given twice?`,
        );
      }
      seen.add(id);
      trials.push(t);
    }
  }
  const order = new Map(first.cases.map((c, i) => [c.name, i]));
  trials.sort((a, b) =>
    (order.get(a.case ?? "") ?? 0) - (order.get(b.case ?? "") ?? 0) || a.index - b.index
  );
  const stopped = all.find((r) => r.stoppedBy)?.stoppedBy;
  return new TrialReport({
    name: first.name,
    trials,
    planned: first.planned,
    k: first.k,
    threshold: first.threshold,
    stoppedBy: stopped,
    cases: first.cases.map((c) => ({ name: c.name!, planned: c.planned })),
    seed: first.seed,
  });
}
