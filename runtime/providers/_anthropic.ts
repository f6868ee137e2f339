// The Anthropic Messages wire, client side: our request to its JSON, its
// answer (blocking, or SSE events folded by a small state machine) to ours.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Message, ProviderData, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { SseMessage } from "./_sse.ts";
import { WireStream } from "./_stream.ts";
import { parseArgs } from "./_tool_args.ts";
import { errorFromBody } from "./_http.ts";
import { isObject, MalformedAnswer, objectAt, stringAt, tokensAt } from "./_wire_shape.ts";

const P = "Anthropic";

/** The wire's usage object (cumulative in `message_delta`). */
export interface AnthropicUsage {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}

interface Block {
  readonly type?: string;
  readonly text?: string;
  readonly thinking?: string;
  readonly signature?: string;
  readonly data?: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
}

/** A Messages API answer. */
export interface AnthropicMessage {
  readonly id?: string;
  readonly model?: string;
  readonly content?: readonly Block[];
  readonly stop_reason?: string | null;
  readonly usage?: AnthropicUsage;
}

const STOP: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

/** The wire's stop reason in ours (unknown ones end normally). */
export function finishFromAnthropic(reason: string | null | undefined): FinishReason | undefined {
  return reason ? STOP[reason] ?? "stop" : undefined;
}

/**
 * The wire's usage in ours. `input_tokens` already excludes cache reads; a
 * cache write is billed input, so it counts as input here. A count that is
 * not a non-negative integer is a malformed answer.
 */
export function usageFromAnthropic(u: unknown): Usage {
  if (u === undefined || u === null) return { inputTokens: 0, outputTokens: 0 };
  const w = objectAt(P, "usage", u);
  const usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number } = {
    inputTokens: (tokensAt(P, "usage.input_tokens", w.input_tokens) ?? 0) +
      (tokensAt(P, "usage.cache_creation_input_tokens", w.cache_creation_input_tokens) ?? 0),
    outputTokens: tokensAt(P, "usage.output_tokens", w.output_tokens) ?? 0,
  };
  const read = tokensAt(P, "usage.cache_read_input_tokens", w.cache_read_input_tokens);
  if (read !== undefined) usage.cachedInputTokens = read;
  return usage;
}

function input(c: ToolCall): Record<string, unknown> {
  if (c.rawArgs === undefined) return c.args as Record<string, unknown>;
  const parsed = parseArgs(c.id, c.name, c.rawArgs);
  return parsed.args as Record<string, unknown>;
}

/**
 * A thinking block as the API gave it, to be sent back unchanged: with
 * extended thinking and tools, the last assistant turn must carry its
 * thinking blocks with their signatures (Anthropic's "Extended thinking"
 * guide, "Preserving thinking blocks").
 */
export type ThinkingBlock =
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string }
  | { readonly type: "redacted_thinking"; readonly data: string };

/** What `AnthropicLLM` keeps on an assistant message (`providerData.anthropic`). */
export interface AnthropicTurnData {
  /** The turn's signed thinking blocks, in order. */
  readonly thinking?: readonly ThinkingBlock[];
}

function thinkingOf(m: Message): readonly ThinkingBlock[] {
  const d = m.providerData?.anthropic;
  const blocks = isObject(d) ? (d as AnthropicTurnData).thinking : undefined;
  return Array.isArray(blocks) ? blocks : [];
}

function dataOf(thinking: readonly ThinkingBlock[]): ProviderData | undefined {
  return thinking.length ? { anthropic: { thinking } } : undefined;
}

