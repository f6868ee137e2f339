/**
 * The long-term memory seam.
 *
 * @module
 */
import type { Ctx } from "./context.ts";

/**
 * One remembered item.
 *
 * @example
 * ```ts
 * import type { MemoryItem } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const item: MemoryItem = { text: "rotate every 90d", source: "runbook" };
 * assertEquals(item.source, "runbook");
 * ```
 */
export interface MemoryItem {
  /** What is remembered. */
  readonly text: string;
  /** Where it came from (a document, a conversation, an agent). */
  readonly source: string;
}

/**
 * Options of {@linkcode MemorySource.query}.
 *
 * @example
 * ```ts
 * import type { MemoryQueryOptions } from "@agentkit/testing/ports";
 * import { NullCtx } from "@agentkit/testing/runtime";
 * const options: MemoryQueryOptions = { k: 2, ctx: new NullCtx() };
 * ```
 */
export interface MemoryQueryOptions {
  /** At most this many items. */
  readonly k: number;
  /** The run asking: its tenant partitions the memory, its signal cancels the query. */
  readonly ctx: Ctx;
}

/**
 * A memory an agent reads from and writes to. Implementations partition
 * items by `ctx.scope`.
 *
 * @example A memory in an array
 * ```ts
 * import type { MemoryItem, MemorySource } from "@agentkit/testing/ports";
 * import { NullCtx } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const items: MemoryItem[] = [];
 * const memory: MemorySource = {
 *   query: (q, { k }) => Promise.resolve(items.filter((i) => i.text.includes(q)).slice(0, k)),
 *   write: (item) => { items.push(item); return Promise.resolve(); },
 * };
 * await memory.write({ text: "rotate every 90d", source: "runbook" }, new NullCtx());
 * assertEquals((await memory.query("rotate", { k: 1, ctx: new NullCtx() })).length, 1);
 * ```
 */
export interface MemorySource {
  /** The `k` items most relevant to `query`, best first. */
  query(query: string, options: MemoryQueryOptions): Promise<MemoryItem[]>;
  /** Remembers an item for the run's tenant. */
  write(item: MemoryItem, ctx: Ctx): Promise<void>;
}
