/**
 * The Gemini API port.
 *
 * @module
 */
import type { LLMPort } from "../../ports/llm.ts";
import { chatResponseFromGemini, geminiBody, GeminiStream, modelURL } from "./_gemini.ts";
import type { PortCodec } from "./_port_codec.ts";
import { WirePort, type WirePortOptions } from "./wire_port.ts";
import { is } from "../_options.ts";

/** Options for {@linkcode GeminiLLM}. */
export interface GeminiLLMOptions extends WirePortOptions {
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
   * The output cap (`generationConfig.maxOutputTokens`) of a request whose
   * settings give none; when neither does, none is sent and the model's own
   * limit applies.
   */
  readonly maxTokens?: number;
}

// The Gemini API wire: the key as `x-goog-api-key` (never in the URL), the
// model in the URL, and call ids made up where Gemini 2 leaves them out (ours
// need one to pair each result), counted per port.
const GEMINI: PortCodec<GeminiLLMOptions> = {
  port: "GeminiLLM",
  provider: "Gemini",
  keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  baseURL: "https://generativelanguage.googleapis.com/v1beta",
  options: { maxTokens: is.number({ min: 1, integer: true }) },
  headers: (key): Record<string, string> => key ? { "x-goog-api-key": key } : {},
  wire: ({ maxTokens }, base) => {
    let calls = 0;
    const callId = (): string => `gemini_call_${++calls}`;
    return {
      url: base,
      endpoint: (model, stream) => modelURL(base, model, stream),
      encode: (request) => geminiBody(request, maxTokens),
      decode: (body, model) => chatResponseFromGemini(body, model, callId),
      decodeStream: () => new GeminiStream(callId),
    };
  },
};

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
export class GeminiLLM extends WirePort<GeminiLLMOptions> implements LLMPort {
  /**
   * Reads `GEMINI_API_KEY` (else `GOOGLE_API_KEY`) here when no key is
   * given; nothing is sent until the first call.
   *
   * @param options Key, base URL, fetch, headers and the default output cap.
   * @throws {TypeError} For an unknown option or a malformed value.
   * @throws {RangeError} For a `maxTokens` that is not a positive integer.
   */
  constructor(options: GeminiLLMOptions = {}) {
    super(GEMINI, options);
  }
}
