// The strict rules on a request's own fields, for all four wires: unknown
// fields (refused the way each API refuses them), ranges and enums, and the
// structure each API insists on (issue 36). Each wire's rule set spreads
// the entries here into its catalogue and runs the check first. The known
// fields are the official SDKs' request types, so nothing an official client
// sends is refused:
//
// - Chat Completions: openai-node 7.55.0 ChatCompletionCreateParamsBase;
// - Responses: openai-node 7.55.0 ResponseCreateParamsBase;
// - Messages: @anthropic-ai/sdk 0.122.0 and 1.10.0 MessageCreateParamsBase,
//   with their beta variants (output_format, mcp_servers, context_management, ...);
// - Gemini: ai.google.dev/api/generate-content GenerateContentRequest, and what
//   @google/genai 3.1.0 writes (generateContentParametersToMldev: contents,
//   generationConfig, systemInstruction, tools, toolConfig, safetySettings,
//   cachedContent, labels, serviceTier), each also in snake_case, which the
//   API's proto JSON reads too.
import { jsonType, obj, type RuleInfo, type RulesOff, type Violation } from "./_rules.ts";
import { openAIStrict } from "./_openai_chat_rules.ts";

const SPEC = "openai/openai-openapi openapi.yaml";

function v(rule: string, path: string, text: string, code?: string): Violation {
  return { rule, path, text, code };
}

const CHAT_FIELDS = new Set(
  ("messages model audio frequency_penalty function_call functions logit_bias logprobs " +
    "max_completion_tokens max_tokens metadata modalities moderation n parallel_tool_calls " +
    "prediction presence_penalty prompt_cache_key prompt_cache_options prompt_cache_retention " +
    "reasoning_effort response_format safety_identifier seed service_tier stop store stream " +
    "stream_options temperature tool_choice tools top_logprobs top_p user verbosity " +
    "web_search_options").split(" "),
);

const RESPONSES_FIELDS = new Set(
  ("access_programs background context_management conversation image include input " +
    "instructions max_output_tokens max_tool_calls metadata model moderation " +
    "parallel_tool_calls previous_response_id prompt prompt_cache_key prompt_cache_options " +
    "prompt_cache_retention reasoning safety_identifier service_tier store stream " +
    "stream_options temperature text tool_choice tools top_logprobs top_p truncation user")
    .split(" "),
);

const MESSAGES_FIELDS = new Set(
  ("max_tokens messages model billing_policy cache_control compaction container " +
    "context_management diagnostics fallback_credit_token fallbacks inference_geo mcp_servers " +
    "metadata output_config output_format service_tier speed stop_sequences stream system " +
    "temperature thinking thread tool_choice tools top_k top_p user_profile_id workspace_id")
    .split(" "),
);

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const both = (names: string): Set<string> =>
  new Set(names.split(" ").flatMap((n) => [n, snake(n)]));

const GEMINI_FIELDS = both(
  "contents model tools toolConfig safetySettings systemInstruction generationConfig " +
    "cachedContent labels serviceTier",
);

// Gemini's `parameters` is its OpenAPI-subset Schema, whose fields are these
// (@google/genai 3.1.0 Schema; ai.google.dev/api/caching#Schema): `$schema`,
// `const`, `additionalProperties` and the rest of JSON Schema belong in
// `parametersJsonSchema`.
const GEMINI_SCHEMA_FIELDS = both(
  "anyOf default description enum example format items maxItems maxLength maxProperties " +
    "maximum minItems minLength minProperties minimum nullable pattern properties " +
    "propertyOrdering required title type",
);

// ReasoningEffort in openai-node 7.55.0 resources/shared.d.ts.
const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

// -- OpenAI --------------------------------------------------------------

function unknownOpenAI(
  body: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
  chat: boolean,
): Violation | undefined {
  for (const k in body) {
    if (known.has(k)) continue;
    // Chat Completions and Responses word it differently (both as reported).
    return chat
      ? v("unknown-field", k, `Unrecognized request argument supplied: ${k}`)
      : v("unknown-field", k, `Unknown parameter: '${k}'.`, "unknown_parameter");
  }
  return undefined;
}

