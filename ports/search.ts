/**
 * The web-search seam.
 *
 * @module
 */

/**
 * One search result.
 *
 * @example
 * ```ts
 * import type { SearchHit } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const hit: SearchHit = { url: "https://ex/1", title: "Cert rotation", snippet: "rotate every 90d" };
 * assertEquals(hit.title, "Cert rotation");
 * ```
 */
export interface SearchHit {
  /** Where the result lives. */
  readonly url: string;
  /** The page's title. */
  readonly title: string;
  /** The excerpt the engine shows. */
  readonly snippet: string;
}

/**
 * Options of {@linkcode SearchPort.search}.
 *
 * @example
 * ```ts
 * import type { SearchOptions } from "@agentkit/testing/ports";
 * const options: SearchOptions = { k: 3 };
 * ```
 */
export interface SearchOptions {
  /** At most this many hits. The engine's own default applies when unset. */
  readonly k?: number;
  /** Cancels the search; an implementation rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
}

/**
 * A search engine.
 *
 * @example A search port over a fixed list
 * ```ts
 * import type { SearchHit, SearchPort } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const pages: SearchHit[] = [{ url: "https://ex/1", title: "Certs", snippet: "rotate every 90d" }];
 * const engine: SearchPort = {
 *   search: (query, { k = 10 } = {}) =>
 *     Promise.resolve(pages.filter((p) => p.snippet.includes(query)).slice(0, k)),
 * };
 * assertEquals((await engine.search("rotate")).length, 1);
 * ```
 */
export interface SearchPort {
  /** The best hits for `query`, best first; an empty list when nothing matches. */
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
}
