/**
 * The tool double.
 *
 * @module
 */
import type { Ctx } from "../../ports/context.ts";
import type { JsonSchema } from "../../ports/tool_spec.ts";
import type { ParseSchema, ToolPort } from "../../ports/tool.ts";
import { type PreparedTool, prepareTool } from "../../runtime/tools/tool_schema.ts";
import { InvalidScript, UnusedTurns } from "../errors.ts";
import { checkOptions, is, type Rule } from "../../runtime/internal.ts";
import {
  adopt,
  CALL_NOW,
  type Now,
  offerNow,
  promised,
  throughPublic,
} from "../../runtime/internal.ts";
import { copyValue } from "./_copy.ts";
import { jsonProblem } from "../_json_value.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";
import { toolName } from "./_tool_name.ts";
import { objectParameters } from "./_tool_parameters.ts";

// A responder is a function, or the answer itself, which reaches the model as JSON.
const RESPONDER: Rule = {
  accepts: "a function of the arguments, or a JSON value (the answer)",
  test(value, option) {
    if (typeof value === "function") return undefined;
    const problem = jsonProblem(value, option);
    return problem === undefined ? undefined : {
      kind: "type",
      message: `${problem}; a tool's answer reaches the model as JSON, so give plain data`,
    };
  },
};

const OPTIONS: Readonly<Record<string, Rule>> = {
  name: toolName,
  description: is.string,
  parameters: objectParameters,
  responder: RESPONDER,
  failWith: is.either(is.error, is.string, "an Error or a message"),
  failTimes: is.count,
  requiresApproval: is.boolean,
  idempotent: is.boolean,
  allowUnused: is.boolean,
};

type Responder = (args: Record<string, unknown>, ctx: Ctx) => unknown;

/** Options for {@linkcode FakeTool}. */
export interface FakeToolOptions {
  /**
   * The tool's name: 1 to 64 letters, digits, underscores or dashes,
   * starting with a letter or an underscore (what OpenAI, Anthropic and
   * Gemini all accept).
   */
  readonly name: string;
  /** What it does, for the model. @default {""} */
  readonly description?: string;
  /**
   * The arguments' schema: a zod schema, or a JSON-Schema object whose
   * `type` (if given) is a JSON-schema type; calls are validated against it.
   */
  readonly parameters?: ParseSchema | JsonSchema;
  /**
   * The answer: a JSON value, or a function of the arguments (and context)
   * returning one (or a promise of one). A BigInt, a cycle, NaN or a Map is
   * refused, since the answer reaches the model as JSON. Not needed when
   * `failWith` makes every call fail.
   */
  readonly responder?: unknown;
  /**
   * What a failing call throws (a string becomes an `Error`). Alone, every
   * call fails; with `failTimes`, only the first n.
   * @default {an Error naming the tool, when only failTimes is given}
   */
  readonly failWith?: Error | string;
  /**
   * The first n calls with valid arguments throw `failWith`, then the tool
   * answers with `responder`. The count lives on the instance, and it is a
   * finite claim: `verify()` reports failures the run never reached.
   * @default {every call fails when failWith is given, else none}
   */
  readonly failTimes?: number;
  /** Under `autonomy: "manual"` the asker is asked first. */
  readonly requiresApproval?: boolean;
  /**
   * `false` marks a tool with a side effect that must not happen twice for
   * one tool call (`chaos()` checks it: `noDuplicateSideEffects`).
   * @default {undefined: not claimed}
   */
  readonly idempotent?: boolean;
  /**
   * `verify()` and disposal accept `failTimes` failures the run never reached.
   * @default {false}
   */
  readonly allowUnused?: boolean;
}

