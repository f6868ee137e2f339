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
  readonly iterations?: readonly AnthropicUsage[] | null;
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
  // The server paused a long server-tool turn, or ended it with a compaction
  // block: the answer is not finished, and the caller continues it by
  // sending the turn back (Anthropic "Handling stop reasons").
  pause_turn: "length",
  compaction: "length",
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
 * cache write is billed input, so it counts as input here (and as
 * `cacheWriteInputTokens`, a part of it). When the answer reports
 * `usage.iterations` (server-tool loops, compaction), the billed usage is
 * their sum: the top level leaves compaction iterations out (Anthropic SDK
 * `BetaUsage.iterations`: "A compaction entry's tokens are not included in
 * the top-level usage fields"). A count that is not a non-negative integer is
 * a malformed answer.
 */
export function usageFromAnthropic(u: unknown): Usage {
  if (u === undefined || u === null) return { inputTokens: 0, outputTokens: 0 };
  const w = objectAt(P, "usage", u);
  const iterations = w.iterations;
  if (Array.isArray(iterations) && iterations.length > 0) {
    let sum: Usage = { inputTokens: 0, outputTokens: 0 };
    for (let i = 0; i < iterations.length; i++) {
      sum = addParts(
        sum,
        countsOf(objectAt(P, `usage.iterations[${i}]`, iterations[i]), `usage.iterations[${i}]`),
      );
    }
    countsOf(w, "usage"); // the top level is still checked
    return sum;
  }
  if (iterations !== undefined && iterations !== null && !Array.isArray(iterations)) {
    throw new MalformedAnswer(P, "usage.iterations must be an array", iterations);
  }
  return countsOf(w, "usage");
}

function countsOf(w: Record<string, unknown>, path: string): Usage {
  const write = tokensAt(P, `${path}.cache_creation_input_tokens`, w.cache_creation_input_tokens);
  const usage: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    cacheWriteInputTokens?: number;
  } = {
    inputTokens: (tokensAt(P, `${path}.input_tokens`, w.input_tokens) ?? 0) + (write ?? 0),
    outputTokens: tokensAt(P, `${path}.output_tokens`, w.output_tokens) ?? 0,
  };
  const read = tokensAt(P, `${path}.cache_read_input_tokens`, w.cache_read_input_tokens);
  if (read !== undefined) usage.cachedInputTokens = read;
  if (write) usage.cacheWriteInputTokens = write;
  return usage;
}

function addParts(a: Usage, b: Usage): Usage {
  const sum: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    cacheWriteInputTokens?: number;
  } = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined) {
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  }
  if (a.cacheWriteInputTokens !== undefined || b.cacheWriteInputTokens !== undefined) {
    sum.cacheWriteInputTokens = (a.cacheWriteInputTokens ?? 0) + (b.cacheWriteInputTokens ?? 0);
  }
  return sum;
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
  /**
   * The answer's content blocks in order, set when it holds blocks the port
   * does not model (server-tool use and results, MCP blocks, compaction,
   * types added later): every block as it came (thinking only when signed),
   * sent back in place with the transcript's text and calls.
   */
  readonly blocks?: readonly Readonly<Record<string, unknown>>[];
}

// The blocks this port reads into the answer itself.
const MODELLED = new Set(["text", "tool_use", "thinking", "redacted_thinking"]);

function blocksOf(m: Message): readonly Readonly<Record<string, unknown>>[] | undefined {
  const d = m.providerData?.anthropic;
  const blocks = isObject(d) ? (d as AnthropicTurnData).blocks : undefined;
  return Array.isArray(blocks) ? blocks.filter(isObject) : undefined;
}