// A thinking block of an answer, or undefined for one that cannot be sent
// back (no signature); a block that is not the API's shape is refused.
function thinkingBlock(block: Record<string, unknown>, path: string): ThinkingBlock | undefined {
  if (block.type === "redacted_thinking") {
    const data = stringAt(P, `${path}.data`, block.data);
    if (data === undefined) {
      throw new MalformedAnswer(P, `${path}.data must be a string`, block.data);
    }
    return { type: "redacted_thinking", data };
  }
  const thinking = stringAt(P, `${path}.thinking`, block.thinking) ?? "";
  const signature = stringAt(P, `${path}.signature`, block.signature);
  return signature ? { type: "thinking", thinking, signature } : undefined;
}

function wireMessages(messages: readonly Message[]): {
  system: string | undefined;
  messages: Array<Record<string, unknown>>;
} {
  const system: string[] = [];
  const out: Array<Record<string, unknown>> = [];
  let results: Array<Record<string, unknown>> | undefined;
  for (const m of messages) {
    if (m.role === "tool") {
      const block: Record<string, unknown> = {
        type: "tool_result",
        tool_use_id: m.toolCallId ?? "",
        content: m.content,
      };
      if (m.isError) block.is_error = true;
      // Results of one turn's calls go back together, in one user message.
      if (results) results.push(block);
      else {
        results = [block];
        out.push({ role: "user", content: results });
      }
      continue;
    }
    results = undefined;
    const thinking = m.role === "assistant" ? thinkingOf(m) : [];
    if (m.role === "system") system.push(m.content);
    else if (
      m.role === "assistant" && (thinking.length || (m.toolCalls && m.toolCalls.length > 0))
    ) {
      // Thinking first, as the model wrote it, then the text and the calls.
      const content: Array<Record<string, unknown>> = thinking.map((b) => ({ ...b }));
      // The API refuses a text block of only whitespace ("text content
      // blocks must contain non-whitespace text"); such text says nothing.
      if (m.content.trim()) content.push({ type: "text", text: m.content });
      for (const c of m.toolCalls ?? []) {
        content.push({ type: "tool_use", id: c.id, name: c.name, input: input(c) });
      }
      out.push({ role: "assistant", content });
    } else if (m.role === "assistant" && m.content.trim() === "") {
      // A model may end its turn with no text; sent back, that empty turn is
      // refused ("all messages must have non-empty content except for the
      // optional final assistant message"). It carries nothing, so it is
      // left out: the user turns around it are combined, as the API does.
      continue;
    } else out.push({ role: m.role, content: m.content });
  }
  return { system: system.length ? system.join("\n\n") : undefined, messages: out };
}

/** The request body for `POST /v1/messages`. */
export function anthropicBody(
  req: ChatRequest,
  stream: boolean,
  maxTokens: number,
): Record<string, unknown> {
  const { system, messages } = wireMessages(req.messages);
  const body: Record<string, unknown> = {
    model: req.model,
    max_tokens: req.settings?.maxTokens ?? maxTokens,
    messages,
  };
  if (system !== undefined) body.system = system;
  if (req.tools && req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.parameters,
    }));
  }
  const s = req.settings;
  if (s?.temperature !== undefined) body.temperature = s.temperature;
  if (s?.jsonSchema !== undefined) {
    body.output_config = { format: { type: "json_schema", schema: s.jsonSchema } };
  }
  if (stream) body.stream = true;
  return body;
}

/**
 * A blocking answer in ours. Anything that is not the documented shape (no
 * content array, a text block without text, a tool_use block without its id,
 * name or input object) is a `ProviderResponseError` naming the field; an
 * error body in a 2xx answer is classified by its type.
 */
