// The strict rules of OpenAI Chat Completions (POST /v1/chat/completions),
// and the OpenAI field checks the Responses rules share.
import {
  badSchemaType,
  isToolName,
  jsonType,
  obj,
  ruleFlags,
  type RuleSet,
  type RulesOff,
  type Violation,
} from "./_rules.ts";

const SPEC = "openai/openai-openapi openapi.yaml";

/** OpenAI's tool name pattern; the length limit is the API's own. */
const NAME = /^[a-zA-Z0-9_-]+$/;

function v(rule: string, path: string, text: string, code?: string): Violation {
  return { rule, path, text, code };
}

/** `stream` is a boolean (or null) on both OpenAI APIs. */
export function openAIStream(body: Readonly<Record<string, unknown>>): Violation | undefined {
  const s = body.stream;
  if (s === undefined || s === null || typeof s === "boolean") return undefined;
  return v(
    "stream-type",
    "stream",
    `Invalid type for 'stream': expected a boolean, but got ${jsonType(s)} instead.`,
    "invalid_type",
  );
}

/** `temperature` is a number from 0 to 2 on both OpenAI APIs. */
export function openAITemperature(body: Readonly<Record<string, unknown>>): Violation | undefined {
  const t = body.temperature;
  if (t === undefined || t === null) return undefined;
  const rule = "temperature-range";
  if (typeof t !== "number") {
    return v(
      rule,
      "temperature",
      `Invalid type for 'temperature': expected a number, but got ${jsonType(t)} instead.`,
      "invalid_type",
    );
  }
  if (t > 2) {
    return v(
      rule,
      "temperature",
      `Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got ${t} instead.`,
      "decimal_above_max_value",
    );
  }
  if (t < 0) {
    return v(
      rule,
      "temperature",
      `Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got ${t} instead.`,
      "decimal_below_min_value",
    );
  }
  return undefined;
}

/** An integer field with a floor (`max_tokens` >= 1, `max_output_tokens` >= 16). */
export function openAITokens(
  body: Readonly<Record<string, unknown>>,
  field: string,
  min: number | undefined,
): Violation | undefined {
  const n = body[field];
  if (n === undefined || n === null) return undefined;
  if (typeof n !== "number" || !Number.isInteger(n)) {
    return v(
      "max-tokens-range",
      field,
      `Invalid type for '${field}': expected an integer, but got ${jsonType(n)} instead.`,
      "invalid_type",
    );
  }
  if (min !== undefined && n < min) {
    return v(
      "max-tokens-range",
      field,
      `Invalid '${field}': integer below minimum value. Expected a value >= ${min}, but got ${n} instead.`,
      "integer_below_min_value",
    );
  }
  return undefined;
}

/** Whether a function name passes: the pattern, and at most `max` characters. */
function fine(name: string, max: number): boolean {
  return isToolName(name, max);
}

