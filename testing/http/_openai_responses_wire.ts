// The OpenAI Responses wire, server side (POST /v1/responses): what OpenAI
// Agents JS speaks by default.
import type { ChatResponse } from "../../ports/chat.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { ToolSpec } from "../../ports/tool_spec.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { openAIVendor, reasoningOf } from "./_openai_chat_wire.ts";
import { parseArgs } from "../../runtime/internal.ts";
import { obfuscation, responsesId } from "./_ids.ts";
import type { Problem, StreamEncoder, Wire, WireRequest } from "./_wire.ts";
import { record, type SettingsDraft, textOf, wireParser, wireRequest } from "./_wire_request.ts";

const ROLES: Record<string, Message["role"]> = {
  system: "system",
  developer: "system",
  user: "user",
  assistant: "assistant",
};

function bad(message: string, param?: string): Problem {
  return { status: 400, message, param, code: param ? "invalid_value" : undefined };
}

// The script's reasoning, else a turn that only thought spent all its output
// on it; the script's cache writes, a part of the input as ours are
// (ResponseUsage.input_tokens_details in the openapi.yaml example:
// cached_tokens and cache_write_tokens).
function usageOf(u: Usage, onlyThought = false): Record<string, unknown> {
  const cached = u.cachedInputTokens ?? 0;
  return {
    input_tokens: u.inputTokens + cached,
    input_tokens_details: {
      cached_tokens: cached,
      cache_write_tokens: u.cacheWriteInputTokens ?? 0,
    },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningOf(u, onlyThought) },
    total_tokens: u.inputTokens + cached + u.outputTokens,
  };
}

// A refusal is a completed response whose message holds a refusal part
// (openai-node: ResponseOutputRefusal); only the provider's own filter
// leaves the response incomplete.
function status(reason: FinishReason, refused = false): {
  status: string;
  incomplete_details: { reason: string } | null;
} {
  if (refused && reason === "content_filter") {
    return { status: "completed", incomplete_details: null };
  }
  if (reason === "length") {
    return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
  }
  if (reason === "content_filter") {
    return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
  }
  return { status: "completed", incomplete_details: null };
}

function messageItem(
  id: string,
  text: string,
  done: boolean,
  refused = false,
): Record<string, unknown> {
  return {
    id: responsesId("msg_", id),
    type: "message",
    status: done ? "completed" : "in_progress",
    role: "assistant",
    content: done ? [textPart(text, refused)] : [],
  };
}

function textPart(text: string, refused: boolean): Record<string, unknown> {
  return refused
    ? { type: "refusal", refusal: text }
    : { type: "output_text", annotations: [], logprobs: [], text };
}

// The thinking, as its summary (openai-node: ResponseReasoningItem).
function reasoningItem(id: string, text: string | undefined): Record<string, unknown> {
  return {
    id: responsesId("rs_", id),
    type: "reasoning",
    summary: text === undefined ? [] : [{ type: "summary_text", text }],
  };
}

function callItem(responseId: string, c: ToolCall, done: boolean): Record<string, unknown> {
  return {
    id: responsesId("fc_", `${responseId}:${c.id}`),
    type: "function_call",
    status: done ? "completed" : "in_progress",
    call_id: c.id,
    name: c.name,
    arguments: done ? c.rawArgs ?? JSON.stringify(c.args) : "",
  };
}

// The request's settings the Response object echoes, with the API's
// defaults for what the request left out (openai-openapi openapi.yaml,
// CreateResponse and the Response example).
function echoed(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const text = record(body.text);
  const reasoning = record(body.reasoning);
  const num = (v: unknown): number | null => typeof v === "number" ? v : null;
  const str = (v: unknown): string | null => typeof v === "string" ? v : null;
  return {
    background: body.background === true,
    instructions: typeof body.instructions === "string" ? body.instructions : null,
    max_output_tokens: num(body.max_output_tokens),
    max_tool_calls: num(body.max_tool_calls),
    parallel_tool_calls: body.parallel_tool_calls !== false,
    previous_response_id: str(body.previous_response_id),
    prompt_cache_key: str(body.prompt_cache_key),
    prompt_cache_retention: str(body.prompt_cache_retention),
    reasoning: {
      effort: str(reasoning?.effort),
      summary: str(reasoning?.summary),
    },
    safety_identifier: str(body.safety_identifier),
    // "auto" runs on the default tier, and the response says which ran.
    service_tier: body.service_tier === "flex" || body.service_tier === "priority"
      ? body.service_tier
      : "default",
    store: body.store !== false,
    temperature: num(body.temperature) ?? 1,
    text: {
      format: record(text?.format) ?? { type: "text" },
      verbosity: str(text?.verbosity) ?? "medium",
    },
    tool_choice: body.tool_choice ?? "auto",
    top_logprobs: num(body.top_logprobs) ?? 0,
    top_p: num(body.top_p) ?? 1,
    truncation: str(body.truncation) ?? "disabled",
    user: str(body.user),
    metadata: record(body.metadata) ?? {},
  };
}

