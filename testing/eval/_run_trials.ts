// The one trial loop behind trials(), evaluate(), AgentTest's trials and
// chaos()'s rates: runs jobs with a concurrency, classifies how each ended,
// keeps its error and transcript, stops on a decided interval or a spent
// budget.
import { Budget } from "../../runtime/money/budget.ts";
import type { RunContext } from "../../runtime/context.ts";
import { HarnessError } from "../../runtime/harness_error.ts";
import { redactText } from "../../runtime/internal.ts";
import { AssertionError } from "../assert/assertion_error.ts";
import { type Transcribable, transcript } from "../assert/transcript.ts";
import { FakeLLM } from "../llm/fake_llm.ts";
import { makeTestCtx, type TestCtxOptions } from "../make_test_ctx.ts";
import { seededRandom } from "./_seeds.ts";
import { wilson } from "./_stats.ts";
import type { TrialOutcome, TrialVerdict } from "./trial_report.ts";

/**
 * What a trial's function is given: which trial it is, its seed, and where
 * its transcript and spend come from.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, trials } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const agent = new Agent("echo", { model: "fake-model" });
 * const report = await trials(async (trial) => {
 *   const ctx = trial.ctx({ llm: new FakeLLM(trial.index % 4 === 3 ? "no" : "yes") });
 *   const { output } = await agent.run("Well?", ctx);
 *   if (output !== "yes") throw new Error(`said ${output}`); // an Error: counted as an error, not a failure
 * }, { n: 4, seed: 1 });
 * assertEquals([report.passes, report.errors], [3, 1]);
 * assertEquals(report.failed[0].transcript?.split("\n")[0], "request 1 (chat, model fake-model)");
 * ```
 */
export interface Trial {
  /** The trial's index, from 0 (within its case, in `evaluate`). */
  readonly index: number;
  /** The trial's seed: a pure function of the run's seed and the index. */
  readonly seed: number;
  /**
   * Aborted when the trials stop while this one runs (`budgetUsd` reached,
   * `earlyStop` decided in `trials()`, or another trial threw a harness
   * error): a long trial may give up; its outcome still counts.
   */
  readonly signal: AbortSignal;
  /** A generator of numbers in [0, 1) seeded with `seed`. */
  random(): number;
  /**
   * A test context for this trial (`makeTestCtx(options)`; with `meter()`
   * in `chatMiddleware` and no `budget`, a fresh `Budget`): when the trial
   * fails, its transcript is what the context's `FakeLLM` saw, and its
   * budget's spend (what `meter()` charged) counts toward `budgetUsd`.
   */
  ctx(options?: TestCtxOptions): RunContext;
  /**
   * What the failing trial's transcript shows: a result, a run's events, a
   * double (anything `transcript()` takes), or text. Later records are
   * appended.
   */
  record(x: Transcribable | string): void;
  /** Counts spend the trial knows of (a real provider's cost) toward `budgetUsd`. */
  charge(usd: number | string): void;
}

/** One trial to run. */
export interface Job {
  readonly case?: string;
  readonly index: number;
  readonly seed: number;
}

/** How the loop runs. */
export interface LoopSettings {
  readonly concurrency: number;
  readonly budgetUsd?: number;
  /** Stop a case once its interval lies wholly above or below this. */
  readonly earlyStopAt?: number;
}

/** What the loop returns. */
export interface LoopResult {
  readonly outcomes: TrialOutcome[];
  readonly stoppedBy?: "earlyStop" | "budget";
}

/**
 * Whether a thrown value is a failure (an assertion or evaluation failed)
 * rather than an error: this package's `AssertionError` and its subclasses
 * (`EvaluationFailed`), and any error named `AssertionError` (`@std/assert`,
 * `node:assert`, chai under Vitest), or carrying a `matcherResult` (Jest's
 * `expect`).
 */
export function isFailure(error: unknown): boolean {
  if (error instanceof AssertionError) return true;
  if (!(error instanceof Error)) return false;
  return error.name === "AssertionError" || "matcherResult" in error;
}

class TrialHandle implements Trial {
  readonly index: number;
  readonly seed: number;
  readonly signal: AbortSignal;
  #random?: () => number;
  #records?: Array<Transcribable | string>;
  #budgets?: Budget[];
  #llms?: FakeLLM[];
  charged = 0;
  /** The answer evaluate()'s task gave, kept in the trial's outcome. */
  answer?: string;

  constructor(job: Job, signal: AbortSignal) {
    this.index = job.index;
    this.seed = job.seed;
    this.signal = signal;
  }