/** A function name: `^[a-zA-Z0-9_-]+$`, at most `max` characters. */
export function openAIName(name: unknown, path: string, max: number): Violation | undefined {
  if (typeof name !== "string" || isToolName(name, max)) return undefined;
  if (!NAME.test(name)) {
    return v(
      "tool-name-pattern",
      path,
      `Invalid '${path}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      "invalid_value",
    );
  }
  if (name.length > max) {
    return v(
      "tool-name-pattern",
      path,
      `Invalid '${path}': string too long. Expected a string with maximum length ${max}, but got a string with length ${name.length} instead.`,
      "string_above_max_length",
    );
  }
  return undefined;
}

/** A function's `parameters`: absent, or a JSON Schema object whose types are JSON Schema types. */
export function openAIParameters(
  params: unknown,
  name: unknown,
  path: string,
): Violation | undefined {
  if (params === undefined || params === null) return undefined;
  const fn = typeof name === "string" ? name : "";
  const schema = obj(params);
  if (!schema) {
    return v(
      "tool-schema-type",
      path,
      `Invalid schema for function '${fn}': ${
        JSON.stringify(params)
      } is not of type 'object', 'boolean'.`,
      "invalid_function_parameters",
    );
  }
  const bad = badSchemaType(schema, path);
  if (!bad) return undefined;
  return v(
    "tool-schema-type",
    bad[0],
    `Invalid schema for function '${fn}': ${
      JSON.stringify(bad[1])
    } is not valid under any of the given schemas.`,
    "invalid_function_parameters",
  );
}

// Structured Outputs' subset: every object closes (additionalProperties:
// false) and requires each of its properties. Walked only for `strict: true`.
function strictProblem(schema: Record<string, unknown>, context: string): string | undefined {
  const props = obj(schema.properties);
  const t = schema.type;
  if (t === "object" || (Array.isArray(t) && t.includes("object")) || props) {
    if (schema.additionalProperties !== false) {
      return `In context=${context}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const k in props) {
      if (!required.includes(k)) {
        return `In context=${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${k}'.`;
      }
    }
  }
  const inner = context === "()" ? "" : `${context.slice(1, -1)}, `;
  for (const k in props) {
    const sub = obj(props![k]);
    const bad = sub && strictProblem(sub, `(${inner}'properties', '${k}')`);
    if (bad) return bad;
  }
  const items = obj(schema.items);
  if (items) {
    const bad = strictProblem(items, `(${inner}'items')`);
    if (bad) return bad;
  }
  for (const key of ["anyOf", "$defs", "definitions"]) {
    const group = schema[key];
    const entries = Array.isArray(group)
      ? group.map((s, i) => [String(i), s] as const)
      : Object.entries(obj(group) ?? {});
    for (const [k, s] of entries) {
      const sub = obj(s);
      const bad = sub && strictProblem(sub, `(${inner}'${key}', '${k}')`);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** A `strict: true` schema outside the Structured Outputs subset. */
export function openAIStrict(
  schema: unknown,
  what: string,
  path: string,
): Violation | undefined {
  const s = obj(schema);
  const problem = s && strictProblem(s, "()");
  if (!problem) return undefined;
  return v(
    "strict-schema",
    path,
    `Invalid schema for ${what}: ${problem}`,
    "invalid_function_parameters",
  );
}

function contentProblem(
  content: unknown,
  i: number,
  optional: boolean,
): Violation | undefined {
  if (typeof content === "string") return undefined;
  const path = `messages[${i}].content`;
  if (content === undefined || (content === null && optional)) {
    if (optional) return undefined;
    return v(
      "message-content-type",
      path,
      `Missing required parameter: '${path}'.`,
      "missing_required_parameter",
    );
  }
  if (!Array.isArray(content)) {
    return v(
      "message-content-type",
      path,
      `Invalid type for '${path}': expected one of a string or array of objects, but got ${
        jsonType(content)
      } instead.`,
      "invalid_type",
    );
  }
  for (let j = 0; j < content.length; j++) {
    const part = obj(content[j]);
    if (part && (part.type !== "text" || typeof part.text === "string")) continue;
    const at = `${path}[${j}]`;
    if (!part) {
      return v(
        "message-content-type",
        at,
        `Invalid type for '${at}': expected an object, but got ${jsonType(content[j])} instead.`,
        "invalid_type",
      );
    }
    return v(
      "message-content-type",
      `${at}.text`,
      part.text === undefined
        ? `Missing required parameter: '${at}.text'.`
        : `Invalid type for '${at}.text': expected a string, but got ${
          jsonType(part.text)
        } instead.`,
      part.text === undefined ? "missing_required_parameter" : "invalid_type",
    );
  }
  return undefined;
}

// Which rules are on, by the names the check reads.
const flags = ruleFlags({
  content: "message-content-type",
  shape: "tool-call-shape",
  name: "tool-name-pattern",
  orphan: "tool-message-without-call",
  pairing: "tool-call-without-result",
});
type On = ReturnType<typeof flags>;

function callsProblem(calls: unknown[], i: number, on: On): Violation | undefined {
  for (let j = 0; j < calls.length; j++) {
    const c = obj(calls[j]);
    const f = obj(c?.function);
    if (on.shape && c && f && typeof f.arguments !== "string") {
      const at = `messages[${i}].tool_calls[${j}].function.arguments`;
      return v(
        "tool-call-shape",
        at,
        f.arguments === undefined
          ? `Missing required parameter: '${at}'.`
          : `Invalid type for '${at}': expected a string, but got ${
            jsonType(f.arguments)
          } instead.`,
        f.arguments === undefined ? "missing_required_parameter" : "invalid_type",
      );
    }
    const name = f?.name;
    if (on.name && typeof name === "string" && !fine(name, 64)) {
      return openAIName(name, `messages[${i}].tool_calls[${j}].function.name`, 64);
    }
  }
  return undefined;
}

// Whether one of `calls` has the id (a turn has a few calls: a scan beats a Set).
function called(calls: unknown[], id: string): boolean {
  for (const c of calls) if ((c as { id?: unknown } | null)?.id === id) return true;
  return false;
}

// Whether a `tool` message among `messages[from..to)` answers `id`.
function answered(messages: unknown[], from: number, to: number, id: string): boolean {
  for (let k = from; k < to; k++) {
    const m = messages[k] as { role?: unknown; tool_call_id?: unknown } | null;
    if (m?.role === "tool" && m.tool_call_id === id) return true;
  }
  return false;
}

// The calls of the assistant message at `at` that no tool message before
// `to` answers, as the API words it; a turn that passes allocates nothing.
function unanswered(
  calls: unknown[],
  messages: unknown[],
  at: number,
  to: number,
): Violation | undefined {
  let missing: string[] | undefined;
  let first = -1;
  for (let j = 0; j < calls.length; j++) {
    const id = (calls[j] as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || answered(messages, at + 1, to, id)) continue;
    if (!missing) [missing, first] = [[], j];
    missing.push(id);
  }
  if (!missing) return undefined;
  return v(
    "tool-call-without-result",
    `messages[${at}].tool_calls[${first}].id`,
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${
      missing.join(", ")
    }`,
  );
}

function messagesProblem(messages: unknown[], off: RulesOff): Violation | undefined {
  const on = flags(off);
  // The tool calls of the last assistant turn while its results come.
  let calls: unknown[] | undefined;
  let callsAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = obj(messages[i]);
    if (!m) continue;
    if (m.role === "tool") {
      const id = m.tool_call_id;
      if (on.orphan && typeof id === "string" && !(calls && called(calls, id))) {
        return v(
          "tool-message-without-call",
          `messages[${i}].tool_call_id`,
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        );
      }
    } else {
      if (calls && on.pairing) {
        const bad = unanswered(calls, messages, callsAt, i);
        if (bad) return bad;
      }
      calls = undefined;
    }
    const toolCalls = m.role === "assistant" && Array.isArray(m.tool_calls) &&
        m.tool_calls.length > 0
      ? m.tool_calls
      : undefined;
    if (on.content) {
      // A legacy `function_call` makes content optional as `tool_calls` does
      // (ChatCompletionRequestAssistantMessage.content: "Required unless
      // tool_calls or function_call is specified").
      const optional = toolCalls !== undefined ||
        (m.role === "assistant" && obj(m.function_call) !== undefined);
      const bad = contentProblem(m.content, i, optional);
      if (bad) return bad;
    }
    if (toolCalls) {
      calls = toolCalls;
      callsAt = i;
      const bad = callsProblem(toolCalls, i, on);
      if (bad) return bad;
    }
  }
  return calls && on.pairing ? unanswered(calls, messages, callsAt, messages.length) : undefined;
}

function toolsProblem(tools: unknown, off: RulesOff): Violation | undefined {
  if (!Array.isArray(tools)) return undefined;
  const name = !off.has("tool-name-pattern");
  const schema = !off.has("tool-schema-type");
  const strict = !off.has("strict-schema");
  for (let i = 0; i < tools.length; i++) {
    const f = obj(obj(tools[i])?.function);
    if (!f) continue;
    if (name && typeof f.name === "string" && !fine(f.name, 64)) {
      return openAIName(f.name, `tools[${i}].function.name`, 64);
    }
    if (schema) {
      const bad = openAIParameters(f.parameters, f.name, `tools[${i}].function.parameters`);
      if (bad) return bad;
    }
    if (strict && f.strict === true) {
      const bad = openAIStrict(
        f.parameters,
        `function '${f.name}'`,
        `tools[${i}].function.parameters`,
      );
      if (bad) return bad;
    }
  }
  return undefined;
}

function formatProblem(format: unknown): Violation | undefined {
  const f = obj(format);
  const schema = obj(f?.json_schema);
  if (f?.type !== "json_schema" || schema?.strict !== true) return undefined;
  return openAIStrict(
    schema.schema,
    `response_format '${schema.name}'`,
    "response_format.json_schema.schema",
  );
}

/** OpenAI Chat Completions. */
export const openAIChatRules: RuleSet = {
  api: "chat.completions",
  rules: {
    "messages-empty": {
      description: "`messages` is an empty array.",
      source:
        `${SPEC}: CreateChatCompletionRequest.messages has minItems: 1; the real error, reported in CopilotKit/CopilotKit#529: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead." (code "empty_array")`,
    },
    "tool-message-without-call": {
      description:
        "A `tool` message whose `tool_call_id` answers no call of the assistant message before it.",
      source:
        `Real error reported in openai/openai-go#43 and run-llama/llama_index#10493: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."`,
    },
    "tool-call-without-result": {
      description:
        "An assistant `tool_calls` id with no `tool` message answering it before the next non-tool message (or the end).",
      source:
        `Real error reported in sdcb/chats#132 and aliasrobotics/cai#111: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_…"`,
    },
    "tool-name-pattern": {
      description:
        "A function name (in `tools` or in an assistant's `tool_calls`) that is empty, holds characters outside `a-zA-Z0-9_-`, or is longer than 64.",
      source:
        `${SPEC}: FunctionObject.name "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."; the real error, reported in brekkylab/ailoy#109: "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'." (code "invalid_value"), and for a call's name in mcp-use/mcp-use#90 (param "messages[9].tool_calls[0].function.name")`,
    },
    "strict-schema": {
      description:
        "A `strict: true` function (or `response_format` JSON schema) whose schema has an object without `additionalProperties: false`, or a property left out of `required`.",
      source:
        `OpenAI docs, Structured Outputs › Supported schemas (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): "additionalProperties: false must always be set in objects" and "all fields or function parameters must be specified as required"; ${SPEC}: FunctionObject.strict "Only a subset of JSON Schema is supported when strict is true"`,
    },
    "message-content-type": {
      description:
        "A message `content` that is missing or null (allowed only on an assistant message with `tool_calls`), not a string or an array of parts, or a text part without a string `text`.",
      source:
        `${SPEC}: ChatCompletionRequestUserMessage, …SystemMessage, …DeveloperMessage and …ToolMessage list content as required (string or array of content parts); ChatCompletionRequestAssistantMessage.content "Required unless tool_calls or function_call is specified."`,
    },
    "tool-call-shape": {
      description: "An assistant tool call whose `function.arguments` is missing or not a string.",
      source:
        `${SPEC}: ChatCompletionMessageToolCall.function requires name and arguments, arguments of type string ("The arguments to call the function with, as generated by the model in JSON format")`,
    },
    "tool-schema-type": {
      description:
        "A function's `parameters` that is not a JSON object (a string, an array), or a `type` in it that is not a JSON Schema type.",
      source:
        `${SPEC}: FunctionParameters is "a JSON Schema object"; JSON Schema 2020-12 validation §6.1.1 lists the type names; the real error for a non-object schema, reported in FoundationAgents/OpenManus#1162: "Invalid schema for function '…': [] is not of type 'object', 'boolean'." (code "invalid_function_parameters")`,
    },
    "stream-type": {
      description:
        '`stream` that is not a boolean (`"true"`, a string, would be answered as JSON).',
      source: `${SPEC}: CreateChatCompletionRequest.stream is type boolean (nullable)`,
    },
    "temperature-range": {
      description: "`temperature` that is not a number from 0 to 2.",
      source:
        `${SPEC}: ModelResponseProperties.temperature is a number with minimum 0 and maximum 2 ("What sampling temperature to use, between 0 and 2")`,
    },
    "max-tokens-range": {
      description:
        "`max_tokens` that is not an integer of at least 1, or `max_completion_tokens` that is not an integer.",
      source:
        `${SPEC}: max_tokens and max_completion_tokens are type integer; the real error for max_tokens below 1, reported in YSocialTwin/YClient#6: "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got -1 instead"`,
    },
  },
  check(body, off) {
    const head = (!off.has("stream-type") && openAIStream(body)) ||
      (!off.has("temperature-range") && openAITemperature(body)) ||
      (!off.has("max-tokens-range") &&
        (openAITokens(body, "max_tokens", 1) ||
          openAITokens(body, "max_completion_tokens", undefined)));
    if (head) return head;
    const messages = body.messages;
    if (Array.isArray(messages)) {
      if (messages.length === 0 && !off.has("messages-empty")) {
        return v(
          "messages-empty",
          "messages",
          "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
          "empty_array",
        );
      }
      const bad = messagesProblem(messages, off);
      if (bad) return bad;
    }
    return toolsProblem(body.tools, off) ||
      (!off.has("strict-schema") ? formatProblem(body.response_format) : undefined);
  },
};
