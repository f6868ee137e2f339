// The shape catalogue: what each provider API sends, per kind of answer
// (a blocking body, each stream event, an error), field by field, with where
// it is written down and whether it is always there. FakeProvider's answers
// are held against it (tests/testing/http/shapes_test.ts), and
// docs/providers.md's table of what the fake sends is written from it
// (scripts/wire_shapes_table.ts).
//
// A field is "always" when the real API sends it in every answer of that
// kind: the official SDK types it as required (Stainless-generated SDKs mark
// a field required only when the API always sends it), or the provider's
// published example / recorded traffic shows it on every answer. Fields sent
// only sometimes (a refusal's text, a tool call's `tool_calls`) are listed
// with `always: false` and are checked for their type when present.
//
// A path is dotted; `[]` is every element of an array, `[type=x]` every
// element whose `type` is x. A type is JSON's (`string`, `number`,
// `integer`, `boolean`, `null`, `object`, `array`), alternatives joined by
// `|`, or `@kind`: an object of another kind of this API.
import type { ProviderApi } from "./_wire.ts";
import { type Shape, type ShapeField, shapeProblems as problems } from "./_shape_check.ts";

export type { Shape, ShapeField };

// Sources, named once.
const OAI_SPEC = "openai/openai-openapi openapi.yaml";
const OAI_CHAT = "openai-node 7.55.0 resources/chat/completions/completions.d.ts";
const OAI_USAGE = "openai-node 7.55.0 resources/completions.d.ts CompletionUsage";
const OAI_RESP = "openai-node 7.55.0 resources/responses/responses.d.ts";
const OAI_CHAT_EX =
  `${OAI_SPEC}: the chat.completion example (usage details with every count, service_tier "default")`;
const OAI_CHUNK_EX =
  `${OAI_SPEC}: the chat.completion.chunk example (system_fingerprint "fp_44709d6fcb")`;
const OAI_OBF =
  `${OAI_SPEC}: stream_options.include_obfuscation ("obfuscation fields are included by default")`;
const OAI_RESP_EX =
  `${OAI_SPEC}: the Response example of responses.create (completed_at, reasoning, store, text, usage.input_tokens_details.cache_write_tokens)`;
const OAI_RESP_REC =
  "recorded Responses traffic, as issue 36 measured it (background, billing, max_tool_calls, prompt_cache_key, prompt_cache_retention, safety_identifier, service_tier, text.verbosity, top_logprobs, user)";
const OAI_ERR = `${OAI_SPEC}: Error (message, type, param, code)`;
const ANT = "@anthropic-ai/sdk 1.10.0 resources/messages/messages.d.ts";
const ANT_STREAM =
  "Anthropic API reference, Streaming Messages: the event flow (message_start, content_block_start, ping, deltas, content_block_stop, message_delta, message_stop)";
const ANT_ERR = 'Anthropic API reference, Errors: { type: "error", error: { type, message } }';
const ANT_ERR_BODY =
  "@anthropic-ai/sdk 1.10.0 resources/shared.d.ts ErrorResponse (type, error, request_id: required; the id of the request-id header)";
const ANT_REC =
  'a recorded claude-sonnet-4-5 stream (message_start usage: ..., "service_tier":"standard","inference_geo":"not_available"; no server_tool_use, output_tokens_details or speed)';
const GEM = "@google/genai 3.1.0 dist/genai.d.ts GenerateContentResponse";
const GEM_REF =
  "ai.google.dev/api/generate-content: GenerateContentResponse, Candidate, UsageMetadata, ModalityTokenCount";
const GEM_REC =
  "recorded Gemini traffic: usageMetadata with promptTokensDetails on every chunk, modelVersion and responseId on every chunk";
const GEM_REC_2026 =
  'recorded gemini-2.5-flash and gemini-3.1-pro answers of 2026: usageMetadata ends "serviceTier": "standard"; thoughtsTokenCount when the model thought; no candidatesTokensDetails (gemini-2.0 answers carry it)';
