// What every wire format of the FakeProvider implements: parse a client's
// request into ours, and write our answer (blocking, or stream events) and
// our failures the way that provider does.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { GeminiParsed } from "./_gemini_wire.ts";

// The misbehaviours of testing/llm/misbehave.ts reach a wire as port facts,
// and each wire encodes them as its provider does (the source is named
// where each is written):
//
// | port fact                                   | chat.completions                          | responses                                         | messages                                   |
// |---------------------------------------------|-------------------------------------------|---------------------------------------------------|--------------------------------------------|
// | `refusal` (finish content_filter)           | `message.refusal` / `delta.refusal`, "stop" | a `refusal` content part, `response.refusal.*`  | text, `stop_reason: "refusal"`, `stop_details` |
// | finish content_filter, no refusal           | `finish_reason: "content_filter"`         | incomplete, `reason: "content_filter"`            | `stop_reason: "refusal"` (its only filter) |
// | `reasoning` / `reasoning_delta`             | `reasoning_tokens` only                   | a `reasoning` item with a summary                 | a `thinking` block with its signature      |
// | `rawArgs` (not JSON; cut at length)         | `function.arguments` as is                | `arguments` as is                                 | `input_json_delta` as is                   |
// | a tool call with `name: ""`                 | `function.name: ""`                       | `name: ""`                                        | `tool_use` with `name: ""`                 |
//
// Gemini (generateContent), whose FunctionCall.args is a JSON object and which
// has no refusal field (sources in _gemini_wire.ts):
//
// | port fact                                   | generateContent                                                             |
// |---------------------------------------------|-----------------------------------------------------------------------------|
// | `refusal`, or finish content_filter         | a candidate with no content, `finishReason: "SAFETY"`, a blocked rating     |
// | `reasoning` / `reasoning_delta`             | a `{ text, thought: true }` part                                            |
// | `rawArgs` not JSON, or a call `name: ""`    | no functionCall part, no content, `finishReason: "MALFORMED_FUNCTION_CALL"` |
// | `rawArgs` cut at length                     | no functionCall part, `finishReason: "MAX_TOKENS"`                          |
// | repeated ids, an unknown tool               | functionCall parts as sent (ids only on gemini-3*, which sends them)        |

/** Which API a request spoke. */
export type ProviderApi = "chat.completions" | "responses" | "messages" | "generateContent";

/** A client request, parsed. */
export interface WireRequest {
  readonly chat: ChatRequest;
  readonly stream: boolean;
  /** OpenAI Chat: `stream_options.include_usage`; the other wires always report usage. */
  readonly includeUsage: boolean;
  /** OpenAI streams: false when `stream_options.include_obfuscation` turned the pads off. */
  readonly obfuscate?: boolean;
  /** OpenAI Responses: the request's settings the Response object echoes. */
  readonly echo?: Readonly<Record<string, unknown>>;
  /** Gemini: the request as sent (contents, roles, parts), for the checks that read it. */
  readonly gemini?: GeminiParsed;
}

/** A request the provider would refuse, and why. */
export interface Problem {
  readonly status: number;
  readonly message: string;
  readonly param?: string;
  readonly code?: string;
  /** A rate limit's wait, for a wire that says it in the body (Gemini's RetryInfo). */
  readonly retryAfterMs?: number;
}

/**
 * What one FakeProvider remembers across requests: what it issued that a
 * later request must send back (Gemini thought signatures).
 */
export class WireMemory {
  readonly #signatures = new Map<string, IssuedSignature>();
  readonly #byCall = new Map<string, IssuedSignature>();
  #n = 0;

  /** A new thought signature for `call` of `model`, remembered. */
  issueSignature(model: string, callId: string, name: string): string {
    const signature = btoa(`agentkit-fake-thought:${++this.#n}:${callId}`);
    const issued: IssuedSignature = { signature, model, callId, name };
    this.#signatures.set(signature, issued);
    this.#byCall.set(callId, issued);
    return signature;
  }

  /** The signature issued with a call id (the latest, when ids repeat). */
  signatureFor(callId: string): IssuedSignature | undefined {
    return this.#byCall.get(callId);
  }

  /** Whether this provider issued `signature`. */
  issued(signature: string): IssuedSignature | undefined {
    return this.#signatures.get(signature);
  }
}

/** A thought signature the fake gave with a function call. */
export interface IssuedSignature {
  readonly signature: string;
  readonly model: string;
  readonly callId: string;
  readonly name: string;
}

/** Writes one streamed answer as SSE text, event by event. */
export interface StreamEncoder {
  /** The frames for one event (an `error` event that is not a cut included). */
  frames(event: StreamEvent): string;
}

/** One provider API on the wire. */
export interface Wire {
  readonly api: ProviderApi;
  /** The vendor, for error bodies and headers. */
  readonly vendor: "openai" | "anthropic" | "google";
  /** A problem with the URL (Gemini: the model and method in the path), if any. */
  checkTarget?(url: URL): Problem | undefined;
  /** Whether the request asks for a stream when the URL says so (Gemini), else the body's `stream`. */
  streams?(url: URL): boolean;
  /** A problem with the headers (no key: 401), if any. */
  checkHeaders(headers: Headers, url: URL): Problem | undefined;
  /** The request in ours, or the provider's 400. */
  parse(body: unknown, url: URL): WireRequest | Problem;
  /** The provider's error JSON for a status (Anthropic's names the request). */
  errorBody(problem: Problem, requestId?: string): unknown;
  /** A blocking answer's JSON. */
  blocking(
    response: ChatResponse,
    request: WireRequest,
    created: number,
    memory: WireMemory,
  ): unknown;
  /** An encoder for one streamed answer. */
  encoder(request: WireRequest, created: number, memory: WireMemory): StreamEncoder;
}

/** Whether a parse gave a problem. */
export function isProblem(value: WireRequest | Problem): value is Problem {
  return (value as Problem).status !== undefined;
}

/** An SSE message with only a data field. */
export function data(json: unknown): string {
  return `data: ${JSON.stringify(json)}\n\n`;
}

/** An SSE message with an event name. */
export function named(event: string, json: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(json)}\n\n`;
}
