/**
 * A fake model provider on the real wire protocols.
 *
 * @module
 */
import type { ClockPort } from "../../ports/clock.ts";
import type { LLMPort } from "../../ports/llm.ts";
import { ProviderError, RateLimitError } from "../../ports/provider_errors.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { RunContext } from "../../runtime/context.ts";
import { isHarnessError } from "../../runtime/harness_error.ts";
import { Services } from "../../runtime/services.ts";
import {
  checkOptions,
  is,
  isCut,
  isSecretHeader,
  markInProcess,
  ports,
  redactText,
} from "../../runtime/internal.ts";
import { FakeClock } from "../fake_clock.ts";
import { anthropicWire } from "./_anthropic_wire.ts";
import { openAIChatWire, openAIError } from "./_openai_chat_wire.ts";
import { openAIResponsesWire } from "./_openai_responses_wire.ts";
import { geminiWire, isGeminiPath } from "./_gemini_wire.ts";
import { serve } from "../_serve.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";
import { isProblem, type Problem, type ProviderApi, type Wire, WireMemory } from "./_wire.ts";
import { rejectionMessage, rulesOff, strictRule, violation } from "./_strict.ts";
import type { RulesOff } from "./_rules.ts";
import type { FakeProviderRejection, FakeProviderStrict } from "./wire_rules.ts";
import { checkedAnswer, checkedEvent } from "./_model_answer.ts";
import { type FakeProviderRecord, RecordingProxy } from "./_record_proxy.ts";

export type { FakeProviderRecord } from "./_record_proxy.ts";

export type { ProviderApi } from "./_wire.ts";

/** Options for {@linkcode FakeProvider}. */
export interface FakeProviderOptions {
  /**
   * The model behind the wire: a `FakeLLM` script, or any `LLMPort` (a
   * replaying `cassette(path)` replays a recording to any client). Give
   * this or `record`.
   */
  readonly llm?: LLMPort;
  /**
   * Record instead: each request is forwarded to `record.upstream` (the real
   * API, with the client's own key, through the port for its API) and the
   * exchange is written as a cassette entry to `record.path`; see
   * {@linkcode FakeProviderRecord}. Give this or `llm`.
   */
  readonly record?: FakeProviderRecord;
  /**
   * The clock `delayMs` waits on and `created` timestamps read.
   * @default {new FakeClock()}
   */
  readonly clock?: ClockPort;
  /**
   * Reject what the real API rejects (the rules of `WIRE_RULES`): `true`,
   * `false` (every rule off), or `{ except: [ruleId] }` (those rules off).
   * @default {true}
   */
  readonly strict?: FakeProviderStrict;
}

/**
 * One HTTP request as the provider received it.
 *
 * @example
 * ```ts
 * import type { FakeProviderRequest } from "@agentkit/testing/testing";
 * const r: FakeProviderRequest = {
 *   method: "POST", path: "/v1/chat/completions", api: "chat.completions", stream: false,
 *   headers: { authorization: "Bearer ***" }, body: { model: "m", messages: [] },
 * };
 * ```
 */
export interface FakeProviderRequest {
  /** The HTTP method. */
  readonly method: string;
  /** The URL path (`"/v1/chat/completions"`). */
  readonly path: string;
  /** Which API the path names, when it names one. */
  readonly api: ProviderApi | undefined;
  /** Whether the client asked for a stream. */
  readonly stream: boolean;
  /**
   * The headers, lower-cased, with credentials masked. A header whose name
   * says it carries one (any name holding auth, key, token, secret, cookie,
   * session, signature, password or credential: `authorization`,
   * `x-api-key`, `x-goog-api-key`, `ocp-apim-subscription-key`, `cookie`)
   * is shown as `"***"`, keeping its scheme (`"Bearer ***"`, `"Basic ***"`);
   * any other header's value has credential shapes (`sk-...`, JWTs, ...)
   * masked as `[REDACTED]`.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (the raw text when it is not JSON). */
  readonly body: unknown;
}

/**
 * A served `FakeProvider`; dispose of it (`await using`) to close it.
 *
 * @example
 * ```ts
 * import type { FakeProviderServer } from "@agentkit/testing/testing";
 * const base = (s: FakeProviderServer): string => `${s.url}/v1`;
 * ```
 */
