// The Anthropic Messages wire, server side (POST /v1/messages).
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { parseArgs } from "../../runtime/internal.ts";
import { anthropicMessageId } from "./_ids.ts";
import { named, type Problem, type StreamEncoder, type Wire, type WireRequest } from "./_wire.ts";
import { record, type SettingsDraft, textOf, wireParser, wireRequest } from "./_wire_request.ts";

const STOP: Record<FinishReason, string> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "refusal",
  error: "end_turn",
};

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

/**
 * Ours to the wire's usage: `input_tokens` excludes cache reads, as ours
 * does, and cache writes, which ours counts in (`cacheWriteInputTokens` is a
 * part of `inputTokens`; the API's `input_tokens` is "the tokens after the
 * last cache breakpoint", the written ones counted in
 * `cache_creation_input_tokens`). Every field a real answer carries, in the
 * API's order: the cache counts are 0 (never null) when nothing was cached,
 * with their `cache_creation` breakdown, the `service_tier` that ran and the
 * `inference_geo` it ran in (@anthropic-ai/sdk 1.10.0 messages.d.ts Usage,
 * CacheCreation; a recorded claude-sonnet-4-5 stream's message_start:
 * `..."output_tokens":1,"service_tier":"standard","inference_geo":"not_available"`).
 * `server_tool_use`, `output_tokens_details` and `speed` are left out: the
 * SDK types them, but answers without server tools, on these models, carry
 * none of them (the same recording).
 */
function anthropicUsage(u: Usage): Record<string, unknown> {
  const written = u.cacheWriteInputTokens ?? 0;
  return {
    input_tokens: u.inputTokens - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: u.cachedInputTokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: written, ephemeral_1h_input_tokens: 0 },
    output_tokens: u.outputTokens,
    service_tier: "standard",
    inference_geo: "not_available",
  };
}

// message_delta's usage: the cumulative counts (MessageDeltaUsage; "the
// token counts shown in the usage field of the message_delta event are
// cumulative", Anthropic, Streaming Messages; the recording above ends with
// input_tokens, cache_creation_input_tokens, cache_read_input_tokens and
// output_tokens).
function deltaUsage(u: Usage): Record<string, unknown> {
  const written = u.cacheWriteInputTokens ?? 0;
  return {
    input_tokens: u.inputTokens - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: u.cachedInputTokens ?? 0,
    output_tokens: u.outputTokens,
  };
}

// Who called a tool: the model itself, every call of a turn without
// programmatic tool calling (@anthropic-ai/sdk 1.10.0 ToolUseBlock.caller,
// required: DirectCaller { type: "direct" }; recorded claude-opus-5 and
// claude-sonnet tool_use blocks of 2026 carry `"caller":{"type":"direct"}`).
// Message.diagnostics is required there too, null "when the request did not
// supply `diagnostics`".
const DIRECT = Object.freeze({ type: "direct" });

// message_start's usage: the counts are known at the end, in message_delta.
const START_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

function errorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

/**
 * The Anthropic error JSON. An HTTP error's body names the request
 * (@anthropic-ai/sdk 1.10.0 shared.d.ts ErrorResponse: `type`, `error`,
 * `request_id`, required), the same id as the `request-id` header the SDK
 * reads (client.js, lib/MessageStream.js); a stream's `error` event carries none (Streaming
 * Messages, Error events: `{"type": "error", "error": {...}}`).
 */
export function anthropicError(p: Problem, requestId?: string): unknown {
  const body = { type: "error", error: { type: errorType(p.status), message: p.message } };
  return requestId === undefined ? body : { ...body, request_id: requestId };
}

function bad(message: string): Problem {
  return { status: 400, message };
}

function parseBlocks(
  role: "user" | "assistant",
  content: unknown,
  where: string,
  out: Message[],
): Problem | undefined {
  if (typeof content === "string") {
    out.push({ role, content });
    return;
  }
  if (!Array.isArray(content)) return bad(`${where}.content: Input should be a valid list`);
  let text = "";
  const toolCalls: ToolCall[] = [];
  const results: Message[] = [];
  for (let i = 0; i < content.length; i++) {
    const b = record(content[i]);
    if (!b || typeof b.type !== "string") {
      return bad(`${where}.content.${i}: Input should be an object with a type`);
    }
    if (b.type === "text") text += typeof b.text === "string" ? b.text : "";
    else if (b.type === "tool_use" && role === "assistant") {
      if (typeof b.id !== "string" || typeof b.name !== "string") {
        return bad(`${where}.content.${i}.tool_use: id and name are required`);
      }
      toolCalls.push({ id: b.id, name: b.name, args: record(b.input) ?? {} });
    } else if (b.type === "tool_result" && role === "user") {
      if (typeof b.tool_use_id !== "string") {
        return bad(`${where}.content.${i}.tool_result.tool_use_id: Field required`);
      }
      const text = textOf(b.content) ?? "";
      results.push({
        role: "tool",
        content: text,
        toolCallId: b.tool_use_id,
        ...(b.is_error === true ? { isError: true } : {}),
      });
    }
  }
  out.push(...results);
  if (role === "assistant") {
    out.push(toolCalls.length ? { role, content: text, toolCalls } : { role, content: text });
  } else if (text !== "" || results.length === 0) out.push({ role, content: text });
  return undefined;
}

