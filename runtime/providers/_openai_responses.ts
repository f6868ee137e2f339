// The OpenAI Responses wire, client side: our request to its JSON, its answer
// (a Response object, or its `response.*` SSE events folded by a small state
// machine) to ours. Shapes from the official SDK's types (openai-node
// src/resources/responses/responses.ts: Response, ResponseOutputItem,
// ResponseStreamEvent, ResponseUsage) and the OpenAPI spec
// (openai/openai-openapi openapi.yaml: CreateResponse, InputItem).
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Message, ProviderData, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { SseMessage } from "./_sse.ts";
import { WireStream } from "./_stream.ts";
import { parseArgs } from "./_tool_args.ts";
import { errorFromBody } from "./_http.ts";
import { openAIUsageReader } from "./_openai_usage.ts";
import { isObject, MalformedAnswer, objectAt, stringAt } from "./_wire_shape.ts";

const P = "OpenAI";

/** The providerData key under which `OpenAIResponsesLLM` keeps a turn's items. */
export const RESPONSES_KEY = "openaiResponses";

/**
 * What `OpenAIResponsesLLM` keeps on an assistant message
 * (`providerData.openaiResponses`): the response's output items in order,
 * those the port models (`message`, `function_call`) as references, every
 * other item (`reasoning` with its `encrypted_content`, hosted-tool calls)
 * whole, to be sent back as it came.
 */
export interface ResponsesTurnData {
  readonly output: readonly Readonly<Record<string, unknown>>[];
}

/** How the port was configured: fixed at construction. */
export interface ResponsesBodyOptions {
  readonly maxTokens: number | undefined;
  readonly store: boolean;
}

// --- usage and finish reasons -------------------------------------------

/**
 * The wire's usage in ours (openai-node ResponseUsage): `input_tokens`
 * includes the cached prefix, ours does not; `output_tokens` includes the
 * reasoning tokens, and so does ours (`reasoningTokens` is a part of it, and
 * a count above it is malformed).
 */
export const usageFromResponses: (u: unknown) => Usage = openAIUsageReader(
  "input_tokens",
  "output_tokens",
  true,
);

/**
 * Why a response ended, in ours. A `completed` response ended normally (with
 * calls if it made any); an `incomplete` one was cut short: by its output cap
 * (`max_output_tokens` → `length`), by the provider's filter
 * (`content_filter`), or by any other limit (`max_messages`, `steered`, a
 * reason added later), which is never read as a normal `stop`.
 */
export function finishFromResponses(
  status: string | undefined,
  reason: string | undefined,
  hadCalls: boolean,
  refused: boolean,
): FinishReason {
  if (status === "incomplete") return reason === "content_filter" ? "content_filter" : "length";
  if (refused) return "content_filter";
  return hadCalls ? "tool_calls" : "stop";
}

// --- the request ----------------------------------------------------------

function turnItems(m: Message): readonly Readonly<Record<string, unknown>>[] | undefined {
  const d = m.providerData?.[RESPONSES_KEY];
  const output = isObject(d) ? d.output : undefined;
  return Array.isArray(output) ? output.filter(isObject) : undefined;
}

function callItem(c: ToolCall): Record<string, unknown> {
  return {
    type: "function_call",
    call_id: c.id,
    name: c.name,
    arguments: c.rawArgs ?? JSON.stringify(c.args),
  };
}

function assistantText(content: string): Record<string, unknown> {
  return { type: "message", role: "assistant", content };
}

// An assistant turn as input items. A turn this port answered is sent back
// in the order the response gave it, its reasoning items whole (with their
// encrypted content: with `store: false` nothing is kept server-side), its
// text and calls as the transcript holds them now.
function assistantItems(m: Message, out: Record<string, unknown>[]): void {
  const calls = m.toolCalls ?? [];
  const kept = turnItems(m);
  if (!kept) {
    if (m.content !== "" || calls.length === 0) out.push(assistantText(m.content));
    for (const c of calls) out.push(callItem(c));
    return;
  }
  const from = out.length;
  let textSent = false;
  const sent = new Set<string>();
  for (const item of kept) {
    if (item.type === "message") {
      if (!textSent && m.content !== "") out.push(assistantText(m.content));
      textSent = true;
    } else if (item.type === "function_call") {
      const call = calls.find((c) => c.id === item.call_id);
      if (call && !sent.has(call.id)) {
        out.push(callItem(call));
        sent.add(call.id);
      }
    } else out.push({ ...item });
  }
  if (!textSent && m.content !== "") out.push(assistantText(m.content));
  for (const c of calls) if (!sent.has(c.id)) out.push(callItem(c));
  // A reasoning item must be followed by the output it led to (the API's
  // "was provided without its required following item"): one that led to
  // nothing (a response cut short while thinking) cannot be sent back.
  while (out.length > from && out[out.length - 1].type === "reasoning") out.pop();
}

