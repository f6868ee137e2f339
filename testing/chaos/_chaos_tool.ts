// The tool wrapper of `world.tool(t)`: the same tool to the agent, with the
// run's tool faults in front of it.
import type { Ctx } from "../../ports/context.ts";
import type { JsonSchema } from "../../ports/tool_spec.ts";
import type { ParseSchema, ToolPort } from "../../ports/tool.ts";
import { promised } from "../../runtime/internal.ts";

/** Runs one call of a wrapped tool (the world does: it knows the faults). */
export type ToolRunner = (
  wrapper: ChaosTool,
  inner: ToolPort,
  args: Record<string, unknown>,
  ctx: Ctx,
) => unknown;

/** A `ToolPort` in front of `inner`. */
export class ChaosTool implements ToolPort {
  readonly name: string;
  readonly description: string;
  readonly parameters: ParseSchema | JsonSchema;
  // Declared only: a class field would make them own properties, undefined,
  // on the wrapper of a tool that leaves them unset (not claimed either way).
  declare readonly requiresApproval?: boolean;
  declare readonly idempotent?: boolean;
  readonly #inner: ToolPort;
  readonly #run: ToolRunner;

  constructor(inner: ToolPort, run: ToolRunner) {
    this.#inner = inner;
    this.#run = run;
    this.name = inner.name;
    this.description = inner.description;
    this.parameters = inner.parameters;
    if (inner.requiresApproval !== undefined) this.requiresApproval = inner.requiresApproval;
    if (inner.idempotent !== undefined) this.idempotent = inner.idempotent;
  }

  call(args: Record<string, unknown>, ctx: Ctx): Promise<unknown> {
    return promised(() => this.#run(this, this.#inner, args, ctx));
  }
}
