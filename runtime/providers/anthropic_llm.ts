/**
 * The Anthropic Messages port.
 *
 * @module
 */
import type { LLMPort } from "../../ports/llm.ts";
import { anthropicBody, AnthropicStream, chatResponseFromAnthropic } from "./_anthropic.ts";
import { endpoint } from "./_http.ts";
import type { PortCodec } from "./_port_codec.ts";
import { WirePort, type WirePortOptions } from "./wire_port.ts";
import { is } from "../_options.ts";

/** Options for {@linkcode AnthropicLLM}. */
export interface AnthropicLLMOptions extends WirePortOptions {
  /**
   * The API key, sent as `x-api-key`.
   * @default {the ANTHROPIC_API_KEY environment variable}
   */
  readonly apiKey?: string;
  /**
   * Where the API lives; requests go to `{baseURL}/v1/messages`.
   * @default {"https://api.anthropic.com"}
   */
  readonly baseURL?: string;
  /**
   * The output cap of a request whose settings give none (the API requires one).
   * @default {4096}
   */
  readonly maxTokens?: number;
}

// The Messages wire: the key as `x-api-key`, the version pinned, and a
// default output cap because the API requires one.
const ANTHROPIC: PortCodec<AnthropicLLMOptions> = {
  port: "AnthropicLLM",
  provider: "Anthropic",
  keyEnv: ["ANTHROPIC_API_KEY"],
  baseURL: "https://api.anthropic.com",
  options: { maxTokens: is.number({ min: 1, integer: true }) },
  headers: (key) => ({ "anthropic-version": "2023-06-01", ...(key ? { "x-api-key": key } : {}) }),
  wire: (options, base) => {
    const maxTokens = options.maxTokens ?? 4096;
    return {
      url: endpoint(base, "/v1/messages"),
      encode: (request, stream) => anthropicBody(request, stream, maxTokens),
      decode: chatResponseFromAnthropic,
      decodeStream: () => new AnthropicStream(),
    };
  },
};

/**
 * An {@linkcode LLMPort} on the Anthropic Messages API over web `fetch` (no
 * SDK), with `anthropic-version: 2023-06-01`. Blocking and streamed calls
 * (SSE, with `tool_use` blocks assembled from `input_json_delta`), the system
 * prompt as the top-level `system`, tools and tool results (one user message
 * of `tool_result` blocks per turn), JSON-schema output (`settings.jsonSchema`
 * becomes `output_config.format`), stop reasons, and usage with cache reads as
 * `cachedInputTokens` (cache writes count as input). Failures are classified
 * as for `OpenAIChatLLM`: 429 → `RateLimitError` with `retryAfterMs`; 408,
 * 409, 5xx (529 overloaded included) and network failures before the first
 * byte → retryable `pre_stream`; other 4xx → `ProviderResponseError` with the
 * status and Anthropic's message; a 2xx answer that is not the API's shape →
 * `ProviderResponseError` naming the field; an `error` event or a failure
 * before any content → thrown `pre_stream` (retryable as its type says, e.g.
 * `overloaded_error`); after content → an `error` event in phase
 * `mid_stream` with the usage so far.
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
 * import { Agent, AnthropicLLM } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeProvider, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: new FakeLLM("Bonjour.") });
 * const llm = new AnthropicLLM({ apiKey: "sk-ant-test", fetch: provider.fetch });
 * const agent = new Agent("a", { model: "claude-sonnet-4-5", system: "Answer in French." });
 * assertEquals((await agent.run("hi", makeTestCtx({ llm }))).output, "Bonjour.");
 * assertEquals(provider.requests[0].path, "/v1/messages");
 * assertEquals((provider.requests[0].body as { system: string }).system, "Answer in French.");
 * ```
 */
export class AnthropicLLM extends WirePort<AnthropicLLMOptions> implements LLMPort {
  /**
   * Reads `ANTHROPIC_API_KEY` here when no key is given; nothing is sent until the first call.
   *
   * @param options Key, base URL, fetch, headers and the default output cap.
   * @throws {TypeError} For an unknown option or a malformed value.
   * @throws {RangeError} For a `maxTokens` that is not a positive integer.
   */
  constructor(options: AnthropicLLMOptions = {}) {
    super(ANTHROPIC, options);
  }
}