/** The input items of a transcript, and its system prompts as `instructions`. */
export function responsesInput(
  messages: readonly Message[],
): { instructions: string | undefined; input: Record<string, unknown>[] } {
  const system: string[] = [];
  const input: Record<string, unknown>[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "system":
        system.push(m.content);
        break;
      case "assistant":
        assistantItems(m, input);
        break;
      case "tool":
        input.push({ type: "function_call_output", call_id: m.toolCallId, output: m.content });
        break;
      default:
        input.push({ type: "message", role: m.role, content: m.content });
    }
  }
  return { instructions: system.length ? system.join("\n\n") : undefined, input };
}

/** The request body for `POST /responses`. */
export function openAIResponsesBody(
  req: ChatRequest,
  stream: boolean,
  options: ResponsesBodyOptions,
): Record<string, unknown> {
  const { instructions, input } = responsesInput(req.messages);
  const body: Record<string, unknown> = { model: req.model };
  if (instructions !== undefined) body.instructions = instructions;
  body.input = input;
  if (req.tools && req.tools.length > 0) {
    // Function tools are strict by default on this API (FunctionTool.strict):
    // a schema written for Chat Completions would be refused, so strictness
    // is asked for only where the caller asks for it, as on the other ports.
    body.tools = req.tools.map((t) => ({
      type: "function",
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
    }));
  }
  const s = req.settings;
  const max = s?.maxTokens ?? options.maxTokens;
  if (max !== undefined) body.max_output_tokens = max;
  if (s?.temperature !== undefined) body.temperature = s.temperature;
  if (s?.jsonSchema !== undefined) {
    body.text = {
      format: { type: "json_schema", name: s.jsonSchemaName ?? "output", schema: s.jsonSchema },
    };
  }
  body.store = options.store;
  // Stateless: the reasoning comes back encrypted, to be sent with the next request.
  if (!options.store) body.include = ["reasoning.encrypted_content"];
  if (stream) body.stream = true;
  return body;
}

// --- the answer ----------------------------------------------------------

const SEP = "\n\n";

// A reasoning item's text: its summary parts, then its reasoning text parts
// (open-weight models served on this API show their reasoning in `content`).
function reasoningTexts(item: Record<string, unknown>, path: string): string[] {
  const texts: string[] = [];
  for (const key of ["summary", "content"] as const) {
    const parts = item[key];
    if (parts === undefined || parts === null) continue;
    if (!Array.isArray(parts)) {
      throw new MalformedAnswer(P, `${path}.${key} must be an array`, parts);
    }
    for (let j = 0; j < parts.length; j++) {
      const part = objectAt(P, `${path}.${key}[${j}]`, parts[j]);
      const text = stringAt(P, `${path}.${key}[${j}].text`, part.text);
      if (text) texts.push(text);
    }
  }
  return texts;
}

// The reference kept for an item the port models, or the whole item.
function keptItem(item: Record<string, unknown>): Record<string, unknown> {
  if (item.type === "message") return { type: "message", id: item.id };
  if (item.type === "function_call") {
    return { type: "function_call", id: item.id, call_id: item.call_id };
  }
  return item;
}

/** The providerData of a response's output: set only when an item must go back whole. */
export function dataOfOutput(output: readonly Record<string, unknown>[]): ProviderData | undefined {
  if (output.every((item) => item.type === "message" || item.type === "function_call")) {
    return undefined;
  }
  return { [RESPONSES_KEY]: { output: output.map(keptItem) } };
}

