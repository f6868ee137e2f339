// The OpenAI Chat Completions wire, server side (POST /v1/chat/completions).
import type { ChatSettings } from "../../ports/chat.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { parseArgs } from "../../runtime/internal.ts";
import { chatCompletionId, obfuscation, systemFingerprint } from "./_ids.ts";
import { data, type Problem, type StreamEncoder, type Wire, type WireRequest } from "./_wire.ts";
import { record, type SettingsDraft, textOf, wireParser, wireRequest } from "./_wire_request.ts";

const ROLES: Record<string, Message["role"]> = {
  system: "system",
  developer: "system",
  user: "user",
  assistant: "assistant",
  tool: "tool",
  // The legacy function-calling messages (functions / function_call, still
  // in openai-openapi: ChatCompletionRequestFunctionMessage).
  function: "tool",
};

/** Ours to the wire's finish reason (the wire has no "error"). */
export function openAIFinish(reason: FinishReason): string {
  return reason === "error" ? "stop" : reason;
}

/**
 * Ours to the wire's usage: `prompt_tokens` includes the cached prefix. The
 * reasoning a script counted is `completion_tokens_details.reasoning_tokens`
 * (a part of `completion_tokens`, as ours is of `outputTokens`); a turn that
 * only thought spent all its output on it.
 */
export function openAIUsage(u: Usage, onlyThought = false): Record<string, unknown> {
  const cached = u.cachedInputTokens ?? 0;
  const reasoning = reasoningOf(u, onlyThought);
  const prompt = u.inputTokens + cached;
  // Both breakdowns always, every count in them (openai-openapi openapi.yaml,
  // the chat.completion example): a client reading
  // `usage.prompt_tokens_details.cached_tokens` must not throw on the fake.
  return {
    prompt_tokens: prompt,
    completion_tokens: u.outputTokens,
    total_tokens: prompt + u.outputTokens,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The reasoning tokens an answer reports: the script's, else all of a thought-only turn's. */
export function reasoningOf(u: Usage, onlyThought: boolean): number {
  const r = u.reasoningTokens;
  if (r !== undefined && r <= u.outputTokens) return r;
  return onlyThought ? u.outputTokens : 0;
}

/** The OpenAI error JSON. */
export function openAIError(p: Problem): unknown {
  const type = p.status === 429
    ? "requests"
    : p.status >= 500
    ? "server_error"
    : "invalid_request_error";
  return {
    error: {
      message: p.message,
      type,
      param: p.param ?? null,
      code: p.code ?? (p.status === 429 ? "rate_limit_exceeded" : null),
    },
  };
}

/** The 401 OpenAI answers a request without a key. */
export function openAIKeyProblem(headers: Headers): Problem | undefined {
  const auth = headers.get("authorization");
  if (auth && /^bearer\s+\S/i.test(auth)) return undefined;
  return {
    status: 401,
    message:
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
  };
}

/** What both OpenAI wires answer alike: the key check and the error JSON. */
export const openAIVendor: Pick<Wire, "vendor" | "checkHeaders" | "errorBody"> = {
  vendor: "openai",
  checkHeaders: openAIKeyProblem,
  errorBody: openAIError,
};

function bad(message: string, param?: string, code?: string): Problem {
  return { status: 400, message, param, code };
}

function wireCall(c: ToolCall): Record<string, unknown> {
  return {
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args) },
  };
}