export function chatResponseFromAnthropic(body: unknown, model: string): ChatResponse {
  if (
    isObject(body) && (body.type === "error" || (body.error !== undefined && body.error !== null))
  ) {
    throw errorFromBody(P, body.error ?? body, "pre_stream");
  }
  const b = objectAt(P, "the body", body);
  if (!Array.isArray(b.content)) {
    throw new MalformedAnswer(P, "content must be an array of blocks", b.content);
  }
  let content = "";
  let reasoning: string | undefined;
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  for (let i = 0; i < b.content.length; i++) {
    const block = objectAt(P, `content[${i}]`, b.content[i]);
    if (block.type === "text") {
      const text = block.text;
      if (typeof text !== "string") {
        throw new MalformedAnswer(P, `content[${i}].text must be a string`, text);
      }
      content += text;
    } else if (block.type === "tool_use") toolCalls.push(toolUseOf(block, `content[${i}]`));
    else if (block.type === "thinking" || block.type === "redacted_thinking") {
      if (block.type === "thinking") {
        reasoning = (reasoning ?? "") +
          (stringAt(P, `content[${i}].thinking`, block.thinking) ?? "");
      }
      const kept = thinkingBlock(block, `content[${i}]`);
      if (kept) thinking.push(kept);
    } else if (typeof block.type !== "string") {
      throw new MalformedAnswer(P, `content[${i}].type must be a string`, block.type);
    }
    // Other block types (server tools) carry nothing this port maps.
  }
  const providerData = dataOf(thinking);
  const response: ChatResponse = {
    id: stringAt(P, "id", b.id) ?? "",
    model: stringAt(P, "model", b.model) ?? model,
    content,
    toolCalls,
    finishReason: finishFromAnthropic(stringAt(P, "stop_reason", b.stop_reason)) ??
      (toolCalls.length ? "tool_calls" : "stop"),
    usage: usageFromAnthropic(b.usage),
    ...(providerData ? { providerData } : {}),
  };
  return reasoning === undefined ? response : { ...response, reasoning };
}

function toolUseOf(block: Record<string, unknown>, path: string): ToolCall {
  const id = stringAt(P, `${path}.id`, block.id);
  const name = stringAt(P, `${path}.name`, block.name);
  if (!name) throw new MalformedAnswer(P, `${path}.name must name the tool`, block.name);
  return { id: id ?? "", name, args: objectAt(P, `${path}.input`, block.input ?? {}) };
}

interface PartialCall {
  readonly id: string;
  readonly name: string;
  json: string;
}

interface StreamData {
  readonly type?: string;
  readonly index?: number;
  readonly message?: AnthropicMessage;
  readonly content_block?: Block;
  readonly delta?: {
    readonly type?: string;
    readonly text?: string;
    readonly thinking?: string;
    readonly partial_json?: string;
    readonly signature?: string;
    readonly stop_reason?: string | null;
  };
  readonly usage?: AnthropicUsage;
  readonly error?: { readonly type?: string; readonly message?: string };
}

/** Folds the events of one streamed message into stream events. */
export class AnthropicStream extends WireStream {
  #wireUsage: AnthropicUsage = {};
  #calls = new Map<number, PartialCall>();
  #thinking = new Map<number, { thinking: string; signature: string }>();
  readonly #kept: ThinkingBlock[] = [];
  #toolCalls = 0;

  constructor() {
    super("Anthropic", "message_stop");
  }