// An assistant turn that carries unmodelled blocks, in the order it came:
// its text blocks as they were (citations kept) when the transcript's text
// is still theirs, else the transcript's text in the first one's place; its
// tool_use blocks from the transcript's calls.
function keptContent(
  m: Message,
  kept: readonly Readonly<Record<string, unknown>>[],
): Array<Record<string, unknown>> {
  const calls = m.toolCalls ?? [];
  const texts = kept.filter((b) => b.type === "text");
  const same = texts.map((b) => b.text).join("") === m.content;
  const content: Array<Record<string, unknown>> = [];
  let textSent = false;
  const sent = new Set<string>();
  for (const b of kept) {
    if (b.type === "text") {
      if (same) {
        if (typeof b.text === "string" && b.text.trim()) content.push({ ...b });
      } else if (!textSent && m.content.trim()) content.push({ type: "text", text: m.content });
      textSent = true;
    } else if (b.type === "tool_use") {
      const c = calls.find((c) => c.id === b.id);
      if (c && !sent.has(c.id)) {
        content.push({ type: "tool_use", id: c.id, name: c.name, input: input(c) });
        sent.add(c.id);
      }
    } else content.push({ ...b });
  }
  if (!textSent && m.content.trim()) content.push({ type: "text", text: m.content });
  for (const c of calls) {
    if (!sent.has(c.id)) {
      content.push({ type: "tool_use", id: c.id, name: c.name, input: input(c) });
    }
  }
  return content;
}

function thinkingOf(m: Message): readonly ThinkingBlock[] {
  const d = m.providerData?.anthropic;
  const blocks = isObject(d) ? (d as AnthropicTurnData).thinking : undefined;
  return Array.isArray(blocks) ? blocks : [];
}