/**
 * A tool that answers from a value or a function and records a copy of every
 * arguments object it was called with. `failTimes` scripts a flaky tool: its
 * first n calls throw, then it answers. That is a finite claim, so
 * `verify()` (and `using`, at scope exit) fails a test whose run stopped
 * before reaching every scripted failure.
 *
 * @example
 * ```ts
 * import { FakeTool } from "@agentkit/testing/testing";
 * import { NullCtx } from "@agentkit/testing/runtime";
 * import { z } from "zod";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const tool = new FakeTool({
 *   name: "lookup_cert",
 *   parameters: z.object({ host: z.string() }),
 *   responder: ({ host }: { host: string }) => ({ host, notAfter: "2026-08-01" }),
 * });
 * assertEquals(await tool.call({ host: "a" }, new NullCtx()), { host: "a", notAfter: "2026-08-01" });
 * await assertRejects(() => tool.call({ host: 1 }, new NullCtx()), Error, "host: Invalid input");
 * assertEquals(tool.calls, [{ host: "a" }, { host: 1 }]);
 * ```
 */
export class FakeTool implements ToolPort, Disposable {
  /** The tool's name. */
  readonly name: string;
  /** Its description. */
  readonly description: string;
  /** Its schema. */
  readonly parameters: ParseSchema | JsonSchema;
  /** Whether it needs approval under manual autonomy. */
  readonly requiresApproval?: boolean;
  /** `false` when running it twice for one call repeats a side effect. */
  readonly idempotent?: boolean;
  /** A copy of each arguments object, in call order. */
  readonly calls: Record<string, unknown>[] = [];
  readonly #prepared?: PreparedTool;
  readonly #responder: unknown;
  readonly #failWith?: Error;
  readonly #failTimes: number;
  readonly #allowUnused: boolean;
  #taken = 0;
  // The context of the last call, and failedRuns() then (see ../_dispose_verify.ts).
  #servedCtx: unknown;
  #servedAt = failedRuns();

  /**
   * Creates the tool, checking its options now.
   *
   * @param options Name, schema, answer, failures.
   * @throws {TypeError} On an unknown or mistyped option, `parameters` that
   * are not a schema, or a `responder` value that is not JSON.
   * @throws {RangeError} On a name providers refuse, or a negative or fractional `failTimes`.
   * @throws {InvalidScript} When some call would have no answer: no
   * `responder` and no `failWith`, or `failTimes` with no `responder` for
   * the calls after the failures.
   */
  constructor(options: FakeToolOptions) {
    checkOptions("new FakeTool()", options, OPTIONS, { required: ["name"] });
    const { name, failTimes } = options;
    if (!("responder" in options) && (options.failWith === undefined || failTimes !== undefined)) {
      throw new InvalidScript(
        failTimes === undefined
          ? `FakeTool "${name}" needs a responder (a value or a function) or failWith`
          : `FakeTool "${name}" fails only its first ${failTimes} call(s) (failTimes) and has no responder for the calls after; add a responder, or drop failTimes to fail every call`,
      );
    }
    this.name = name;
    this.description = options.description ?? "";
    this.parameters = options.parameters ?? { type: "object" };
    this.requiresApproval = options.requiresApproval;
    if (options.idempotent !== undefined) this.idempotent = options.idempotent;
    this.#responder = options.responder;
    this.#failWith = typeof options.failWith === "string"
      ? new Error(options.failWith)
      : options.failWith ??
        (failTimes ? new Error(`FakeTool "${name}" failed, as scripted by failTimes`) : undefined);
    this.#failTimes = failTimes ?? (this.#failWith ? Infinity : 0);
    this.#allowUnused = options.allowUnused ?? false;
    if (options.parameters !== undefined) this.#prepared = prepareTool(this);
  }

  /**
   * How many calls reached the script (a scripted failure or an answer).
   * A call whose arguments fail `parameters` is recorded in `calls` but
   * never reaches it.
   *
   * @example
   * ```ts
   * import { FakeTool } from "@agentkit/testing/testing";
   * import { NullCtx } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const tool = new FakeTool({ name: "t", responder: "ok" });
   * await tool.call({}, new NullCtx());
   * assertEquals(tool.turnsTaken, 1);
   * ```
   */
  get turnsTaken(): number {
    return this.#taken;
  }