function functionCallOf(item: Record<string, unknown>, path: string): ToolCall {
  const name = stringAt(P, `${path}.name`, item.name);
  if (!name) throw new MalformedAnswer(P, `${path}.name must name the tool`, item.name);
  const callId = stringAt(P, `${path}.call_id`, item.call_id);
  if (!callId) throw new MalformedAnswer(P, `${path}.call_id must identify the call`, item.call_id);
  return parseArgs(callId, name, stringAt(P, `${path}.arguments`, item.arguments) ?? "");
}

interface MessageText {
  text: string;
  refusal: string;
}

function messageText(item: Record<string, unknown>, path: string, into: MessageText): void {
  const content = item.content;
  if (content === undefined || content === null) return;
  if (!Array.isArray(content)) {
    throw new MalformedAnswer(P, `${path}.content must be an array`, content);
  }
  for (let j = 0; j < content.length; j++) {
    const part = objectAt(P, `${path}.content[${j}]`, content[j]);
    if (part.type === "refusal") {
      into.refusal += stringAt(P, `${path}.content[${j}].refusal`, part.refusal) ?? "";
    } else if (part.type === "output_text") {
      into.text += stringAt(P, `${path}.content[${j}].text`, part.text) ?? "";
    }
  }
}

/** What a Response object's output says, in ours. */
interface ReadOutput {
  readonly text: string;
  readonly refusal: string;
  readonly calls: ToolCall[];
  readonly reasoning: string[];
  readonly items: Record<string, unknown>[];
}

function readOutput(output: unknown): ReadOutput {
  if (!Array.isArray(output)) throw new MalformedAnswer(P, "output must be an array", output);
  const into: MessageText = { text: "", refusal: "" };
  const calls: ToolCall[] = [];
  const reasoning: string[] = [];
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < output.length; i++) {
    const path = `output[${i}]`;
    const item = objectAt(P, path, output[i]);
    const type = stringAt(P, `${path}.type`, item.type);
    if (!type) throw new MalformedAnswer(P, `${path}.type must name the item's type`, item.type);
    if (type === "message") messageText(item, path, into);
    else if (type === "function_call") calls.push(functionCallOf(item, path));
    else if (type === "reasoning") reasoning.push(...reasoningTexts(item, path));
    items.push(item);
  }
  return { ...into, calls, reasoning, items };
}

function incompleteReason(b: Record<string, unknown>): string | undefined {
  const d = b.incomplete_details;
  if (d === undefined || d === null) return undefined;
  return stringAt(P, "incomplete_details.reason", objectAt(P, "incomplete_details", d).reason);
}

/**
 * A blocking Response in ours. A `failed` response (or any with an `error`)
 * is classified by its error code; anything that is not the documented shape
 * is a `ProviderResponseError` naming the field, never an empty answer.
 */
export function chatResponseFromResponses(body: unknown, model: string): ChatResponse {
  if (isObject(body) && body.error !== undefined && body.error !== null) {
    throw errorFromBody(P, body.error, "pre_stream");
  }
  const b = objectAt(P, "the body", body);
  const status = stringAt(P, "status", b.status);
  const read = readOutput(b.output);
  const reason = incompleteReason(b);
  if (
    read.items.length === 0 && status !== "incomplete"
  ) {
    throw new MalformedAnswer(P, "output must carry at least one item", b.output);
  }
  const refused = read.text === "" && read.refusal !== "";
  const response: {
    -readonly [K in keyof ChatResponse]: ChatResponse[K];
  } = {
    id: stringAt(P, "id", b.id) ?? "",
    model: stringAt(P, "model", b.model) ?? model,
    content: refused ? read.refusal : read.text,
    toolCalls: read.calls,
    finishReason: finishFromResponses(status, reason, read.calls.length > 0, refused),
    usage: usageFromResponses(b.usage),
  };
  if (refused) response.refusal = true;
  if (read.reasoning.length) response.reasoning = read.reasoning.join(SEP);
  const data = dataOfOutput(read.items);
  if (data) response.providerData = data;
  return response;
}

// --- the stream ----------------------------------------------------------

interface StreamedCall {
  id: string;
  callId: string;
  name: string;
  args: string;
  emitted: boolean;
}

interface StreamedMessage {
  text: number;
  refusal: number;
}

