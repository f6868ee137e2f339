// The Anthropic Messages wire, client side: our request to its JSON, its
// answer (blocking, or SSE events folded by a small state machine) to ours.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { SseMessage } from "./_sse.ts";
import { WireStream } from "./_stream.ts";
import { parseArgs } from "./_tool_args.ts";

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
 * cache write is billed input, so it counts as input here.
 */
export function usageFromAnthropic(u: AnthropicUsage | undefined): Usage {
  const usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number } = {
    inputTokens: (u?.input_tokens ?? 0) + (u?.cache_creation_input_tokens ?? 0),
    outputTokens: u?.output_tokens ?? 0,
  };
  if (typeof u?.cache_read_input_tokens === "number") {
    usage.cachedInputTokens = u.cache_read_input_tokens;
  }
  return usage;
}

function input(c: ToolCall): Record<string, unknown> {
  if (c.rawArgs === undefined) return c.args as Record<string, unknown>;
  const parsed = parseArgs(c.id, c.name, c.rawArgs);
  return parsed.args as Record<string, unknown>;
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
    if (m.role === "system") system.push(m.content);
    else if (m.role === "assistant" && m.toolCalls && m.toolCalls.length > 0) {
      const content: Array<Record<string, unknown>> = [];
      if (m.content) content.push({ type: "text", text: m.content });
      for (const c of m.toolCalls) {
        content.push({ type: "tool_use", id: c.id, name: c.name, input: input(c) });
      }
      out.push({ role: "assistant", content });
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

/** A blocking answer in ours. */
export function chatResponseFromAnthropic(body: AnthropicMessage, model: string): ChatResponse {
  let content = "";
  const toolCalls: ToolCall[] = [];
  for (const block of body.content ?? []) {
    if (block.type === "text") content += block.text ?? "";
    else if (block.type === "tool_use") {
      toolCalls.push({
        id: block.id ?? "",
        name: block.name ?? "",
        args: (block.input ?? {}) as Record<string, unknown>,
      });
    }
  }
  return {
    id: body.id ?? "",
    model: body.model ?? model,
    content,
    toolCalls,
    finishReason: finishFromAnthropic(body.stop_reason) ??
      (toolCalls.length ? "tool_calls" : "stop"),
    usage: usageFromAnthropic(body.usage),
  };
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
    readonly partial_json?: string;
    readonly stop_reason?: string | null;
  };
  readonly usage?: AnthropicUsage;
  readonly error?: { readonly type?: string; readonly message?: string };
}

/** Folds the events of one streamed message into stream events. */
export class AnthropicStream extends WireStream {
  #wireUsage: AnthropicUsage = {};
  #calls = new Map<number, PartialCall>();
  #toolCalls = 0;

  constructor() {
    super("Anthropic", "message_stop");
  }

  push(message: SseMessage, out: StreamEvent[]): void {
    const event = JSON.parse(message.data) as StreamData;
    switch (event.type ?? message.event) {
      case "message_start":
        this.#mergeUsage(event.message?.usage);
        return this.start(event.message?.id, out);
      case "content_block_start": {
        const block = event.content_block;
        if (block?.type === "tool_use") {
          this.#calls.set(event.index ?? 0, {
            id: block.id ?? "",
            name: block.name ?? "",
            json: "",
          });
        } else if (block?.type === "text" && block.text) {
          this.start(undefined, out);
          out.push({ type: "text_delta", messageId: this.messageId!, content: block.text });
        }
        return;
      }
      case "content_block_delta": {
        const delta = event.delta;
        if (delta?.type === "text_delta" && delta.text) {
          this.start(undefined, out);
          out.push({ type: "text_delta", messageId: this.messageId!, content: delta.text });
        } else if (delta?.type === "input_json_delta") {
          const call = this.#calls.get(event.index ?? 0);
          if (call) call.json += delta.partial_json ?? "";
        }
        return;
      }
      case "content_block_stop": {
        const call = this.#calls.get(event.index ?? 0);
        if (call) {
          this.#calls.delete(event.index ?? 0);
          this.#toolCalls++;
          this.start(undefined, out);
          out.push({
            type: "tool_call",
            messageId: this.messageId!,
            call: parseArgs(call.id, call.name, call.json),
          });
        }
        return;
      }
      case "message_delta":
        if (event.delta?.stop_reason) {
          this.finishReason = finishFromAnthropic(event.delta.stop_reason);
        }
        this.#mergeUsage(event.usage);
        return;
      case "message_stop":
        return this.end(out);
      case "error":
        return this.fail(out, event.error?.message ?? "Anthropic reported an error mid-stream");
      default:
        return; // ping, and event types this port does not use
    }
  }

  // message_delta's counters are cumulative totals; a null one is not reported.
  #mergeUsage(u: AnthropicUsage | undefined): void {
    if (!u) return;
    const merged: Record<string, number | null | undefined> = { ...this.#wireUsage };
    for (const [k, v] of Object.entries(u)) if (typeof v === "number") merged[k] = v;
    this.#wireUsage = merged as AnthropicUsage;
    this.usage = usageFromAnthropic(this.#wireUsage);
  }

  end(out: StreamEvent[]): void {
    this.finish(out, this.#toolCalls > 0);
  }
}