const GEM_ERR =
  "ai.google.dev/gemini-api/docs/troubleshooting: { error: { code, message, status } }";

type Row = readonly [path: string, type: string, always: boolean, source: string];

function shape(api: ProviderApi, kind: string, when: string, rows: readonly Row[]): Shape {
  return Object.freeze({
    api,
    kind,
    when,
    fields: Object.freeze(
      rows.map(([path, type, always, source]) => Object.freeze({ path, type, always, source })),
    ),
  });
}

const chatUsage = (at: string): Row[] => [
  [`${at}prompt_tokens`, "integer", true, OAI_USAGE],
  [`${at}completion_tokens`, "integer", true, OAI_USAGE],
  [`${at}total_tokens`, "integer", true, OAI_USAGE],
  [`${at}prompt_tokens_details.cached_tokens`, "integer", true, OAI_CHAT_EX],
  [`${at}prompt_tokens_details.audio_tokens`, "integer", true, OAI_CHAT_EX],
  [`${at}completion_tokens_details.reasoning_tokens`, "integer", true, OAI_CHAT_EX],
  [`${at}completion_tokens_details.audio_tokens`, "integer", true, OAI_CHAT_EX],
  [`${at}completion_tokens_details.accepted_prediction_tokens`, "integer", true, OAI_CHAT_EX],
  [`${at}completion_tokens_details.rejected_prediction_tokens`, "integer", true, OAI_CHAT_EX],
];

const chatCall = (at: string, always: boolean): Row[] => [
  [`${at}id`, "string", always, OAI_CHAT],
  [`${at}type`, "string", always, OAI_CHAT],
  [`${at}function.name`, "string", always, OAI_CHAT],
  [`${at}function.arguments`, "string", true, OAI_CHAT],
];

const CHAT: Shape[] = [
  shape("chat.completions", "chat.completion", "a blocking answer", [
    ["id", "string", true, `${OAI_CHAT} ChatCompletion; chatcmpl- + 29 (${OAI_SPEC} examples)`],
    ["object", "string", true, OAI_CHAT],
    ["created", "integer", true, OAI_CHAT],
    ["model", "string", true, OAI_CHAT],
    ["choices[].index", "integer", true, OAI_CHAT],
    ["choices[].message.role", "string", true, OAI_CHAT],
    ["choices[].message.content", "string|null", true, OAI_CHAT],
    ["choices[].message.refusal", "string|null", true, OAI_CHAT],
    ["choices[].message.annotations", "array", true, OAI_CHAT_EX],
    ["choices[].message.tool_calls", "array", false, OAI_CHAT],
    ...chatCall("choices[].message.tool_calls[].", true),
    ["choices[].logprobs", "null", true, OAI_CHAT],
    ["choices[].finish_reason", "string", true, OAI_CHAT],
    ["usage", "object", true, OAI_CHAT],
    ...chatUsage("usage."),
    ["service_tier", "string", true, OAI_CHAT_EX],
    ["system_fingerprint", "string", true, OAI_CHUNK_EX],
  ]),
  shape("chat.completions", "chat.completion.chunk", "each streamed chunk", [
    ["id", "string", true, `${OAI_CHAT} ChatCompletionChunk`],
    ["object", "string", true, OAI_CHAT],
    ["created", "integer", true, OAI_CHAT],
    ["model", "string", true, OAI_CHAT],
    ["service_tier", "string", true, `${OAI_CHAT} ChatCompletionChunk.service_tier`],
    ["system_fingerprint", "string", true, OAI_CHUNK_EX],
    ["choices", "array", true, OAI_CHAT],
    ["choices[].index", "integer", true, OAI_CHAT],
    ["choices[].delta", "object", true, OAI_CHAT],
    ["choices[].delta.role", "string", false, OAI_CHAT],
    ["choices[].delta.content", "string|null", false, OAI_CHAT],
    ["choices[].delta.refusal", "string|null", false, OAI_CHAT],
    ["choices[].delta.tool_calls[].index", "integer", false, OAI_CHAT],
    ["choices[].logprobs", "null", true, OAI_CHAT],
    ["choices[].finish_reason", "string|null", true, OAI_CHAT],
    ["obfuscation", "string", true, OAI_OBF],
    [
      "usage",
      "object|null",
      false,
      `${OAI_CHAT} ChatCompletionChunk.usage: "null" on every chunk but the last when stream_options.include_usage is set; absent otherwise`,
    ],
  ]),
  shape("chat.completions", "chat.completion.chunk (usage)", "the last chunk, with include_usage", [
    ["choices", "array", true, `${OAI_CHAT} ChatCompletionChunk.usage ("choices" is empty)`],
    ["usage", "object", true, OAI_CHAT],
    ...chatUsage("usage."),
  ]),
  shape(
    "chat.completions",
    "error",
    "a refused or failed request (a 4xx/5xx body, or a stream's error chunk)",
    [
      ["error.message", "string", true, OAI_ERR],
      ["error.type", "string", true, OAI_ERR],
      ["error.param", "string|null", true, OAI_ERR],
      ["error.code", "string|null", true, OAI_ERR],
    ],
  ),
];

