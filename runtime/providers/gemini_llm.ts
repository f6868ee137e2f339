/**
 * The Gemini API port.
 *
 * @module
 */
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest, LLMPort } from "../../ports/llm.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { chatResponseFromGemini, geminiBody, GeminiStream, modelURL } from "./_gemini.ts";
import { checkPortOptions, endpoint, keyFromEnv } from "./_http.ts";
import { WireClient } from "./_wire_client.ts";
import { registerPortSecrets } from "../_secrets/registry.ts";
import { is } from "../_options.ts";

/** Options for {@linkcode GeminiLLM}. */
export interface GeminiLLMOptions {
  /**
   * The API key, sent as `x-goog-api-key` (never in the URL).
   * @default {the GEMINI_API_KEY environment variable, else GOOGLE_API_KEY}
   */
  readonly apiKey?: string;
  /**
   * Where the API lives, with its version; requests go to
   * `{baseURL}/models/{model}:generateContent` (and
   * `:streamGenerateContent?alt=sse`). `.../v1` for the stable version.
   * @default {"https://generativelanguage.googleapis.com/v1beta"}
   */
  readonly baseURL?: string;
  /**
   * The fetch to send with: a `FakeProvider`'s in tests.
   * @default {globalThis.fetch}
   */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Extra headers on every request. */
  readonly headers?: Readonly<Record<string, string>> | Headers;
  /**
   * The output cap (`generationConfig.maxOutputTokens`) of a request whose
   * settings give none; when neither does, none is sent and the model's own
   * limit applies.
   */
  readonly maxTokens?: number;
}

const PORT = "GeminiLLM";

/**
 * An {@linkcode LLMPort} on the Gemini API (`generateContent`) over web
 * `fetch` (no SDK). Blocking and streamed calls (`streamGenerateContent` as
 * SSE), the system prompt as `systemInstruction`, tools as
 * `functionDeclarations` (JSON schema as `parametersJsonSchema`), function
 * calls with their ids and results as `functionResponse` parts (one user
 * content per turn; `{ output }`, or `{ error }` for a failed tool),
 * JSON-schema output (`responseJsonSchema`), finish reasons (`MAX_TOKENS` →
 * `length`, `SAFETY` and the other filters → `content_filter`,
 * `MALFORMED_FUNCTION_CALL` → `error`), and usage with cached content as
 * `cachedInputTokens` and thinking tokens as output.
 *
 * Gemini 3 signs its function calls (`thoughtSignature`) and refuses a
 * history that drops a signature: the port keeps them on the assistant
 * message (`providerData.gemini`) and sends each back with its call.
 *
 * Failures are classified as for `OpenAIChatLLM`: 429 (`RESOURCE_EXHAUSTED`)
 * → `RateLimitError` with `retryAfterMs` from the body's
 * `google.rpc.RetryInfo`; 408, 409, 5xx (`UNAVAILABLE`) and network failures
 * before the first byte → retryable `pre_stream`; other 4xx →
 * `ProviderResponseError` with the status and Google's message; a 2xx answer
 * that is not the API's shape → `ProviderResponseError` naming the field,
 * never an empty answer; an error chunk or a cut before any content → thrown
 * `pre_stream`; after content → an `error` event in phase `mid_stream` with
 * the usage so far. Errors never carry the key, header values or the
 * baseURL's credentials.
 *
 * Under a test context (`makeTestCtx`) it refuses to send with
 * `ModelRequestsDisallowed`, unless its fetch is a `FakeProvider`'s.
 *
 * @example A tool loop on Gemini 3, the thought signature sent back
 * ```ts
 * import { toolCall } from "@agentkit/testing/ports";
 * import { Agent, GeminiLLM, ReActCognition } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeProvider, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({
 *   llm: FakeLLM.script([{ toolCalls: [toolCall("c1", "lookup", { host: "a" })] }, "Done."]),
 * });
 * const lookup = new FakeTool({ name: "lookup", responder: () => "a is up" });
 * const agent = new Agent("a", {
 *   model: "gemini-3-flash-preview",
 *   cognition: new ReActCognition({ tools: [lookup] }),
 * });
 * const llm = new GeminiLLM({ apiKey: "AIza-test", fetch: provider.fetch });
 * assertEquals((await agent.run("check a", makeTestCtx({ llm }))).output, "Done.");
 * const second = provider.requests[1].body as {
 *   contents: { parts: { thoughtSignature?: string }[] }[];
 * };
 * assert(second.contents[1].parts[0].thoughtSignature);
 * ```
 */
export class GeminiLLM implements LLMPort {
  readonly #client: WireClient<unknown>;

  /**
   * Reads `GEMINI_API_KEY` (else `GOOGLE_API_KEY`) here when no key is
   * given; nothing is sent until the first call.
   *
   * @param options Key, base URL, fetch, headers and the default output cap.
   * @throws {TypeError} For an unknown option or a malformed value.
   * @throws {RangeError} For a `maxTokens` that is not a positive integer.
   */
  constructor(options: GeminiLLMOptions = {}) {
    checkPortOptions(PORT, options, { maxTokens: is.number({ min: 1, integer: true }) });
    const maxTokens = options.maxTokens;
    const key = options.apiKey ?? (keyFromEnv(PORT, "GEMINI_API_KEY") ||
      keyFromEnv(PORT, "GOOGLE_API_KEY"));
    registerPortSecrets(key, options.headers);
    const base = options.baseURL ?? "https://generativelanguage.googleapis.com/v1beta";
    // Gemini 2 leaves call ids out; ours need one to pair each result.
    let calls = 0;
    const callId = (): string => `gemini_call_${++calls}`;
    this.#client = new WireClient({
      port: PORT,
      provider: "Gemini",
      url: endpoint(base, ""),
      endpoint: (model, stream) => modelURL(base, model, stream),
      fetch: options.fetch,
      headers: key ? { "x-goog-api-key": key } : {},
      extraHeaders: options.headers,
      body: (request) => geminiBody(request, maxTokens),
      answer: (body, model) => chatResponseFromGemini(body, model, callId),
      fold: () => new GeminiStream(callId),
    });
  }

  /**
   * One blocking call (`:generateContent`).
   *
   * @param request The request.
   * @param ctx The run (cancellation, the test-context guard).
   * @returns The answer.
   * @throws {ProviderError} Classified as described on the class.
   * @throws {ModelRequestsDisallowed} Under a test context.
   */
  chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse> {
    return this.#client.chat(request, ctx);
  }

  /**
   * One streamed call (`:streamGenerateContent?alt=sse`): `message_start`, a
   * `text_delta` per text part, a `tool_call` per function call, then
   * `message_end`.
   *
   * @param request The request.
   * @param ctx The run (cancellation, the test-context guard).
   * @returns The events.
   * @throws {ProviderError} Before the first event, classified as on the class.
   * @throws {ModelRequestsDisallowed} Under a test context.
   */
  stream(request: ChatRequest, ctx?: Ctx): AsyncGenerator<StreamEvent, void, undefined> {
    return this.#client.stream(request, ctx);
  }

  /**
   * A system + user prompt, answered blocking.
   *
   * @param request The prompt.
   * @param ctx The run.
   * @returns The answer.
   */
  complete(request: CompleteRequest, ctx?: Ctx): Promise<ChatResponse> {
    return this.#client.complete(request, ctx);
  }
}