function parseTools(value: unknown): ToolSpec[] | Problem | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return bad("tools: Input should be a valid list");
  const out: ToolSpec[] = [];
  for (let i = 0; i < value.length; i++) {
    const t = record(value[i]);
    if (!t || typeof t.name !== "string") return bad(`tools.${i}.name: Field required`);
    // Server tools (web search, code execution) have no input schema; they
    // are not the model's to call through tool_use, so they are not offered.
    if (!record(t.input_schema)) continue;
    out.push({
      name: t.name,
      description: typeof t.description === "string" ? t.description : "",
      parameters: record(t.input_schema)!,
    });
  }
  return out;
}

// The thinking block's signature: opaque, as the real one is, and issued
// with every thinking block (@anthropic-ai/sdk: ThinkingBlock.signature).
function signatureOf(id: string): string {
  return `fake-signature-${id}`;
}

// A refusal's details (@anthropic-ai/sdk: Message.stop_details, RefusalStopDetails).
function stopDetails(finish: FinishReason | undefined): Record<string, unknown> | null {
  return finish === "content_filter"
    ? { type: "refusal", category: null, explanation: null }
    : null;
}

const PING = named("ping", { type: "ping" });
const MESSAGE_STOP = named("message_stop", { type: "message_stop" });

// The stream's events are written as JSON text: their fixed keys as they
// are, the script's strings (text, arguments) through JSON.stringify, the
// blocks built as objects and serialised once. A stream sends many small
// events, and building an object for each to serialise cost more than the
// rest of the round trip.

// An SSE message named `event`, its data the JSON text `json`.
function sse(event: string, json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}

// message_start's message after its id and model, the same on every stream
// (its usage is known only at the end: message_delta carries the totals).
const START_TAIL = JSON.stringify({
  content: [],
  stop_reason: null,
  stop_sequence: null,
  stop_details: null,
  container: null,
  usage: anthropicUsage(START_USAGE),
  diagnostics: null,
}).slice(1);

function blockDelta(index: number, delta: string): string {
  return sse(
    "content_block_delta",
    `{"type":"content_block_delta","index":${index},"delta":${delta}}`,
  );
}

function blockStop(index: number): string {
  return sse("content_block_stop", `{"type":"content_block_stop","index":${index}}`);
}

class MessagesEncoder implements StreamEncoder {
  #id = "";
  #index = -1;
  #pinged = false;
  #textOpen = false;
  #thinkingOpen = false;
  readonly #model: string;

  constructor(request: WireRequest) {
    this.#model = request.chat.model;
  }