// The Response object, in the order the API writes its fields (the
// Response example of responses.create in openai-openapi; the fields it
// lacks there are in openai-node's Response type and in recorded traffic).
function responseObject(
  id: string,
  request: WireRequest,
  created: number,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  // The settings echoed, with the API's defaults (a request not parsed
  // here, one built by hand, echoes none, so it gets every default).
  const e = request.echo ?? echoed({});
  return {
    id: responsesId("resp_", id),
    // openai-node 7.55.0 Response.access_programs (required): "An implicit
    // Standard fallback is represented by null".
    access_programs: null,
    object: "response",
    created_at: created,
    status: "in_progress",
    background: e.background,
    billing: { payer: "developer" },
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: e.instructions,
    max_output_tokens: e.max_output_tokens,
    max_tool_calls: e.max_tool_calls,
    model: request.chat.model,
    output: [],
    parallel_tool_calls: e.parallel_tool_calls,
    previous_response_id: e.previous_response_id,
    prompt_cache_key: e.prompt_cache_key,
    prompt_cache_retention: e.prompt_cache_retention,
    reasoning: e.reasoning,
    safety_identifier: e.safety_identifier,
    service_tier: e.service_tier,
    store: e.store,
    temperature: e.temperature,
    text: e.text,
    tool_choice: e.tool_choice,
    tools: (request.chat.tools ?? []).map((t) => ({
      type: "function",
      description: t.description,
      name: t.name,
      parameters: t.parameters,
      strict: false,
    })),
    top_logprobs: e.top_logprobs,
    top_p: e.top_p,
    truncation: e.truncation,
    usage: null,
    user: e.user,
    metadata: e.metadata,
    ...fields,
  };
}

function parseInput(value: unknown, out: Message[]): Problem | undefined {
  if (typeof value === "string") {
    out.push({ role: "user", content: value });
    return;
  }
  if (!Array.isArray(value)) {
    return bad("Missing required parameter: 'input'.", "input");
  }
  for (let i = 0; i < value.length; i++) {
    const item = record(value[i]);
    if (!item) return bad(`Invalid type for 'input[${i}]': expected an object.`, `input[${i}]`);
    const type = item.type ?? "message";
    if (type === "message") {
      const role = ROLES[item.role as string];
      if (!role) {
        return bad(`Invalid value: '${String(item.role)}'.`, `input[${i}].role`);
      }
      const content = textOf(item.content);
      if (content === undefined) {
        return bad(`Invalid 'input[${i}].content'.`, `input[${i}].content`);
      }
      out.push({ role, content });
    } else if (type === "function_call") {
      if (typeof item.call_id !== "string" || typeof item.name !== "string") {
        return bad(`Invalid 'input[${i}]': a function_call needs call_id and name.`, `input[${i}]`);
      }
      const args = typeof item.arguments === "string" ? item.arguments : "";
      const call = parseArgs(item.call_id, item.name, args);
      // Calls of one turn follow its message (if any): they join it.
      const last = out.at(-1);
      if (last?.role === "assistant") {
        out[out.length - 1] = { ...last, toolCalls: [...(last.toolCalls ?? []), call] };
      } else out.push({ role: "assistant", content: "", toolCalls: [call] });
    } else if (type === "function_call_output") {
      if (typeof item.call_id !== "string") {
        return bad(`Missing required parameter: 'input[${i}].call_id'.`, `input[${i}].call_id`);
      }
      out.push({ role: "tool", content: textOf(item.output) ?? "", toolCallId: item.call_id });
    }
    // Reasoning items and hosted-tool items carry nothing this port models.
  }
  return undefined;
}

function parseTools(value: unknown): ToolSpec[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: ToolSpec[] = [];
  for (const raw of value) {
    const t = record(raw);
    if (t?.type !== "function" || typeof t.name !== "string") continue;
    out.push({
      name: t.name,
      description: typeof t.description === "string" ? t.description : "",
      parameters: record(t.parameters) ?? { type: "object", properties: {} },
    });
  }
  return out.length ? out : undefined;
}