  random(): number {
    return (this.#random ??= seededRandom(this.seed))();
  }

  ctx(options: TestCtxOptions = {}): RunContext {
    if (options.llm instanceof FakeLLM) (this.#llms ??= []).push(options.llm);
    let budget = options.budget;
    // A budget only where something charges it (a context with a budget and
    // no charging middleware refuses to run: UnmeteredBudget).
    if (!budget && options.chatMiddleware?.some((m) => (m as { charges?: boolean }).charges)) {
      budget = new Budget();
    }
    if (!budget) return makeTestCtx(options);
    (this.#budgets ??= []).push(budget);
    return makeTestCtx({ ...options, budget });
  }

  record(x: Transcribable | string): void {
    (this.#records ??= []).push(x);
  }

  charge(usd: number | string): void {
    const v = Number(usd);
    if (!Number.isFinite(v) || v < 0) {
      throw new RangeError(
        `trial.charge(): the amount must be a non-negative number of USD, got ${String(usd)}`,
      );
    }
    this.charged += v;
  }

  spent(): number {
    let total = this.charged;
    if (this.#budgets === undefined) return total;
    for (const b of this.#budgets) total += Number(b.spent());
    return total;
  }

  transcript(error: unknown): string | undefined {
    const parts: string[] = [];
    const own = (error as { transcript?: unknown } | null)?.transcript;
    if (typeof own === "string" && own) parts.push(own);
    const sources: Array<Transcribable | string> = this.#records ?? this.#llms ?? [];
    for (const x of sources) {
      try {
        parts.push(typeof x === "string" ? x : transcript(x));
      } catch (e) {
        parts.push(`(no transcript: ${(e as Error).message})`);
      }
    }
    return parts.length ? redactText(parts.join("\n")) : undefined;
  }
}

// The thrown Error itself (so a test can check its class), unless its
// message holds a secret: then only its name and the redacted message.
function errorOf(error: unknown): { name: string; message: string } {
  if (error instanceof Error) {
    const message = redactText(error.message);
    return message === error.message ? error : { name: error.name, message };
  }
  return { name: typeof error, message: redactText(String(error)) };
}

/**
 * Runs `count` trials (the i-th is `jobAt(i)`, made when it starts) through
 * `run`, `concurrency` at a time. A harness error (the test itself is
 * wrong: a script ran out) stops everything and is thrown, as everywhere in
 * the package.
 */
export async function runTrials(
  count: number,
  jobAt: (i: number) => Job,
  run: (trial: Trial, job: Job) => unknown,
  settings: LoopSettings,
): Promise<LoopResult> {
  // Per trial this loop adds to what `run` costs: a TrialHandle, one
  // outcome record of a fixed shape, and an await only when `run` returned
  // a promise (bench/RESULTS.md, issue 42: object spreads in the record and
  // a second async frame a trial were most of what trials() added).
  const outcomes: TrialOutcome[] = [];
  const controller = new AbortController();
  const signal = controller.signal;
  const budgetUsd = settings.budgetUsd;
  let next = 0;
  let spent = 0;
  let stoppedBy: LoopResult["stoppedBy"];
  let fatal: unknown;
  const threshold = settings.earlyStopAt;
  // Per case (or "" for trials()): passes and trials so far, and decided.
  const tally = new Map<string, { passes: number; n: number; decided: boolean }>();
  const stop = (why: NonNullable<LoopResult["stoppedBy"]>) => {
    stoppedBy ??= why;
    if (!signal.aborted) controller.abort(new Error(`trials stopped: ${why}`));
  };
  const settle = (job: Job, trial: TrialHandle, verdict: TrialVerdict, thrown: unknown) => {
    const outcome = outcomeOf(job, trial, verdict, thrown);
    if (outcome.spentUsd) spent += outcome.spentUsd;
    outcomes.push(outcome);
    if (threshold === undefined) return;
    const key = job.case ?? "";
    const t = tally.get(key) ?? { passes: 0, n: 0, decided: false };
    t.n++;
    if (verdict === "pass") t.passes++;
    const i = wilson(t.passes, t.n);
    if (i.low > threshold || i.high < threshold) {
      t.decided = true;
      // trials() has one case: the trials still running may give up.
      if (job.case === undefined) stop("earlyStop");
      else stoppedBy ??= "earlyStop";
    }
    tally.set(key, t);
  };
  const worker = async () => {
    while (fatal === undefined && next < count) {
      if (budgetUsd !== undefined && spent >= budgetUsd) {
        stop("budget");
        break;
      }
      const job = jobAt(next++);
      if (threshold !== undefined && tally.get(job.case ?? "")?.decided === true) continue;
      try {
        const trial = new TrialHandle(job, signal);
        let verdict: TrialVerdict = "pass";
        let thrown: unknown;
        try {
          const done = run(trial, job);
          if (isThenable(done)) await done;
        } catch (error) {
          if (error instanceof HarnessError) throw error;
          thrown = error;
          verdict = isFailure(error) ? "failure" : "error";
        }
        settle(job, trial, verdict, thrown);
      } catch (error) {
        fatal ??= error;
        controller.abort(error);
      }
    }
  };
  const workers: Promise<void>[] = [];
  const width = Math.max(1, Math.min(settings.concurrency, count));
  for (let w = 0; w < width; w++) workers.push(worker());
  await Promise.all(workers);
  if (fatal !== undefined) throw fatal;
  // Decided on the last trial: nothing was skipped.
  if (stoppedBy === "earlyStop" && outcomes.length === count) stoppedBy = undefined;
  return { outcomes, stoppedBy };
}

// A trial that returned no promise (a synchronous check) is not awaited: an
// await is a turn of the microtask queue a trial, for nothing.
function isThenable(x: unknown): x is PromiseLike<unknown> {
  return x != null && typeof (x as { then?: unknown }).then === "function";
}

// One shape for every outcome (the keys in the order reports and baseline
// files have always written them), and only the keys that are known.
function outcomeOf(
  job: Job,
  trial: TrialHandle,
  verdict: TrialVerdict,
  thrown: unknown,
): TrialOutcome {
  // Built from an empty literal on purpose: every record outlives the run, so
  // V8 would pretenure a literal with these keys (allocation-site
  // pretenuring) and allocate each one in the old generation, which the
  // profile showed costing more than the rest of this loop together.
  const o: { -readonly [K in keyof TrialOutcome]: TrialOutcome[K] } = {} as TrialOutcome;
  o.index = job.index;
  o.seed = job.seed;
  if (job.case !== undefined) o.case = job.case;
  o.outcome = verdict;
  if (verdict !== "pass") {
    o.error = errorOf(thrown);
    const text = trial.transcript(thrown);
    if (text !== undefined) o.transcript = text;
  }
  // Kept in reports and baseline files: a secret the agent repeated is masked.
  if (trial.answer !== undefined) o.answer = redactText(trial.answer);
  const cost = trial.spent();
  if (cost) o.spentUsd = cost;
  return o;
}