/**
 * Folds the `response.*` events of one streamed response into stream events
 * (openai-node ResponseStreamEvent). Text, refusal and reasoning deltas pass
 * through as they come; a call is delivered when its item is done (its
 * arguments complete); the terminal `response.completed` / `incomplete`
 * carries the usage and the finish reason; `response.failed` and `error` are
 * the provider's failure, classified by its code. Events the port does not
 * model (hosted tools' progress, annotations) change nothing: the items they
 * build arrive whole in `response.output_item.done` and are kept.
 */
export class OpenAIResponsesStream extends WireStream {
  #calls = new Map<string, StreamedCall>();
  #messages = new Map<string, StreamedMessage>();
  #items: Record<string, unknown>[] = [];
  #reasoningKey: string | undefined;
  #refused = false;
  #toolCalls = 0;

  constructor() {
    super("OpenAI", "response.completed");
  }

  push(message: SseMessage, out: StreamEvent[]): void {
    if (message.data === "[DONE]") {
      return this.finishReason === undefined ? undefined : this.end(out);
    }
    const event = objectAt(P, "a stream event", JSON.parse(message.data));
    const type = stringAt(P, "type", event.type) ?? message.event;
    switch (type) {
      case "response.created":
      case "response.in_progress":
      case "response.queued":
        return this.start(
          stringAt(P, "response.id", objectAt(P, "response", event.response).id),
          out,
        );
      case "response.output_item.added":
        return this.#added(objectAt(P, "item", event.item), out);
      case "response.output_text.delta":
        return this.#text(event, "text", out);
      case "response.refusal.delta":
        return this.#text(event, "refusal", out);
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.#reasoning(event, out);
      case "response.function_call_arguments.delta": {
        const call = this.#calls.get(stringAt(P, "item_id", event.item_id) ?? "");
        if (call) call.args += stringAt(P, "delta", event.delta) ?? "";
        return;
      }
      case "response.function_call_arguments.done": {
        const call = this.#calls.get(stringAt(P, "item_id", event.item_id) ?? "");
        const args = stringAt(P, "arguments", event.arguments);
        if (call && args !== undefined) call.args = args;
        return;
      }
      case "response.output_item.done":
        return this.#done(objectAt(P, "item", event.item), out);
      case "response.completed":
      case "response.incomplete":
        return this.#terminal(objectAt(P, "response", event.response), type, out);
      case "response.failed": {
        const response = objectAt(P, "response", event.response);
        if (response.usage !== undefined && response.usage !== null) {
          this.usage = usageFromResponses(response.usage);
        }
        this.start(stringAt(P, "response.id", response.id), out);
        this.#flushCalls(out);
        const error = response.error ?? { message: "the response failed with no error" };
        return this.fail(out, (phase, reported) => errorFromBody(P, error, phase, reported));
      }
      case "error":
        this.start(undefined, out);
        this.#flushCalls(out);
        // ResponseErrorEvent: its `type` is the event's, the error's kind is its `code`.
        return this.fail(
          out,
          (phase, reported) =>
            errorFromBody(P, { code: event.code, message: event.message }, phase, reported),
        );
      default:
        return;
    }
  }