const respItem: Row[] = [
  ["id", "string", true, `${OAI_RESP} ResponseOutputItem; msg_/fc_/rs_ + 50 hex`],
  ["type", "string", true, OAI_RESP],
  ["status", "string", false, OAI_RESP],
  ["role", "string", false, `${OAI_RESP} ResponseOutputMessage`],
  ["content", "array", false, `${OAI_RESP} ResponseOutputMessage`],
  ["call_id", "string", false, `${OAI_RESP} ResponseFunctionToolCall`],
  ["name", "string", false, `${OAI_RESP} ResponseFunctionToolCall`],
  ["arguments", "string", false, `${OAI_RESP} ResponseFunctionToolCall`],
  ["summary", "array", false, `${OAI_RESP} ResponseReasoningItem`],
];

const at = (prefix: string, rows: Row[]): Row[] =>
  rows.map(([p, t, a, s]) => [`${prefix}${p}`, t, a, s] as const);

const RESP_EVENT: Row[] = [
  ["type", "string", true, `${OAI_RESP} ResponseStreamEvent`],
  ["sequence_number", "integer", true, `${OAI_RESP} ResponseStreamEvent`],
];

const RESPONSES: Shape[] = [
  shape(
    "responses",
    "response",
    "a blocking answer, and the `response` of response.created / in_progress / completed / incomplete",
    [
      ["id", "string", true, `${OAI_RESP} Response; resp_ + 50 hex`],
      [
        "access_programs",
        "object|null",
        true,
        `${OAI_RESP} Response.access_programs (required; null for the implicit Standard program)`,
      ],
      ["object", "string", true, OAI_RESP],
      ["created_at", "integer", true, OAI_RESP],
      ["status", "string", true, OAI_RESP_EX],
      ["background", "boolean", true, OAI_RESP_REC],
      ["billing.payer", "string", true, OAI_RESP_REC],
      ["completed_at", "integer|null", true, OAI_RESP_EX],
      ["error", "object|null", true, OAI_RESP],
      ["incomplete_details", "object|null", true, OAI_RESP],
      ["instructions", "string|array|null", true, OAI_RESP],
      ["max_output_tokens", "integer|null", true, OAI_RESP_EX],
      ["max_tool_calls", "integer|null", true, OAI_RESP_REC],
      ["model", "string", true, OAI_RESP],
      ["output", "array", true, OAI_RESP],
      ...at("output[].", respItem),
      ["output[type=message].content[].type", "string", true, OAI_RESP],
      ["output[type=message].content[type=output_text].text", "string", true, OAI_RESP],
      ["output[type=message].content[type=output_text].annotations", "array", true, OAI_RESP],
      ["output[type=message].content[type=output_text].logprobs", "array", true, OAI_RESP_REC],
      ["parallel_tool_calls", "boolean", true, OAI_RESP],
      ["previous_response_id", "string|null", true, OAI_RESP_EX],
      ["prompt_cache_key", "string|null", true, OAI_RESP_REC],
      ["prompt_cache_retention", "string|null", true, OAI_RESP_REC],
      ["reasoning.effort", "string|null", true, OAI_RESP_EX],
      ["reasoning.summary", "string|null", true, OAI_RESP_EX],
      ["safety_identifier", "string|null", true, OAI_RESP_REC],
      ["service_tier", "string", true, OAI_RESP_REC],
      ["store", "boolean", true, OAI_RESP_EX],
      ["temperature", "number|null", true, OAI_RESP],
      ["text.format.type", "string", true, OAI_RESP_EX],
      ["text.verbosity", "string", true, OAI_RESP_REC],
      ["tool_choice", "string|object", true, OAI_RESP],
      ["tools", "array", true, OAI_RESP],
      ["top_logprobs", "integer", true, OAI_RESP_REC],
      ["top_p", "number|null", true, OAI_RESP],
      ["truncation", "string", true, OAI_RESP_EX],
      ["usage", "object|null", true, OAI_RESP_EX],
      ["usage.input_tokens", "integer", false, `${OAI_RESP} ResponseUsage`],
      ["usage.input_tokens_details.cached_tokens", "integer", false, `${OAI_RESP} ResponseUsage`],
      ["usage.input_tokens_details.cache_write_tokens", "integer", false, OAI_RESP_EX],
      ["usage.output_tokens", "integer", false, `${OAI_RESP} ResponseUsage`],
      [
        "usage.output_tokens_details.reasoning_tokens",
        "integer",
        false,
        `${OAI_RESP} ResponseUsage`,
      ],
      ["usage.total_tokens", "integer", false, `${OAI_RESP} ResponseUsage`],
      ["user", "string|null", true, OAI_RESP_REC],
      ["metadata", "object", true, OAI_RESP],
    ],
  ),
  ...["response.created", "response.in_progress", "response.completed", "response.incomplete"].map(
    (kind) =>
      shape("responses", kind, "a stream's lifecycle event", [...RESP_EVENT, [
        "response",
        "@response",
        true,
        OAI_RESP,
      ]]),
  ),
  ...["response.output_item.added", "response.output_item.done"].map((kind) =>
    shape("responses", kind, "an output item opens / closes", [
      ...RESP_EVENT,
      ["output_index", "integer", true, OAI_RESP],
      ["item", "object", true, OAI_RESP],
      ...at("item.", respItem),
    ])
  ),
  ...["response.content_part.added", "response.content_part.done"].map((kind) =>
    shape("responses", kind, "a message's content part opens / closes", [
      ...RESP_EVENT,
      ["item_id", "string", true, OAI_RESP],
      ["output_index", "integer", true, OAI_RESP],
      ["content_index", "integer", true, OAI_RESP],
      ["part.type", "string", true, OAI_RESP],
    ])
  ),
  shape("responses", "response.output_text.delta", "a piece of text", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["content_index", "integer", true, OAI_RESP],
    ["delta", "string", true, OAI_RESP],
    ["logprobs", "array", true, `${OAI_RESP} ResponseTextDeltaEvent`],
    ["obfuscation", "string", true, OAI_OBF],
  ]),
  shape("responses", "response.output_text.done", "a message's text, whole", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["content_index", "integer", true, OAI_RESP],
    ["text", "string", true, OAI_RESP],
    ["logprobs", "array", true, `${OAI_RESP} ResponseTextDoneEvent`],
  ]),
  shape("responses", "response.function_call_arguments.delta", "a piece of a call's arguments", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["delta", "string", true, OAI_RESP],
    ["obfuscation", "string", true, OAI_OBF],
  ]),
  shape("responses", "response.function_call_arguments.done", "a call's arguments, whole", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["arguments", "string", true, OAI_RESP],
  ]),
  ...["response.reasoning_summary_part.added", "response.reasoning_summary_part.done"].map((kind) =>
    shape("responses", kind, "a reasoning summary part opens / closes", [
      ...RESP_EVENT,
      ["item_id", "string", true, OAI_RESP],
      ["output_index", "integer", true, OAI_RESP],
      ["summary_index", "integer", true, OAI_RESP],
      ["part.type", "string", true, OAI_RESP],
      ["part.text", "string", true, OAI_RESP],
    ])
  ),
  shape("responses", "response.reasoning_summary_text.delta", "a piece of a reasoning summary", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["summary_index", "integer", true, OAI_RESP],
    ["delta", "string", true, OAI_RESP],
    ["obfuscation", "string", true, OAI_OBF],
  ]),
  shape("responses", "response.reasoning_summary_text.done", "a reasoning summary, whole", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["summary_index", "integer", true, OAI_RESP],
    ["text", "string", true, OAI_RESP],
  ]),
  shape("responses", "response.refusal.delta", "a piece of a refusal", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["content_index", "integer", true, OAI_RESP],
    ["delta", "string", true, OAI_RESP],
  ]),
  shape("responses", "response.refusal.done", "a refusal, whole", [
    ...RESP_EVENT,
    ["item_id", "string", true, OAI_RESP],
    ["output_index", "integer", true, OAI_RESP],
    ["content_index", "integer", true, OAI_RESP],
    ["refusal", "string", true, OAI_RESP],
  ]),
  shape("responses", "error (event)", "a stream's error event", [
    ...RESP_EVENT,
    ["code", "string|null", true, `${OAI_RESP} ResponseErrorEvent`],
    ["message", "string", true, `${OAI_RESP} ResponseErrorEvent`],
    ["param", "string|null", true, `${OAI_RESP} ResponseErrorEvent`],
  ]),
  shape("responses", "error", "a refused or failed request (a 4xx/5xx body)", [
    ["error.message", "string", true, OAI_ERR],
    ["error.type", "string", true, OAI_ERR],
    ["error.param", "string|null", true, OAI_ERR],
    ["error.code", "string|null", true, OAI_ERR],
  ]),
];