function dataOf(
  thinking: readonly ThinkingBlock[],
  blocks?: readonly Record<string, unknown>[],
): ProviderData | undefined {
  if (blocks && blocks.some((b) => !MODELLED.has(b.type as string))) {
    return { anthropic: thinking.length ? { thinking, blocks } : { blocks } };
  }
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
    const kept = m.role === "assistant" ? blocksOf(m) : undefined;
    if (m.role === "system") system.push(m.content);
    else if (kept) out.push({ role: "assistant", content: keptContent(m, kept) });
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
  const blocks: Record<string, unknown>[] = [];
  for (let i = 0; i < b.content.length; i++) {
    const block = objectAt(P, `content[${i}]`, b.content[i]);
    if (block.type === "text") {
      const text = block.text;
      if (typeof text !== "string") {
        throw new MalformedAnswer(P, `content[${i}].text must be a string`, text);
      }
      content += text;
      blocks.push(block);
    } else if (block.type === "tool_use") {
      toolCalls.push(toolUseOf(block, `content[${i}]`));
      blocks.push({ type: "tool_use", id: block.id });
    } else if (block.type === "thinking" || block.type === "redacted_thinking") {
      if (block.type === "thinking") {
        reasoning = (reasoning ?? "") +
          (stringAt(P, `content[${i}].thinking`, block.thinking) ?? "");
      }
      const kept = thinkingBlock(block, `content[${i}]`);
      if (kept) {
        thinking.push(kept);
        blocks.push(kept);
      }
    } else if (typeof block.type !== "string") {
      throw new MalformedAnswer(P, `content[${i}].type must be a string`, block.type);
    } else blocks.push(block); // server tools, compaction, later types: kept whole
  }
  const providerData = dataOf(thinking, blocks);
  const stop = stringAt(P, "stop_reason", b.stop_reason);
  const response: ChatResponse = {
    id: stringAt(P, "id", b.id) ?? "",
    model: stringAt(P, "model", b.model) ?? model,
    content,
    toolCalls,
    finishReason: finishFromAnthropic(stop) ?? (toolCalls.length ? "tool_calls" : "stop"),
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
    readonly citation?: unknown;
    readonly content?: string | null;
    readonly encrypted_content?: string | null;
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
  // Every block of the answer by index, for the providerData of one that
  // holds blocks the port does not model; their input_json_delta text.
  readonly #blocks = new Map<number, Record<string, unknown>>();
  readonly #json = new Map<number, string>();
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
        if (typeof block.type !== "string") {
          throw new MalformedAnswer(P, "content_block.type must be a string", block.type);
        }
        if (block.type === "tool_use") {
          const call = toolUseOf({ ...block, input: {} }, "content_block");
          this.#calls.set(index, { id: call.id, name: call.name, json: "" });
          this.#blocks.set(index, { type: "tool_use", id: block.id });
        } else if (block.type === "thinking") {
          this.#thinking.set(index, {
            thinking: stringAt(P, "content_block.thinking", block.thinking) ?? "",
            signature: stringAt(P, "content_block.signature", block.signature) ?? "",
          });
        } else if (block.type === "redacted_thinking") {
          const kept = thinkingBlock(block, "content_block")!;
          this.#kept.push(kept);
          this.#blocks.set(index, kept);
        } else if (block.type === "text") {
          const text = stringAt(P, "content_block.text", block.text);
          this.#blocks.set(index, { ...block, text: text ?? "" });
          if (text) {
            this.start(undefined, out);
            out.push({ type: "text_delta", messageId: this.messageId!, content: text });
          }
        } else {
          // A server tool's use or result, an MCP block, compaction, or a
          // type added later: kept whole, its deltas folded into it.
          this.#blocks.set(index, { ...block });
        }
        return;
      }
      case "content_block_delta": {
        const delta = objectAt(P, "delta", event.delta);
        if (delta.type === "text_delta") {
          const text = stringAt(P, "delta.text", delta.text);
          const block = this.#blocks.get(index);
          if (block?.type === "text" && text) block.text = `${block.text ?? ""}${text}`;
          if (text) {
            this.start(undefined, out);
            out.push({ type: "text_delta", messageId: this.messageId!, content: text });
          }
        } else if (delta.type === "input_json_delta") {
          const call = this.#calls.get(index);
          const other = this.#blocks.get(index);
          if (!call && other && !MODELLED.has(other.type as string)) {
            // A server tool's input (server_tool_use, mcp_tool_use) streams as a client call's does.
            const part = stringAt(P, "delta.partial_json", delta.partial_json) ?? "";
            this.#json.set(index, (this.#json.get(index) ?? "") + part);
            return;
          }
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
        } else if (delta.type === "citations_delta") {
          const block = this.#blocks.get(index);
          if (block && delta.citation !== undefined) {
            block.citations = [
              ...(Array.isArray(block.citations) ? block.citations : []),
              delta.citation,
            ];
          }
        } else if (delta.type === "compaction_delta") {
          // BetaCompactionContentBlockDelta: the summary text and its encrypted form.
          const block = this.#blocks.get(index);
          if (block) {
            const content = stringAt(P, "delta.content", delta.content);
            if (content) {
              block.content = `${typeof block.content === "string" ? block.content : ""}${content}`;
            }
            const encrypted = stringAt(P, "delta.encrypted_content", delta.encrypted_content);
            if (encrypted) block.encrypted_content = encrypted;
          }
        }
        return; // delta types this port does not know change nothing it reads
      }
      case "content_block_stop":
        this.#closeThinking(index);
        this.#closeOther(index);
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
    if (block.signature) {
      const kept: ThinkingBlock = { type: "thinking", ...block };
      this.#kept.push(kept);
      this.#blocks.set(index, kept);
    }
  }

  // An unmodelled block's streamed input is its `input`, as the blocking answer has it.
  #closeOther(index: number): void {
    const json = this.#json.get(index);
    if (json === undefined) return;
    this.#json.delete(index);
    const block = this.#blocks.get(index)!;
    if (json === "") return;
    try {
      block.input = JSON.parse(json);
    } catch {
      throw new MalformedAnswer(
        P,
        `content block ${index}'s input_json_delta text must be JSON`,
        json,
      );
    }
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
    for (const [k, v] of Object.entries(u)) {
      if (typeof v === "number" || (k === "iterations" && Array.isArray(v))) merged[k] = v;
    }
    this.#wireUsage = merged as AnthropicUsage;
    this.usage = usageFromAnthropic(this.#wireUsage);
  }

  end(out: StreamEvent[]): void {
    // The message stopped: a tool_use block it never closed still arrived whole.
    for (const index of [...this.#calls.keys()].sort((a, b) => a - b)) this.#closeCall(index, out);
    for (const index of [...this.#thinking.keys()].sort((a, b) => a - b)) {
      this.#closeThinking(index);
    }
    for (const index of [...this.#json.keys()]) this.#closeOther(index);
    const blocks = [...this.#blocks.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    this.providerData = dataOf(this.#kept, blocks);
    this.finish(out, this.#toolCalls > 0);
  }
}