// A number field within [min, max], in OpenAI's words.
function range(
  value: unknown,
  path: string,
  min: number,
  max: number,
  integer: boolean,
): Violation | undefined {
  if (value === undefined || value === null) return undefined;
  const kind = integer ? "integer" : "decimal";
  if (typeof value !== "number" || (integer && !Number.isInteger(value))) {
    return v(
      "parameter-range",
      path,
      `Invalid type for '${path}': expected ${integer ? "an integer" : "a number"}, but got ${
        jsonType(value)
      } instead.`,
      "invalid_type",
    );
  }
  if (value < min) {
    return v(
      "parameter-range",
      path,
      `Invalid '${path}': ${kind} below minimum value. Expected a value >= ${min}, but got ${value} instead.`,
      `${kind}_below_min_value`,
    );
  }
  if (value > max) {
    return v(
      "parameter-range",
      path,
      `Invalid '${path}': ${kind} above maximum value. Expected a value <= ${max}, but got ${value} instead.`,
      `${kind}_above_max_value`,
    );
  }
  return undefined;
}

function effort(value: unknown, path: string): Violation | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && EFFORTS.includes(value)) return undefined;
  return v(
    "parameter-range",
    path,
    `Invalid value: '${String(value)}'. Supported values are: ${
      EFFORTS.map((e) => `'${e}'`).join(", ")
    }.`,
    "invalid_value",
  );
}

function streamOptions(body: Readonly<Record<string, unknown>>): Violation | undefined {
  if (body.stream_options === undefined || body.stream_options === null) return undefined;
  // A `stream` that is not a boolean is stream-type's to answer.
  if (body.stream !== undefined && body.stream !== null && body.stream !== false) return undefined;
  return v(
    "stream-options-without-stream",
    "stream_options",
    "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
  );
}

/** The Chat Completions request-field rules' catalogue entries. */
export const CHAT_FIELD_RULES: Readonly<Record<string, RuleInfo>> = {
  "unknown-field": {
    description:
      "A top-level field the API does not know (`top_k`, `stop_sequences`, a typo), refused with the API's own words.",
    source:
      `openai-node 7.55.0 ChatCompletionCreateParamsBase lists every field; the real error, as public clients that match on it quote it (provider-error parsers indexed by the search tool): "Unrecognized request argument supplied: top_k"`,
  },
  "parameter-range": {
    description:
      "`n` outside 1–128, `top_p` outside 0–1, `presence_penalty` / `frequency_penalty` outside −2–2, `top_logprobs` outside 0–20, `reasoning_effort` not one of the API's efforts, or `stop` with more than 4 sequences.",
    source:
      `${SPEC}: CreateChatCompletionRequest.n (minimum 1, maximum 128), top_p (0–1), presence_penalty / frequency_penalty (−2–2), top_logprobs (0–20), stop ("Up to 4 sequences", maxItems 4), ReasoningEffort (openai-node 7.55.0 shared.d.ts: none, minimal, low, medium, high, xhigh, max); the real errors' form, as public test tables of the API's answers quote it: "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead." (code "integer_below_min_value")`,
  },
  "stream-options-without-stream": {
    description: "`stream_options` on a request that does not stream.",
    source:
      `${SPEC}: ChatCompletionStreamOptions "Only set this when you set stream: true"; the real error, reported in BerriAI/litellm#5803: "The 'stream_options' parameter is only allowed when 'stream' is enabled." (param "stream_options", code null)`,
  },
  "tool-calls-empty": {
    description: "An assistant message with `tool_calls: []`.",
    source:
      `the real error, as public clients that strip empty lists quote it: "Invalid 'messages[2].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead." (the spec's ChatCompletionMessageToolCalls states no minimum; the API enforces one)`,
  },
  "json-schema-format": {
    description:
      "A `response_format` of type `json_schema` without its `json_schema` object (or without its `name`).",
    source:
      `${SPEC}: ResponseFormatJsonSchema requires json_schema, and json_schema requires name (the API's missing-parameter form: "Missing required parameter: '…'.", code "missing_required_parameter")`,
  },
};