const antUsage = (prefix: string): Row[] => [
  [`${prefix}input_tokens`, "integer", true, `${ANT} Usage`],
  [`${prefix}output_tokens`, "integer", true, `${ANT} Usage`],
  [
    `${prefix}cache_creation_input_tokens`,
    "integer",
    true,
    `${ANT} Usage (0, never null, when nothing was cached)`,
  ],
  [
    `${prefix}cache_read_input_tokens`,
    "integer",
    true,
    `${ANT} Usage (0, never null, when nothing was read)`,
  ],
  [`${prefix}cache_creation.ephemeral_5m_input_tokens`, "integer", true, `${ANT} CacheCreation`],
  [`${prefix}cache_creation.ephemeral_1h_input_tokens`, "integer", true, `${ANT} CacheCreation`],
  [`${prefix}service_tier`, "string", true, `${ANT} Usage.service_tier`],
  [`${prefix}inference_geo`, "string|null", true, `${ANT} Usage.inference_geo; ${ANT_REC}`],
  [
    `${prefix}server_tool_use`,
    "object|null",
    false,
    `${ANT} Usage.server_tool_use (with server tools only: ${ANT_REC})`,
  ],
  [
    `${prefix}output_tokens_details`,
    "object|null",
    false,
    `${ANT} Usage.output_tokens_details (newer models only: ${ANT_REC})`,
  ],
  [`${prefix}speed`, "string|null", false, `${ANT} Usage.speed (${ANT_REC})`],
];

