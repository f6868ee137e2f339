// What both provider ports share: the options check, the guard against real
// requests from tests, the POST, and the classification of a failed answer
// into the port's error classes.
import type { ChatRequest } from "../../ports/chat.ts";
import type { Ctx } from "../../ports/context.ts";
import type { CompleteRequest } from "../../ports/llm.ts";
import type { Message } from "../../ports/message.ts";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
} from "../../ports/provider_errors.ts";
import { checkOptions, is, type Rule } from "../_options.ts";
import { ModelRequestsDisallowed } from "./model_requests_disallowed.ts";

/** The fetch a port sends with: `globalThis.fetch`'s shape. */
export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Marks a fetch that answers in-process and can reach no model (a
 * FakeProvider's): the test-context guard lets it through.
 */
export const IN_PROCESS_FETCH: symbol = Symbol.for("agentkit.inProcessFetch");

const HTTP_URL: Rule = {
  accepts: 'an absolute http(s) URL such as "http://localhost:11434/v1"',
  test: (v) => typeof v === "string" && /^https?:\/\/[^/]/i.test(v) ? undefined : { kind: "type" },
};

/** The options both ports take. */
export const PORT_OPTIONS: Readonly<Record<string, Rule>> = {
  apiKey: is.string,
  baseURL: HTTP_URL,
  fetch: is.function,
  headers: is.recordOf(is.string),
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

/** Throws `ModelRequestsDisallowed` when a test context forbids this request. */
export function guard(port: string, ctx: Ctx | undefined, fetchFn: FetchFn): void {
  if (ctx?.allowModelRequests !== false) return;
  if ((fetchFn as unknown as Record<symbol, unknown>)[IN_PROCESS_FETCH] === true) return;
  if (readEnv("AGENTKIT_ALLOW_MODEL_REQUESTS") === "1") return;
  throw new ModelRequestsDisallowed(port);
}

/** The base URL without a trailing slash. */
export function trimSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
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
  now: () => number,
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
      `${provider} request to ${url} failed before any answer (${
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
  throw errorForStatus(provider, response.status, response.headers, text, now);
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
  const messages: Message[] = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  messages.push({ role: "user", content: request.user });
  return { messages, model: request.model, signal: request.signal };
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

/** Milliseconds from `retry-after-ms`, else `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now: () => number): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null) {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const after = headers.get("retry-after");
  if (after !== null) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(after);
    if (Number.isFinite(at)) return Math.max(0, at - now());
  }
  return undefined;
}

const HINTS: Record<number, string> = {
  401: "; check the API key (the apiKey option or the provider's environment variable)",
  404: "; check the model name and the baseURL",
};

/** Classifies a non-2xx answer by its status. */
export function errorForStatus(
  provider: string,
  status: number,
  headers: Headers,
  text: string,
  now: () => number,
): ProviderError {
  const said = providerMessage(text) ?? (text.trim().slice(0, 500) || "no message");
  const message = `${provider} answered ${status}: ${said}`;
  if (status === 429) {
    return new RateLimitError(`${message}; wait and try again (retry() honours retryAfterMs)`, {
      retryAfterMs: retryAfterMs(headers, now),
      status,
    });
  }
  if (status === 408) return new ProviderTimeoutError(message, { status });
  if (status === 409 || status >= 500) {
    return new ProviderError(message, { retryable: true, phase: "pre_stream", status });
  }
  return new ProviderResponseError(message + (HINTS[status] ?? ""), { status, retryable: false });
}