function parseMessages(value: unknown): Message[] | Problem {
  if (!Array.isArray(value)) {
    return value === undefined
      ? bad("Missing required parameter: 'messages'.", "messages", "missing_required_parameter")
      : bad("Invalid type for 'messages': expected an array.", "messages", "invalid_type");
  }
  const out: Message[] = [];
  // The id given the last legacy function_call, which a `function` message answers.
  let legacy = "";
  for (let i = 0; i < value.length; i++) {
    const m = record(value[i]);
    const where = `messages[${i}]`;
    if (!m) return bad(`Invalid type for '${where}': expected an object.`, where, "invalid_type");
    const role = ROLES[m.role as string];
    if (!role) {
      return bad(
        `Invalid value: '${
          String(m.role)
        }'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'.`,
        `${where}.role`,
        "invalid_value",
      );
    }
    const content = textOf(m.content);
    if (content === undefined) {
      return bad(`Invalid type for '${where}.content'.`, `${where}.content`, "invalid_type");
    }
    if (m.role === "function") {
      out.push({ role: "tool", content, toolCallId: legacy || String(m.name ?? "function") });
      continue;
    }
    if (role === "tool") {
      if (typeof m.tool_call_id !== "string") {
        return bad(
          `Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.`,
          `${where}.tool_call_id`,
          "missing_required_parameter",
        );
      }
      out.push({ role, content, toolCallId: m.tool_call_id });
      continue;
    }
    if (role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      const toolCalls: ToolCall[] = [];
      for (const raw of m.tool_calls) {
        const c = record(raw);
        const f = record(c?.function);
        if (!c || typeof c.id !== "string" || !f || typeof f.name !== "string") {
          return bad(
            `Invalid '${where}.tool_calls': each needs an id and a function with a name.`,
            `${where}.tool_calls`,
            "invalid_value",
          );
        }
        const args = typeof f.arguments === "string" ? f.arguments : "";
        toolCalls.push(parseArgs(c.id, f.name, args));
      }
      out.push({ role, content, toolCalls });
      continue;
    }
    const fn = role === "assistant" ? record(m.function_call) : undefined;
    if (fn && typeof fn.name === "string") {
      legacy = `call_fn_${i}`;
      const args = typeof fn.arguments === "string" ? fn.arguments : "";
      out.push({ role, content, toolCalls: [parseArgs(legacy, fn.name, args)] });
      continue;
    }
    out.push({ role, content });
  }
  return out;
}

function parseTools(value: unknown): ToolSpec[] | Problem | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return bad("Invalid type for 'tools': expected an array.", "tools");
  const out: ToolSpec[] = [];
  for (let i = 0; i < value.length; i++) {
    const f = record(record(value[i])?.function);
    if (!f || typeof f.name !== "string") {
      return bad(
        `Missing required parameter: 'tools[${i}].function.name'.`,
        `tools[${i}].function.name`,
        "missing_required_parameter",
      );
    }
    out.push({
      name: f.name,
      description: typeof f.description === "string" ? f.description : "",
      parameters: record(f.parameters) ?? { type: "object", properties: {} },
    });
  }
  return out;
}

function parseSettings(body: Record<string, unknown>): ChatSettings | undefined {
  const s: SettingsDraft = {};
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (typeof max === "number") s.maxTokens = max;
  if (typeof body.temperature === "number") s.temperature = body.temperature;
  const format = record(body.response_format);
  const schema = record(format?.json_schema);
  if (format?.type === "json_schema" && schema) {
    const json = record(schema.schema);
    if (json) s.jsonSchema = json;
    if (typeof schema.name === "string") s.jsonSchemaName = schema.name;
  }
  return Object.keys(s).length ? s : undefined;
}

// The first chunk's delta: the role, and no content yet.
const FIRST_DELTA = JSON.stringify({ role: "assistant", content: "", refusal: null });

class ChatEncoder implements StreamEncoder {
  #id = "";
  #calls = 0;
  #refused = false;
  #thought = false;
  #said = false;
  readonly #model: string;
  readonly #created: number;
  readonly #includeUsage: boolean;
  readonly #obfuscate: boolean;
  readonly #fingerprint: string;
  #n = 0;

  constructor(request: WireRequest, created: number) {
    this.#model = request.chat.model;
    this.#created = created;
    this.#includeUsage = request.includeUsage;
    this.#obfuscate = request.obfuscate !== false;
    this.#fingerprint = systemFingerprint(this.#model);
  }

  // Every chunk shares the envelope; the usage chunk has no choices. With
  // include_usage every chunk before the last says `"usage": null`
  // (ChatCompletionChunk.usage in openai-node), and each carries an
  // `obfuscation` pad unless the client turned it off
  // (stream_options.include_obfuscation in openai-openapi).
  // The envelope's fields before `choices` are the same on every chunk of a
  // stream: written once, and each chunk's own fields appended as text.
  #head = "";

