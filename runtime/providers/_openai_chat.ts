// The OpenAI Chat Completions wire, client side: our request to its JSON, its
// answer (blocking, or SSE chunks folded by a small state machine) to ours.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { SseMessage } from "./_sse.ts";
import { WireStream } from "./_stream.ts";
import { parseArgs } from "./_tool_args.ts";

/** The wire's usage object. */
export interface OpenAIUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number } | null;
}

interface WireToolCall {
  readonly index?: number;
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

interface WireMessage {
  readonly content?: string | null;
  readonly refusal?: string | null;
  readonly tool_calls?: readonly WireToolCall[] | null;
}

interface WireChoice {
  readonly message?: WireMessage;
  readonly delta?: WireMessage;
  readonly finish_reason?: string | null;
}

/** A completion or a chunk of one. */
export interface OpenAICompletion {
  readonly id?: string;
  readonly model?: string;
  readonly choices?: readonly WireChoice[];
  readonly usage?: OpenAIUsage | null;
  readonly error?: { readonly message?: string } | null;
}

const FINISH: Record<string, FinishReason> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  content_filter: "content_filter",
};

/** The wire's finish reason in ours (unknown ones end normally). */
export function finishFromOpenAI(reason: string | null | undefined): FinishReason | undefined {
  return reason ? FINISH[reason] ?? "stop" : undefined;
}

/** The wire's usage in ours: `prompt_tokens` includes the cached prefix, ours does not. */
export function usageFromOpenAI(u: OpenAIUsage | null | undefined): Usage {
  const cached = u?.prompt_tokens_details?.cached_tokens;
  const input = u?.prompt_tokens ?? 0;
  if (typeof cached !== "number") {
    return { inputTokens: input, outputTokens: u?.completion_tokens ?? 0 };
  }
  return {
    inputTokens: input - cached,
    outputTokens: u?.completion_tokens ?? 0,
    cachedInputTokens: cached,
  };
}

function wireMessage(m: Message): Record<string, unknown> {
  switch (m.role) {
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId ?? "", content: m.content };
    case "assistant":
      if (m.toolCalls && m.toolCalls.length > 0) {
        return {
          role: "assistant",
          content: m.content === "" ? null : m.content,
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args) },
          })),
        };
      }
      return { role: "assistant", content: m.content };
    default:
      return { role: m.role, content: m.content };
  }
}

/** The request body for `POST /chat/completions`. */
export function openAIChatBody(req: ChatRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: req.model,
    messages: req.messages.map(wireMessage),
  };
  if (req.tools && req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  const s = req.settings;
  if (s?.maxTokens !== undefined) body.max_completion_tokens = s.maxTokens;
  if (s?.temperature !== undefined) body.temperature = s.temperature;
  if (s?.jsonSchema !== undefined) {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: s.jsonSchemaName ?? "output", schema: s.jsonSchema },
    };
  }
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

function toolCallOf(c: WireToolCall): ToolCall {
  return parseArgs(c.id ?? "", c.function?.name ?? "", c.function?.arguments ?? "");
}

/** A blocking completion in ours. */
export function chatResponseFromOpenAI(body: OpenAICompletion, model: string): ChatResponse {
  const choice = body.choices?.[0];
  const message = choice?.message ?? {};
  const toolCalls = (message.tool_calls ?? []).map(toolCallOf);
  const refused = !message.content && typeof message.refusal === "string" && message.refusal;
  return {
    id: body.id ?? "",
    model: body.model ?? model,
    content: refused ? message.refusal as string : message.content ?? "",
    toolCalls,
    finishReason: refused ? "content_filter" : finishFromOpenAI(choice?.finish_reason) ??
      (toolCalls.length ? "tool_calls" : "stop"),
    usage: usageFromOpenAI(body.usage),
  };
}

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

/** Folds the chunks of one streamed completion into stream events. */
export class OpenAIChatStream extends WireStream {
  #calls: PartialCall[] = [];
  #flushed = false;

  constructor() {
    super("OpenAI", "the answer finished (no finish_reason, no [DONE])");
  }

  push(message: SseMessage, out: StreamEvent[]): void {
    const data = message.data;
    if (data === "[DONE]") return this.end(out);
    const chunk = JSON.parse(data) as OpenAICompletion;
    if (chunk.error) {
      this.start(chunk.id, out);
      // Calls whose deltas all arrived are complete: they are delivered before the error.
      this.#flushCalls(out);
      return this.fail(out, chunk.error.message ?? "OpenAI reported an error mid-stream");
    }
    this.start(chunk.id, out);
    const choice = chunk.choices?.[0];
    if (choice) {
      const delta = choice.delta;
      if (delta) {
        if (delta.content) {
          out.push({ type: "text_delta", messageId: this.messageId!, content: delta.content });
        }
        if (delta.tool_calls) {
          for (const c of delta.tool_calls) {
            const call = this.#calls[c.index ?? this.#calls.length] ??= {
              id: "",
              name: "",
              args: "",
            };
            if (c.id) call.id = c.id;
            if (c.function?.name) call.name += c.function.name;
            if (c.function?.arguments) call.args += c.function.arguments;
          }
        }
      }
      if (choice.finish_reason) {
        this.finishReason = finishFromOpenAI(choice.finish_reason);
        this.#flushCalls(out);
      }
    }
    if (chunk.usage) this.usage = usageFromOpenAI(chunk.usage);
  }

  #flushCalls(out: StreamEvent[]): void {
    if (this.#flushed) return;
    this.#flushed = true;
    for (const c of this.#calls) {
      if (c) {
        out.push({
          type: "tool_call",
          messageId: this.messageId!,
          call: parseArgs(c.id, c.name, c.args),
        });
      }
    }
  }

  end(out: StreamEvent[]): void {
    this.start(undefined, out);
    this.#flushCalls(out);
    this.finish(out, this.#calls.length > 0);
  }
}
