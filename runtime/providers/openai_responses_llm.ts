/**
 * The OpenAI Responses port.
 *
 * @module
 */
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest, LLMPort } from "../../ports/llm.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { is } from "../_options.ts";
import { registerPortSecrets } from "../_secrets/registry.ts";
import { checkPortOptions, endpoint, keyFromEnv } from "./_http.ts";
import {
  chatResponseFromResponses,
  openAIResponsesBody,
  OpenAIResponsesStream,
} from "./_openai_responses.ts";
import { WireClient } from "./_wire_client.ts";

/** Options for {@linkcode OpenAIResponsesLLM}. */
export interface OpenAIResponsesLLMOptions {
  /**
   * The API key, sent as `Authorization: Bearer`.
   * @default {the OPENAI_API_KEY environment variable}
   */
  readonly apiKey?: string;
  /**
   * Where the API lives; requests go to `{baseURL}/responses`.
   * @default {"https://api.openai.com/v1"}
   */
  readonly baseURL?: string;
  /**
   * The fetch to send with: a `FakeProvider`'s in tests, a proxying or
   * instrumented fetch in production.
   * @default {globalThis.fetch}
   */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Extra headers on every request (an organisation or project id). */
  readonly headers?: Readonly<Record<string, string>> | Headers;
  /**
   * The output cap (`max_output_tokens`) of a request whose settings name
   * none; without it the model's own limit applies.
   */
  readonly maxTokens?: number;
  /**
   * Whether OpenAI keeps the responses (`store`). Off by default: the port is
   * stateless, asks for the reasoning encrypted
   * (`include: ["reasoning.encrypted_content"]`) and sends it back with the
   * next request from the assistant message's `providerData`.
   * @default {false}
   */
  readonly store?: boolean;
}

const PORT = "OpenAIResponsesLLM";

/**
 * An {@linkcode LLMPort} on the OpenAI Responses API (`POST {baseURL}/responses`)
 * over web `fetch` (no SDK): OpenAI's API for agents and reasoning models.
 * Blocking and streamed calls (the `response.*` server-sent events), the
 * system prompt as `instructions`, tools as function tools, calls and their
 * results as `function_call` / `function_call_output` items paired by
 * `call_id`, JSON-schema output (`settings.jsonSchema` becomes
 * `text.format`), finish reasons (`incomplete_details.reason`
 * `max_output_tokens` → `length`, `content_filter` → `content_filter`, any
 * other cut → `length`, never `stop`), and usage with cached input tokens
 * (`inputTokens` excludes them) and reasoning tokens (`reasoningTokens`, a
 * part of `outputTokens`).
 *
 * Stateless by default (`store: false`): a response's reasoning items come
 * back encrypted and are kept, with every output item the port does not
 * model, on the answer's `providerData` (`openaiResponses.output`), which the
 * runtime keeps on the assistant message; the next request sends them back
 * in their place, so a tool loop on a reasoning model keeps its reasoning.
 * Reasoning summaries are `reasoning_delta` events and `ChatResponse.reasoning`.
 *
 * Failures are classified as on the other ports: 429 is a `RateLimitError`
 * carrying `retryAfterMs`; 408, 409, 5xx and network failures before the
 * first byte are retryable `pre_stream` errors; other 4xx are
 * `ProviderResponseError`s with the status and OpenAI's message; a `failed`
 * response or an `error` event is classified by its code; an answer that is
 * not the API's shape is a `ProviderResponseError` naming the field; a stream
 * cut after content ends in an `error` event (phase `mid_stream`, usage so
 * far). `ctx.signal` aborts the request. No error carries the key or the
 * header values.
 *
 * Under a test context (`makeTestCtx`) it refuses to send with
 * `ModelRequestsDisallowed`, unless its fetch is a `FakeProvider`'s.
 *
 * @example Against a FakeProvider, in-process
 * ```ts
 * import { Agent, OpenAIResponsesLLM } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeProvider, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: new FakeLLM("Hello from the wire.") });
 * const llm = new OpenAIResponsesLLM({ apiKey: "sk-test", fetch: provider.fetch });
 * const agent = new Agent("a", { model: "gpt-5-mini", system: "Be brief." });
 * const result = await agent.run("hi", makeTestCtx({ llm }));
 * assertEquals(result.output, "Hello from the wire.");
 * assertEquals(provider.requests[0].path, "/v1/responses");
 * const body = provider.requests[0].body as { instructions: string; store: boolean };
 * assertEquals([body.instructions, body.store], ["Be brief.", false]);
 * ```
 */
export class OpenAIResponsesLLM implements LLMPort {
  readonly #client: WireClient<unknown>;

  /**
   * Reads `OPENAI_API_KEY` here when no key is given; nothing is sent until the first call.
   *
   * @param options Key, base URL, fetch, headers, the default output cap and `store`.
   * @throws {TypeError} For an unknown option or a malformed value.
   * @throws {RangeError} For a `maxTokens` that is not a positive integer.
   */
  constructor(options: OpenAIResponsesLLMOptions = {}) {
    checkPortOptions(PORT, options, {
      maxTokens: is.number({ min: 1, integer: true }),
      store: is.boolean,
    });
    const key = options.apiKey ?? keyFromEnv(PORT, "OPENAI_API_KEY");
    registerPortSecrets(key, options.headers);
    const bodyOptions = { maxTokens: options.maxTokens, store: options.store ?? false };
    this.#client = new WireClient({
      port: PORT,
      provider: "OpenAI",
      url: endpoint(options.baseURL ?? "https://api.openai.com/v1", "/responses"),
      fetch: options.fetch,
      headers: key ? { authorization: `Bearer ${key}` } : {},
      extraHeaders: options.headers,
      body: (request, stream) => openAIResponsesBody(request, stream, bodyOptions),
      answer: chatResponseFromResponses,
      fold: () => new OpenAIResponsesStream(),
    });
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
  chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse> {
    return this.#client.chat(request, ctx);
  }

  /**
   * One streamed call: `message_start`, a `reasoning_delta` per reasoning
   * summary delta, a `text_delta` per text delta, a `tool_call` per finished
   * `function_call` item, then `message_end` with the usage (and the items
   * to send back, as `providerData`).
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