  #added(item: Record<string, unknown>, out: StreamEvent[]): void {
    this.start(undefined, out);
    const id = stringAt(P, "item.id", item.id) ?? "";
    if (item.type === "function_call") {
      this.#calls.set(id, {
        id,
        callId: stringAt(P, "item.call_id", item.call_id) ?? "",
        name: stringAt(P, "item.name", item.name) ?? "",
        args: stringAt(P, "item.arguments", item.arguments) ?? "",
        emitted: false,
      });
    } else if (item.type === "message") this.#messages.set(id, { text: 0, refusal: 0 });
  }

  #text(event: Record<string, unknown>, kind: "text" | "refusal", out: StreamEvent[]): void {
    const delta = stringAt(P, "delta", event.delta);
    this.start(undefined, out);
    if (!delta) return;
    const id = stringAt(P, "item_id", event.item_id) ?? "";
    let m = this.#messages.get(id);
    if (!m) this.#messages.set(id, m = { text: 0, refusal: 0 });
    m[kind] += delta.length;
    if (kind === "refusal") {
      this.#refused = true;
      out.push({ type: "text_delta", messageId: this.messageId!, content: delta, refusal: true });
    } else out.push({ type: "text_delta", messageId: this.messageId!, content: delta });
  }

  #reasoning(event: Record<string, unknown>, out: StreamEvent[]): void {
    const delta = stringAt(P, "delta", event.delta);
    this.start(undefined, out);
    if (!delta) return;
    // Each summary part (and each reasoning item) is a paragraph of its own,
    // as the blocking answer joins them.
    const key = `${event.type}:${event.item_id}:${event.summary_index ?? event.content_index}`;
    const content = this.#reasoningKey !== undefined && this.#reasoningKey !== key
      ? SEP + delta
      : delta;
    this.#reasoningKey = key;
    out.push({ type: "reasoning_delta", messageId: this.messageId!, content });
  }

  #done(item: Record<string, unknown>, out: StreamEvent[]): void {
    this.start(undefined, out);
    const id = stringAt(P, "item.id", item.id) ?? "";
    this.#items.push(item);
    if (item.type === "function_call") {
      const call = functionCallOf(item, "item");
      const streamed = this.#calls.get(id);
      if (streamed?.emitted) return;
      if (streamed) streamed.emitted = true;
      else this.#calls.set(id, { id, callId: call.id, name: call.name, args: "", emitted: true });
      this.#toolCalls++;
      out.push({ type: "tool_call", messageId: this.messageId!, call });
    } else if (item.type === "message") {
      // A server that sends the item whole, without deltas: its text is the answer.
      let m = this.#messages.get(id);
      if (!m) this.#messages.set(id, m = { text: 0, refusal: 0 });
      const whole: MessageText = { text: "", refusal: "" };
      messageText(item, "item", whole);
      if (!m.text && whole.text) {
        m.text = whole.text.length;
        out.push({ type: "text_delta", messageId: this.messageId!, content: whole.text });
      }
      if (!m.refusal && whole.refusal) {
        m.refusal = whole.refusal.length;
        this.#refused = true;
        out.push({
          type: "text_delta",
          messageId: this.messageId!,
          content: whole.refusal,
          refusal: true,
        });
      }
    } else if (item.type === "reasoning" && this.#reasoningKey === undefined) {
      // Reasoning that was never streamed as deltas is still the turn's reasoning.
      const texts = reasoningTexts(item, "item");
      if (texts.length) {
        this.#reasoningKey = `item:${id}`;
        out.push({ type: "reasoning_delta", messageId: this.messageId!, content: texts.join(SEP) });
      }
    }
  }

  // Calls whose arguments finished but whose item never said done (a cut
  // right after them) are complete: delivered before an error.
  #flushCalls(out: StreamEvent[]): void {
    for (const c of this.#calls.values()) {
      if (c.emitted || !c.name || !c.callId) continue;
      c.emitted = true;
      this.#toolCalls++;
      out.push({
        type: "tool_call",
        messageId: this.messageId!,
        call: parseArgs(c.callId, c.name, c.args),
      });
    }
  }

  #terminal(response: Record<string, unknown>, type: string, out: StreamEvent[]): void {
    this.start(stringAt(P, "response.id", response.id), out);
    const status = stringAt(P, "response.status", response.status);
    const d = response.incomplete_details;
    const reason = d === undefined || d === null
      ? undefined
      : stringAt(P, "incomplete_details.reason", objectAt(P, "incomplete_details", d).reason);
    this.usage = usageFromResponses(response.usage);
    // The terminal response's output is the whole answer: items whose events
    // were not streamed (a server that sends fewer events) are read from it.
    const output = response.output;
    if (Array.isArray(output) && output.length >= this.#items.length) {
      const seen = new Set(this.#items.map((i) => i.id));
      for (let i = 0; i < output.length; i++) {
        const item = objectAt(P, `response.output[${i}]`, output[i]);
        if (item.id === undefined || !seen.has(item.id)) this.#done(item, out);
      }
      this.#items = output.map((item, i) => objectAt(P, `response.output[${i}]`, item));
    }
    this.#flushCalls(out);
    this.finishReason = finishFromResponses(
      status ?? (type === "response.incomplete" ? "incomplete" : "completed"),
      reason,
      this.#toolCalls > 0,
      this.#refused,
    );
    this.providerData = dataOfOutput(this.#items);
    this.end(out);
  }

  end(out: StreamEvent[]): void {
    this.start(undefined, out);
    this.#flushCalls(out);
    this.finish(out, this.#toolCalls > 0);
  }
}