export interface FakeProviderServer extends AsyncDisposable {
  /** The origin, `"http://127.0.0.1:PORT"` (OpenAI clients take `${url}/v1`). */
  readonly url: string;
  /** The port bound. */
  readonly port: number;
  /** Closes the server, ending any stream still open (idempotent). */
  close(): Promise<void>;
}

const encoder = new TextEncoder();

function route(path: string): Wire | undefined {
  if (isGeminiPath(path)) return geminiWire;
  if (path.endsWith("/chat/completions")) return openAIChatWire;
  if (path.endsWith("/messages")) return anthropicWire;
  if (path.endsWith("/responses")) return openAIResponsesWire;
  return undefined;
}

// By name pattern, not a list: gateways and clouds name their key headers
// freely (x-goog-api-key, x-portkey-api-key, ocp-apim-subscription-key).
function mask(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    if (!isSecretHeader(key)) out[key] = redactText(value);
    else {
      const scheme = /^(bearer|basic)\s/i.exec(value)?.[1];
      out[key] = scheme ? `${scheme[0].toUpperCase()}${scheme.slice(1).toLowerCase()} ***` : "***";
    }
  });
  return out;
}

// The record of one request. Its headers are masked when first read: the
// redaction engine is the costly part of a request, and most tests never
// look at the headers. The record reads the same either way (an enumerable
// property, masked once).
function recorded(
  request: { readonly method: string; readonly headers: Headers },
  path: string,
  api: ProviderApi | undefined,
  stream: boolean,
  body: unknown,
): FakeProviderRequest {
  const raw = request.headers;
  let headers: Record<string, string> | undefined;
  const record = { method: request.method, path, api, stream } as FakeProviderRequest;
  Object.defineProperty(record, "headers", {
    enumerable: true,
    get: () => headers ??= mask(raw),
  });
  (record as { body: unknown }).body = body;
  return record;
}

/**
 * Serves any `LLMPort` (a `FakeLLM` script, with every turn form and fault)
 * over the real provider wire protocols, so an unchanged client of any
 * framework talks to a script: OpenAI Chat Completions
 * (`/v1/chat/completions`), OpenAI Responses (`/v1/responses`), Anthropic
 * Messages (`/v1/messages`) and the Gemini API
 * (`/v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`, `/v1/` too), blocking and SSE, tool
 * calls included. On a `gemini-3*` model each answer's first function call
 * carries a `thoughtSignature`, which the provider remembers.
 *
 * `provider.fetch` answers in-process whatever the host (pass it as a
 * client's `fetch` option); `await provider.listen()` serves the same on
 * 127.0.0.1 for clients that only take a URL. `.requests` records every HTTP
 * request with credentials masked; a request without an API key gets the
 * provider's 401 (Gemini's 403). Faults reach the wire as the provider
 * sends them: a `RateLimitError` is a 429 with `retry-after-ms` (on Gemini,
 * a `google.rpc.RetryInfo` in the body), a `ProviderError` with a
 * `status` that status with the provider's error JSON, `failAfterChunks` a
 * stream cut without its terminator, `stall` an open stream that sends
 * nothing until the client aborts, and `gate`/`delayMs` hold the response
 * (on `clock`). A malformed request gets the provider's 400 or 404 JSON.
 *
 * It is as strict as the real APIs: a request one of them refuses (a rule of
 * `WIRE_RULES`: a tool result for a call never made, a bad tool name,
 * `temperature: 5`) gets that provider's 400 and error body, naming the rule
 * and the offending path, consumes no turn, and is recorded in
 * `.rejections`. `strict: { except: [ruleId] }` turns rules off, `strict:
 * false` all of them.
 *
 * @example A streamed answer, read as SSE by any client
 * ```ts
 * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
 * import { assertEquals, assertStringIncludes } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: FakeLLM.script([{ chunks: ["Hel", "lo"] }]) });
 * const res = await provider.fetch("https://api.openai.com/v1/chat/completions", {
 *   method: "POST",
 *   headers: { authorization: "Bearer sk-test" },
 *   body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "hi" }] }),
 * });
 * const sse = await res.text();
 * assertEquals(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
 * assertStringIncludes(sse, '"content":"Hel"');
 * assertStringIncludes(sse, "data: [DONE]");
 * assertEquals(provider.requests[0].headers.authorization, "Bearer ***");
 * ```
 *
 * @example A rate limit, as the provider sends it
 * ```ts
 * import { RateLimitError } from "@agentkit/testing/ports";
 * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script([{ error: new RateLimitError("slow down", { retryAfterMs: 250 }) }]);
 * const provider = new FakeProvider({ llm });
 * const res = await provider.fetch("http://localhost/v1/chat/completions", {
 *   method: "POST",
 *   headers: { authorization: "Bearer sk-test" },
 *   body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
 * });
 * assertEquals([res.status, res.headers.get("retry-after-ms")], [429, "250"]);
 * assertEquals((await res.json()).error.code, "rate_limit_exceeded");
 * ```
 */