  #closeText(): string {
    const closed = this.#closeThinking();
    if (!this.#textOpen) return closed;
    this.#textOpen = false;
    return closed + blockStop(this.#index);
  }

  // A thinking block ends with its signature (Anthropic, extended thinking:
  // "Streaming thinking").
  #closeThinking(): string {
    if (!this.#thinkingOpen) return "";
    this.#thinkingOpen = false;
    const signature = JSON.stringify(signatureOf(this.#id));
    return blockDelta(this.#index, `{"type":"signature_delta","signature":${signature}}`) +
      blockStop(this.#index);
  }

  #delta(finish: FinishReason | undefined, usage: Usage | undefined): string {
    return named("message_delta", {
      type: "message_delta",
      delta: {
        stop_reason: finish ? STOP[finish] : null,
        stop_sequence: null,
        stop_details: stopDetails(finish),
      },
      usage: deltaUsage(usage ?? START_USAGE),
    });
  }

  // The API pings once, right after the first content_block_start (Anthropic,
  // Streaming Messages: the example event flow); a turn with no block pings
  // before its message_delta.
  #start(block: Record<string, unknown>): string {
    const out = sse(
      "content_block_start",
      `{"type":"content_block_start","index":${++this.#index},"content_block":${
        JSON.stringify(block)
      }}`,
    );
    if (this.#pinged) return out;
    this.#pinged = true;
    return out + PING;
  }

  #ping(): string {
    if (this.#pinged) return "";
    this.#pinged = true;
    return PING;
  }

  frames(e: StreamEvent): string {
    switch (e.type) {
      case "message_start":
        this.#id = e.messageId;
        return sse(
          "message_start",
          `{"type":"message_start","message":{"id":"${
            anthropicMessageId(this.#id)
          }","type":"message","role":"assistant","model":${
            JSON.stringify(this.#model)
          },${START_TAIL}}`,
        );
      case "reasoning_delta": {
        let out = "";
        if (!this.#thinkingOpen) {
          out = this.#closeText();
          this.#thinkingOpen = true;
          out += this.#start({ type: "thinking", thinking: "", signature: "" });
        }
        return out + blockDelta(
          this.#index,
          `{"type":"thinking_delta","thinking":${JSON.stringify(e.content)}}`,
        );
      }
      case "text_delta": {
        let out = this.#closeThinking();
        if (!this.#textOpen) {
          this.#textOpen = true;
          out += this.#start({ type: "text", text: "" });
        }
        return out +
          blockDelta(this.#index, `{"type":"text_delta","text":${JSON.stringify(e.content)}}`);
      }
      case "tool_call": {
        const closed = this.#closeText();
        const c = e.call;
        const start = this.#start({
          type: "tool_use",
          id: c.id,
          name: c.name,
          input: {},
          caller: DIRECT,
        });
        const index = this.#index;
        const json = JSON.stringify(c.rawArgs ?? JSON.stringify(c.args));
        return closed + start +
          blockDelta(index, `{"type":"input_json_delta","partial_json":${json}}`) +
          blockStop(index);
      }
      case "message_end":
        return this.#closeText() + this.#ping() + this.#delta(e.finishReason, e.usage) +
          MESSAGE_STOP;
      case "error": {
        let out = this.#closeText();
        if (e.finishReason || e.usage) out += this.#delta(e.finishReason, e.usage);
        return out + named("error", anthropicError({ status: 500, message: e.error.message }));
      }
    }
  }
}

/** POST /v1/messages. */
export const anthropicWire: Wire = {
  api: "messages",
  vendor: "anthropic",
  errorBody: anthropicError,
  checkHeaders(headers: Headers): Problem | undefined {
    const key = headers.get("x-api-key");
    const auth = headers.get("authorization");
    if (!key && !(auth && /^bearer\s+\S/i.test(auth))) {
      return { status: 401, message: "x-api-key header is required" };
    }
    if (!headers.get("anthropic-version")) {
      return { status: 400, message: "anthropic-version: header is required" };
    }
    return undefined;
  },
  parse: wireParser(bad("model: Field required"), (body) => {
    // A missing max_tokens and a system-role message are the strict rules'
    // to refuse (max-tokens-required, system-role-in-messages), so that
    // `strict: { except: [...] }` lets them through; the parse reads them.
    if (body.max_tokens !== undefined && typeof body.max_tokens !== "number") {
      return bad("max_tokens: Input should be a valid integer");
    }
    if (!Array.isArray(body.messages)) return bad("messages: Field required");
    const messages: Message[] = [];
    const system = body.system === undefined ? "" : textOf(body.system);
    if (system === undefined) return bad("system: Input should be a valid string or list");
    if (system) messages.push({ role: "system", content: system });
    for (let i = 0; i < body.messages.length; i++) {
      const m = record(body.messages[i]);
      const role = m?.role;
      if (role === "system") {
        const text = textOf(m!.content);
        if (text === undefined) return bad(`messages.${i}.content: Input should be a valid list`);
        messages.push({ role: "system", content: text });
        continue;
      }
      if (role !== "user" && role !== "assistant") {
        return bad(`messages.${i}.role: Input should be 'user' or 'assistant'`);
      }
      const problem = parseBlocks(role, m!.content, `messages.${i}`, messages);
      if (problem) return problem;
    }
    const tools = parseTools(body.tools);
    if (tools && !Array.isArray(tools)) return tools;
    const s: SettingsDraft = typeof body.max_tokens === "number"
      ? { maxTokens: body.max_tokens }
      : {};
    if (typeof body.temperature === "number") s.temperature = body.temperature;
    const format = record(record(body.output_config)?.format) ?? record(body.output_format);
    if (format?.type === "json_schema" && record(format.schema)) {
      s.jsonSchema = record(format.schema);
    }
    return wireRequest(
      body,
      messages,
      tools?.length ? tools : undefined,
      Object.keys(s).length ? s : undefined,
      true,
    );
  }),
  blocking(res, request) {
    const content: Array<Record<string, unknown>> = [];
    if (res.reasoning !== undefined) {
      content.push({ type: "thinking", thinking: res.reasoning, signature: signatureOf(res.id) });
    }
    // A turn that only thought has no text block.
    if (res.content !== "" || (res.toolCalls.length === 0 && res.reasoning === undefined)) {
      content.push({ type: "text", text: res.content });
    }
    for (const c of res.toolCalls) {
      content.push({
        type: "tool_use",
        id: c.id,
        name: c.name,
        input: c.rawArgs === undefined ? c.args : parseArgs(c.id, c.name, c.rawArgs).args,
        caller: DIRECT,
      });
    }
    return {
      id: anthropicMessageId(res.id),
      type: "message",
      role: "assistant",
      model: res.model || request.chat.model,
      content,
      stop_reason: STOP[res.finishReason],
      stop_sequence: null,
      stop_details: stopDetails(res.finishReason),
      container: null,
      usage: anthropicUsage(res.usage),
      diagnostics: null,
    };
  },
  encoder: (request) => new MessagesEncoder(request),
};