const antBlock: Row[] = [
  ["type", "string", true, `${ANT} ContentBlock`],
  ["text", "string", false, `${ANT} TextBlock`],
  [
    "citations",
    "array|null",
    false,
    `${ANT} TextBlock.citations (with citations on only: ${ANT_REC}'s text block is { type, text })`,
  ],
  ["id", "string", false, `${ANT} ToolUseBlock`],
  ["name", "string", false, `${ANT} ToolUseBlock`],
  ["input", "object", false, `${ANT} ToolUseBlock`],
  [
    "caller.type",
    "string",
    false,
    `${ANT} ToolUseBlock.caller (required on a tool_use block: DirectCaller { type: "direct" }; recorded 2026 tool_use blocks)`,
  ],
  ["thinking", "string", false, `${ANT} ThinkingBlock`],
  ["signature", "string", false, `${ANT} ThinkingBlock`],
];

const ANTHROPIC: Shape[] = [
  shape("messages", "message", "a blocking answer, and message_start's `message`", [
    ["id", "string", true, `${ANT} Message; msg_ + 24 (Anthropic API reference examples)`],
    ["type", "string", true, ANT],
    ["role", "string", true, ANT],
    ["model", "string", true, ANT],
    ["content", "array", true, ANT],
    ...at("content[].", antBlock),
    ["content[type=tool_use].caller.type", "string", true, `${ANT} ToolUseBlock.caller`],
    ["stop_reason", "string|null", true, ANT],
    ["stop_sequence", "string|null", true, ANT],
    ["usage", "object", true, ANT],
    ...antUsage("usage."),
    [
      "diagnostics",
      "object|null",
      true,
      `${ANT} Message.diagnostics (required; null unless asked)`,
    ],
  ]),
  shape("messages", "message_start", "a stream's first event", [
    ["type", "string", true, ANT_STREAM],
    ["message", "@message", true, ANT_STREAM],
  ]),
  shape("messages", "ping", "once, after the first content_block_start", [
    ["type", "string", true, ANT_STREAM],
  ]),
  shape("messages", "content_block_start", "a block opens", [
    ["type", "string", true, ANT_STREAM],
    ["index", "integer", true, ANT_STREAM],
    ["content_block", "object", true, ANT_STREAM],
    ...at("content_block.", antBlock),
  ]),
  shape("messages", "content_block_delta", "a piece of a block", [
    ["type", "string", true, ANT_STREAM],
    ["index", "integer", true, ANT_STREAM],
    ["delta.type", "string", true, ANT_STREAM],
  ]),
  shape("messages", "content_block_stop", "a block closes", [
    ["type", "string", true, ANT_STREAM],
    ["index", "integer", true, ANT_STREAM],
  ]),
  shape("messages", "message_delta", "the stop reason and the totals", [
    ["type", "string", true, ANT_STREAM],
    ["delta.stop_reason", "string|null", true, `${ANT} RawMessageDeltaEvent.Delta`],
    ["delta.stop_sequence", "string|null", true, `${ANT} RawMessageDeltaEvent.Delta`],
    ["usage.output_tokens", "integer", true, `${ANT} MessageDeltaUsage`],
    ["usage.input_tokens", "integer", true, `${ANT} MessageDeltaUsage`],
    ["usage.cache_creation_input_tokens", "integer", true, `${ANT} MessageDeltaUsage`],
    ["usage.cache_read_input_tokens", "integer", true, `${ANT} MessageDeltaUsage`],
  ]),
  shape("messages", "message_stop", "a stream's last event", [[
    "type",
    "string",
    true,
    ANT_STREAM,
  ]]),
  shape("messages", "error", "a refused or failed request (an HTTP error's body)", [
    ["type", "string", true, ANT_ERR],
    ["error.type", "string", true, ANT_ERR],
    ["error.message", "string", true, ANT_ERR],
    ["request_id", "string|null", true, ANT_ERR_BODY],
  ]),
  shape("messages", "error (event)", "a stream's error event, after the 200", [
    ["type", "string", true, ANT_ERR],
    ["error.type", "string", true, ANT_ERR],
    ["error.message", "string", true, ANT_ERR],
  ]),
];

