/**
 * The tool double.
 *
 * @module
 */
import type { Ctx } from "../ports/context.ts";
import type { JsonSchema } from "../ports/tool_spec.ts";
import type { ParseSchema, ToolPort } from "../ports/tool.ts";
import { type PreparedTool, prepareTool } from "../runtime/tool_schema.ts";
import { InvalidScript } from "./errors.ts";
import { checkOptions, is, type Rule } from "../runtime/internal.ts";
import { copyValue } from "./_copy.ts";

const OPTIONS: Readonly<Record<string, Rule>> = {
  name: is.text,
  description: is.string,
  parameters: is.either(is.object, is.port("a zod schema", ["safeParse"]), "a zod or JSON Schema"),
  responder: is.any,
  failWith: is.either(is.error, is.string, "an Error or a message"),
  failTimes: is.count,
  requiresApproval: is.boolean,
};

/** Options for {@linkcode FakeTool}. */
export interface FakeToolOptions {
  /** The tool's name. */
  readonly name: string;
  /** What it does, for the model. @default {""} */
  readonly description?: string;
  /** The arguments' schema (zod or JSON Schema); calls are validated against it. */
  readonly parameters?: ParseSchema | JsonSchema;
  /**
   * The answer: a value, or a function of the arguments (and context). Not
   * needed when `failWith` makes every call fail.
   */
  readonly responder?: unknown;
  /** Every call (or the first `failTimes`) throws this. */
  readonly failWith?: Error | string;
  /** With `failWith`: only the first n calls fail. */
  readonly failTimes?: number;
  /** Under `autonomy: "manual"` the asker is asked first. */
  readonly requiresApproval?: boolean;
}

/**
 * A tool that answers from a value or a function and records a copy of every
 * arguments object it was called with.
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
export class FakeTool implements ToolPort {
  /** The tool's name. */
  readonly name: string;
  /** Its description. */
  readonly description: string;
  /** Its schema. */
  readonly parameters: ParseSchema | JsonSchema;
  /** Whether it needs approval under manual autonomy. */
  readonly requiresApproval?: boolean;
  /** A copy of each arguments object, in call order. */
  readonly calls: Record<string, unknown>[] = [];
  readonly #prepared?: PreparedTool;
  readonly #responder: unknown;
  readonly #failWith?: Error;
  #failsLeft: number;

  /**
   * Creates the instance.
   *
   * @param options Name, schema, answer, failures.
   */
  constructor(options: FakeToolOptions) {
    checkOptions("new FakeTool()", options, OPTIONS, { required: ["name"] });
    if (!("responder" in options) && options.failWith === undefined) {
      throw new InvalidScript(
        `FakeTool "${options.name}" needs a responder (a value or a function) or failWith`,
      );
    }
    this.name = options.name;
    this.description = options.description ?? "";
    this.parameters = options.parameters ?? { type: "object" };
    this.requiresApproval = options.requiresApproval;
    this.#responder = options.responder;
    this.#failWith = typeof options.failWith === "string"
      ? new Error(options.failWith)
      : options.failWith;
    this.#failsLeft = options.failTimes ?? (this.#failWith ? Infinity : 0);
    if (options.parameters !== undefined) this.#prepared = prepareTool(this);
  }

  /**
   * Records the arguments, validates them, then fails or answers.
   * @param args The arguments.
   * @param ctx The run.
   * @returns The responder's value.
   */
  async call(args: Record<string, unknown>, ctx: Ctx): Promise<unknown> {
    this.calls.push(copyValue(args));
    const valid = this.#prepared ? this.#prepared.parse(args) : args;
    if (this.#failWith && this.#failsLeft > 0) {
      this.#failsLeft--;
      throw this.#failWith;
    }
    const r = this.#responder;
    return typeof r === "function" ? await r(valid, ctx) : r;
  }
}
