/**
 * What a double takes as a tool's `parameters`: a zod schema, or an object
 * that reads as a JSON Schema, so `"string"`, `[]` or `{ type: "bogus" }`
 * fails where the tool is built instead of when a model is first sent it.
 *
 * @module
 */
import { describe, type Rule } from "../../runtime/internal.ts";

// JSON Schema's seven types (draft 2020-12, "type" keyword).
const TYPES: readonly string[] = [
  "array",
  "boolean",
  "integer",
  "null",
  "number",
  "object",
  "string",
];
// Deeper than this is not walked: the shape near the top is what a typo breaks.
const MAX_DEPTH = 32;

/** A zod schema, or a JSON-Schema object whose `type`, `properties` and `required` are well-formed. */
export const toolParameters: Rule = {
  accepts:
    'a zod schema or a JSON Schema object ({ type: "object", properties: {...} }; a type, if given, one of ' +
    `${TYPES.join(", ")})`,
  test(value, option) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { kind: "type" };
    }
    if (typeof (value as { safeParse?: unknown }).safeParse === "function") return undefined;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return { kind: "type" };
    const problem = schemaProblem(value as Record<string, unknown>, option, 0);
    return problem === undefined ? undefined : { kind: "type", message: problem };
  },
};

/**
 * A tool's `parameters`: {@linkcode toolParameters}, whose root is an object
 * schema. A tool's arguments are one JSON object: OpenAI's function
 * `parameters`, Anthropic's `input_schema` and MCP's `inputSchema` are all
 * `type: "object"` (OpenAI API reference, "Function calling"; Anthropic
 * "Tool use", input_schema; MCP specification 2025-06-18, Tool.inputSchema).
 */
export const objectParameters: Rule = {
  accepts: toolParameters.accepts,
  test(value, option) {
    const problem = toolParameters.test(value, option);
    if (problem !== undefined) return problem;
    const zodKind = (value as { _zod?: { def?: { type?: unknown } } })._zod?.def?.type;
    const type = zodKind ?? (value as { type?: unknown }).type;
    if (
      type === undefined || type === "object" || (Array.isArray(type) && type.includes("object"))
    ) return undefined;
    const fix = zodKind === undefined
      ? 'give it type "object" and the arguments as properties: { type: "object", properties: { ... } }'
      : "use z.object({ ... })";
    return {
      kind: "type",
      message: `${option} has type ${
        describe(type)
      }, but a tool's arguments are one object: ${fix}`,
    };
  },
};

function schemaProblem(
  schema: Record<string, unknown>,
  at: string,
  depth: number,
): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const type = schema.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    const bad = types.find((t) => typeof t !== "string" || !TYPES.includes(t));
    if (bad !== undefined || types.length === 0) {
      return `${at}.type is ${describe(type)}, not a JSON-schema type; the types are ${
        TYPES.join(", ")
      }`;
    }
  }
  const properties = schema.properties;
  if (properties !== undefined) {
    if (!isObject(properties)) {
      return `${at}.properties must be an object of property schemas, got ${describe(properties)}`;
    }
    for (const [key, sub] of Object.entries(properties)) {
      if (typeof sub === "boolean") continue;
      if (!isObject(sub)) {
        return `${at}.properties.${key} must be a schema (an object), got ${describe(sub)}`;
      }
      const p = schemaProblem(sub, `${at}.properties.${key}`, depth + 1);
      if (p) return p;
    }
  }
  const required = schema.required;
  if (
    required !== undefined &&
    (!Array.isArray(required) || !required.every((r) => typeof r === "string"))
  ) {
    return `${at}.required must be an array of property names, got ${describe(required)}`;
  }
  const items = schema.items;
  if (items !== undefined && typeof items !== "boolean") {
    if (!isObject(items)) return `${at}.items must be a schema (an object), got ${describe(items)}`;
    return schemaProblem(items, `${at}.items`, depth + 1);
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
