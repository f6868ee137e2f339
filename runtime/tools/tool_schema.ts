/**
 * Turning a tool's declared parameters into a spec for the model and a
 * validator for its arguments, once, when the tool is registered.
 *
 * @module
 */
import type { z } from "zod";
import { zod } from "../_lazy/zod.ts";
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

// A schema's other form, kept per schema object: an agent is often built per
// test (or per chaos() run) around the same tools, and converting a schema
// costs more than the rest of building one. A zod schema is immutable; a
// JSON Schema object is kept only while its text is the same.
const JSON_OF = new WeakMap<object, JsonSchema>();
const VALIDATOR_OF = new WeakMap<object, { readonly text: string; readonly schema: ParseSchema }>();

function jsonOf(schema: ParseSchema): JsonSchema {
  let json = JSON_OF.get(schema);
  if (json === undefined) {
    try {
      json = zod().toJSONSchema(schema as z.ZodType, { unrepresentable: "any" }) as JsonSchema;
    } catch {
      json = { type: "object" };
    }
    JSON_OF.set(schema, json);
  }
  return json;
}

function validatorOf(name: string, parameters: JsonSchema): ParseSchema {
  let text: string | undefined;
  try {
    text = JSON.stringify(parameters);
  } catch {
    text = undefined;
  }
  const kept = VALIDATOR_OF.get(parameters);
  if (kept !== undefined && text !== undefined && kept.text === text) return kept.schema;
  let schema: ParseSchema;
  try {
    schema = zod().fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new TypeError(
      `Cannot use the parameters of tool "${name}" as a JSON Schema: ${(error as Error).message}`,
    );
  }
  if (text !== undefined) VALIDATOR_OF.set(parameters, { text, schema });
  return schema;
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
    parameters = jsonOf(schema);
  } else {
    parameters = tool.parameters ?? { type: "object" };
    schema = validatorOf(tool.name, parameters);
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
