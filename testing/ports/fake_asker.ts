/**
 * The human-in-the-loop double.
 *
 * @module
 */
import type { AskerPort } from "../../ports/asker.ts";
import type { Ctx } from "../../ports/context.ts";
import type { HarnessError } from "../../runtime/harness_error.ts";
import { InvalidScript, ScriptExhausted, UnusedTurns } from "../errors.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";
import { checkOptions, checkValue, is } from "../../runtime/internal.ts";

const CTX = is.port("a context (makeTestCtx() or new FakeCtx())", ["checkCancelled"]);

/**
 * Options for {@linkcode FakeAsker}.
 *
 * @example
 * ```ts
 * import { FakeAsker, type FakeAskerOptions, FakeCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const options: FakeAskerOptions = { repeatLast: true };
 * const asker = new FakeAsker(["yes"], options);
 * await asker.ask("one?", new FakeCtx());
 * assertEquals(await asker.ask("two?", new FakeCtx()), "yes");
 * ```
 */
export interface FakeAskerOptions {
  /**
   * Repeat the last answer forever instead of running out.
   * @default {false}
   */
  readonly repeatLast?: boolean;
  /**
   * `verify()` and disposal accept answers that were never asked for.
   * @default {false}
   */
  readonly allowUnused?: boolean;
  /**
   * The human's thinking time: wait this long on the context's clock before
   * answering (cancellable through the context's signal).
   * @default {0}
   */
  readonly delayMs?: number;
}

/**
 * A human who answers from a script, one answer per question, in order, and
 * records every question in `.questions`. One question more than scripted
 * throws `ScriptExhausted` (a harness error, so no catch site swallows it);
 * `new FakeAsker([])` is how a test says "the agent must not ask". Like a
 * scripted `FakeLLM` it is a finite claim: `verify()`, or `using` at scope
 * exit, fails when answers were never asked for or when a harness error it
 * threw was swallowed.
 *
 * @example Approve one tool call under manual autonomy
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeAsker, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * using asker = new FakeAsker(["yes"]);
 * const deploy = new FakeTool({ name: "deploy", responder: "deployed", requiresApproval: true });
 * const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", { env: "prod" })] }, "Done."]);
 * const agent = new Agent("ops", { model: "fake-model", cognition: new ReActCognition({ tools: [deploy] }) });
 * await agent.run("ship it", makeTestCtx({ llm, asker, autonomy: "manual" }));
 * assertEquals(asker.questions, ['Allow tool "deploy" with {"env":"prod"}? (yes/no)']);
 * assertEquals(deploy.calls, [{ env: "prod" }]);
 * ```
 */
export class FakeAsker implements AskerPort, Disposable {
  /** Every question asked, in order. */
  readonly questions: string[] = [];
  /** Harness errors this fake threw (a swallowed one still shows here). */
  readonly harnessErrors: HarnessError[] = [];
  readonly #answers: readonly string[];
  readonly #options: FakeAskerOptions;
  #next = 0;
  // The context of the last call, and failedRuns() then (see ../_dispose_verify.ts).
  #servedCtx: unknown;
  #servedAt = failedRuns();

  /**
   * The answers are checked here; `repeatLast` with no answer throws.
   *
   * @param answers The answers, in the order the questions will come.
   * @param options Repeat, unused answers, thinking time.
   * @throws {InvalidScript} For answers that are not strings, or a bad option.
   */
  constructor(answers: readonly string[], options: FakeAskerOptions = {}) {
    if (!Array.isArray(answers) || !answers.every((a) => typeof a === "string")) {
      throw new InvalidScript(
        'FakeAsker takes an array of answers (strings), as in new FakeAsker(["yes", "no"])',
      );
    }
    checkOptions("new FakeAsker()", options, {
      repeatLast: is.boolean,
      allowUnused: is.boolean,
      delayMs: is.ms,
    });
    if (options.repeatLast && answers.length === 0) {
      throw new InvalidScript("FakeAsker repeatLast needs at least one answer to repeat");
    }
    this.#answers = [...answers];
    this.#options = options;
  }

  /**
   * How many questions took an answer from the script, the one that found
   * it exhausted included.
   *
   * @example
   * ```ts
   * import { FakeAsker } from "@agentkit/testing/testing";
   * import { NullCtx } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const asker = new FakeAsker(["yes", "no"]);
   * await asker.ask("Deploy?", new NullCtx());
   * assertEquals([asker.turnsTaken, asker.unusedAnswers], [1, 1]);
   * ```
   */
  get turnsTaken(): number {
    return this.#next;
  }

  /** How many answers were not asked for yet. */
  get unusedAnswers(): number {
    return Math.max(0, this.#answers.length - this.#next);
  }

  /**
   * Records the question and gives the next answer.
   * @param question The question: a string.
   * @param ctx The run (its clock for `delayMs`, its signal to cancel).
   * @throws {TypeError} When `question` is not a string or `ctx` not a context.
   * @returns The answer.
   * @throws {ScriptExhausted} One question past the script.
   */
  async ask(question: string, ctx: Ctx): Promise<string> {
    checkValue("FakeAsker.ask()", "the question", question, is.string);
    checkValue("FakeAsker.ask()", "the ctx", ctx, CTX);
    this.questions.push(question);
    this.#servedCtx = ctx;
    this.#servedAt = failedRuns();
    ctx.checkCancelled();
    const i = this.#next++;
    let answer: string;
    if (i < this.#answers.length) answer = this.#answers[i];
    else if (this.#options.repeatLast) answer = this.#answers[this.#answers.length - 1];
    else {
      const e = new ScriptExhausted("FakeAsker", this.#answers.length, i + 1, "answer");
      this.harnessErrors.push(e);
      throw e;
    }
    if (this.#options.delayMs) await ctx.clock.sleep(this.#options.delayMs, ctx.signal);
    return answer;
  }

  /**
   * Throws the first harness error this fake threw (even if caught), or
   * `UnusedTurns` when answers were never asked for (unless `allowUnused` or
   * `repeatLast`).
   *
   * @throws {HarnessError} As described.
   *
   * @example
   * ```ts
   * import { FakeAsker, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const asker = new FakeAsker(["yes", "no"]);
   * assertThrows(() => asker.verify(), UnusedTurns, "has 2 answer(s), but the run used only 0");
   * ```
   */
  verify(): void {
    if (this.harnessErrors[0]) throw this.harnessErrors[0];
    if (this.#options.repeatLast || this.#options.allowUnused) return;
    const used = Math.min(this.#next, this.#answers.length);
    if (used < this.#answers.length) {
      throw new UnusedTurns("FakeAsker", this.#answers.length, used, "answer");
    }
  }

  /**
   * `using asker = new FakeAsker([...])` verifies at scope exit; after a run that failed, it notes what `verify()` found on the run's
   * error instead of throwing over it.
   */
  [Symbol.dispose](): void {
    verifyAtDispose(() => this.verify(), this.#servedCtx, this.#servedAt);
  }
}
