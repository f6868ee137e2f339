/**
 * The shell every real model port shares.
 *
 * @module
 */
// One shell, a codec per wire: a port is its options type, its codec
// (./_port_codec.ts: key variable, base URL, headers, encode/decode) and a
// constructor that hands both here. Everything else is written once: options
// checked where they are given, the key and header values registered as
// secrets, the test-context guard at send time, a blocking POST read as JSON
// and a streamed POST read as SSE through the codec's fold, every error
// classified by ./_http.ts and scrubbed of the port's credentials. The wire is
// fixed in the constructor, so a call allocates nothing the port did not
// already need.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest, LLMPort } from "../../ports/llm.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { RequestPolicy } from "../_ambient.ts";
import type { Redactor } from "../_redact.ts";
import { portRedactor, scrubError } from "../_scrub_error.ts";
import { headerEntries, registerPortSecrets } from "../_secrets/registry.ts";
import { checkCtx, checkRequest } from "./_check_request.ts";
import {
  checkPortOptions,
  DEFAULT_FETCH,
  type FetchFn,
  guard,
  keyFromEnv,
  madeUnder,
  postJson,
  promptRequest,
  readJson,
} from "./_http.ts";
import type { PortCodec, Wire } from "./_port_codec.ts";
import { readWireStream } from "./_stream.ts";

/**
 * The options every port built on {@linkcode WirePort} takes; each port's own
 * options type (`OpenAIChatLLMOptions`, ...) extends it with its defaults and
 * any option of its wire.
 *
 * @example A fetch and headers shared by two ports
 * ```ts
 * import { AnthropicLLM, OpenAIChatLLM, type WirePortOptions } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: new FakeLLM("ok") });
 * const common: WirePortOptions = { fetch: provider.fetch, headers: { "x-team": "search" } };
 * const hi = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };
 * await new OpenAIChatLLM({ ...common, apiKey: "sk-test" }).chat(hi);
 * await new AnthropicLLM({ ...common, apiKey: "sk-ant-test" }).chat(hi);
 * assertEquals(provider.requests.map((r) => r.headers["x-team"]), ["search", "search"]);
 * ```
 */
export interface WirePortOptions {
  /** The API key; each port names its header and the environment variable read without it. */
  readonly apiKey?: string;
  /** Where the API lives; each port names its default and the path it appends. */
  readonly baseURL?: string;
  /**
   * The fetch to send with: a `FakeProvider`'s in tests, a proxying or
   * instrumented fetch in production.
   * @default {globalThis.fetch}
   */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Extra headers on every request (an organisation or project id, an `anthropic-beta` flag). */
  readonly headers?: Readonly<Record<string, string>> | Headers;
}

/**
 * The base of the real model ports (`OpenAIChatLLM`, `OpenAIResponsesLLM`,
 * `AnthropicLLM`, `GeminiLLM`): one {@linkcode LLMPort} shell over web
 * `fetch`, each port adding only its wire's codec. It checks the options
 * where they are given, reads the key from the port's environment variable
 * when none is given, registers the key and the header values as secrets,
 * refuses to send under a test context (`ModelRequestsDisallowed`, unless the
 * fetch is a `FakeProvider`'s), classifies every failure for `retry()`
 * (429 → `RateLimitError` with `retryAfterMs`; 408, 409, 5xx and network
 * failures before the first byte → retryable `pre_stream`; other 4xx and
 * answers that are not the API's shape → `ProviderResponseError`; a stream
 * cut after content → an `error` event in phase `mid_stream`), and masks the
 * port's credentials in everything it throws. It is made only through one of
 * the four ports; as a type it stands for any of them.
 *
 * @example Any of the four ports, on the same calls
 * ```ts
 * import {
 *   AnthropicLLM,
 *   GeminiLLM,
 *   OpenAIChatLLM,
 *   OpenAIResponsesLLM,
 *   type WirePort,
 * } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: new FakeLLM("ok") });
 * const options = { apiKey: "sk-test", fetch: provider.fetch };
 * const ports: WirePort[] = [
 *   new OpenAIChatLLM(options),
 *   new OpenAIResponsesLLM(options),
 *   new AnthropicLLM(options),
 *   new GeminiLLM(options),
 * ];
 * for (const llm of ports) {
 *   assertEquals((await llm.complete({ model: "m", system: "Be brief.", user: "hi" })).content, "ok");
 * }
 * assertEquals(provider.requests.length, 4);
 * ```
 */