  #envelope(choices: string, usage?: Record<string, unknown>): string {
    if (this.#head === "") {
      const head = JSON.stringify({
        id: this.#id,
        object: "chat.completion.chunk",
        created: this.#created,
        model: this.#model,
        service_tier: "default",
        system_fingerprint: this.#fingerprint,
      });
      this.#head = `data: ${head.slice(0, -1)},"choices":`;
    }
    let out = this.#head + choices;
    if (this.#includeUsage) out += `,"usage":${usage ? JSON.stringify(usage) : "null"}`;
    if (this.#obfuscate) out += `,"obfuscation":"${obfuscation(this.#id, this.#n++)}"`;
    return `${out}}\n\n`;
  }

  // A chunk of one choice; `delta` is its delta's JSON text (a text delta,
  // the most of a stream's chunks, is written as text around its string).
  #chunk(delta: string, finish: string | null = null): string {
    return this.#envelope(
      `[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${
        finish === null ? "null" : JSON.stringify(finish)
      }}]`,
    );
  }

  #usage(usage: Usage): string {
    if (!this.#includeUsage) return "";
    const onlyThought = this.#thought && !this.#said && this.#calls === 0;
    return this.#envelope("[]", openAIUsage(usage, onlyThought));
  }

  // A refusal ends "stop": the refusal field says what happened (OpenAI,
  // Structured Outputs guide, "Refusals").
  #finish(reason: FinishReason): string {
    return this.#refused && reason === "content_filter" ? "stop" : openAIFinish(reason);
  }

  frames(e: StreamEvent): string {
    switch (e.type) {
      case "message_start":
        this.#id = chatCompletionId(e.messageId);
        return this.#chunk(FIRST_DELTA);
      case "text_delta":
        this.#said = true;
        if (e.refusal) {
          this.#refused = true;
          return this.#chunk(`{"refusal":${JSON.stringify(e.content)}}`);
        }
        return this.#chunk(`{"content":${JSON.stringify(e.content)}}`);
      case "reasoning_delta":
        // Chat Completions shows no thinking: only its tokens, in the usage.
        this.#thought = true;
        return "";
      case "tool_call": {
        const index = this.#calls++;
        const c = wireCall(e.call) as { id: string; function: { name: string; arguments: string } };
        return this.#chunk(JSON.stringify({
          tool_calls: [{
            index,
            id: c.id,
            type: "function",
            function: { name: c.function.name, arguments: "" },
          }],
        })) +
          this.#chunk(
            JSON.stringify({
              tool_calls: [{ index, function: { arguments: c.function.arguments } }],
            }),
          );
      }
      case "message_end":
        return this.#chunk("{}", this.#finish(e.finishReason)) + this.#usage(e.usage) +
          "data: [DONE]\n\n";
      case "error": {
        let out = e.finishReason ? this.#chunk("{}", this.#finish(e.finishReason)) : "";
        if (e.usage) out += this.#usage(e.usage);
        return out + data(openAIError({ status: 500, message: e.error.message }));
      }
    }
  }
}

/** POST /v1/chat/completions. */
export const openAIChatWire: Wire = {
  api: "chat.completions",
  ...openAIVendor,
  parse: wireParser(
    bad("you must provide a model parameter", "model", "missing_required_parameter"),
    (body) => {
      const messages = parseMessages(body.messages);
      if (!Array.isArray(messages)) return messages;
      const tools = parseTools(body.tools);
      if (tools && !Array.isArray(tools)) return tools;
      const options = record(body.stream_options);
      const request = wireRequest(
        body,
        messages,
        tools,
        parseSettings(body),
        options?.include_usage === true,
      );
      return options?.include_obfuscation === false ? { ...request, obfuscate: false } : request;
    },
  ),
  blocking(res, request, created) {
    // A refusal is its own field, with no content (OpenAI, Structured
    // Outputs guide, "Refusals"); it finishes "stop".
    const refused = res.refusal === true;
    const message: Record<string, unknown> = {
      role: "assistant",
      content: refused || (res.content === "" && res.toolCalls.length > 0) ? null : res.content,
      refusal: refused ? res.content : null,
      annotations: [],
    };
    const onlyThought = res.reasoning !== undefined && res.content === "" &&
      res.toolCalls.length === 0;
    if (res.toolCalls.length > 0) message.tool_calls = res.toolCalls.map(wireCall);
    const model = res.model || request.chat.model;
    return {
      id: chatCompletionId(res.id),
      object: "chat.completion",
      created,
      model,
      choices: [{
        index: 0,
        message,
        logprobs: null,
        finish_reason: refused && res.finishReason === "content_filter"
          ? "stop"
          : openAIFinish(res.finishReason),
      }],
      usage: openAIUsage(res.usage, onlyThought),
      service_tier: "default",
      system_fingerprint: systemFingerprint(model),
    };
  },
  encoder: (request, created) => new ChatEncoder(request, created),
};
