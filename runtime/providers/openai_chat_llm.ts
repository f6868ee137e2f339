/**
 * The OpenAI Chat Completions port.
 *
 * @module
 */
import type { LLMPort } from "../../ports/llm.ts";
import { bearer, endpoint } from "./_http.ts";
import { chatResponseFromOpenAI, openAIChatBody, OpenAIChatStream } from "./_openai_chat.ts";
import type { PortCodec } from "./_port_codec.ts";
import { WirePort, type WirePortOptions } from "./wire_port.ts";

/** Options for {@linkcode OpenAIChatLLM}. */
export interface OpenAIChatLLMOptions extends WirePortOptions {
  /**
   * The API key, sent as `Authorization: Bearer`. Servers that need none
   * (a local Ollama) work without it.
   * @default {the OPENAI_API_KEY environment variable}
   */
  readonly apiKey?: string;
  /**
   * Where the API lives; requests go to `{baseURL}/chat/completions`. Any
   * OpenAI-compatible server: `http://localhost:11434/v1` (Ollama),
   * `http://localhost:8000/v1` (vLLM), `https://openrouter.ai/api/v1`.
   * @default {"https://api.openai.com/v1"}
   */
  readonly baseURL?: string;
}

// The Chat Completions wire: a bearer key that servers needing none go
// without, and nothing of its own to configure.
const OPENAI_CHAT: PortCodec<OpenAIChatLLMOptions> = {
  port: "OpenAIChatLLM",
  provider: "OpenAI",
  keyEnv: ["OPENAI_API_KEY"],
  baseURL: "https://api.openai.com/v1",
  headers: bearer,
  wire: (_options, base) => ({
    url: endpoint(base, "/chat/completions"),
    encode: openAIChatBody,
    decode: chatResponseFromOpenAI,
    decodeStream: () => new OpenAIChatStream(),
  }),
};

/**
 * An {@linkcode LLMPort} on the OpenAI Chat Completions API over web `fetch`
 * (no SDK), and so on every OpenAI-compatible server by `baseURL`. Blocking
 * and streamed calls (SSE, with `stream_options.include_usage`), system
 * prompts, tools and tool results, JSON-schema output (`settings.jsonSchema`
 * becomes `response_format`), finish reasons, and usage with cached input
 * tokens (`inputTokens` excludes them). Failures are classified: 429 is a
 * `RateLimitError` carrying `retryAfterMs`; 408, 409, 5xx and network failures
 * before the first byte are retryable `pre_stream` errors; other 4xx are
 * `ProviderResponseError`s with the status and OpenAI's message; a 2xx answer
 * that is not the API's shape (no choices, a token count that is not a count)
 * is a `ProviderResponseError` naming the field, never an empty answer; a
 * stream that fails before any content is thrown `pre_stream`, and one cut
 * after content ends in an `error` event (phase `mid_stream`, usage so far).
 * `ctx.signal` aborts the request.
 *
 * No error leaves the port with its credentials: the key, the values of
 * `headers`, the baseURL's `user:pass` and key-like query values, and every
 * credential shape (`sk-...`, JWTs, `api_key=...`, ...) are masked as
 * `[REDACTED]` in the message, the stack and the whole `cause` chain of
 * what `chat()` and `stream()` throw and of a stream's `error` events; the
 * error keeps its class and fields, so `retry()` reads it as before.
 *
 * Under a test context (`makeTestCtx`) it refuses to send with
 * `ModelRequestsDisallowed`, unless its fetch is a `FakeProvider`'s.
 *
 * @example Against a FakeProvider, in-process
 * ```ts
 * import { Agent, OpenAIChatLLM } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeProvider, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: new FakeLLM("Hello from the wire.") });
 * const llm = new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch });
 * const result = await new Agent("a", { model: "gpt-4o-mini" }).run("hi", makeTestCtx({ llm }));
 * assertEquals(result.output, "Hello from the wire.");
 * assertEquals(provider.requests[0].path, "/v1/chat/completions");
 * ```
 */
export class OpenAIChatLLM extends WirePort<OpenAIChatLLMOptions> implements LLMPort {
  /**
   * Reads `OPENAI_API_KEY` here when no key is given; nothing is sent until the first call.
   *
   * @param options Key, base URL, fetch and headers.
   * @throws {TypeError} For an unknown option or a malformed value.
   */
  constructor(options: OpenAIChatLLMOptions = {}) {
    super(OPENAI_CHAT, options);
  }
}