// Each event is written as JSON text: its fixed keys as they are, its
// strings (text, arguments) through JSON.stringify; ids (hex) and pads
// (base62) need no escaping. A stream sends a score of small events, and
// building an object for each to serialise cost more than the rest of a
// round trip. The objects a blocking answer sends too (the Response object,
// the items and their parts) are built by the same functions as there.
class ResponsesEncoder implements StreamEncoder {
  #id = "";
  #seq = 0;
  #text: string | undefined;
  // The message item's id, once asked for.
  #messageId = "";
  #refused = false;
  #thinking: string | undefined;
  #thought = false;
  // The output items, in order, for response.completed.
  readonly #output: Array<Record<string, unknown>> = [];
  readonly #request: WireRequest;
  readonly #created: number;
  readonly #obfuscate: boolean;
  #pads = 0;

  constructor(request: WireRequest, created: number) {
    this.#request = request;
    this.#created = created;
    this.#obfuscate = request.obfuscate !== false;
  }

  // One event; `rest` is the JSON text of its fields after the sequence
  // number, each with its leading comma.
  #event(type: string, rest: string): string {
    return `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.#seq++}${rest}}\n\n`;
  }

  // A delta event's `obfuscation` pad, the last of its fields, unless the
  // client turned them off (openai-openapi: stream_options.include_obfuscation,
  // "random characters to an `obfuscation` field on streaming delta events").
  #pad(): string {
    return this.#obfuscate ? `,"obfuscation":"${obfuscation(this.#id, this.#pads++)}"` : "";
  }

  #itemAdded(output_index: number, item: Record<string, unknown>): string {
    return this.#event(
      "response.output_item.added",
      `,"output_index":${output_index},"item":${JSON.stringify(item)}`,
    );
  }

  #itemDone(output_index: number, item: Record<string, unknown>): string {
    const json = JSON.stringify(item);
    this.#output.push(item);
    return this.#event(
      "response.output_item.done",
      `,"output_index":${output_index},"item":${json}`,
    );
  }

  #closeText(): string {
    const closed = this.#closeThinking();
    const text = this.#text;
    if (text === undefined) return closed;
    this.#text = undefined;
    const refused = this.#refused;
    const item = messageItem(this.#id, text, true, refused);
    const output_index = this.#output.length;
    const at = `,"item_id":"${item.id}","output_index":${output_index},"content_index":0`;
    const json = JSON.stringify(text);
    return closed +
      (refused
        ? this.#event("response.refusal.done", `${at},"refusal":${json}`)
        : this.#event("response.output_text.done", `${at},"text":${json},"logprobs":[]`)) +
      this.#event(
        "response.content_part.done",
        `${at},"part":${JSON.stringify(textPart(text, refused))}`,
      ) +
      this.#itemDone(output_index, item);
  }

  // The reasoning item's summary ends before anything else is said.
  #closeThinking(): string {
    const text = this.#thinking;
    if (text === undefined) return "";
    this.#thinking = undefined;
    const item = reasoningItem(this.#id, text);
    const output_index = this.#output.length;
    const at = `,"item_id":"${item.id}","output_index":${output_index},"summary_index":0`;
    const json = JSON.stringify(text);
    return this.#event("response.reasoning_summary_text.done", `${at},"text":${json}`) +
      this.#event(
        "response.reasoning_summary_part.done",
        `${at},"part":{"type":"summary_text","text":${json}}`,
      ) +
      this.#itemDone(output_index, item);
  }

  #reasoning(delta: string): string {
    let out = "";
    const output_index = this.#output.length;
    const at = `,"item_id":"${
      responsesId("rs_", this.#id)
    }","output_index":${output_index},"summary_index":0`;
    if (this.#thinking === undefined) {
      this.#thinking = "";
      this.#thought = true;
      out = this.#itemAdded(output_index, reasoningItem(this.#id, undefined)) +
        this.#event(
          "response.reasoning_summary_part.added",
          `${at},"part":{"type":"summary_text","text":""}`,
        );
    }
    this.#thinking += delta;
    return out + this.#event(
      "response.reasoning_summary_text.delta",
      `${at},"delta":${JSON.stringify(delta)}${this.#pad()}`,
    );
  }

  #textDelta(delta: string, refusal: boolean): string {
    let out = this.#closeThinking();
    const output_index = this.#output.length;
    const at = `,"item_id":"${this.#messageId ||= responsesId(
      "msg_",
      this.#id,
    )}","output_index":${output_index},"content_index":0`;
    if (this.#text === undefined) {
      this.#text = "";
      this.#refused = refusal;
      out += this.#itemAdded(output_index, messageItem(this.#id, "", false)) +
        this.#event(
          "response.content_part.added",
          `${at},"part":${JSON.stringify(textPart("", this.#refused))}`,
        );
    }
    this.#text += delta;
    const json = JSON.stringify(delta);
    return out +
      (this.#refused ? this.#event("response.refusal.delta", `${at},"delta":${json}`) : this.#event(
        "response.output_text.delta",
        `${at},"delta":${json},"logprobs":[]${this.#pad()}`,
      ));
  }

  #call(call: ToolCall): string {
    const closed = this.#closeText();
    const output_index = this.#output.length;
    const item = callItem(this.#id, call, true);
    const at = `,"item_id":"${item.id}","output_index":${output_index}`;
    const args = JSON.stringify(item.arguments);
    return closed +
      this.#itemAdded(output_index, callItem(this.#id, call, false)) +
      this.#event("response.function_call_arguments.delta", `${at},"delta":${args}${this.#pad()}`) +
      this.#event("response.function_call_arguments.done", `${at},"arguments":${args}`) +
      this.#itemDone(output_index, item);
  }

  #end(finishReason: FinishReason, usage: Usage): string {
    const refused = this.#refused;
    const onlyThought = this.#thought && this.#text === undefined &&
      this.#output.every((item) => item.type === "reasoning");
    const closed = this.#closeText();
    const st = status(finishReason, refused);
    const response = JSON.stringify(responseObject(this.#id, this.#request, this.#created, {
      ...st,
      // "Only present when the status is `completed`" (openai-node Response.completed_at).
      completed_at: st.status === "completed" ? this.#created : null,
      output: this.#output,
      usage: usageOf(usage, onlyThought),
    }));
    const type = st.status === "completed" ? "response.completed" : "response.incomplete";
    return closed + this.#event(type, `,"response":${response}`);
  }

  frames(e: StreamEvent): string {
    switch (e.type) {
      case "message_start": {
        this.#id = e.messageId;
        // One Response object, written once for both events.
        const response = `,"response":${
          JSON.stringify(responseObject(this.#id, this.#request, this.#created, {}))
        }`;
        return this.#event("response.created", response) +
          this.#event("response.in_progress", response);
      }
      case "reasoning_delta":
        return this.#reasoning(e.content);
      case "text_delta":
        return this.#textDelta(e.content, e.refusal === true);
      case "tool_call":
        return this.#call(e.call);
      case "message_end":
        return this.#end(e.finishReason, e.usage);
      case "error":
        return this.#closeText() +
          this.#event(
            "error",
            `,"code":"server_error","message":${JSON.stringify(e.error.message)},"param":null`,
          );
    }
  }
}

