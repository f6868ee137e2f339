// The model's own misbehaviour as chaos faults: each kind is a `misbehave`
// builder, and its fault plays the builder's own turn in place of the
// script's, so the schedule and the reproduction read as that builder's call.
import type { JsonSchema } from "../../ports/tool_spec.ts";
import { misbehave, type MisbehaviourKind, misbehaviourOf } from "../llm/misbehave.ts";
import type { Turn } from "../llm/turn.ts";
import { type Fc, type ModelFault, NO_PARAMS, pickTool, type ServedFault } from "./_fault_kit.ts";

/** The name `unknownTool` calls, unless the agent offers a tool by that name. */
export const UNKNOWN_TOOL = "no_such_tool";

const TOOL = (fc: Fc) => fc.record({ tool: fc.nat({ max: 7 }) });

// The builder's turn, its source for the reproduction, and its arguments as
// the schedule shows them (`"lookup"` of `misbehave.invalidToolJson("lookup")`).
function served(turn: Turn): ServedFault {
  const { kind, source } = misbehaviourOf(turn)!;
  return { turn, source, args: source.slice(`misbehave.${kind}(`.length, -1) };
}

// Arguments of the wrong type for the first property the schema types
// (the required one first): JSON the schema refuses.
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

// A kind that calls one of the request's tools: not applicable when none is offered.
function onTool(build: (name: string) => Turn): ModelFault {
  return {
    params: TOOL,
    serve: (p, call) => {
      const tool = pickTool(call.tools, p.tool);
      return tool ? served(build(tool.name)) : undefined;
    },
  };
}

const plain = (build: () => Turn): ModelFault => ({
  params: NO_PARAMS,
  serve: () => served(build()),
});

/** Every `misbehave` kind as a model fault, in the order of `MISBEHAVIOUR_KINDS`. */
export const TURN_FAULTS: Readonly<Record<MisbehaviourKind, ModelFault>> = {
  invalidToolJson: onTool((name) => misbehave.invalidToolJson(name)),
  schemaViolatingArgs: {
    params: TOOL,
    serve: (p, call) => {
      const tool = pickTool(call.tools, p.tool);
      const args = tool && violating(tool.parameters);
      return tool && args ? served(misbehave.schemaViolatingArgs(tool.name, args)) : undefined;
    },
  },
  unknownTool: {
    params: NO_PARAMS,
    serve: (_, call) =>
      served(
        call.tools.some((t) => t.name === UNKNOWN_TOOL)
          ? misbehave.unknownTool(`${UNKNOWN_TOOL}_2`)
          : misbehave.unknownTool(),
      ),
  },
  duplicateCallIds: onTool((name) => misbehave.duplicateCallIds(name)),
  lengthMidToolCall: onTool((name) => misbehave.lengthMidToolCall(name)),
  emptyAnswer: plain(() => misbehave.emptyAnswer()),
  refusal: plain(() => misbehave.refusal()),
  contentFilter: plain(() => misbehave.contentFilter()),
  reasoningOnly: plain(() => misbehave.reasoningOnly()),
  malformedToolCall: plain(() => misbehave.malformedToolCall()),
};
