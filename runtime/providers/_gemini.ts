// The Gemini API wire, client side: our request to a GenerateContentRequest,
// its answer (blocking, or SSE chunks folded) to ours. Shapes from Google's
// reference (ai.google.dev/api/generate-content), the function-calling and
// thought-signature guides (ai.google.dev/gemini-api/docs/function-calling,
// .../thought-signatures), and the error guide (.../troubleshooting).
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Message, ProviderData, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { SseMessage } from "./_sse.ts";
import { WireStream } from "./_stream.ts";
import { parseArgs } from "./_tool_args.ts";
import { errorFromBody } from "./_http.ts";
import { isObject, MalformedAnswer, objectAt, stringAt, tokensAt } from "./_wire_shape.ts";
import { ProviderResponseError } from "../../ports/provider_errors.ts";

const P = "Gemini";

/** What `GeminiLLM` keeps on an assistant message (`providerData.gemini`). */
export interface GeminiTurnData {
  /** The thought signature of each signed function call, by call id. */
  readonly thoughtSignatures?: Readonly<Record<string, string>>;
  /** The signature on the turn's text, when the model signed it. */
  readonly textSignature?: string;
  /**
   * The answer's parts in order, set when it holds parts the port does not
   * model (`inlineData`, `fileData`, `executableCode`, `codeExecutionResult`,
   * kinds added later): those whole, text parts as they came, function calls
   * as `{ functionCall: { id, name } }`; sent back in place with the
   * transcript's text and calls.
   */
  readonly parts?: readonly Readonly<Record<string, unknown>>[];
}

// Candidate.FinishReason, every value Google lists (ai.google.dev/api/generate-content#FinishReason,
// @google/genai 3.1.0 FinishReason). Only STOP is a normal end: a limit is
// `length`, a filter `content_filter`, anything else (the model's own
// failure, OTHER, a value added later) `error`, never a silent `stop`.
const FINISH: Record<string, FinishReason> = {
  STOP: "stop",
  MAX_TOKENS: "length",
  // The per-request limit, with more to come by a continuation token.
  CONTINUATION: "length",
  SAFETY: "content_filter",
  RECITATION: "content_filter",
  LANGUAGE: "content_filter",
  BLOCKLIST: "content_filter",
  PROHIBITED_CONTENT: "content_filter",
  SPII: "content_filter",
  IMAGE_SAFETY: "content_filter",
  IMAGE_PROHIBITED_CONTENT: "content_filter",
  IMAGE_RECITATION: "content_filter",
  MALFORMED_FUNCTION_CALL: "error",
  UNEXPECTED_TOOL_CALL: "error",
  TOO_MANY_TOOL_CALLS: "error",
  MALFORMED_RESPONSE: "error",
  MISSING_THOUGHT_SIGNATURE: "error",
  NO_IMAGE: "error",
  IMAGE_OTHER: "error",
  OTHER: "error",
  FINISH_REASON_UNSPECIFIED: "error",
};

/** The wire's finish reason in ours (one Google does not list is not a normal end: `error`). */
export function finishFromGemini(reason: string | undefined): FinishReason | undefined {
  return reason === undefined ? undefined : FINISH[reason] ?? "error";
}

/**
 * UsageMetadata in ours: `promptTokenCount` includes the cached content,
 * which ours excludes from `inputTokens`; thinking tokens are billed output.
 */
export function usageFromGemini(u: unknown): Usage {
  if (u === undefined || u === null) return { inputTokens: 0, outputTokens: 0 };
  const w = objectAt(P, "usageMetadata", u);
  const prompt = tokensAt(P, "usageMetadata.promptTokenCount", w.promptTokenCount) ?? 0;
  const toolPrompt =
    tokensAt(P, "usageMetadata.toolUsePromptTokenCount", w.toolUsePromptTokenCount) ?? 0;
  const cached = tokensAt(P, "usageMetadata.cachedContentTokenCount", w.cachedContentTokenCount);
  const thoughts = tokensAt(P, "usageMetadata.thoughtsTokenCount", w.thoughtsTokenCount);
  const usage: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    reasoningTokens?: number;
  } = {
    inputTokens: Math.max(0, prompt + toolPrompt - (cached ?? 0)),
    outputTokens: (tokensAt(P, "usageMetadata.candidatesTokenCount", w.candidatesTokenCount) ??
      0) + (thoughts ?? 0),
  };
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (thoughts) usage.reasoningTokens = thoughts;
  return usage;
}

