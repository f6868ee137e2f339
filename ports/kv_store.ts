/**
 * The key-value seam. Every key lives inside a tenant's partition.
 *
 * @module
 */
import type { Scope } from "./scope.ts";

/**
 * A durable key-value store partitioned by {@linkcode Scope}.
 *
 * @example
 * ```ts
 * import { Scope, type KVStore } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const m = new Map<string, unknown>();
 * const kv: KVStore = {
 *   get: (s, k) => Promise.resolve(m.get(`${s.key()}/${k}`)),
 *   set: (s, k, v) => { m.set(`${s.key()}/${k}`, v); return Promise.resolve(); },
 *   delete: (s, k) => Promise.resolve(m.delete(`${s.key()}/${k}`)),
 * };
 * await kv.set(new Scope({ orgId: 7 }), "a", 1);
 * assertEquals(await kv.get(new Scope({ orgId: 8 }), "a"), undefined);
 * ```
 */
export interface KVStore {
  /** Reads a value; `undefined` when absent. */
  get(scope: Scope, key: string): Promise<unknown>;
  /** Writes a value. */
  set(scope: Scope, key: string, value: unknown): Promise<void>;
  /** Deletes a value; resolves whether it existed. */
  delete(scope: Scope, key: string): Promise<boolean>;
}