export class FakeProvider implements Disposable {
  /** The model behind the wire. */
  readonly llm: LLMPort;
  /** The clock holds and timestamps read. */
  readonly clock: ClockPort;
  /**
   * A `fetch` that answers in-process, whatever the host: no socket, no
   * permission. Pass it as a client's `fetch` option.
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  readonly #requests: FakeProviderRequest[] = [];
  readonly #harnessErrors: Error[] = [];
  // failedRuns() at the last request: a request carries no run context, so
  // the dispose asks about the last run that failed (../_dispose_verify.ts).
  #servedAt = failedRuns();
  readonly #services: Services;
  readonly #memory = new WireMemory();
  readonly #off: RulesOff | undefined;
  readonly #rejections: FakeProviderRejection[] = [];
  readonly #proxy: RecordingProxy | undefined;
  #ids = 0;

  /**
   * Checks the options here; `llm` is required, the clock defaults to a new
   * `FakeClock`, and every strict rule is on unless `strict` says otherwise.
   *
   * @param options The model, the clock, and which strict rules are off.
   * @throws {TypeError} For an unknown option, a missing `llm`, or a `strict` that is not
   * `true`, `false` or `{ except: [ids] }`.
   * @throws {RangeError} For an `except` id that is not in `WIRE_RULES` (the message lists them).
   */
  constructor(options: FakeProviderOptions) {
    checkOptions(
      "new FakeProvider()",
      options,
      { llm: ports.llm, clock: ports.clock, strict: strictRule, record: is.object },
      { required: options?.record === undefined ? ["llm"] : [] },
    );
    if (options.record !== undefined && options.llm !== undefined) {
      throw new TypeError(
        "new FakeProvider() takes llm (serve a model) or record (record a real API), not both",
      );
    }
    this.#off = rulesOff(options.strict);
    const clock = options.clock;
    this.#proxy = options.record && new RecordingProxy(options.record);
    this.llm = this.#proxy ?? options.llm!;
    this.clock = clock ?? new FakeClock();
    this.#services = new Services({ clock: this.clock });
    const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
      read(input, init).then((request) => this.#handle(request, undefined));
    markInProcess(fetch);
    this.fetch = fetch;
  }

  /** Every HTTP request received, in order. */
  get requests(): readonly FakeProviderRequest[] {
    return this.#requests;
  }

  /**
   * Every request the strict wire refused, in order: the rule, the API, the
   * offending path and the message sent. A refused request consumed no turn
   * of the script.
   *
   * @example
   * ```ts
   * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const provider = new FakeProvider({ llm: new FakeLLM("hi") });
   * const res = await provider.fetch("https://api.openai.com/v1/chat/completions", {
   *   method: "POST",
   *   headers: { authorization: "Bearer sk-test" },
   *   body: JSON.stringify({ model: "gpt-4o-mini", messages: [] }),
   * });
   * assertEquals(res.status, 400);
   * assertEquals(provider.rejections[0].rule, "messages-empty");
   * ```
   */
  get rejections(): readonly FakeProviderRejection[] {
    return this.#rejections;
  }

  /**
   * Serves the same on 127.0.0.1, port 0 (a free one), under Deno or Node.
   *
   * @returns The running server; `await using` closes it.
   *
   * @example
   * ```ts ignore
   * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
   *
   * await using server = await new FakeProvider({ llm: new FakeLLM("hi") }).listen();
   * console.log(`${server.url}/v1`); // a base URL for any OpenAI client
   * ```
   */
  async listen(): Promise<FakeProviderServer> {
    const open = new Set<AbortController>();
    const served = await serve(
      (request, signal) => read(request, undefined, { signal }).then((r) => this.#handle(r, open)),
      {
        abortOpen: () => {
          for (const c of open) c.abort(new DOMException("The FakeProvider closed", "AbortError"));
          open.clear();
        },
      },
    );
    const url = `http://127.0.0.1:${served.port}`;
    return {
      url,
      port: served.port,
      close: () => served.close(),
      [Symbol.asyncDispose]: () => served.close(),
    };
  }

  /**
   * Throws what a finished test should not hide: a harness error the model
   * threw behind the wire (the client only saw a 400, which no client retries), then whatever the
   * model's own `verify()` throws (unused scripted turns).
   *
   * @throws {HarnessError} As described.
   *
   * @example
   * ```ts
   * import { FakeLLM, FakeProvider, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const provider = new FakeProvider({ llm: FakeLLM.script(["one", "two"]) });
   * assertThrows(() => provider.verify(), UnusedTurns);
   * ```
   */
  verify(): void {
    if (this.#harnessErrors.length > 0) throw this.#harnessErrors[0];
    (this.llm as Partial<{ verify(): void }>).verify?.();
  }

  /**
   * `using provider = new FakeProvider(...)` verifies at scope exit;
   * after a run that failed, it notes what `verify()` found on the run's
   * error instead of throwing over it.
   */
  [Symbol.dispose](): void {
    verifyAtDispose(() => this.verify(), undefined, this.#servedAt);
  }

  async #handle(request: Incoming, open: Set<AbortController> | undefined): Promise<Response> {
    this.#servedAt = failedRuns();
    const path = request.path;
    const wire = route(path);
    const text = request.text;
    let body: unknown = text;
    let parsed = text === "";
    if (text !== "") {
      try {
        body = JSON.parse(text);
        parsed = true;
      } catch {
        parsed = false;
      }
    }
    const url = request.url;
    const stream = wire?.streams
      ? wire.streams(url)
      : (body as { stream?: unknown } | null)?.stream === true;
    this.#requests.push(recorded(request, path, wire?.api, stream, body));
    const requestId = `req_${++this.#ids}`;
    if (!wire || request.method !== "POST") {
      const message = `Invalid URL (${request.method} ${path})`;
      return reply(
        404,
        (wire?.vendor === "google" ? wire.errorBody : openAIError)({ status: 404, message }),
        requestId,
      );
    }
    const targetProblem = wire.checkTarget?.(url);
    if (targetProblem) {
      return reply(targetProblem.status, wire.errorBody(targetProblem, requestId), requestId);
    }
    const keyProblem = wire.checkHeaders(request.headers, url);
    if (keyProblem) {
      return reply(keyProblem.status, wire.errorBody(keyProblem, requestId), requestId);
    }
    if (!parsed) {
      const message = wire.vendor === "openai"
        ? "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
        : wire.vendor === "google"
        ? "Invalid JSON payload received. Unexpected token."
        : "There was an issue with the request body: it is not valid JSON";
      return reply(400, wire.errorBody({ status: 400, message }, requestId), requestId);
    }
    if (this.#off) {
      const broken = violation(wire.api, body, this.#off, { url, memory: this.#memory });
      if (broken) {
        const message = rejectionMessage(broken);
        this.#rejections.push({ rule: broken.rule, api: wire.api, path: broken.path, message });
        return reply(
          400,
          wire.errorBody(
            { status: 400, message, param: broken.path, code: broken.code },
            requestId,
          ),
          requestId,
        );
      }
    }
    const wireRequest = wire.parse(body, url);
    if (isProblem(wireRequest)) {
      return reply(wireRequest.status, wire.errorBody(wireRequest, requestId), requestId);
    }

    const controller = new AbortController();
    const signal = request.signal;
    const onAbort = () => controller.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    open?.add(controller);
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      open?.delete(controller);
    };
    // A test double serves a script: a real port behind it would be a way
    // around the test's guard, so its context refuses real requests too.
    const ctx = new RunContext({
      services: this.#services,
      signal: controller.signal,
      correlationId: `fake-provider-${requestId}`,
      allowModelRequests: false,
    });
    const chat = { ...wireRequest.chat, signal: controller.signal };
    // A recording provider's port reads the path and key off the request.
    this.#proxy?.bind(chat, request);
    const created = Math.floor(this.clock.now() / 1000);
    if (!wireRequest.stream) {
      try {
        const res = checkedAnswer(await this.llm.chat(chat, ctx), requestId);
        return reply(200, wire.blocking(res, wireRequest, created, this.#memory), requestId);
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        return this.#failure(wire, error, requestId);
      } finally {
        done();
      }
    }
    const events = this.llm.stream(chat, ctx)[Symbol.asyncIterator]();
    // The status line waits for the first event, and for the one after a
    // message_start: a failure the model reports before any content (a
    // scripted RateLimitError) is the provider's HTTP error, not a stream.
    const head: StreamEvent[] = [];
    try {
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        head.push(checkedEvent(next.value, requestId));
        if (next.value.type !== "message_start") break;
      }
    } catch (error) {
      done();
      if (controller.signal.aborted) throw controller.signal.reason;
      return this.#failure(wire, error, requestId);
    }
    const early = head.at(-1);
    if (early === undefined) {
      done();
      return this.#failure(
        wire,
        new Error("the model ended its stream without any event"),
        requestId,
      );
    }
    if (
      early.type === "error" && early.error instanceof ProviderError &&
      early.error.phase === "pre_stream" && !isCut(early.error)
    ) {
      done();
      return this.#failure(wire, early.error, requestId);
    }
    const sse = wire.encoder(wireRequest, created, this.#memory);
    const harnessErrors = this.#harnessErrors;
    // Pushed ahead into a queue, read by pull: the model runs ahead as a real
    // server's does (a stall is reached, and its cancellation recorded, while
    // the client is still reading), and a cut arrives after the frames sent
    // before it, as on a real connection.
    const queue = new FrameQueue(head.map((e) => sse.frames(e)).join(""));
    (async () => {
      try {
        for (;;) {
          const next = await events.next();
          if (queue.closed) return void await events.return?.(undefined);
          if (next.done) return queue.end();
          const event = next.value;
          if (event.type === "error" && isCut(event.error)) {
            // The connection breaks: no error frame, no terminator.
            queue.fail(
              new TypeError("The connection was cut mid-stream (a scripted failAfterChunks)"),
            );
            await events.return?.(undefined);
            return;
          }
          queue.push(sse.frames(checkedEvent(event, requestId)));
        }
      } catch (error) {
        if (isHarnessError(error)) harnessErrors.push(error as Error);
        queue.fail(controller.signal.aborted ? controller.signal.reason : error);
      } finally {
        done();
      }
    })();
    const body$ = new ReadableStream<Uint8Array>({
      pull: (c) => queue.pull(c),
      cancel(reason) {
        queue.closed = true;
        controller.abort(
          reason ?? new DOMException("The client cancelled the stream", "AbortError"),
        );
      },
    }, { highWaterMark: 0 });
    return new Response(body$, {
      status: 200,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        ...requestIdHeaders(requestId),
      },
    });
  }

  #failure(wire: Wire, error: unknown, requestId: string): Response {
    if (isHarnessError(error)) this.#harnessErrors.push(error as Error);
    const problem = problemOf(error);
    const headers: Record<string, string> = {};
    // The OpenAI and Anthropic SDKs read x-should-retry before the status.
    if (isHarnessError(error)) headers["x-should-retry"] = "false";
    // Gemini says how long to wait in the body (RetryInfo), never in a header.
    if (
      error instanceof RateLimitError && error.retryAfterMs !== undefined &&
      wire.vendor !== "google"
    ) {
      headers["retry-after-ms"] = String(error.retryAfterMs);
      headers["retry-after"] = String(Math.ceil(error.retryAfterMs / 1000));
    }
    return reply(problem.status, wire.errorBody(problem, requestId), requestId, headers);
  }
}

// Frames waiting for the client, then how the stream ends. Kept as text,
// and encoded together when the client reads them: one encoding of all the
// frames waiting costs less than one a frame and a copy to join them (a
// stream's bytes were a good part of its round trip, and the fuller events
// of issue 36 are more bytes).
class FrameQueue {
  closed = false;
  readonly #frames: string[];
  #end: { error?: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(first: string) {
    this.#frames = [first];
  }

  push(frame: string): void {
    this.#frames.push(frame);
    this.#wake?.();
  }

  end(): void {
    this.#end ??= {};
    this.#wake?.();
  }

  fail(error: unknown): void {
    this.#end ??= { error };
    this.#wake?.();
  }

  async pull(c: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (this.#frames.length === 0 && !this.#end) {
      await new Promise<void>((resolve) => this.#wake = resolve);
      this.#wake = undefined;
    }
    if (this.#frames.length > 0) {
      // Everything waiting goes in one chunk, as one network read would get it.
      const frames = this.#frames.splice(0);
      c.enqueue(encoder.encode(frames.length === 1 ? frames[0] : frames.join("")));
      return;
    }
    this.closed = true;
    if ("error" in this.#end!) c.error(this.#end!.error);
    else c.close();
  }
}

// A request as the handler reads it. Built from fetch's arguments directly:
// a Request object costs more than the rest of an in-process round trip.
interface Incoming {
  readonly method: string;
  readonly url: URL;
  readonly path: string;
  readonly headers: Headers;
  readonly text: string;
  readonly signal: AbortSignal | undefined;
}

async function read(
  input: string | URL | Request,
  init?: RequestInit,
  served?: { readonly signal: AbortSignal | undefined },
): Promise<Incoming> {
  if (typeof input !== "string" && !(input instanceof URL) && !(input instanceof Request)) {
    throw new TypeError(
      `FakeProvider.fetch() takes what fetch() takes (a URL string, a URL or a Request), got ${
        input === null ? "null" : typeof input
      }`,
    );
  }
  if (input instanceof Request) {
    const request = init ? new Request(input, init) : input;
    const bodyless = request.method === "GET" || request.method === "HEAD";
    const url = new URL(request.url);
    return {
      method: request.method,
      url,
      path: url.pathname,
      headers: request.headers,
      text: bodyless ? "" : await request.text(),
      // A served request's signal is the server's to give (see _serve.ts).
      signal: served ? served.signal : request.signal,
    };
  }
  const body = init?.body;
  const url = new URL(typeof input === "string" ? input : input.href);
  return {
    method: (init?.method ?? "GET").toUpperCase(),
    url,
    path: url.pathname,
    headers: init?.headers instanceof Headers ? init.headers : new Headers(init?.headers),
    text: body === undefined || body === null
      ? ""
      : typeof body === "string"
      ? body
      : await new Response(body).text(),
    signal: init?.signal ?? undefined,
  };
}

/**
 * What a harness error (a script run out) is answered with: 400, a status no
 * client retries (the OpenAI and Anthropic SDKs retry 408, 409, 429 and 5xx;
 * the AI SDK's APICallError.isRetryable the same; LangChain's AsyncCaller
 * never retries 400: STATUS_NO_RETRY in @langchain/core/utils/async_caller),
 * so the test fails at once instead of after a client's backoff in real time.
 * The body names the error; `verify()` and the dispose rethrow it.
 */
const HARNESS_ERROR_STATUS = 400;

function problemOf(error: unknown): Problem {
  const message = (error as Error)?.message ?? String(error);
  if (isHarnessError(error)) {
    return {
      status: HARNESS_ERROR_STATUS,
      message: `agentkit FakeProvider: ${
        (error as Error).name
      }: ${message} (a harness error: the test's script is wrong, not the request; provider.verify() rethrows it)`,
      code: "agentkit_harness_error",
    };
  }
  if (error instanceof RateLimitError) {
    return { status: error.status ?? 429, message, retryAfterMs: error.retryAfterMs };
  }
  if (error instanceof ProviderError) {
    if (error.status !== undefined) return { status: error.status, message };
    if (error.name === "ProviderTimeoutError") return { status: 408, message };
    return { status: error.retryable ? 500 : 400, message };
  }
  return { status: 500, message };
}

function requestIdHeaders(id: string): Record<string, string> {
  return { "x-request-id": id, "request-id": id };
}

// The init a JSON answer is made with: the content type alone. Deno (2.9)
// gives a Response made with a string body and any other header a native
// copy of the body, kept for Deno.serve until the Response is collected; an
// in-process answer never goes through Deno.serve, so that copy was most of
// a blocking round trip's cost, and it grew with the answer's size (about
// 6 µs a KB when the client does not read the headers). A Response whose
// only header is the content type makes none, and the request-id headers set
// on it afterwards do not either (`.headers` drops any such copy). Served by
// listen(), the Response goes the ordinary way. See bench/RESULTS.md, issue 36.
const JSON_INIT_HEADERS = Object.freeze({ "content-type": "application/json" });

function reply(
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  const response = new Response(JSON.stringify(body), { status, headers: JSON_INIT_HEADERS });
  const h = response.headers;
  h.set("x-request-id", requestId);
  h.set("request-id", requestId);
  for (const name in headers) h.set(name, headers[name]);
  return response;
}