const gemUsage: Row[] = [
  ["usageMetadata.promptTokenCount", "integer", true, `${GEM_REF} UsageMetadata`],
  ["usageMetadata.totalTokenCount", "integer", true, `${GEM_REF} UsageMetadata`],
  ["usageMetadata.promptTokensDetails[].modality", "string", true, `${GEM_REF} ModalityTokenCount`],
  [
    "usageMetadata.promptTokensDetails[].tokenCount",
    "integer",
    true,
    `${GEM_REF} ModalityTokenCount`,
  ],
  [
    "usageMetadata.candidatesTokenCount",
    "integer",
    false,
    `${GEM_REF} UsageMetadata (absent when nothing was generated yet)`,
  ],
  [
    "usageMetadata.thoughtsTokenCount",
    "integer",
    false,
    `${GEM_REF} UsageMetadata (thinking models, when they thought); ${GEM_REC_2026}`,
  ],
  [
    "usageMetadata.candidatesTokensDetails[].modality",
    "string",
    false,
    `${GEM} UsageMetadata.candidatesTokensDetails; ${GEM_REC_2026}`,
  ],
  [
    "usageMetadata.cacheTokensDetails[].tokenCount",
    "integer",
    false,
    `${GEM} UsageMetadata.cacheTokensDetails (a cache hit)`,
  ],
  ["usageMetadata.serviceTier", "string", true, GEM_REC_2026],
  [
    "usageMetadata.cachedContentTokenCount",
    "integer",
    false,
    `${GEM_REF} UsageMetadata (a cache hit)`,
  ],
];

