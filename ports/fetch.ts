/**
 * The page-fetching seam.
 *
 * @module
 */

/**
 * A fetched page.
 *
 * @example
 * ```ts
 * import type { FetchResponse } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const page: FetchResponse = {
 *   url: "https://ex/1",
 *   status: 200,
 *   headers: { "content-type": "text/html" },
 *   body: "<p>hi</p>",
 *   contentType: "text/html",
 *   fetchedAt: 0,
 * };
 * assertEquals(page.status, 200);
 * ```
 */
export interface FetchResponse {
  /** The URL that answered (after redirects). */
  readonly url: string;
  /** The HTTP status. */
  readonly status: number;
  /** The response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text. */
  readonly body: string;
  /** The media type without parameters (`"text/html"`). */
  readonly contentType: string;
  /** When it was fetched, in ms on the clock that fetched it. */
  readonly fetchedAt: number;
}

/**
 * Options of {@linkcode FetchPort.fetch}.
 *
 * @example
 * ```ts
 * import type { FetchOptions } from "@agentkit/testing/ports";
 * const options: FetchOptions = { signal: new AbortController().signal };
 * ```
 */
export interface FetchOptions {
  /** Cancels the fetch; an implementation rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
}

/**
 * Fetches pages for an agent (a browsing tool, a grounder).
 *
 * @example A fetch port over a fixed page
 * ```ts
 * import type { FetchPort } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const web: FetchPort = {
 *   fetch: (url) => Promise.resolve({
 *     url, status: 200, headers: {}, body: "ok", contentType: "text/plain", fetchedAt: 0,
 *   }),
 * };
 * assertEquals((await web.fetch("https://ex/1")).body, "ok");
 * ```
 */
export interface FetchPort {
  /** Fetches `url`; an HTTP error status is a response, not a rejection. */
  fetch(url: string, options?: FetchOptions): Promise<FetchResponse>;
}
