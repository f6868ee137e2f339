/**
 * The compactor double.
 *
 * @module
 */
import type { Compactor } from "../../ports/compactor.ts";
import type { Ctx } from "../../ports/context.ts";
import type { Message } from "../../ports/message.ts";
import { checkOptions, is } from "../../runtime/internal.ts";
import { argProblem } from "./_arg.ts";

const MESSAGES = is.arrayOf(is.object, 0, "an array of messages (objects)");

/**
 * Options for {@linkcode FakeCompactor}.
 *
 * @example
 * ```ts
 * import { FakeCompactor, FakeCtx, type FakeCompactorOptions } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const options: FakeCompactorOptions = { returns: [{ role: "user", content: "summary" }] };
 * const out = await new FakeCompactor(options).compact([], new FakeCtx());
 * assertEquals(out, [{ role: "user", content: "summary" }]);
 * ```
 */
export interface FakeCompactorOptions {
  /**
   * What `compact` returns: a fixed transcript, or a function of the input.
   * @default {the input unchanged}
   */
  readonly returns?: readonly Message[] | ((messages: readonly Message[]) => readonly Message[]);
}

/**
 * A compactor that records the transcripts it was given and returns them
 * unchanged, or what `returns` says. `.called` tells whether it was asked at
 * all; `.inputs` holds a copy of each transcript.
 *
 * @example The request builder hands the composed transcript to the compactor
 * ```ts
 * import { Agent, RequestBuilder } from "@agentkit/testing/runtime";
 * import { FakeCompactor, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const compactor = new FakeCompactor({ returns: (messages) => messages.slice(-1) });
 * const llm = new FakeLLM("ok");
 * const agent = new Agent("a", { model: "fake-model", system: "Be brief.", builder: new RequestBuilder({ compactor }) });
 * await agent.run("hi", makeTestCtx({ llm }));
 * assert(compactor.called);
 * assertEquals(compactor.inputs[0].map((m) => m.role), ["system", "user"]);
 * assertEquals(llm.requests[0].messages, [{ role: "user", content: "hi" }]);
 * ```
 */
export class FakeCompactor implements Compactor {
  /** A copy of every transcript it was given, in order. */
  readonly inputs: Message[][] = [];
  readonly #returns?: FakeCompactorOptions["returns"];

  /**
   * Without `returns`, a compaction hands back the messages unchanged.
   *
   * @param options What to return.
   * @throws {TypeError} When `returns` is neither an array nor a function.
   */
  constructor(options: FakeCompactorOptions = {}) {
    checkOptions("new FakeCompactor()", options, {
      returns: is.either(
        is.arrayOf(is.object),
        is.function,
        "an array of messages or a function of the input",
      ),
    });
    const r = options.returns;
    this.#returns = r;
  }

  /** Whether `compact` was called at least once. */
  get called(): boolean {
    return this.inputs.length > 0;
  }

  /**
   * Records the transcript and returns the scripted one.
   * @param messages The transcript: an array of messages.
   * @param ctx The run (whose cancellation it honours).
   * @returns The input, or what `returns` says.
   * @throws {TypeError} (as a rejection) When `messages`, or what a `returns` function gives, is not an array of messages.
   */
  compact(messages: readonly Message[], ctx: Ctx): Promise<Message[]> {
    const problem = argProblem("FakeCompactor.compact()", "the messages", messages, MESSAGES);
    if (problem) return Promise.reject(problem);
    this.inputs.push(messages.map((m) => ({ ...m })));
    try {
      ctx?.checkCancelled();
    } catch (reason) {
      return Promise.reject(reason);
    }
    const r = this.#returns;
    const out = r === undefined ? messages : typeof r === "function" ? r(messages) : r;
    const bad = typeof r === "function"
      ? argProblem("FakeCompactor", "what returns gave", out, MESSAGES)
      : undefined;
    return bad ? Promise.reject(bad) : Promise.resolve([...out]);
  }
}
