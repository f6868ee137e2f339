/**
 * The OpenAI Responses port.
 *
 * @module
 */
import type { LLMPort } from "../../ports/llm.ts";
import { is } from "../_options.ts";
import { bearer, endpoint } from "./_http.ts";
import {
  chatResponseFromResponses,
  openAIResponsesBody,
  OpenAIResponsesStream,
} from "./_openai_responses.ts";
import type { PortCodec } from "./_port_codec.ts";
import { WirePort, type WirePortOptions } from "./wire_port.ts";

/** Options for {@linkcode OpenAIResponsesLLM}. */
export interface OpenAIResponsesLLMOptions extends WirePortOptions {
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

// The Responses wire: the bearer key of the Chat wire, and two options of its
// own, read once here (stateless unless `store` says otherwise).
const OPENAI_RESPONSES: PortCodec<OpenAIResponsesLLMOptions> = {
  port: "OpenAIResponsesLLM",
  provider: "OpenAI",
  keyEnv: ["OPENAI_API_KEY"],
  baseURL: "https://api.openai.com/v1",
  options: { maxTokens: is.number({ min: 1, integer: true }), store: is.boolean },
  headers: bearer,
  wire: (options, base) => {
    const body = { maxTokens: options.maxTokens, store: options.store ?? false };
    return {
      url: endpoint(base, "/responses"),
      encode: (request, stream) => openAIResponsesBody(request, stream, body),
      decode: chatResponseFromResponses,
      decodeStream: () => new OpenAIResponsesStream(),
    };
  },
};

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
export class OpenAIResponsesLLM extends WirePort<OpenAIResponsesLLMOptions> implements LLMPort {
  /**
   * Reads `OPENAI_API_KEY` here when no key is given; nothing is sent until the first call.
   *
   * @param options Key, base URL, fetch, headers, the default output cap and `store`.
   * @throws {TypeError} For an unknown option or a malformed value.
   * @throws {RangeError} For a `maxTokens` that is not a positive integer.
   */
  constructor(options: OpenAIResponsesLLMOptions = {}) {
    super(OPENAI_RESPONSES, options);
  }
}
