// The strict rules of OpenAI Responses (POST /v1/responses).
import {
  openAIName,
  openAIParameters,
  openAIStream,
  openAITemperature,
  openAITokens,
} from "./_openai_chat_rules.ts";
import { jsonType, obj, ruleFlags, type RuleSet, type RulesOff, type Violation } from "./_rules.ts";

const SPEC = "openai/openai-openapi openapi.yaml";

// An input item that a reasoning item cannot be followed by: the reasoning
// belongs to an output of the model, and these are the client's.
function isClientItem(item: Record<string, unknown> | undefined): boolean {
  if (!item) return true;
  const type = item.type ?? "message";
  if (type === "function_call_output") return true;
  return type === "message" && item.role !== "assistant";
}

function missingOrType(path: string, value: unknown, expected: string): Violation {
  return value === undefined
    ? {
      rule: "message-content-type",
      path,
      text: `Missing required parameter: '${path}'.`,
      code: "missing_required_parameter",
    }
    : {
      rule: "message-content-type",
      path,
      text: `Invalid type for '${path}': expected ${expected}, but got ${jsonType(value)} instead.`,
      code: "invalid_type",
    };
}

// Which rules are on, by the names the check reads.
const flags = ruleFlags({
  content: "message-content-type",
  shape: "tool-call-shape",
  orphanOutput: "function-output-without-call",
  reasoning: "reasoning-item-orphaned",
  pairing: "function-call-without-output",
});
type On = ReturnType<typeof flags>;

// Paths are built only for the item that fails.
const at = (i: number): string => `input[${i}]`;

// The `call_id` of an item of `type` with a string one, else undefined.
function callId(item: unknown, type: string): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const it = item as { type?: unknown; call_id?: unknown };
  return it.type === type && typeof it.call_id === "string" ? it.call_id : undefined;
}

// Whether an item of `type` among `input[from..to)` has `id`, scanned from
// the end (a call is found just before its output), or with `forward` from the
// start (an output just after its call). A scan beats a Map and a Set a request.
function has(
  input: unknown[],
  from: number,
  to: number,
  type: string,
  id: string,
  forward = false,
): boolean {
  if (forward) {
    for (let k = from; k < to; k++) if (callId(input[k], type) === id) return true;
  } else {
    for (let k = to - 1; k >= from; k--) if (callId(input[k], type) === id) return true;
  }
  return false;
}

function inputProblem(
  input: unknown[],
  on: On,
  chained: boolean,
): Violation | undefined {
  let calls = false;
  for (let i = 0; i < input.length; i++) {
    const item = obj(input[i]);
    if (!item) continue;
    const type = item.type ?? "message";
    if (type === "message") {
      const c = item.content;
      if (
        on.content && typeof c !== "string" && !Array.isArray(c)
      ) return missingOrType(`${at(i)}.content`, c, "one of a string or array of objects");
    } else if (type === "function_call") {
      if (on.shape && typeof item.arguments !== "string") {
        return {
          rule: "tool-call-shape",
          path: `${at(i)}.arguments`,
          text: item.arguments === undefined
            ? `Missing required parameter: '${at(i)}.arguments'.`
            : `Invalid type for '${at(i)}.arguments': expected a string, but got ${
              jsonType(item.arguments)
            } instead.`,
          code: item.arguments === undefined ? "missing_required_parameter" : "invalid_type",
        };
      }
      if (typeof item.call_id === "string") calls = true;
    } else if (type === "function_call_output") {
      const id = item.call_id;
      const out = item.output;
      if (on.content && typeof out !== "string" && !Array.isArray(out)) {
        return missingOrType(`${at(i)}.output`, out, "one of a string or array of objects");
      }
      if (typeof id !== "string") continue;
      // A chained request's calls live in the stored response, not in input.
      if (!chained && on.orphanOutput && !has(input, 0, i, "function_call", id)) {
        return {
          rule: "function-output-without-call",
          path: `${at(i)}.call_id`,
          text: `No tool call found for function call output with call_id ${id}.`,
        };
      }
    } else if (type === "reasoning" && on.reasoning) {
      if (isClientItem(obj(input[i + 1]))) {
        return {
          rule: "reasoning-item-orphaned",
          path: at(i),
          text: `Item '${
            typeof item.id === "string" ? item.id : ""
          }' of type 'reasoning' was provided without its required following item.`,
        };
      }
    }
  }
  if (calls && on.pairing) {
    // Every call is answered by an output anywhere in the input; the first
    // call (in input order) without one is the one the API names.
    for (let k = 0; k < input.length; k++) {
      const id = callId(input[k], "function_call");
      // Outputs follow their calls: look after the call first, so a long
      // input is not scanned from its end once per call.
      if (
        id === undefined || has(input, k + 1, input.length, "function_call_output", id, true) ||
        has(input, 0, k, "function_call_output", id)
      ) continue;
      return {
        rule: "function-call-without-output",
        path: `input[${k}].call_id`,
        text: `No tool output found for function call ${id}.`,
      };
    }
  }
  return undefined;
}

