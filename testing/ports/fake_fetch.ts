/**
 * The fetch double.
 *
 * @module
 */
import { zod } from "../../runtime/internal.ts";
import type { FetchOptions, FetchPort, FetchResponse } from "../../ports/fetch.ts";
import { HarnessError } from "../../runtime/harness_error.ts";
import { nearest, parseOrExplain } from "../_validate.ts";
import { InvalidScript } from "../errors.ts";
import { is } from "../../runtime/internal.ts";
import { argProblem } from "./_arg.ts";

/**
 * A scripted page. Every field is optional: `url` defaults to the key it is
 * scripted under, `status` to 200, `body` to `""`, `contentType` to the
 * `content-type` header (without parameters) or `"text/plain"`, and
 * `fetchedAt` to 0. A bare string is shorthand for `{ body }`.
 *
 * @example
 * ```ts
 * import type { ScriptedPage } from "@agentkit/testing/testing";
 * const missing: ScriptedPage = { status: 404, body: "not found" };
 * ```
 */
export interface ScriptedPage {
  /** The URL that answered (a redirect target). */
  readonly url?: string;
  /** The HTTP status. */
  readonly status?: number;
  /** The headers; names are lower-cased. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body. */
  readonly body?: string;
  /** The media type. */
  readonly contentType?: string;
  /** When it was fetched (ms). */
  readonly fetchedAt?: number;
}

/**
 * `FakeFetch` was asked for a URL it has no page for. A harness error: it
 * escapes every catch site in the runtime, so a test fails loudly instead of
 * an agent reasoning over a stub page nobody wrote.
 *
 * @example
 * ```ts
 * import { FakeFetch, FetchNotScripted } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const fetch = new FakeFetch({ "https://ex/1": "hi" });
 * const e = await assertRejects(() => fetch.fetch("https://ex/2"), FetchNotScripted);
 * assertEquals([e.url, e.scripted], ["https://ex/2", ["https://ex/1"]]);
 * ```
 */
export class FetchNotScripted extends HarnessError {
  /** The URL asked for. */
  readonly url: string;
  /** The URLs that are scripted. */
  readonly scripted: readonly string[];

  /**
   * The message lists the scripted URLs and suggests the nearest one.
   *
   * @param url The URL asked for.
   * @param scripted The URLs that are scripted.
   */
  constructor(url: string, scripted: readonly string[]) {
    const near = nearest(url, scripted);
    super(
      `FakeFetch has no page for ${JSON.stringify(url)}${
        near ? ` (did you mean ${JSON.stringify(near)}?)` : ""
      }; the scripted URLs are ${
        scripted.length ? scripted.map((u) => JSON.stringify(u)).join(", ") : "none"
      }; script it, with { status: 404 } if the test is about a missing page`,
    );
    this.url = url;
    this.scripted = scripted;
  }
}

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const pageSchema = z.strictObject({
    url: z.string().optional(),
    status: z.number().int().min(100).max(599).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
    contentType: z.string().optional(),
    fetchedAt: z.number().optional(),
  });
  return { pageSchema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * A fetcher that answers from a map of URL to page. A URL that is not in the
 * map throws {@linkcode FetchNotScripted} naming it and the scripted URLs
 * (never a silent 404). `.calls` records every URL asked for, scripted or
 * not. Pages are validated and completed when the fake is built.
 *
 * @example
 * ```ts
 * import { FakeFetch, FetchNotScripted } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const fetch = new FakeFetch({
 *   "https://ex/1": { headers: { "Content-Type": "text/html; charset=utf-8" }, body: "<p>hi</p>" },
 *   "https://ex/gone": { status: 404 },
 * });
 * const page = await fetch.fetch("https://ex/1");
 * assertEquals([page.status, page.contentType, page.body], [200, "text/html", "<p>hi</p>"]);
 * assertEquals((await fetch.fetch("https://ex/gone")).status, 404);
 * await assertRejects(() => fetch.fetch("https://ex/2"), FetchNotScripted, '"https://ex/1", "https://ex/gone"');
 * assertEquals(fetch.calls, ["https://ex/1", "https://ex/gone", "https://ex/2"]);
 * ```
 */
export class FakeFetch implements FetchPort {
  /** Every URL asked for, in order. */
  readonly calls: string[] = [];
  readonly #pages: ReadonlyMap<string, FetchResponse>;

  /**
   * Checks every page here; a page without a content type is `text/plain`.
   *
   * @param pages A page (or a body) per URL.
   * @throws {InvalidScript} When a page has an unknown or mistyped field.
   */
  constructor(pages: Readonly<Record<string, string | ScriptedPage>>) {
    if (pages === null || typeof pages !== "object" || Array.isArray(pages)) {
      throw new InvalidScript(
        'FakeFetch takes a map of URL to page, as in new FakeFetch({ "https://ex/1": "<p>hi</p>" })',
      );
    }
    const map = new Map<string, FetchResponse>();
    for (const [key, value] of Object.entries(pages)) {
      const p: ScriptedPage = typeof value === "string" ? { body: value } : parseOrExplain(
        schemas().pageSchema,
        value,
        `the FakeFetch page for ${JSON.stringify(key)}`,
      );
      const headers: Record<string, string> = {};
      for (const [name, v] of Object.entries(p.headers ?? {})) headers[name.toLowerCase()] = v;
      const contentType = p.contentType ?? headers["content-type"]?.split(";")[0].trim() ??
        "text/plain";
      headers["content-type"] ??= contentType;
      map.set(key, {
        url: p.url ?? key,
        status: p.status ?? 200,
        headers,
        body: p.body ?? "",
        contentType,
        fetchedAt: p.fetchedAt ?? 0,
      });
    }
    this.#pages = map;
  }

  /**
   * The page scripted for `url`.
   * @param url The URL: a string.
   * @param options A cancellation signal.
   * @returns A copy of the page.
   * @throws {FetchNotScripted} When `url` is not scripted.
   * @throws {TypeError} (as a rejection) When `url` is not a string or `options` not an object.
   */
  fetch(url: string, options: FetchOptions = {}): Promise<FetchResponse> {
    const problem = argProblem("FakeFetch.fetch()", "the url", url, is.string) ??
      argProblem("FakeFetch.fetch()", "the options", options, is.object);
    if (problem) return Promise.reject(problem);
    this.calls.push(url);
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const page = this.#pages.get(url);
    if (!page) return Promise.reject(new FetchNotScripted(url, [...this.#pages.keys()]));
    return Promise.resolve({ ...page, headers: { ...page.headers } });
  }
}
