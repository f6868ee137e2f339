/**
 * What a model is told about a tool.
 *
 * @module
 */

/**
 * A JSON Schema object.
 *
 * @example
 * ```ts
 * import type { JsonSchema } from "@agentkit/testing/ports";
 * const s: JsonSchema = { type: "object", properties: {} };
 * ```
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * A tool as advertised to the model.
 *
 * @example
 * ```ts
 * import type { ToolSpec } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const spec: ToolSpec = { name: "lookup", description: "Look up a host", parameters: { type: "object" } };
 * assertEquals(spec.name, "lookup");
 * ```
 */
export interface ToolSpec {
  /** The tool's name; tool calls refer to it. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The arguments' JSON Schema. */
  readonly parameters: JsonSchema;
}