const gemCandidate: Row[] = [
  ["candidates", "array", true, GEM],
  ["candidates[].index", "integer", true, GEM_REF],
  ["candidates[].content.role", "string", false, GEM_REF],
  ["candidates[].content.parts", "array", false, GEM_REF],
  [
    "candidates[].finishReason",
    "string",
    false,
    `${GEM_REF} (on the last chunk, and on a blocking answer)`,
  ],
  ["candidates[].finishMessage", "string", false, `${GEM} Candidate.finishMessage`],
  ["usageMetadata", "object", true, GEM_REC],
  ...gemUsage,
  ["modelVersion", "string", true, `${GEM}.modelVersion; ${GEM_REC}`],
  ["responseId", "string", true, `${GEM}.responseId; ${GEM_REC}`],
];

const GEMINI: Shape[] = [
  shape("generateContent", "GenerateContentResponse", "a blocking answer", gemCandidate),
  shape("generateContent", "GenerateContentResponse (chunk)", "each streamed chunk", gemCandidate),
  shape("generateContent", "error", "a refused or failed request", [
    ["error.code", "integer", true, GEM_ERR],
    ["error.message", "string", true, GEM_ERR],
    ["error.status", "string", true, GEM_ERR],
  ]),
];

/** Every shape, by API then kind. */
export const SHAPES: readonly Shape[] = Object.freeze([
  ...CHAT,
  ...RESPONSES,
  ...ANTHROPIC,
  ...GEMINI,
]);

const BY_KEY = new Map(SHAPES.map((s) => [`${s.api} ${s.kind}`, s]));

/** The shape of one kind of answer of an API. */
export function shapeOf(api: ProviderApi, kind: string): Shape {
  const s = BY_KEY.get(`${api} ${kind}`);
  if (!s) throw new RangeError(`no shape ${JSON.stringify(kind)} for ${api} in the catalogue`);
  return s;
}

/**
 * What `value` lacks or has wrong against `shape`: each a sentence naming the
 * path (`usage.prompt_tokens_details.cached_tokens: missing`); see
 * _shape_check.ts.
 */
export function shapeProblems(value: unknown, shape: Shape): string[] {
  return problems(value, shape, shapeOf);
}