function geminiData(m: Message): GeminiTurnData | undefined {
  const d = m.providerData?.gemini;
  return isObject(d) ? d as GeminiTurnData : undefined;
}

function args(c: ToolCall): Record<string, unknown> {
  return c.rawArgs === undefined
    ? c.args as Record<string, unknown>
    : parseArgs(c.id, c.name, c.rawArgs).args as Record<string, unknown>;
}

function contentsOf(messages: readonly Message[]): {
  system: string | undefined;
  contents: Array<Record<string, unknown>>;
} {
  const system: string[] = [];
  const contents: Array<Record<string, unknown>> = [];
  const names = new Map<string, string>();
  let responses: unknown[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool") {
      const id = m.toolCallId ?? "";
      const name = names.get(id);
      // A functionResponse names its function; a result no call asked for has
      // none to name, and an empty name would be refused as a bad request.
      if (name === undefined) {
        throw new TypeError(
          `GeminiLLM: messages[${i}] is a tool message answering the call ${
            JSON.stringify(id)
          }, which no earlier assistant message made; Gemini needs the called function's name for its functionResponse, so give the tool message the id of a call in the transcript (or drop it)`,
        );
      }
      const part = {
        functionResponse: {
          id,
          name,
          // FunctionResponse.response: "output" for the result, "error" for a failure.
          response: m.isError ? { error: m.content } : { output: m.content },
        },
      };
      // The responses to one turn's calls go back together, in one content.
      if (responses) responses.push(part);
      else {
        responses = [part];
        contents.push({ role: "user", parts: responses });
      }
      continue;
    }
    responses = undefined;
    if (m.role === "system") {
      system.push(m.content);
      continue;
    }
    if (m.role === "user") {
      contents.push({ role: "user", parts: [{ text: m.content }] });
      continue;
    }
    const data = geminiData(m);
    const calls = m.toolCalls ?? [];
    for (const c of calls) names.set(c.id, c.name);
    if (Array.isArray(data?.parts)) {
      contents.push({ role: "model", parts: keptParts(m, data, data.parts.filter(isObject)) });
      continue;
    }
    const parts: Array<Record<string, unknown>> = [];
    if (m.content !== "" || calls.length === 0) {
      const text: Record<string, unknown> = { text: m.content };
      if (data?.textSignature) text.thoughtSignature = data.textSignature;
      parts.push(text);
    }
    for (const c of calls) {
      names.set(c.id, c.name);
      const part: Record<string, unknown> = {
        functionCall: { id: c.id, name: c.name, args: args(c) },
      };
      // Sent back as received: Gemini 3 refuses a function call of the
      // current turn without its signature (the thought-signature guide).
      const signature = data?.thoughtSignatures?.[c.id];
      if (typeof signature === "string") part.thoughtSignature = signature;
      parts.push(part);
    }
    contents.push({ role: "model", parts });
  }
  return { system: system.length ? system.join("\n\n") : undefined, contents };
}

function callPart(c: ToolCall, data: GeminiTurnData | undefined): Record<string, unknown> {
  const part: Record<string, unknown> = { functionCall: { id: c.id, name: c.name, args: args(c) } };
  const signature = data?.thoughtSignatures?.[c.id];
  if (typeof signature === "string") part.thoughtSignature = signature;
  return part;
}

// A model turn that held unmodelled parts, in the order it came: its text
// parts as they were when the transcript's text is still theirs (else that
// text in the first one's place), its calls from the transcript's.
function keptParts(
  m: Message,
  data: GeminiTurnData,
  kept: readonly Readonly<Record<string, unknown>>[],
): Array<Record<string, unknown>> {
  const calls = m.toolCalls ?? [];
  const isText = (p: Readonly<Record<string, unknown>>) =>
    typeof p.text === "string" && p.thought !== true;
  const same = kept.filter(isText).map((p) => p.text).join("") === m.content;
  const parts: Array<Record<string, unknown>> = [];
  let textSent = false;
  const sent = new Set<string>();
  for (const p of kept) {
    if (p.thought === true) continue;
    if (isText(p)) {
      if (same) parts.push({ ...p });
      else if (!textSent && m.content !== "") parts.push({ text: m.content });
      textSent = true;
    } else if (isObject(p.functionCall)) {
      const c = calls.find((c) => c.id === (p.functionCall as Record<string, unknown>).id);
      if (c && !sent.has(c.id)) {
        parts.push(callPart(c, data));
        sent.add(c.id);
      }
    } else parts.push({ ...p });
  }
  if (!textSent && m.content !== "") parts.push({ text: m.content });
  for (const c of calls) if (!sent.has(c.id)) parts.push(callPart(c, data));
  return parts;
}

