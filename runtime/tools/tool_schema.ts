/**
 * Turning a tool's declared parameters into a spec for the model and a
 * validator for its arguments, once, when the tool is registered.
 *
 * @module
 */
import { z } from "zod";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import type { ParseSchema, ToolPort } from "../../ports/tool.ts";
import { ToolArgsInvalid } from "../errors.ts";

/**
 * A tool with its spec and argument validator prepared.
 *
 * @example
 * ```ts
 * import { prepareTool } from "@agentkit/testing/runtime";
 * import { FakeTool } from "@agentkit/testing/testing";
 * import { z } from "zod";
 * import { assertEquals, assertThrows } from "@std/assert";
 *
 * const tool = new FakeTool({ name: "lookup", parameters: z.object({ host: z.string() }), responder: "ok" });
 * const prepared = prepareTool(tool);
 * assertEquals(prepared.spec.parameters.type, "object");
 * assertEquals(prepared.parse({ host: "a" }), { host: "a" });
 * assertThrows(() => prepared.parse({ host: 1 }));
 * ```
 */
export interface PreparedTool {
  /** The tool. */
  readonly tool: ToolPort;
  /** What the model is told. */
  readonly spec: ToolSpec;
  /** Validates arguments; throws `ToolArgsInvalid` naming the bad fields. */
  parse(args: unknown): Record<string, unknown>;
}

/**
 * Whether a value is a zod-like schema (has `safeParse`).
 *
 * @param value Anything.
 * @returns True for schemas.
 *
 * @example
 * ```ts
 * import { isParseSchema } from "@agentkit/testing/runtime";
 * import { z } from "zod";
 * import { assert } from "@std/assert";
 *
 * assert(isParseSchema(z.string()));
 * assert(!isParseSchema({ type: "object" }));
 * ```
 */
export function isParseSchema(value: unknown): value is ParseSchema {
  return typeof (value as ParseSchema | null)?.safeParse === "function";
}

/**
 * Formats a validation failure as `path: message` lines joined by `; `.
 *
 * @param error A zod error (or anything with `issues`).
 * @returns A one-line summary.
 *
 * @example
 * ```ts
 * import { formatIssues } from "@agentkit/testing/runtime";
 * import { z } from "zod";
 * import { assertEquals } from "@std/assert";
 *
 * const r = z.object({ host: z.string() }).safeParse({ host: 1 });
 * assertEquals(formatIssues(r.error), "host: Invalid input: expected string, received number");
 * ```
 */
export function formatIssues(error: unknown): string {
  const issues = (error as { issues?: { path?: PropertyKey[]; message: string }[] })?.issues;
  if (!Array.isArray(issues)) return String((error as Error)?.message ?? error);
  return issues.map((i) =>
    `${i.path?.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`
  ).join("; ");
}

/**
 * Prepares a tool: its JSON Schema spec and a validator, built once.
 *
 * @param tool The tool.
 * @returns The prepared tool.
 * @throws {TypeError} When the tool has no name or `call`.
 */
export function prepareTool(tool: ToolPort): PreparedTool {
  if (!tool || typeof tool.name !== "string" || !tool.name || typeof tool.call !== "function") {
    throw new TypeError(
      `Cannot use ${
        String(tool?.name ?? tool)
      } as a tool: a tool needs a name and a call(args, ctx) method`,
    );
  }
  let schema: ParseSchema | undefined;
  let parameters: JsonSchema;
  if (isParseSchema(tool.parameters)) {
    schema = tool.parameters;
    try {
      parameters = z.toJSONSchema(schema as z.ZodType, { unrepresentable: "any" }) as JsonSchema;
    } catch {
      parameters = { type: "object" };
    }
  } else {
    parameters = tool.parameters ?? { type: "object" };
    try {
      schema = z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      throw new TypeError(
        `Cannot use the parameters of tool "${tool.name}" as a JSON Schema: ${
          (error as Error).message
        }`,
      );
    }
  }
  const name = tool.name;
  return {
    tool,
    spec: { name, description: tool.description ?? "", parameters },
    parse(args: unknown): Record<string, unknown> {
      const r = schema!.safeParse(args);
      if (!r.success) throw new ToolArgsInvalid(name, formatIssues(r.error));
      return r.data as Record<string, unknown>;
    },
  };
}