const NO_MODEL: Problem = {
  status: 400,
  message: "Missing required parameter: 'model'.",
  param: "model",
};

/** POST /v1/responses. */
export const openAIResponsesWire: Wire = {
  api: "responses",
  ...openAIVendor,
  parse: wireParser(NO_MODEL, (body) => {
    const messages: Message[] = [];
    if (typeof body.instructions === "string" && body.instructions) {
      messages.push({ role: "system", content: body.instructions });
    }
    const problem = parseInput(body.input, messages);
    if (problem) return problem;
    const tools = parseTools(body.tools);
    const s: SettingsDraft = {};
    if (typeof body.max_output_tokens === "number") s.maxTokens = body.max_output_tokens;
    if (typeof body.temperature === "number") s.temperature = body.temperature;
    const format = record(record(body.text)?.format);
    if (format?.type === "json_schema" && record(format.schema)) {
      s.jsonSchema = record(format.schema);
      if (typeof format.name === "string") s.jsonSchemaName = format.name;
    }
    const request = wireRequest(body, messages, tools, Object.keys(s).length ? s : undefined, true);
    const options = record(body.stream_options);
    return {
      ...request,
      echo: echoed(body),
      ...(options?.include_obfuscation === false ? { obfuscate: false } : {}),
    };
  }),
  blocking(res: ChatResponse, request, created) {
    const output: Array<Record<string, unknown>> = [];
    const calls = res.toolCalls.length;
    if (res.reasoning !== undefined) output.push(reasoningItem(res.id, res.reasoning));
    // A turn that only thought has no message item.
    if (res.content !== "" || (calls === 0 && res.reasoning === undefined)) {
      output.push(messageItem(res.id, res.content, true, res.refusal === true));
    }
    for (const c of res.toolCalls) output.push(callItem(res.id, c, true));
    const onlyThought = res.reasoning !== undefined && res.content === "" && calls === 0;
    const st = status(res.finishReason, res.refusal === true);
    return responseObject(res.id, request, created, {
      ...st,
      completed_at: st.status === "completed" ? created : null,
      model: res.model || request.chat.model,
      output,
      usage: usageOf(res.usage, onlyThought),
    });
  },
  encoder: (request, created) => new ResponsesEncoder(request, created),
};