/**
 * The URL of one call under `base` (which carries the API version):
 * `{base}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse`.
 */
export function modelURL(base: string, model: string, stream: boolean): string {
  const url = new URL(base);
  url.hash = "";
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/models/${encodeURIComponent(model)}:${
    stream ? "streamGenerateContent" : "generateContent"
  }`;
  if (stream) url.searchParams.set("alt", "sse");
  return url.href;
}

/** The GenerateContentRequest body. */
export function geminiBody(
  req: ChatRequest,
  maxTokens: number | undefined,
): Record<string, unknown> {
  const { system, contents } = contentsOf(req.messages);
  if (/^(models\/)?gemini-3/.test(req.model)) signSteps(contents);
  const body: Record<string, unknown> = { contents };
  if (system !== undefined) body.systemInstruction = { parts: [{ text: system }] };
  if (req.tools && req.tools.length > 0) {
    body.tools = [{
      functionDeclarations: req.tools.map((t) => ({
        name: t.name,
        description: t.description,
        // JSON Schema as is; `parameters` would take only Google's OpenAPI subset.
        parametersJsonSchema: t.parameters,
      })),
    }];
  }
  const s = req.settings;
  const config: Record<string, unknown> = {};
  const max = s?.maxTokens ?? maxTokens;
  if (max !== undefined) config.maxOutputTokens = max;
  if (s?.temperature !== undefined) config.temperature = s.temperature;
  if (s?.jsonSchema !== undefined) {
    config.responseMimeType = "application/json";
    config.responseJsonSchema = s.jsonSchema;
  }
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}

// Google's documented stand-in for a signature the transcript never had (a
// call made by another model or written by hand): Gemini 3 refuses a step
// whose first function call part is unsigned, and skips the check for this
// value ("Thought signatures" guide, "FAQs": "you can set the thoughtSignature
// field to ... 'skip_thought_signature_validator'").
const DUMMY_SIGNATURE = "skip_thought_signature_validator";

function signSteps(contents: Array<Record<string, unknown>>): void {
  for (const content of contents) {
    if (content.role !== "model" || !Array.isArray(content.parts)) continue;
    const parts = content.parts as Array<Record<string, unknown>>;
    const i = parts.findIndex((p) => p.functionCall);
    // Copies: a kept part may be the transcript's own providerData.
    if (i >= 0 && typeof parts[i].thoughtSignature !== "string") {
      content.parts = parts.map((p, j) =>
        j === i ? { ...p, thoughtSignature: DUMMY_SIGNATURE } : p
      );
    }
  }
}

// The finish reasons that end a turn with no answer to use: the model's
// call could not be returned (Candidate.FinishReason in the reference).
const FAILED: Record<string, string> = {
  MALFORMED_FUNCTION_CALL: "the function call generated by the model is invalid",
  UNEXPECTED_TOOL_CALL: "the model generated a tool call but no tools were enabled in the request",
};

/** The error for a turn that ended on a FAILED reason, or undefined. */
export function failedTurn(
  reason: string | undefined,
  phase: "pre_stream" | "mid_stream",
): ProviderResponseError | undefined {
  const what = reason === undefined ? undefined : FAILED[reason];
  if (what === undefined) return undefined;
  return new ProviderResponseError(
    `${P} ended the turn with finishReason ${reason}: ${what}, so no call came back; ask again (a model often gets the call right on a second try), or give the tools simpler schemas`,
    { phase },
  );
}

/** The parts of one answer (or chunk), read into a turn under construction. */
class Turn {
  content = "";
  /** The thought summaries (parts marked `thought: true`), when the model sent any. */
  reasoning: string | undefined;
  readonly calls: ToolCall[] = [];
  readonly signatures: Record<string, string> = {};
  textSignature: string | undefined;
  /** Every part so far, in order (text runs merged), for a turn with unmodelled parts. */
  readonly parts: Record<string, unknown>[] = [];
  unmodelled = false;

  constructor(readonly callId: () => string) {}

  /** Reads `parts`; returns the text and calls they add. */
  read(parts: unknown, path: string): { text: string; thought: string; calls: ToolCall[] } {
    const added = { text: "", thought: "", calls: [] as ToolCall[] };
    if (parts === undefined || parts === null) return added;
    if (!Array.isArray(parts)) throw new MalformedAnswer(P, `${path} must be an array`, parts);
    for (let i = 0; i < parts.length; i++) {
      const at = `${path}[${i}]`;
      const part = objectAt(P, at, parts[i]);
      const signature = stringAt(P, `${at}.thoughtSignature`, part.thoughtSignature);
      if (part.functionCall !== undefined) {
        const f = objectAt(P, `${at}.functionCall`, part.functionCall);
        const name = stringAt(P, `${at}.functionCall.name`, f.name);
        if (!name) {
          throw new MalformedAnswer(P, `${at}.functionCall.name must name the tool`, f.name);
        }
        const id = stringAt(P, `${at}.functionCall.id`, f.id) || this.callId();
        const call: ToolCall = {
          id,
          name,
          args: objectAt(P, `${at}.functionCall.args`, f.args ?? {}),
        };
        if (signature) this.signatures[id] = signature;
        this.calls.push(call);
        added.calls.push(call);
        this.parts.push({ functionCall: { id, name } });
        continue;
      }
      const text = stringAt(P, `${at}.text`, part.text);
      if (signature) this.textSignature = signature;
      if (text === undefined) {
        // A part that only carries a signature says nothing more.
        if (Object.keys(part).every((k) => k === "thoughtSignature" || k === "thought")) continue;
        // Inline data, code and its result, kinds added later: kept whole.
        this.unmodelled = true;
        this.parts.push(part);
        continue;
      }
      this.#keepText(part, text);
      // A thought summary is not the answer: it is the turn's reasoning.
      if (part.thought === true) {
        this.reasoning = (this.reasoning ?? "") + text;
        added.thought += text;
      } else {
        this.content += text;
        added.text += text;
      }
    }
    return added;
  }

  // Streamed text comes a few words a chunk: a run of plain text is one part.
  #keepText(part: Record<string, unknown>, text: string): void {
    const last = this.parts.at(-1);
    const plain = Object.keys(part).every((k) => k === "text" || k === "thought");
    if (
      plain && last !== undefined && typeof last.text === "string" &&
      last.thought === part.thought && last.thoughtSignature === undefined
    ) {
      last.text += text;
    } else this.parts.push({ ...part });
  }

  /** What the next request must send back: signatures, and unmodelled parts in place. */
  providerData(): ProviderData | undefined {
    const signed = Object.keys(this.signatures).length > 0;
    if (!signed && this.textSignature === undefined && !this.unmodelled) return undefined;
    const data: {
      thoughtSignatures?: Record<string, string>;
      textSignature?: string;
      parts?: Record<string, unknown>[];
    } = {};
    if (signed) data.thoughtSignatures = this.signatures;
    if (this.textSignature !== undefined) data.textSignature = this.textSignature;
    if (this.unmodelled) data.parts = this.parts;
    return { gemini: data };
  }
}

function isErrorBody(body: unknown): body is { error: unknown } {
  return isObject(body) && body.error !== undefined && body.error !== null;
}

// The first candidate of an answer or chunk; none when the prompt was
// blocked (promptFeedback.blockReason), which is a content filter.
function candidateOf(
  b: Record<string, unknown>,
  chunk: boolean,
): { candidate?: Record<string, unknown>; blocked: boolean } {
  if (b.candidates === undefined || b.candidates === null) {
    const feedback = b.promptFeedback;
    if (isObject(feedback) && typeof feedback.blockReason === "string") {
      return { blocked: true };
    }
    // A stream's usage-only chunk carries no candidate.
    if (chunk) return { blocked: false };
    throw new MalformedAnswer(P, "candidates must be an array", b.candidates);
  }
  if (!Array.isArray(b.candidates) || (!chunk && b.candidates.length === 0)) {
    throw new MalformedAnswer(P, "candidates must be a non-empty array", b.candidates);
  }
  if (b.candidates.length === 0) return { blocked: false };
  return { candidate: objectAt(P, "candidates[0]", b.candidates[0]), blocked: false };
}

/**
 * A blocking answer in ours. Anything that is not the documented shape (no
 * candidates, a part that is not an object, a text that is not a string, a
 * function call without a name, a token count that is not a count) is a
 * `ProviderResponseError` naming the field; an error body in a 2xx answer is
 * classified by its status.
 */
export function chatResponseFromGemini(
  body: unknown,
  model: string,
  callId: () => string,
): ChatResponse {
  if (isErrorBody(body)) throw errorFromBody(P, body.error, "pre_stream");
  const b = objectAt(P, "the body", body);
  const turn = new Turn(callId);
  const { candidate, blocked } = candidateOf(b, false);
  let finish: FinishReason | undefined = blocked ? "content_filter" : undefined;
  if (candidate) {
    const reason = stringAt(P, "candidates[0].finishReason", candidate.finishReason);
    const failed = failedTurn(reason, "pre_stream");
    if (failed) throw failed;
    finish = finishFromGemini(reason);
    const content = candidate.content;
    if (content === undefined || content === null) {
      // Only a candidate that says why it ended may come without content (SAFETY).
      if (reason === undefined) {
        throw new MalformedAnswer(P, "candidates[0].content must be an object", content);
      }
    } else {
      const parts = objectAt(P, "candidates[0].content", content).parts;
      if ((parts === undefined || parts === null) && reason === undefined) {
        throw new MalformedAnswer(P, "candidates[0].content.parts must be an array", parts);
      }
      turn.read(parts, "candidates[0].content.parts");
    }
  }
  const providerData = turn.providerData();
  const reasoning = turn.reasoning;
  return {
    ...(reasoning !== undefined ? { reasoning } : {}),
    id: stringAt(P, "responseId", b.responseId) ?? "",
    model: stringAt(P, "modelVersion", b.modelVersion) ?? model,
    content: turn.content,
    toolCalls: turn.calls,
    // Gemini ends a turn of function calls with STOP.
    finishReason: finish === "stop" && turn.calls.length ? "tool_calls" : finish ??
      (turn.calls.length ? "tool_calls" : "stop"),
    usage: usageFromGemini(b.usageMetadata),
    ...(providerData ? { providerData } : {}),
  };
}

/**
 * Folds the SSE chunks of one streamed answer. The stream has no terminator:
 * it is complete when a chunk reported a finish reason and the body ended;
 * a body that ends before one was cut.
 */
export class GeminiStream extends WireStream {
  readonly #turn: Turn;

  constructor(callId: () => string) {
    super(P, "a chunk with a finishReason");
    this.#turn = new Turn(callId);
  }

  push(message: SseMessage, out: StreamEvent[]): void {
    const chunk = JSON.parse(message.data);
    if (isErrorBody(chunk)) {
      return this.fail(out, (phase, reported) => errorFromBody(P, chunk.error, phase, reported));
    }
    const b = objectAt(P, "a stream chunk", chunk);
    this.start(stringAt(P, "responseId", b.responseId), out);
    if (b.usageMetadata !== undefined && b.usageMetadata !== null) {
      this.usage = usageFromGemini(b.usageMetadata);
    }
    const { candidate, blocked } = candidateOf(b, true);
    if (blocked) this.finishReason = "content_filter";
    if (!candidate) return;
    const reason = stringAt(P, "candidates[0].finishReason", candidate.finishReason);
    const content = candidate.content;
    const parts = content === undefined || content === null
      ? undefined
      : objectAt(P, "candidates[0].content", content).parts;
    const { text, thought, calls } = this.#turn.read(parts, "candidates[0].content.parts");
    if (thought) {
      out.push({ type: "reasoning_delta", messageId: this.messageId!, content: thought });
    }
    if (text) out.push({ type: "text_delta", messageId: this.messageId!, content: text });
    for (const call of calls) out.push({ type: "tool_call", messageId: this.messageId!, call });
    if (reason !== undefined && FAILED[reason] !== undefined) {
      return this.fail(out, (phase, reported) => {
        const e = failedTurn(reason, phase)!;
        return phase === "pre_stream"
          ? e
          : new ProviderResponseError(e.message, { phase, ...reported });
      });
    }
    if (reason !== undefined) this.finishReason = finishFromGemini(reason);
  }

  end(out: StreamEvent[]): void {
    const calls = this.#turn.calls.length > 0;
    if (this.finishReason === "stop" && calls) this.finishReason = "tool_calls";
    this.providerData = this.#turn.providerData();
    this.finish(out, calls);
  }
}