  /**
   * Records the arguments, validates them against `parameters`, then fails or
   * answers. Under the runtime, which validated them already, they are taken
   * as given (as a real tool takes them).
   * @param args The arguments.
   * @param ctx The run.
   * @returns The responder's value.
   * @throws {InvalidScript} When the responder answers with something that is not JSON.
   */
  call(args: Record<string, unknown>, ctx: Ctx): Promise<unknown> {
    return promised(() => this.#call(args, ctx, false));
  }

  // The answer as is unless the responder returned a promise (see
  // ../runtime/_now.ts); a failure is thrown. Arguments the runtime
  // validated against this schema are taken as they are, as a real tool
  // takes them: checking a schema's output again fails where it transforms.
  #call(args: Record<string, unknown>, ctx: Ctx, validated: boolean): Now<unknown> {
    this.calls.push(copyValue(args));
    this.#servedCtx = ctx;
    this.#servedAt = failedRuns();
    const valid = this.#prepared && !validated ? this.#prepared.parse(args) : args;
    const n = ++this.#taken;
    if (n <= this.#failTimes) throw this.#failWith;
    const r = this.#responder;
    return typeof r === "function" ? this.#answer(r as Responder, valid, ctx, n) : r;
  }

  // A function's answer, awaited when it is a promise. Apart from #call: a
  // call V8 can inline into the tool chain is worth keeping small (issue 39).
  #answer(
    r: Responder,
    valid: Record<string, unknown>,
    ctx: Ctx,
    n: number,
  ): Now<unknown> {
    const out = adopt(r(valid, ctx));
    return out instanceof Promise ? out.then((v) => this.#json(v, n)) : this.#json(out, n);
  }

  // A function's answer, checked as the value form is when the tool is built.
  #json(answer: unknown, call: number): unknown {
    const problem = jsonProblem(answer, "the answer");
    if (problem === undefined) return answer;
    throw new InvalidScript(
      `FakeTool "${this.name}": the responder's answer to call ${call} is not JSON: ${problem}; a tool's answer reaches the model as JSON, so return plain data (strings, finite numbers, booleans, null, arrays, objects)`,
    );
  }

  static {
    const call = this.prototype.call;
    offerNow(
      this.prototype,
      CALL_NOW,
      function (this: FakeTool, args: Record<string, unknown>, ctx: Ctx, validated?: true) {
        return this.call === call
          ? this.#call(args, ctx, validated === true)
          : throughPublic(this, this.call, args, ctx);
      },
    );
  }

  /**
   * Throws `UnusedTurns` when the run stopped before reaching every failure
   * `failTimes` scripted (unless `allowUnused`): a test of a retry that never
   * retried should not pass. A tool without `failTimes` claims nothing.
   *
   * @throws {UnusedTurns} As described.
   *
   * @example
   * ```ts
   * import { FakeTool, UnusedTurns } from "@agentkit/testing/testing";
   * import { NullCtx } from "@agentkit/testing/runtime";
   * import { assertRejects, assertThrows } from "@std/assert";
   *
   * const tool = new FakeTool({ name: "flaky", responder: "ok", failWith: "busy", failTimes: 2 });
   * await assertRejects(() => tool.call({}, new NullCtx()), Error, "busy");
   * assertThrows(() => tool.verify(), UnusedTurns, "has 2 scripted failure(s), but the run used only 1");
   * ```
   */
  verify(): void {
    const failTimes = this.#failTimes;
    if (this.#allowUnused || failTimes === Infinity || this.#taken >= failTimes) return;
    throw new UnusedTurns(`FakeTool "${this.name}"`, failTimes, this.#taken, "scripted failure");
  }

  /**
   * `using tool = new FakeTool(...)` verifies at scope exit; after a run that failed, it notes what `verify()` found on the run's
   * error instead of throwing over it.
   */
  [Symbol.dispose](): void {
    verifyAtDispose(() => this.verify(), this.#servedCtx, this.#servedAt);
  }
}
