// What both provider ports share: the options check, the guard against real
// requests from tests, the POST, and the classification of a failed answer
// into the port's error classes.
import type { ChatRequest } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest } from "../../ports/llm.ts";
import type { Message } from "../../ports/message.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
} from "../../ports/provider_errors.ts";
import { checkOptions, checkValue, is, type Rule } from "../_options.ts";
import { ModelRequestsDisallowed } from "./model_requests_disallowed.ts";
import { ambientPolicy, arm, type RequestPolicy } from "../_ambient.ts";
import { clip } from "../_preview.ts";

/** The fetch a port sends with: `globalThis.fetch`'s shape. */
export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

// The fetches that answer in-process and can reach no model (FakeProviders'),
// known by identity: a marker anyone could set on any function would be a
// way around the guard.
const inProcess = new WeakSet<object>();

/** Marks `fetch` as one that answers in-process (a FakeProvider's). */
export function markInProcess(fetch: FetchFn): void {
  inProcess.add(fetch);
}

const HTTP_URL: Rule = {
  accepts: 'an absolute http(s) URL such as "http://localhost:11434/v1"',
  test: (v, option) => {
    if (typeof v !== "string" || !/^https?:\/\/[^/]/i.test(v)) return { kind: "type" };
    if (/\s/.test(v)) {
      return { kind: "type", message: `${option} contains whitespace; remove it (a URL has none)` };
    }
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      return { kind: "type" };
    }
    // fetch() refuses a URL with credentials in it, and an error quoting the
    // URL would carry them: they belong in a header.
    if (url.username !== "" || url.password !== "") {
      return {
        kind: "type",
        message:
          `${option} carries credentials (user:password@host); fetch refuses such URLs, so pass them as a header instead, e.g. headers: { authorization: "Basic ..." }`,
      };
    }
    return undefined;
  },
};

// A key goes into a header: a line break, a control or non-ASCII character
// would fail every request late, as a network error that retry() repeats.
const API_KEY: Rule = {
  accepts: "a string of printable ASCII (the API key)",
  test: (v, option) => {
    if (typeof v !== "string") return { kind: "type" };
    const bad = /[^\x21-\x7e]/.exec(v);
    if (!bad) return undefined;
    const what = bad[0] === "\n" || bad[0] === "\r"
      ? "a line break"
      : bad[0] === " " || bad[0] === "\t"
      ? "whitespace"
      : bad[0].charCodeAt(0) > 0x7f
      ? "a non-ASCII character"
      : "a control character";
    // The key itself is never quoted: the message may reach a log.
    return {
      kind: "type",
      message:
        `${option} contains ${what} at position ${bad.index} (of ${v.length}); copy the key again without it (a trailing newline from a file or an environment variable is the usual cause)`,
    };
  },
};