/** The first Chat Completions request-field rule `body` breaks. */
export function chatFieldProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  if (!off.has("unknown-field")) {
    const bad = unknownOpenAI(body, CHAT_FIELDS, true);
    if (bad) return bad;
  }
  if (!off.has("parameter-range")) {
    const bad = range(body.n, "n", 1, 128, true) ||
      range(body.top_p, "top_p", 0, 1, false) ||
      range(body.presence_penalty, "presence_penalty", -2, 2, false) ||
      range(body.frequency_penalty, "frequency_penalty", -2, 2, false) ||
      range(body.top_logprobs, "top_logprobs", 0, 20, true) ||
      effort(body.reasoning_effort, "reasoning_effort");
    if (bad) return bad;
    if (Array.isArray(body.stop) && body.stop.length > 4) {
      return v(
        "parameter-range",
        "stop",
        `Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${body.stop.length} instead.`,
        "array_above_max_length",
      );
    }
  }
  if (!off.has("stream-options-without-stream")) {
    const bad = streamOptions(body);
    if (bad) return bad;
  }
  if (!off.has("tool-calls-empty") && Array.isArray(body.messages)) {
    const messages = body.messages;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i] as { role?: unknown; tool_calls?: unknown } | null;
      if (m?.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length === 0) {
        return v(
          "tool-calls-empty",
          `messages[${i}].tool_calls`,
          `Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
          "empty_array",
        );
      }
    }
  }
  if (!off.has("json-schema-format")) {
    const f = obj(body.response_format);
    if (f?.type === "json_schema") {
      const schema = obj(f.json_schema);
      if (!schema || typeof schema.name !== "string") {
        const path = schema ? "response_format.json_schema.name" : "response_format.json_schema";
        return v(
          "json-schema-format",
          path,
          `Missing required parameter: '${path}'.`,
          "missing_required_parameter",
        );
      }
    }
  }
  return undefined;
}

/** The Responses request-field rules' catalogue entries. */
export const RESPONSES_FIELD_RULES: Readonly<Record<string, RuleInfo>> = {
  "unknown-field": {
    description:
      "A top-level field the API does not know (`top_k`, `messages`, a Chat Completions field), refused with the API's own words.",
    source:
      `openai-node 7.55.0 ResponseCreateParamsBase lists every field; the real error's form, reported in Stack-Cairn/LiveAgent#334 ("Unknown parameter: 'input[32].status'.") and basketikun/infinite-canvas#85 ("Unknown parameter: 'response_format'."), code "unknown_parameter"`,
  },
  "parameter-range": {
    description:
      "`top_p` outside 0–1, `top_logprobs` outside 0–20, or `reasoning.effort` not one of the API's efforts.",
    source:
      `${SPEC}: CreateResponse top_p (0–1), top_logprobs (0–20), Reasoning.effort (ReasoningEffort, openai-node 7.55.0 shared.d.ts)`,
  },
  "stream-options-without-stream": {
    description: "`stream_options` on a request that does not stream.",
    source:
      `${SPEC}: CreateResponse.stream_options "Options for streaming responses. Only set this when you set stream: true."`,
  },
  "json-schema-format": {
    description: "A `text.format` of type `json_schema` without its `schema` or its `name`.",
    source:
      `${SPEC}: TextResponseFormatJsonSchema requires type, schema and name (the API's missing-parameter form: "Missing required parameter: '…'.", code "missing_required_parameter")`,
  },
};

