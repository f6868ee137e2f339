/**
 * The search double.
 *
 * @module
 */
import { zod } from "../../runtime/internal.ts";
import type { SearchHit, SearchOptions, SearchPort } from "../../ports/search.ts";
import { parseOrExplain } from "../_validate.ts";
import { InvalidScript } from "../errors.ts";
import { is } from "../../runtime/internal.ts";
import { argProblem } from "./_arg.ts";

/**
 * One call of {@linkcode FakeSearch.search}, as recorded.
 *
 * @example
 * ```ts
 * import type { SearchCall } from "@agentkit/testing/testing";
 * const call: SearchCall = { query: "rotate cert", k: 5 };
 * ```
 */
export interface SearchCall {
  /** The query text. */
  readonly query: string;
  /** The `k` asked for, if any. */
  readonly k?: number;
}

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const hitSchema = z.strictObject({
    url: z.string(),
    title: z.string(),
    snippet: z.string(),
  });
  const hitsSchema = z.array(hitSchema);
  return { hitsSchema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * A search engine that answers from a map: the first key that is a
 * substring of the query wins (keys are tried in the order written), and its
 * hits come back, cut to `k`. A query no key matches gets `[]`, like a real
 * engine with no results. `.calls` records every query with its `k`. Hits
 * are validated when the fake is built: a mistyped field is an error then.
 *
 * @example
 * ```ts
 * import { FakeSearch } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const search = new FakeSearch({
 *   cert: [{ url: "https://ex/1", title: "Cert rotation", snippet: "rotate every 90d" }],
 * });
 * assertEquals((await search.search("how do I rotate a cert", { k: 5 })).length, 1);
 * assertEquals(await search.search("unrelated"), []);
 * assertEquals(search.calls, [{ query: "how do I rotate a cert", k: 5 }, { query: "unrelated" }]);
 * ```
 */
export class FakeSearch implements SearchPort {
  /** Every query, in order. */
  readonly calls: SearchCall[] = [];
  readonly #results: ReadonlyArray<readonly [string, readonly SearchHit[]]>;

  /**
   * Checks every hit here, naming the key of a malformed one.
   *
   * @param results Hits per non-empty key; a key matches a query it is a substring of.
   * @throws {InvalidScript} When a hit has a missing or unknown field, or a key is `""`.
   */
  constructor(results: Readonly<Record<string, readonly SearchHit[]>>) {
    if (results === null || typeof results !== "object" || Array.isArray(results)) {
      throw new InvalidScript(
        "FakeSearch takes a map of key to hits, as in new FakeSearch({ cert: [{ url, title, snippet }] })",
      );
    }
    // "" is a substring of every query: the key would answer them all.
    if (Object.hasOwn(results, "")) {
      throw new InvalidScript(
        'FakeSearch: the key "" matches every query (every text contains ""); give each key a non-empty substring of the queries it answers',
      );
    }
    this.#results = Object.entries(results).map(([key, hits]) =>
      [
        key,
        parseOrExplain(
          schemas().hitsSchema,
          hits,
          `the FakeSearch hits for ${JSON.stringify(key)}`,
        ),
      ] as const
    );
  }

  /**
   * The hits of the first key found in `query`, at most `k` of them.
   * @param query The query text: a string.
   * @param options `k` (an integer, 0 or more) and a cancellation signal.
   * @returns Copies of the scripted hits, or `[]`.
   * @throws {TypeError} (as a rejection) When `query` is not a string or `options` not an object.
   */
  search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const problem = argProblem("FakeSearch.search()", "the query", query, is.string) ??
      argProblem("FakeSearch.search()", "the options", options, is.object);
    if (problem) return Promise.reject(problem);
    const { k, signal } = options;
    this.calls.push(k === undefined ? { query } : { query, k });
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (k !== undefined && (!Number.isInteger(k) || k < 0)) {
      return Promise.reject(
        new RangeError(`Cannot search with k = ${k}: pass a non-negative integer`),
      );
    }
    for (const [key, hits] of this.#results) {
      if (query.includes(key)) {
        return Promise.resolve(hits.slice(0, k ?? hits.length).map((h) => ({ ...h })));
      }
    }
    return Promise.resolve([]);
  }
}