function toolsProblem(tools: unknown, off: RulesOff): Violation | undefined {
  if (!Array.isArray(tools)) return undefined;
  for (let i = 0; i < tools.length; i++) {
    const t = obj(tools[i]);
    if (t?.type !== "function") continue;
    if (!off.has("tool-name-pattern")) {
      const bad = openAIName(t.name, `tools[${i}].name`, 128);
      if (bad) return bad;
    }
    if (!off.has("tool-schema-type")) {
      const bad = openAIParameters(t.parameters, t.name, `tools[${i}].parameters`);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** OpenAI Responses. */
export const openAIResponsesRules: RuleSet = {
  api: "responses",
  rules: {
    "function-call-without-output": {
      description:
        "A `function_call` input item with no `function_call_output` of the same `call_id` after it.",
      source:
        `Real error reported in openai/codex#93 and symgraph/GhidrAssist#78: "No tool output found for function call call_…." (type "invalid_request_error", param "input")`,
    },
    "function-output-without-call": {
      description:
        "A `function_call_output` whose `call_id` names no earlier `function_call` item (unless the request continues a stored response with `previous_response_id`).",
      source:
        `Real error reported in microsoft/vscode#320060 and continuedev/continue#10092: "No tool call found for function call output with call_id call_…." (param "input")`,
    },
    "reasoning-item-orphaned": {
      description:
        "A `reasoning` input item not followed by the output item it belongs to (the input ends, or a user message or function output comes next).",
      source:
        `Real error reported in continuedev/continue#8933 and openai/openai-node#1567: "Item 'rs_…' of type 'reasoning' was provided without its required following item." (param "input")`,
    },
    "tool-name-pattern": {
      description:
        "A function tool's `name` that is empty, holds characters outside `a-zA-Z0-9_-`, or is longer than 128.",
      source:
        `${SPEC}: FunctionToolParam.name has minLength 1, maxLength 128 and pattern ^[a-zA-Z0-9_-]+$`,
    },
    "message-content-type": {
      description:
        "A message item's `content`, or a `function_call_output`'s `output`, that is missing, null, or neither a string nor an array.",
      source:
        `${SPEC}: EasyInputMessage requires content (string or array of input items); FunctionCallOutputItemParam requires output (string or array)`,
    },
    "tool-call-shape": {
      description: "A `function_call` input item whose `arguments` is missing or not a string.",
      source:
        `${SPEC}: FunctionToolCall requires arguments, type string ("A JSON string of the arguments to pass to the function")`,
    },
    "tool-schema-type": {
      description:
        "A function tool's `parameters` that is not a JSON object (or null), or a `type` in it that is not a JSON Schema type.",
      source:
        `${SPEC}: FunctionToolParam.parameters is a JSON schema object or null; JSON Schema 2020-12 validation §6.1.1 lists the type names`,
    },
    "stream-type": {
      description: "`stream` that is not a boolean.",
      source: `${SPEC}: CreateResponse.stream is type boolean (nullable)`,
    },
    "temperature-range": {
      description: "`temperature` that is not a number from 0 to 2.",
      source:
        `${SPEC}: ModelResponseProperties.temperature (shared by CreateResponse) is a number with minimum 0 and maximum 2`,
    },
    "max-tokens-range": {
      description: "`max_output_tokens` that is not an integer of at least 16.",
      source:
        `${SPEC}: ResponseProperties.max_output_tokens is type integer; the real error for a smaller value, reported in vectorize-io/hindsight#58: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead." (code "integer_below_min_value")`,
    },
  },
  check(body, off) {
    const head = (!off.has("stream-type") && openAIStream(body)) ||
      (!off.has("temperature-range") && openAITemperature(body)) ||
      (!off.has("max-tokens-range") && openAITokens(body, "max_output_tokens", 16));
    if (head) return head;
    if (Array.isArray(body.input)) {
      const chained = typeof body.previous_response_id === "string";
      const bad = inputProblem(body.input, flags(off), chained);
      if (bad) return bad;
    }
    return toolsProblem(body.tools, off);
  },
};