/** The first Responses request-field rule `body` breaks. */
export function responsesFieldProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  if (!off.has("unknown-field")) {
    const bad = unknownOpenAI(body, RESPONSES_FIELDS, false);
    if (bad) return bad;
  }
  if (!off.has("parameter-range")) {
    const bad = range(body.top_p, "top_p", 0, 1, false) ||
      range(body.top_logprobs, "top_logprobs", 0, 20, true) ||
      effort(obj(body.reasoning)?.effort, "reasoning.effort");
    if (bad) return bad;
  }
  if (!off.has("stream-options-without-stream")) {
    const bad = streamOptions(body);
    if (bad) return bad;
  }
  const format = obj(obj(body.text)?.format);
  if (format?.type === "json_schema") {
    if (!off.has("json-schema-format")) {
      for (const key of ["name", "schema"]) {
        const ok = key === "name" ? typeof format.name === "string" : obj(format.schema);
        if (!ok) {
          return v(
            "json-schema-format",
            `text.format.${key}`,
            `Missing required parameter: 'text.format.${key}'.`,
            "missing_required_parameter",
          );
        }
      }
    }
    if (!off.has("strict-schema") && format.strict === true) {
      const bad = openAIStrict(format.schema, `text.format '${format.name}'`, "text.format.schema");
      if (bad) return bad;
    }
  }
  if (!off.has("strict-schema") && Array.isArray(body.tools)) {
    for (let i = 0; i < body.tools.length; i++) {
      const t = obj(body.tools[i]);
      if (t?.type !== "function" || t.strict !== true) continue;
      const bad = openAIStrict(t.parameters, `function '${t.name}'`, `tools[${i}].parameters`);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** The Responses `strict-schema` entry (the Chat one says the same of its fields). */
export const RESPONSES_STRICT_RULE: Readonly<Record<string, RuleInfo>> = {
  "strict-schema": {
    description:
      "A `strict: true` function tool (or `text.format` JSON schema) whose schema has an object without `additionalProperties: false`, or a property left out of `required`.",
    source:
      `OpenAI docs, Structured Outputs › Supported schemas: "additionalProperties: false must always be set in objects" and "all fields or function parameters must be specified as required"; ${SPEC}: FunctionTool.strict, TextResponseFormatJsonSchema.strict`,
  },
};

// -- Anthropic -----------------------------------------------------------

const ANTHROPIC_THINKING = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";

// The image types the API takes (Base64ImageSource.media_type in
// @anthropic-ai/sdk 1.10.0), and the documents.
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** The Messages request-field rules' catalogue entries. */
export const MESSAGES_FIELD_RULES: Readonly<Record<string, RuleInfo>> = {
  "unknown-field": {
    description:
      "A top-level field the API does not know (`response_format`, `n`, `stop`), refused as the API's validation does.",
    source:
      `@anthropic-ai/sdk 0.122.0 / 1.10.0 MessageCreateParamsBase (and the beta params) list every field; the real error's form (pydantic's extra-field message), as public clients that match on it quote it: "thinking: Extra inputs are not permitted"`,
  },
  "thinking-budget": {
    description:
      "`thinking.budget_tokens` under 1024, or not under `max_tokens`, with thinking enabled.",
    source:
      `Anthropic docs, Extended thinking (${ANTHROPIC_THINKING}): "The minimum budget is 1,024 tokens" and "budget_tokens must be set to a value less than max_tokens"; @anthropic-ai/sdk ThinkingConfigEnabled.budget_tokens "Must be ≥1024 and less than max_tokens"; the real error for the minimum, reported in tingly-dev/tingly-box#569: "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"; the 400 for a budget not under max_tokens, in griffinmartin/opencode-claude-auth#143 (whose text the fake words after the docs)`,
  },
  "thinking-temperature": {
    description:
      "A `temperature` other than 1, or a `top_k`, with thinking enabled (`top_p` below 0.95 too).",
    source:
      `Anthropic docs, Extended thinking › Feature compatibility: "Thinking isn't compatible with temperature or top_k modifications as well as forced tool use"; "you can set top_p to values between 1 and 0.95"; the real error, reported in MartialBE/one-hub#529: "\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking" (the API's text for top_k and top_p is not publicly quoted: the fake's names the field and the rule)`,
  },
  "thinking-tool-choice": {
    description: "A `tool_choice` of `any` or `tool` (forced tool use) with thinking enabled.",
    source:
      `Anthropic docs, Extended thinking › Extended thinking with tool use: "Tool use with thinking only supports tool_choice: {"type": "auto"} (the default) or tool_choice: {"type": "none"}"; the real error, reported in mastra-ai/mastra#7507 and can1357/oh-my-pi#341: "Thinking may not be enabled when tool_choice forces tool use."`,
  },
  "cache-control-limit": {
    description:
      "More than 4 `cache_control` breakpoints (on tools, system blocks and message blocks together).",
    source:
      `Anthropic docs, Prompt caching: "You can define up to 4 cache breakpoints"; the real error, reported in tghamm/Anthropic.SDK#50 and Wei-Shaw/sub2api#176: "A maximum of 4 blocks with cache_control may be provided. Found 5."`,
  },
  "media-type": {
    description:
      "A base64 image whose `media_type` is not image/jpeg, image/png, image/gif or image/webp (`image/bmp`, `image/tiff`).",
    source:
      `@anthropic-ai/sdk 1.10.0 Base64ImageSource.media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; Anthropic docs, Vision: "supported image formats: JPEG, PNG, GIF, WebP"; the real error, as public clients that match on it quote it: "messages.0.content.1.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"`,
  },
};

// Where a list of blocks is: a top-level field ("tools", "system"), or the
// content of the block or message `at` of the list `of` (`messages` for a
// message). Built into a path only for a bad image: the walk runs on every
// request, and a path string a list cost more than the walk.
type Where = string | { readonly of: Where; readonly at: number };

function path(w: Where): string {
  return typeof w === "string" ? w : `${path(w.of)}[${w.at}].content`;
}

// Counts cache_control marks in a list of blocks (or tools), and the first
// bad image among them, when asked.
function blocks(
  list: unknown,
  where: Where,
  state: { marks: number; image?: Violation; images: boolean },
): void {
  if (!Array.isArray(list)) return;
  for (let j = 0; j < list.length; j++) {
    const b = list[j] as Record<string, unknown> | null;
    if (b === null || typeof b !== "object") continue;
    // `in` first: most blocks have no cache_control, and reading a field a
    // block lacks, on blocks of every shape, cost most of this walk.
    if ("cache_control" in b && b.cache_control !== undefined && b.cache_control !== null) {
      state.marks++;
    }
    const type = b.type;
    if (state.images && !state.image && type === "image") {
      const src = obj(b.source);
      if (src?.type === "base64" && !IMAGE_TYPES.has(src.media_type as string)) {
        const at = path(where);
        state.image = v(
          "media-type",
          `${at}[${j}].source.media_type`,
          `${
            at.replace(/\[(\d+)\]/g, ".$1")
          }.${j}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
        );
      }
    }
    if (type === "tool_result") blocks(b.content, { of: where, at: j }, state);
  }
}

/** The first Messages request-field rule `body` breaks. */
export function messagesFieldProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  if (!off.has("unknown-field")) {
    for (const k in body) {
      if (!MESSAGES_FIELDS.has(k)) {
        return v("unknown-field", k, `${k}: Extra inputs are not permitted`);
      }
    }
  }
  const thinking = obj(body.thinking);
  if (thinking?.type === "enabled") {
    const budget = thinking.budget_tokens;
    if (!off.has("thinking-budget") && typeof budget === "number") {
      if (budget < 1024) {
        return v(
          "thinking-budget",
          "thinking.budget_tokens",
          "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
        );
      }
      if (typeof body.max_tokens === "number" && budget >= body.max_tokens) {
        return v(
          "thinking-budget",
          "thinking.budget_tokens",
          `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${ANTHROPIC_THINKING}#max-tokens-and-context-window-size`,
        );
      }
    }
  }
  if (thinking?.type === "enabled" || thinking?.type === "adaptive") {
    if (!off.has("thinking-temperature")) {
      const t = body.temperature;
      if (typeof t === "number" && t !== 1) {
        return v(
          "thinking-temperature",
          "temperature",
          "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking",
        );
      }
      if (body.top_k !== undefined && body.top_k !== null) {
        return v(
          "thinking-temperature",
          "top_k",
          `\`top_k\` is not supported when thinking is enabled. Please consult our documentation at ${ANTHROPIC_THINKING}#feature-compatibility`,
        );
      }
      if (typeof body.top_p === "number" && body.top_p < 0.95) {
        return v(
          "thinking-temperature",
          "top_p",
          `\`top_p\` must be greater than or equal to 0.95 or unset when thinking is enabled. Please consult our documentation at ${ANTHROPIC_THINKING}#feature-compatibility`,
        );
      }
    }
    const choice = obj(body.tool_choice)?.type;
    if (!off.has("thinking-tool-choice") && (choice === "any" || choice === "tool")) {
      return v(
        "thinking-tool-choice",
        "tool_choice",
        "Thinking may not be enabled when tool_choice forces tool use.",
      );
    }
  }
  const limit = !off.has("cache-control-limit");
  const images = !off.has("media-type");
  if (limit || images) {
    const state: { marks: number; image?: Violation; images: boolean } = { marks: 0, images };
    if (body.cache_control !== undefined && body.cache_control !== null) state.marks++;
    blocks(body.tools, "tools", state);
    blocks(body.system, "system", state);
    const messages = body.messages;
    if (Array.isArray(messages)) {
      for (let i = 0; i < messages.length; i++) {
        blocks(
          (messages[i] as { content?: unknown } | null)?.content,
          { of: "messages", at: i },
          state,
        );
      }
    }
    if (state.image) return state.image;
    if (limit && state.marks > 4) {
      return v(
        "cache-control-limit",
        "cache_control",
        `A maximum of 4 blocks with cache_control may be provided. Found ${state.marks}.`,
      );
    }
  }
  return undefined;
}

// -- Gemini --------------------------------------------------------------

/** The Gemini request-field rules' catalogue entries. */
export const GEMINI_FIELD_RULES: Readonly<Record<string, RuleInfo>> = {
  "unknown-field": {
    description:
      "A field the API does not know: at the top level (`temperature` outside `generationConfig`, `messages`), or in a function declaration's `parameters`, which is Gemini's Schema (`$schema`, `const`, `additionalProperties` belong in `parametersJsonSchema`).",
    source:
      `ai.google.dev/api/generate-content GenerateContentRequest and @google/genai 3.1.0 (generateContentParametersToMldev) list the request fields; ai.google.dev/api/caching#Schema and @google/genai Schema list the parameters fields; the real error's form, as public clients that match on it quote it: "Invalid JSON payload received. Unknown name \\"top_k\\"" (with " at '<path>': Cannot find field." for a nested one)`,
  },
};

function unknownGemini(name: string, at: string | undefined): Violation {
  return v(
    "unknown-field",
    at ? `${at}.${name}` : name,
    `Invalid JSON payload received. Unknown name "${name}"${
      at ? ` at '${at}'` : ""
    }: Cannot find field.`,
  );
}

// Where a Gemini Schema is: a declaration's `parameters`, or a subschema of
// the schema `of` (the value of its property `property`, its `items`, or
// its `anyOf[anyOf]`). Built into a path only for an unknown field: every
// declaration's schema is walked on every request, and a path string a
// subschema cost more than the walk.
type SchemaAt =
  | { readonly tool: number; readonly declaration: number }
  | { readonly of: SchemaAt; readonly property?: string; readonly anyOf?: number };

function schemaPath(at: SchemaAt): string {
  if ("tool" in at) return `tools[${at.tool}].function_declarations[${at.declaration}].parameters`;
  const of = schemaPath(at.of);
  if (at.property !== undefined) return `${of}.properties[${at.property}].value`;
  return at.anyOf !== undefined ? `${of}.any_of[${at.anyOf}]` : `${of}.items`;
}

// The first unknown field in a Gemini Schema, walked through its subschemas.
function schemaField(schema: unknown, at: SchemaAt): Violation | undefined {
  const s = obj(schema);
  if (!s) return undefined;
  for (const k in s) if (!GEMINI_SCHEMA_FIELDS.has(k)) return unknownGemini(k, schemaPath(at));
  const props = obj(s.properties);
  if (props) {
    for (const k in props) {
      const bad = schemaField(props[k], { of: at, property: k });
      if (bad) return bad;
    }
  }
  if (s.items !== undefined) {
    const items = schemaField(s.items, { of: at });
    if (items) return items;
  }
  const any = s.anyOf ?? s.any_of;
  if (Array.isArray(any)) {
    for (let i = 0; i < any.length; i++) {
      const bad = schemaField(any[i], { of: at, anyOf: i });
      if (bad) return bad;
    }
  }
  return undefined;
}

/** The first Gemini request-field rule `body` breaks. */
export function geminiFieldProblem(
  body: Readonly<Record<string, unknown>>,
  off: RulesOff,
): Violation | undefined {
  if (off.has("unknown-field")) return undefined;
  for (const k in body) if (!GEMINI_FIELDS.has(k)) return unknownGemini(k, undefined);
  const tools = body.tools;
  if (!Array.isArray(tools)) return undefined;
  for (let i = 0; i < tools.length; i++) {
    const t = obj(tools[i]);
    const decls = t?.functionDeclarations ?? t?.function_declarations;
    if (!Array.isArray(decls)) continue;
    for (let j = 0; j < decls.length; j++) {
      const d = obj(decls[j]);
      const bad = d && schemaField(d.parameters, { tool: i, declaration: j });
      if (bad) return bad;
    }
  }
  return undefined;
}
