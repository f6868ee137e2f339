// The OpenAI Chat Completions wire, client side: our request to its JSON, its
// answer (blocking, or SSE chunks folded by a small state machine) to ours.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Message, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { SseMessage } from "./_sse.ts";
import { WireStream } from "./_stream.ts";
import { parseArgs } from "./_tool_args.ts";
import { errorFromBody } from "./_http.ts";
import { openAIUsageReader } from "./_openai_usage.ts";
import { isObject, MalformedAnswer, objectAt, stringAt } from "./_wire_shape.ts";

const P = "OpenAI";

/** The wire's usage object. */
export interface OpenAIUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number } | null;
  readonly completion_tokens_details?: { readonly reasoning_tokens?: number } | null;
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

/**
 * The wire's usage in ours: `prompt_tokens` includes the cached prefix, ours
 * does not; `completion_tokens_details.reasoning_tokens` is a part of the
 * completion, left out where a compatible server counts more reasoning than
 * completion. A count that is not a non-negative integer, or a cached count
 * above the prompt's, is a malformed answer.
 */
export const usageFromOpenAI: (u: unknown) => Usage = openAIUsageReader(
  "prompt_tokens",
  "completion_tokens",
  false,
);

// The reasoning text compatible servers send beside the answer: DeepSeek and
// Qwen (vLLM, SGLang) as `reasoning_content`, Groq, OpenRouter and Ollama's
// OpenAI endpoint as `reasoning`; never part of the answer's text.
function reasoningOf(m: Record<string, unknown>): string | undefined {
  if (typeof m.reasoning_content === "string") return m.reasoning_content;
  // OpenRouter's `reasoning` is text; anything else there is not reasoning text.
  if (typeof m.reasoning === "string") return m.reasoning;
  return undefined;
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

// Some compatible servers send a call's arguments as a JSON object rather
// than its text: the object is the arguments, not "[object Object]".
function argumentsText(path: string, v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (isObject(v)) return JSON.stringify(v);
  throw new MalformedAnswer(P, `${path} must be a string of JSON`, v);
}

function toolCallOf(c: unknown, i: number): ToolCall {
  const path = `choices[0].message.tool_calls[${i}]`;
  const call = objectAt(P, path, c);
  const fn = objectAt(P, `${path}.function`, call.function);
  const name = stringAt(P, `${path}.function.name`, fn.name);
  if (!name) throw new MalformedAnswer(P, `${path}.function.name must name the tool`, fn.name);
  return parseArgs(
    stringAt(P, `${path}.id`, call.id) ?? "",
    name,
    argumentsText(`${path}.function.arguments`, fn.arguments),
  );
}

/**
 * A blocking completion in ours. Anything that is not the documented shape
 * (no choices, a choice without a message, content that is not text, a
 * message with neither content nor calls) is a `ProviderResponseError`
 * naming the field; an error object in a 2xx body is classified by its type.
 */
export function chatResponseFromOpenAI(body: unknown, model: string): ChatResponse {
  if (isObject(body) && body.error !== undefined && body.error !== null) {
    throw errorFromBody(P, body.error, "pre_stream");
  }
  const b = objectAt(P, "the body", body);
  if (!Array.isArray(b.choices) || b.choices.length === 0) {
    throw new MalformedAnswer(P, "choices must be a non-empty array", b.choices);
  }
  const choice = objectAt(P, "choices[0]", b.choices[0]);
  const message = objectAt(P, "choices[0].message", choice.message);
  const content = stringAt(P, "choices[0].message.content", message.content);
  const refusal = stringAt(P, "choices[0].message.refusal", message.refusal);
  const wireCalls = message.tool_calls;
  if (wireCalls !== undefined && wireCalls !== null && !Array.isArray(wireCalls)) {
    throw new MalformedAnswer(P, "choices[0].message.tool_calls must be an array", wireCalls);
  }
  const toolCalls = (wireCalls ?? []).map(toolCallOf);
  const finish = stringAt(P, "choices[0].finish_reason", choice.finish_reason);
  if (
    content === undefined && !refusal && toolCalls.length === 0 && finish !== "length" &&
    !reasoningOf(message)
  ) {
    throw new MalformedAnswer(
      P,
      "choices[0].message must carry content, a refusal or tool_calls",
      message,
    );
  }
  const refused = !content && refusal;
  const reasoning = reasoningOf(message);
  const response: ChatResponse = {
    id: stringAt(P, "id", b.id) ?? "",
    model: stringAt(P, "model", b.model) ?? model,
    content: refused ? refusal : content ?? "",
    toolCalls,
    finishReason: refused
      ? "content_filter"
      : finishFromOpenAI(finish) ?? (toolCalls.length ? "tool_calls" : "stop"),
    usage: usageFromOpenAI(b.usage),
    ...(reasoning ? { reasoning } : {}),
  };
  return refused ? { ...response, refusal: true } : response;
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
  #refused = false;

  constructor() {
    super("OpenAI", "the answer finished (no finish_reason, no [DONE])");
  }

  push(message: SseMessage, out: StreamEvent[]): void {
    const data = message.data;
    if (data === "[DONE]") return this.end(out);
    const parsed: unknown = JSON.parse(data);
    if (isObject(parsed) && parsed.error !== undefined && parsed.error !== null) {
      this.start(stringAt(P, "id", parsed.id), out);
      // Calls whose deltas all arrived are complete: they are delivered before the error.
      this.#flushCalls(out);
      return this.fail(out, (phase, reported) => errorFromBody(P, parsed.error, phase, reported));
    }
    const chunk = objectAt(P, "a stream chunk", parsed);
    this.start(stringAt(P, "id", chunk.id), out);
    const choices = chunk.choices;
    if (choices !== undefined && choices !== null && !Array.isArray(choices)) {
      throw new MalformedAnswer(P, "a chunk's choices must be an array", choices);
    }
    const choice = choices?.[0] === undefined ? undefined : objectAt(P, "choices[0]", choices[0]);
    if (choice) {
      const delta = choice.delta === undefined || choice.delta === null
        ? undefined
        : objectAt(P, "choices[0].delta", choice.delta);
      if (delta) {
        const reasoning = reasoningOf(delta);
        if (reasoning) {
          out.push({ type: "reasoning_delta", messageId: this.messageId!, content: reasoning });
        }
        const content = stringAt(P, "choices[0].delta.content", delta.content);
        if (content) {
          out.push({ type: "text_delta", messageId: this.messageId!, content });
        }
        // A refusal streams as its own field; it is the answer's text, as on the blocking path.
        const refusal = stringAt(P, "choices[0].delta.refusal", delta.refusal);
        if (refusal) {
          this.#refused = true;
          out.push({
            type: "text_delta",
            messageId: this.messageId!,
            content: refusal,
            refusal: true,
          });
        }
        const calls = delta.tool_calls;
        if (calls !== undefined && calls !== null) {
          if (!Array.isArray(calls)) {
            throw new MalformedAnswer(P, "choices[0].delta.tool_calls must be an array", calls);
          }
          for (let i = 0; i < calls.length; i++) this.#addDelta(calls[i], i);
        }
      }
      const finish = stringAt(P, "choices[0].finish_reason", choice.finish_reason);
      if (finish) {
        this.finishReason = this.#refused ? "content_filter" : finishFromOpenAI(finish);
        this.#flushCalls(out);
      }
    }
    if (chunk.usage !== undefined && chunk.usage !== null) {
      this.usage = usageFromOpenAI(chunk.usage);
    }
  }

  #addDelta(c: unknown, i: number): void {
    const path = `choices[0].delta.tool_calls[${i}]`;
    const d = objectAt(P, path, c);
    const index = d.index === undefined ? this.#calls.length : d.index;
    if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0 || index > 1024) {
      throw new MalformedAnswer(P, `${path}.index must be a small non-negative integer`, d.index);
    }
    const call = this.#calls[index] ??= { id: "", name: "", args: "" };
    const id = stringAt(P, `${path}.id`, d.id);
    if (id) call.id = id;
    if (d.function !== undefined && d.function !== null) {
      const fn = objectAt(P, `${path}.function`, d.function);
      const name = stringAt(P, `${path}.function.name`, fn.name);
      if (name) call.name += name;
      call.args += argumentsText(`${path}.function.arguments`, fn.arguments);
    }
  }

  #flushCalls(out: StreamEvent[]): void {
    if (this.#flushed) return;
    this.#flushed = true;
    for (let i = 0; i < this.#calls.length; i++) {
      const c = this.#calls[i];
      if (c) {
        if (!c.name) {
          throw new MalformedAnswer(P, `streamed tool call ${i} must name its tool`, c);
        }
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
    if (this.#refused) this.finishReason = "content_filter";
    this.#flushCalls(out);
    this.finish(out, this.#calls.length > 0);
  }
}