// RFC 9110 §5.1 (a field name is a token) and §5.5 (a field value has no
// CR, LF or NUL); fetch() itself refuses values outside Latin-1.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADERS: Rule = {
  accepts: "an object of header names to string values, or a Headers",
  test: (v, option) => {
    // A Headers checked its names and values when it was built; it is sent as it is.
    if (typeof Headers === "function" && v instanceof Headers) return undefined;
    if (typeof v !== "object" || v === null || Array.isArray(v)) return { kind: "type" };
    for (const [name, value] of Object.entries(v)) {
      if (!HEADER_NAME.test(name)) {
        return {
          kind: "type",
          message: `${option} has the header name ${
            JSON.stringify(name)
          }, which is not a valid HTTP field name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
        };
      }
      if (typeof value !== "string") {
        return {
          kind: "type",
          message: `${option}.${name} must be a string, got ${typeof value}`,
        };
      }
      // deno-lint-ignore no-control-regex -- NUL is one of the three bytes a field value must not have
      const bad = /[\r\n\0]|[^\x00-\xff]/.exec(value);
      if (bad) {
        return {
          kind: "type",
          message: `${option}.${name} contains ${
            bad[0] === "\r" || bad[0] === "\n" ? "a line break" : "a character fetch cannot send"
          } at position ${bad.index}; remove it`,
        };
      }
    }
    return undefined;
  },
};

/** The options both ports take. */
export const PORT_OPTIONS: Readonly<Record<string, Rule>> = {
  apiKey: API_KEY,
  baseURL: HTTP_URL,
  fetch: is.function,
  headers: HEADERS,
};

/** Checks a port's options once, in its constructor (the package's one checker). */
export function checkPortOptions(
  port: string,
  options: unknown,
  extra: Readonly<Record<string, Rule>> = {},
): void {
  checkOptions(`new ${port}()`, options, { ...PORT_OPTIONS, ...extra });
}

/** An environment variable, or `undefined` when unset or not readable. */
export function readEnv(name: string): string | undefined {
  const g = globalThis as {
    Deno?: { env?: { get(name: string): string | undefined } };
    process?: { env?: Record<string, string | undefined> };
  };
  try {
    if (g.Deno?.env) return g.Deno.env.get(name);
    return g.process?.env?.[name];
  } catch {
    return undefined; // no permission to read it: treat as unset
  }
}

/**
 * The API key from an environment variable, checked as the `apiKey` option
 * is: a key read from a file often ends in a newline.
 */
export function keyFromEnv(port: string, name: string): string | undefined {
  const key = readEnv(name);
  if (key !== undefined && key !== "") {
    checkValue(`new ${port}()`, `the ${name} environment variable`, key, API_KEY);
  }
  return key;
}

/**
 * Throws `ModelRequestsDisallowed` when a test context forbids this request:
 * the context passed, or, for a call made without one, the context of the
 * code running now (a tool inside a test run), else the one the port was
 * made under (`made`, from `madeUnder`).
 */
export function guard(
  port: string,
  ctx: Ctx | undefined,
  fetchFn: FetchFn,
  made?: RequestPolicy,
): void {
  const policy = ctx ?? ambientPolicy() ?? made;
  if (policy?.allowModelRequests !== false) return;
  if (inProcess.has(fetchFn)) return;
  if (readEnv("AGENTKIT_ALLOW_MODEL_REQUESTS") === "1") return;
  throw new ModelRequestsDisallowed(port, fetchFn !== DEFAULT_FETCH);
}

/**
 * Called as a port is made, with the fetch it will send with. A fetch that
 * could reach the network arms the ambient policy (see ../_ambient.ts: until
 * such a port exists, a tool call under a test context runs outside the
 * store, which costs Node 20 async hooks on every promise). The answer is the
 * policy the port is made under: a port made inside a tool call of a test
 * run belongs to the test, and its calls without a context meet the test's
 * guard even after the call is over.
 */
export function madeUnder(fetchFn: FetchFn): RequestPolicy | undefined {
  if (inProcess.has(fetchFn)) return undefined;
  arm();
  return ambientPolicy();
}

/** The two OpenAI wires' key header; none without a key (a local server needs none). */
export function bearer(key: string | undefined): Record<string, string> {
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** Stands for "no fetch option": the global fetch of the moment. */
export const DEFAULT_FETCH: FetchFn = (input, init) => globalThis.fetch(input, init);

/**
 * The endpoint under a base URL: `path` joins the base's path, and its query
 * (Azure's `?api-version=...`) is kept; a fragment is never sent.
 */
export function endpoint(baseURL: string, path: string): string {
  const url = new URL(baseURL);
  url.hash = "";
  url.pathname = url.pathname.replace(/\/+$/, "") + path;
  return url.href;
}

/** A URL as an error message may show it: origin and path, never the query. */
export function shownURL(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}${u.search ? "?..." : ""}`;
}

/**
 * POSTs `body` as JSON and returns the response when it is a 2xx; throws the
 * classified error otherwise. A failure before any answer is a retryable
 * `pre_stream` error; an abort rethrows the signal's reason.
 */
export async function postJson(
  provider: string,
  fetchFn: FetchFn,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new ProviderError(
      `${provider} request to ${shownURL(url)} failed before any answer (${
        (error as Error)?.message ?? error
      }); check the baseURL and the network`,
      { retryable: true, phase: "pre_stream", cause: error },
    );
  }
  if (response.ok) return response;
  let text = "";
  try {
    text = await response.text();
  } catch {
    if (signal?.aborted) throw signal.reason;
  }
  throw errorForStatus(provider, response.status, response.headers, text);
}

/** A 2xx answer's JSON body; a body that is not JSON is the provider's fault. */
export async function readJson<T>(
  provider: string,
  response: Response,
  signal: AbortSignal | undefined,
): Promise<T> {
  try {
    return await response.json() as T;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new ProviderResponseError(
      `${provider} answered ${response.status} with a body that is not JSON`,
      { cause: error },
    );
  }
}

/** The chat request a `complete()` call stands for: system (if any) + user. */
export function promptRequest(request: CompleteRequest): ChatRequest {
  if (
    typeof request !== "object" || request === null || typeof request.user !== "string" ||
    (request.system !== undefined && typeof request.system !== "string")
  ) {
    throw new TypeError(
      `complete() takes { model, user, system? } with string texts, got ${
        JSON.stringify(request) ?? String(request)
      }`,
    );
  }
  const messages: Message[] = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  messages.push({ role: "user", content: request.user });
  return { messages, model: request.model, signal: request.signal };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The provider's own message in an error body (`{ error: { message } }`), if any. */
export function providerMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body?.error === "string") return body.error;
    if (typeof body?.error?.message === "string") return body.error.message;
    if (typeof body?.message === "string") return body.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return undefined;
}

/**
 * Milliseconds from `retry-after-ms`, else `retry-after` (seconds or an HTTP
 * date). A date is read against the response's own `Date` header, else the
 * wall clock: both are real time, which a test's virtual clock is not.
 */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null) {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const after = headers.get("retry-after");
  if (after !== null) {
    const seconds = Number(after);
    if (after.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(after);
    if (Number.isFinite(at)) {
      const sent = Date.parse(headers.get("date") ?? "");
      return Math.max(0, at - (Number.isFinite(sent) ? sent : Date.now()));
    }
  }
  return undefined;
}

// Error types as the providers document them: Anthropic's "Errors" page
// (rate_limit_error 429, api_error 500, overloaded_error 529), OpenAI's error
// codes (server_error, rate_limit_exceeded; insufficient_quota is a 429 that
// waiting does not fix), and Google's canonical codes (RESOURCE_EXHAUSTED,
// UNAVAILABLE, INTERNAL, DEADLINE_EXCEEDED).
const RATE_LIMITED = new Set(["rate_limit_error", "rate_limit_exceeded", "RESOURCE_EXHAUSTED"]);
const TRANSIENT = new Set([
  "overloaded_error",
  "api_error",
  "server_error",
  "UNAVAILABLE",
  "INTERNAL",
  "DEADLINE_EXCEEDED",
]);

/**
 * The error a provider reported inside a body (a 2xx answer, or a stream's
 * error event) in our classes, by its documented type or code: rate limits
 * and transient faults are retryable, anything else is not.
 */
export function errorFromBody(
  provider: string,
  error: unknown,
  phase: "pre_stream" | "mid_stream",
  reported: { finishReason?: FinishReason; usage?: Usage } = {},
): ProviderError {
  const e = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  const said = typeof e.message === "string" && e.message.trim() !== "" ? e.message : undefined;
  const type = [e.type, e.code, e.status].find((v) => typeof v === "string") as
    | string
    | undefined;
  const status = [e.code, e.status].find((v) => typeof v === "number") as number | undefined;
  const message = `${provider} reported an error${type ? ` (${type})` : ""}${
    status ? ` with status ${status}` : ""
  }: ${clip(said ?? (typeof error === "string" && error.trim() !== "" ? error : "no message"))}`;
  // After content the call cannot be retried, whatever the type says.
  if (phase === "mid_stream") {
    return new ProviderResponseError(message, { phase, status, ...reported });
  }
  if (type === "insufficient_quota") {
    return new ProviderResponseError(`${message}; add credit to the account`, { phase, status });
  }
  if ((type !== undefined && RATE_LIMITED.has(type)) || status === 429) {
    // Google puts the wait in the error itself (google.rpc.RetryInfo in
    // error.details), in a stream's error chunk and a 200 body alike.
    return new RateLimitError(`${message}; wait and try again`, {
      phase,
      status,
      retryAfterMs: retryInfoMs({ error }),
    });
  }
  if (
    (type !== undefined && TRANSIENT.has(type)) || status === 408 || status === 409 ||
    (status !== undefined && status >= 500)
  ) {
    return new ProviderError(message, { retryable: true, phase, status });
  }
  return new ProviderResponseError(message, { phase, status });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// Google's APIs say how long to wait in the error body (google.rpc.RetryInfo
// in error.details, googleapis/google/rpc/error_details.proto), not a header.
/** `"1.5s"` (google.protobuf.Duration's JSON) in milliseconds, or undefined. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/** The wait a Google error body asks for (`google.rpc.RetryInfo.retryDelay`), in ms. */
export function retryInfoMs(body: unknown): number | undefined {
  const details = isRecord(body) && isRecord(body.error) ? body.error.details : undefined;
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    if (isRecord(d) && d["@type"] === "type.googleapis.com/google.rpc.RetryInfo") {
      return durationMs(d.retryDelay);
    }
  }
  return undefined;
}

const HINTS: Record<number, string> = {
  401: "; check the API key (the apiKey option or the provider's environment variable)",
  403:
    "; check the API key and what it may call (the apiKey option or the provider's environment variable)",
  404: "; check the model name and the baseURL",
};

/** Classifies a non-2xx answer by its status. */
export function errorForStatus(
  provider: string,
  status: number,
  headers: Headers,
  text: string,
): ProviderError {
  // The provider's words up to clip()'s limit; a raw body (an HTML page) less.
  const own = providerMessage(text)?.trim();
  const said = (own ? clip(own) : clip(text.trim(), 500)) || "no message";
  const message = `${provider} answered ${status}: ${said}`;
  if (status === 429) {
    return new RateLimitError(`${message}; wait and try again (retry() honours retryAfterMs)`, {
      retryAfterMs: retryAfterMs(headers) ?? retryInfoMs(parseJson(text)),
      status,
    });
  }
  if (status === 408) return new ProviderTimeoutError(message, { status });
  if (status === 409 || status >= 500) {
    return new ProviderError(message, { retryable: true, phase: "pre_stream", status });
  }
  return new ProviderResponseError(message + (HINTS[status] ?? ""), { status, retryable: false });
}
