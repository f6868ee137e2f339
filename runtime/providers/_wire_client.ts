// The calls both provider ports make, written once: a blocking POST read as
// JSON, and a streamed POST read as SSE through the wire's fold. A port builds
// one client in its constructor (URL, headers and the wire's converters are
// fixed there), so a call allocates nothing the port did not already need.
// Every error leaves through scrubError: the port's key, the header values
// it sends and the baseURL's credentials are masked from message and cause.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest } from "../../ports/llm.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import {
  DEFAULT_FETCH,
  type FetchFn,
  guard,
  madeUnder,
  postJson,
  promptRequest,
  readJson,
} from "./_http.ts";
import type { RequestPolicy } from "../_ambient.ts";
import { readWireStream, type WireStream } from "./_stream.ts";
import { checkCtx, checkRequest } from "./_check_request.ts";
import type { Redactor } from "../_redact.ts";
import { portRedactor, scrubError } from "../_scrub_error.ts";
import { headerEntries } from "../_secrets/registry.ts";

/** What makes one provider's wire: fixed when its port is built. */
export interface WireSpec<T> {
  /** The port's class name, for the test-context guard. */
  readonly port: string;
  /** The provider's name, for error messages. */
  readonly provider: string;
  /** The endpoint (with `endpoint`, the base URL whose credentials are masked). */
  readonly url: string;
  /** The endpoint of one call, for a wire whose URL names the model (Gemini). */
  readonly endpoint?: (model: string, stream: boolean) => string;
  /** The caller's fetch, if any (else the global one, looked up per call). */
  readonly fetch: FetchFn | undefined;
  /** The wire's own headers (version, key): sent after the JSON ones. */
  readonly headers: Readonly<Record<string, string>>;
  /** The caller's extra headers (a record or a `Headers`), sent last. */
  readonly extraHeaders: Readonly<Record<string, string>> | Headers | undefined;
  /** Our request in the wire's JSON. */
  readonly body: (request: ChatRequest, stream: boolean) => unknown;
  /** The wire's blocking answer in ours. */
  readonly answer: (body: T, model: string) => ChatResponse;
  /** A fresh fold of one streamed answer. */
  readonly fold: () => WireStream;
}

/** One provider's HTTP calls. */
export class WireClient<T> {
  readonly #spec: WireSpec<T>;
  readonly #fetch: FetchFn;
  // The policy this port was made under (see madeUnder in ./_http.ts).
  readonly #made: RequestPolicy | undefined;
  readonly #headers: Record<string, string>;
  readonly #streamHeaders: Record<string, string>;
  readonly #redactor: Redactor;
  readonly #scrub = (error: unknown): unknown => scrubError(error, this.#redactor);

  constructor(spec: WireSpec<T>) {
    this.#spec = spec;
    this.#fetch = spec.fetch ?? DEFAULT_FETCH;
    const extra = Object.fromEntries(headerEntries(spec.extraHeaders));
    this.#made = madeUnder(this.#fetch);
    this.#headers = {
      "content-type": "application/json",
      accept: "application/json",
      ...spec.headers,
      ...extra,
    };
    this.#streamHeaders = { ...this.#headers, accept: "text/event-stream" };
    this.#redactor = portRedactor(spec.url, [spec.headers, extra]);
  }

  /** One blocking call. */
  async chat(request: ChatRequest, ctx: Ctx | undefined): Promise<ChatResponse> {
    try {
      const signal = request?.signal ?? ctx?.signal;
      const response = await this.#post(request, ctx, signal, false);
      const body = await readJson<T>(this.#spec.provider, response, signal);
      return this.#spec.answer(body, request.model);
    } catch (error) {
      throw scrubError(error, this.#redactor);
    }
  }

  /** A system + user prompt, answered blocking. */
  complete(request: CompleteRequest, ctx: Ctx | undefined): Promise<ChatResponse> {
    return this.chat(promptRequest(request), ctx);
  }

  /** One streamed call; the request is sent on the first `next()`. */
  stream(request: ChatRequest, ctx: Ctx | undefined): AsyncGenerator<StreamEvent, void, undefined> {
    const signal = request?.signal ?? ctx?.signal;
    return readWireStream(
      () => this.#post(request, ctx, signal, true),
      this.#spec.fold(),
      signal,
      this.#scrub,
    );
  }

  // The guard runs at send time: for a stream, on its first next().
  #post(
    request: ChatRequest,
    ctx: Ctx | undefined,
    signal: AbortSignal | undefined,
    stream: boolean,
  ): Promise<Response> {
    const spec = this.#spec;
    const where = `${spec.port}.${stream ? "stream" : "chat"}()`;
    checkRequest(where, request);
    checkCtx(where, ctx);
    guard(spec.port, ctx, this.#fetch, this.#made);
    return postJson(
      spec.provider,
      this.#fetch,
      spec.endpoint ? spec.endpoint(request.model, stream) : spec.url,
      stream ? this.#streamHeaders : this.#headers,
      spec.body(request, stream),
      signal,
    );
  }
}