export abstract class WirePort<O extends WirePortOptions = WirePortOptions> implements LLMPort {
  readonly #port: string;
  readonly #provider: string;
  readonly #wire: Wire;
  readonly #fetch: FetchFn;
  // The policy this port was made under (see madeUnder in ./_http.ts).
  readonly #made: RequestPolicy | undefined;
  readonly #headers: Record<string, string>;
  readonly #streamHeaders: Record<string, string>;
  readonly #redactor: Redactor;
  readonly #scrub = (error: unknown): unknown => scrubError(error, this.#redactor);

  /**
   * Checks the options, reads the key and fixes the wire; nothing is sent
   * until the first call.
   *
   * @param codec The port's wire.
   * @param options The port's options (checked here).
   * @throws {TypeError} For an unknown option or a malformed value.
   * @throws {RangeError} For a number out of its range.
   */
  protected constructor(codec: PortCodec<O>, options: O) {
    checkPortOptions(codec.port, options, codec.options);
    const key = options.apiKey ?? keyFromVariables(codec.port, codec.keyEnv);
    registerPortSecrets(key, options.headers);
    const wire = codec.wire(options, options.baseURL ?? codec.baseURL);
    const own = codec.headers(key);
    const extra = Object.fromEntries(headerEntries(options.headers));
    this.#port = codec.port;
    this.#provider = codec.provider;
    this.#wire = wire;
    this.#fetch = options.fetch ?? DEFAULT_FETCH;
    this.#made = madeUnder(this.#fetch);
    this.#headers = {
      "content-type": "application/json",
      accept: "application/json",
      ...own,
      ...extra,
    };
    this.#streamHeaders = { ...this.#headers, accept: "text/event-stream" };
    this.#redactor = portRedactor(wire.url, [own, extra]);
  }

  /**
   * One blocking call.
   *
   * @param request The request.
   * @param ctx The run (cancellation, the test-context guard).
   * @returns The answer.
   * @throws {ProviderError} Classified as described on the class.
   * @throws {ModelRequestsDisallowed} Under a test context.
   */
  async chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse> {
    try {
      const signal = request?.signal ?? ctx?.signal;
      const response = await this.#post(request, ctx, signal, false);
      const body = await readJson<unknown>(this.#provider, response, signal);
      return this.#wire.decode(body, request.model);
    } catch (error) {
      throw scrubError(error, this.#redactor);
    }
  }

  /**
   * One streamed call; the request is sent on the first `next()`. The events
   * are `message_start`, then `reasoning_delta`, `text_delta` and `tool_call`
   * events as the wire sends them (a call once its arguments are whole), then
   * `message_end` with the finish reason, the usage and what the next request
   * must send back (`providerData`).
   *
   * @param request The request.
   * @param ctx The run (cancellation, the test-context guard).
   * @returns The events.
   * @throws {ProviderError} Before the first event, classified as on the class.
   * @throws {ModelRequestsDisallowed} Under a test context.
   */
  stream(request: ChatRequest, ctx?: Ctx): AsyncGenerator<StreamEvent, void, undefined> {
    const signal = request?.signal ?? ctx?.signal;
    return readWireStream(
      () => this.#post(request, ctx, signal, true),
      this.#wire.decodeStream(),
      signal,
      this.#scrub,
    );
  }

  /**
   * A system + user prompt, answered blocking.
   *
   * @param request The prompt.
   * @param ctx The run.
   * @returns The answer.
   */
  complete(request: CompleteRequest, ctx?: Ctx): Promise<ChatResponse> {
    return this.chat(promptRequest(request), ctx);
  }

  // The guard runs at send time: for a stream, on its first next().
  #post(
    request: ChatRequest,
    ctx: Ctx | undefined,
    signal: AbortSignal | undefined,
    stream: boolean,
  ): Promise<Response> {
    const where = `${this.#port}.${stream ? "stream" : "chat"}()`;
    checkRequest(where, request);
    checkCtx(where, ctx);
    guard(this.#port, ctx, this.#fetch, this.#made);
    const wire = this.#wire;
    return postJson(
      this.#provider,
      this.#fetch,
      wire.endpoint ? wire.endpoint(request.model, stream) : wire.url,
      stream ? this.#streamHeaders : this.#headers,
      wire.encode(request, stream),
      signal,
    );
  }
}

// The key from the first of the port's variables that is set (Gemini reads
// GEMINI_API_KEY, else GOOGLE_API_KEY), each checked as the option is.
function keyFromVariables(port: string, names: readonly string[]): string | undefined {
  let key: string | undefined;
  for (const name of names) {
    key = keyFromEnv(port, name);
    if (key) break;
  }
  return key;
}
