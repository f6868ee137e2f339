// The model's own misbehaviour, as the turn it plays instead of the
// script's: the one table the `misbehave` builders plug into (each entry's
// `serve` builds the turn; swap a body for its `misbehave.*` call, or add a
// kind, and chaos() schedules it).
import type { ToolCall } from "../../ports/message.ts";
import type { JsonSchema, ToolSpec } from "../../ports/tool_spec.ts";
import { toolArgs } from "../llm/_auto_responder.ts";
import { type FaultCall, type Fc, type ModelFault, NO_PARAMS, pickTool } from "./_fault_kit.ts";

/** The name `unknownTool` calls, unless the agent offers a tool by that name. */
export const UNKNOWN_TOOL = "nonexistent_tool";

const TOOL = (fc: Fc) => fc.record({ tool: fc.nat({ max: 7 }) });

const quote = (name: string): string => JSON.stringify(name);
const idOf = (call: FaultCall): string => `chaos_${call.n}`;

// A tool's arguments as valid JSON, cut before its end: what a model sends
// when its output is truncated or garbled.
function truncated(tool: ToolSpec): string {
  let text: string;
  try {
    text = JSON.stringify(toolArgs(tool));
  } catch {
    text = "{}";
  }
  return text.length > 2 ? text.slice(0, Math.max(1, Math.ceil(text.length / 2))) : '{"';
}

// Arguments of the wrong type for the first property the schema types.
function violating(schema: JsonSchema | undefined): Record<string, unknown> | undefined {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> })?.properties;
  if (!properties) return undefined;
  const required = (schema as { required?: unknown }).required;
  const names = Object.keys(properties);
  const first = Array.isArray(required) && required.length ? String(required[0]) : names[0];
  if (first === undefined) return undefined;
  const type = properties[first]?.type;
  const wrong = type === "string"
    ? 12345
    : type === "number" || type === "integer"
    ? "not a number"
    : type === "boolean"
    ? "not a boolean"
    : type === "array"
    ? "not an array"
    : type === "object"
    ? "not an object"
    : undefined;
  return wrong === undefined ? undefined : { [first]: wrong };
}

function validArgs(tool: ToolSpec): Record<string, unknown> {
  try {
    return toolArgs(tool);
  } catch {
    return {};
  }
}

/** The model misbehaviours by kind (the names of SPEC §18's `misbehave` builders). */
export const TURN_FAULTS: Readonly<Record<string, ModelFault>> = {
  emptyAnswer: {
    params: NO_PARAMS,
    serve: () => ({ turn: { content: "" }, args: "" }),
  },
  contentFilter: {
    params: NO_PARAMS,
    serve: () => ({ turn: { content: "", finishReason: "content_filter" }, args: "" }),
  },
  unknownTool: {
    params: NO_PARAMS,
    serve: (_, call) => {
      const name = call.tools.some((t) => t.name === UNKNOWN_TOOL)
        ? `${UNKNOWN_TOOL}_2`
        : UNKNOWN_TOOL;
      return { turn: { toolCalls: [{ id: idOf(call), name, args: {} }] }, args: quote(name) };
    },
  },
  invalidToolJson: {
    params: TOOL,
    serve: (p, call) => {
      const tool = pickTool(call.tools, p.tool);
      if (!tool) return undefined;
      const raw = truncated(tool);
      const bad: ToolCall = { id: idOf(call), name: tool.name, args: {}, rawArgs: raw };
      return { turn: { toolCalls: [bad] }, args: quote(tool.name) };
    },
  },
  schemaViolatingArgs: {
    params: TOOL,
    serve: (p, call) => {
      const tool = pickTool(call.tools, p.tool);
      const args = tool && violating(tool.parameters);
      if (!tool || !args) return undefined;
      return {
        turn: { toolCalls: [{ id: idOf(call), name: tool.name, args }] },
        args: `${quote(tool.name)}, ${JSON.stringify(args)}`,
      };
    },
  },
  duplicateCallIds: {
    params: TOOL,
    serve: (p, call) => {
      const tool = pickTool(call.tools, p.tool);
      if (!tool) return undefined;
      const args = validArgs(tool);
      const id = idOf(call);
      return {
        turn: { toolCalls: [{ id, name: tool.name, args }, { id, name: tool.name, args }] },
        args: quote(tool.name),
      };
    },
  },
  lengthMidToolCall: {
    params: TOOL,
    serve: (p, call) => {
      const tool = pickTool(call.tools, p.tool);
      if (!tool) return undefined;
      const cut: ToolCall = { id: idOf(call), name: tool.name, args: {}, rawArgs: truncated(tool) };
      return { turn: { toolCalls: [cut], finishReason: "length" }, args: quote(tool.name) };
    },
  },
};
