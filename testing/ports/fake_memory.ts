/**
 * The memory double.
 *
 * @module
 */
import { zod } from "../../runtime/internal.ts";
import type { Ctx } from "../../ports/context.ts";
import type { MemoryItem, MemoryQueryOptions, MemorySource } from "../../ports/memory.ts";
import { parseOrExplain } from "../_validate.ts";
import { InvalidScript } from "../errors.ts";
import { is } from "../../runtime/internal.ts";
import { argProblem } from "./_arg.ts";

/**
 * What {@linkcode FakeMemory} answers from: `responses` (items per key, the
 * first key that is a substring of the query wins, unmatched queries get
 * `[]`) or `items` (every query gets the first k, whatever it asks).
 *
 * @example
 * ```ts
 * import type { FakeMemoryOptions } from "@agentkit/testing/testing";
 * const byKey: FakeMemoryOptions = { responses: { cert: [{ text: "rotate every 90d", source: "runbook" }] } };
 * const fixture: FakeMemoryOptions = { items: [{ text: "rotate every 90d", source: "runbook" }] };
 * ```
 */
export type FakeMemoryOptions =
  | {
    /** Items per key; a key matches a query it is a substring of. */
    readonly responses: Readonly<Record<string, readonly MemoryItem[]>>;
  }
  | {
    /** Items every query gets the first `k` of. */
    readonly items: readonly MemoryItem[];
  };

/**
 * One query, as recorded.
 *
 * @example
 * ```ts
 * import type { MemoryQueryRecord } from "@agentkit/testing/testing";
 * const q: MemoryQueryRecord = { query: "cert", k: 2 };
 * ```
 */
export interface MemoryQueryRecord {
  /** The query text. */
  readonly query: string;
  /** How many items were asked for. */
  readonly k: number;
}

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const itemSchema = z.strictObject({ text: z.string(), source: z.string() });
  const itemsSchema = z.array(itemSchema);
  const optionsSchema = z.strictObject({
    responses: z.record(z.string(), z.unknown()).optional(),
    items: z.unknown().optional(),
  });
  return { itemSchema, itemsSchema, optionsSchema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * A memory that answers from a script and records what it was asked and
 * told. Two modes: `responses` matches keys as substrings of the query (the
 * first match wins, an unmatched query gets `[]`); `items` ignores the query
 * and returns the first `k` items, for tests that only care that the agent
 * received some memory. `.queries` records each `{ query, k }`; `.writes`
 * records a copy of each written item. Writes do not change what queries
 * return: the answers stay exactly as scripted.
 *
 * @example Responses by key
 * ```ts
 * import { FakeCtx, FakeMemory } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const memory = new FakeMemory({ responses: { cert: [{ text: "rotate every 90d", source: "runbook" }] } });
 * const ctx = new FakeCtx();
 * assertEquals((await memory.query("cert expiry", { k: 2, ctx })).length, 1);
 * assertEquals(await memory.query("lunch", { k: 2, ctx }), []);
 * await memory.write({ text: "rotated on 2026-05-01", source: "sre" }, ctx);
 * assertEquals(memory.queries, [{ query: "cert expiry", k: 2 }, { query: "lunch", k: 2 }]);
 * assertEquals(memory.writes, [{ text: "rotated on 2026-05-01", source: "sre" }]);
 * ```
 *
 * @example A fixture of items
 * ```ts
 * import { FakeCtx, FakeMemory } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const memory = new FakeMemory({
 *   items: [{ text: "a", source: "s" }, { text: "b", source: "s" }, { text: "c", source: "s" }],
 * });
 * const got = await memory.query("anything at all", { k: 2, ctx: new FakeCtx() });
 * assertEquals(got.map((i) => i.text), ["a", "b"]);
 * ```
 */
export class FakeMemory implements MemorySource {
  /** Every query with its `k`, in order. */
  readonly queries: MemoryQueryRecord[] = [];
  /** A copy of every written item, in order. */
  readonly writes: MemoryItem[] = [];
  readonly #responses?: ReadonlyArray<readonly [string, readonly MemoryItem[]]>;
  readonly #items?: readonly MemoryItem[];

  /**
   * Exactly one of `responses` and `items`; both or neither throws.
   *
   * @param options `responses` or `items`.
   * @throws {InvalidScript} For an unknown key or a malformed item.
   * @throws {TypeError} For both modes at once, or neither.
   */
  constructor(options: FakeMemoryOptions) {
    const parsed = parseOrExplain(schemas().optionsSchema, options ?? {}, "FakeMemory options");
    if ((parsed.responses === undefined) === (parsed.items === undefined)) {
      throw new TypeError(
        "Cannot build a FakeMemory: pass exactly one of { responses } (items per key, matched as substrings of the query) or { items } (the first k for every query)",
      );
    }
    if (parsed.responses) {
      // "" is a substring of every query: the key would answer them all.
      if (Object.hasOwn(parsed.responses, "")) {
        throw new InvalidScript(
          'FakeMemory: the key "" matches every query (every text contains ""); give each key a non-empty substring of the queries it answers',
        );
      }
      this.#responses = Object.entries(parsed.responses).map(([key, items]) =>
        [
          key,
          parseOrExplain(
            schemas().itemsSchema,
            items,
            `the FakeMemory items for ${JSON.stringify(key)}`,
          ),
        ] as const
      );
    } else {this.#items = parseOrExplain(
        schemas().itemsSchema,
        parsed.items,
        "the FakeMemory items",
      );}
  }

  /**
   * The scripted items for `query`, at most `k` of them.
   * @param query The query text: a string.
   * @param options `k` (an integer, 0 or more) and the run (whose cancellation it honours).
   * @returns Copies of the items.
   * @throws {TypeError} (as a rejection) When `query` is not a string or `options` not an object.
   */
  query(query: string, options: MemoryQueryOptions): Promise<MemoryItem[]> {
    const problem = argProblem("FakeMemory.query()", "the query", query, is.string) ??
      argProblem("FakeMemory.query()", "the options ({ k, ctx })", options, is.object);
    if (problem) return Promise.reject(problem);
    const { k, ctx } = options;
    this.queries.push({ query, k });
    try {
      ctx?.checkCancelled();
    } catch (reason) {
      return Promise.reject(reason);
    }
    if (!Number.isInteger(k) || k < 0) {
      return Promise.reject(
        new RangeError(`Cannot query memory with k = ${k}: pass a non-negative integer`),
      );
    }
    let items: readonly MemoryItem[] = this.#items ?? [];
    if (this.#responses) {
      items = this.#responses.find(([key]) => query.includes(key))?.[1] ?? [];
    }
    return Promise.resolve(items.slice(0, k).map((i) => ({ ...i })));
  }

  /**
   * Records a copy of the item.
   * @param item The item: `{ text, source }`, both strings.
   * @param ctx The run (whose cancellation it honours).
   * @throws {InvalidScript} (as a rejection) When `item` is not a memory item.
   */
  write(item: MemoryItem, ctx: Ctx): Promise<void> {
    try {
      parseOrExplain(schemas().itemSchema, item, "FakeMemory.write(): the item");
    } catch (error) {
      return Promise.reject(error);
    }
    this.writes.push({ ...item });
    try {
      ctx?.checkCancelled();
    } catch (reason) {
      return Promise.reject(reason);
    }
    return Promise.resolve();
  }
}