  push(message: SseMessage, out: StreamEvent[]): void {
    const event = objectAt(P, "a stream event", JSON.parse(message.data)) as StreamData;
    const index = event.index ?? 0;
    switch (event.type ?? message.event) {
      case "message_start":
        this.#mergeUsage(event.message?.usage);
        return this.start(stringAt(P, "message.id", event.message?.id), out);
      case "content_block_start": {
        const block = objectAt(P, "content_block", event.content_block);
        if (block.type === "tool_use") {
          const call = toolUseOf({ ...block, input: {} }, "content_block");
          this.#calls.set(index, { id: call.id, name: call.name, json: "" });
        } else if (block.type === "thinking") {
          this.#thinking.set(index, {
            thinking: stringAt(P, "content_block.thinking", block.thinking) ?? "",
            signature: stringAt(P, "content_block.signature", block.signature) ?? "",
          });
        } else if (block.type === "redacted_thinking") {
          this.#kept.push(thinkingBlock(block, "content_block")!);
        } else if (block.type === "text") {
          const text = stringAt(P, "content_block.text", block.text);
          if (text) {
            this.start(undefined, out);
            out.push({ type: "text_delta", messageId: this.messageId!, content: text });
          }
        }
        return;
      }
      case "content_block_delta": {
        const delta = objectAt(P, "delta", event.delta);
        if (delta.type === "text_delta") {
          const text = stringAt(P, "delta.text", delta.text);
          if (text) {
            this.start(undefined, out);
            out.push({ type: "text_delta", messageId: this.messageId!, content: text });
          }
        } else if (delta.type === "input_json_delta") {
          const call = this.#calls.get(index);
          // Arguments for a block that never started cannot be given to any call.
          if (!call) {
            throw new MalformedAnswer(
              P,
              `input_json_delta for content block ${index}, which no tool_use content_block_start opened`,
              delta,
            );
          }
          call.json += stringAt(P, "delta.partial_json", delta.partial_json) ?? "";
        } else if (delta.type === "thinking_delta" || delta.type === "signature_delta") {
          const block = this.#thinking.get(index);
          if (!block) {
            throw new MalformedAnswer(
              P,
              `${delta.type} for content block ${index}, which no thinking content_block_start opened`,
              delta,
            );
          }
          if (delta.type === "thinking_delta") {
            const thinking = stringAt(P, "delta.thinking", delta.thinking) ?? "";
            block.thinking += thinking;
            if (thinking) {
              this.start(undefined, out);
              out.push({ type: "reasoning_delta", messageId: this.messageId!, content: thinking });
            }
          } else block.signature += stringAt(P, "delta.signature", delta.signature) ?? "";
        }
        return;
      }
      case "content_block_stop":
        this.#closeThinking(index);
        return this.#closeCall(index, out);
      case "message_delta":
        if (event.delta?.stop_reason) {
          this.finishReason = finishFromAnthropic(
            stringAt(P, "delta.stop_reason", event.delta.stop_reason),
          );
        }
        this.#mergeUsage(event.usage);
        return;
      case "message_stop":
        return this.end(out);
      case "error":
        return this.fail(out, (phase, reported) => errorFromBody(P, event.error, phase, reported));
      default:
        return; // ping, and event types this port does not use
    }
  }

  // A finished thinking block is kept when signed (only then can it go back).
  #closeThinking(index: number): void {
    const block = this.#thinking.get(index);
    if (!block) return;
    this.#thinking.delete(index);
    if (block.signature) this.#kept.push({ type: "thinking", ...block });
  }

  #closeCall(index: number, out: StreamEvent[]): void {
    const call = this.#calls.get(index);
    if (!call) return;
    this.#calls.delete(index);
    this.#toolCalls++;
    this.start(undefined, out);
    out.push({
      type: "tool_call",
      messageId: this.messageId!,
      call: parseArgs(call.id, call.name, call.json),
    });
  }

  // message_delta's counters are cumulative totals; a null one is not reported.
  #mergeUsage(u: unknown): void {
    if (u === undefined || u === null) return;
    usageFromAnthropic(u); // refuses a malformed count before it is merged
    const merged: Record<string, unknown> = { ...this.#wireUsage };
    for (const [k, v] of Object.entries(u)) if (typeof v === "number") merged[k] = v;
    this.#wireUsage = merged as AnthropicUsage;
    this.usage = usageFromAnthropic(this.#wireUsage);
  }

  end(out: StreamEvent[]): void {
    // The message stopped: a tool_use block it never closed still arrived whole.
    for (const index of [...this.#calls.keys()].sort((a, b) => a - b)) this.#closeCall(index, out);
    for (const index of [...this.#thinking.keys()].sort((a, b) => a - b)) {
      this.#closeThinking(index);
    }
    this.providerData = dataOf(this.#kept);
    this.finish(out, this.#toolCalls > 0);
  }
}
