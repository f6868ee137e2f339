/**
 * The in-process key-value store.
 *
 * @module
 */
import type { KVStore } from "../../ports/kv_store.ts";
import type { Scope } from "../../ports/scope.ts";

/**
 * A `KVStore` in a `Map`, partitioned by tenant. Values are copied in and out
 * (`structuredClone`), so a caller mutating a read value cannot change what is
 * stored. Production code for single-process deployments, not a double.
 *
 * @example Tenants never read each other's keys
 * ```ts
 * import { InMemoryStore } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const store = new InMemoryStore();
 * await store.set(new Scope({ orgId: 7 }), "k", "seven");
 * assertEquals(await store.get(new Scope({ orgId: 7 }), "k"), "seven");
 * assertEquals(await store.get(new Scope({ orgId: 8 }), "k"), undefined);
 * ```
 */
export class InMemoryStore implements KVStore {
  readonly #data = new Map<string, unknown>();

  /** How many keys are stored, across every tenant. */
  get size(): number {
    return this.#data.size;
  }

  /** Reads a copy of the value, or `undefined`. */
  get(scope: Scope, key: string): Promise<unknown> {
    const v = this.#data.get(`${scope.key()}\u0000${key}`);
    return Promise.resolve(v === undefined ? undefined : structuredClone(v));
  }

  /** Stores a copy of the value. */
  set(scope: Scope, key: string, value: unknown): Promise<void> {
    this.#data.set(`${scope.key()}\u0000${key}`, structuredClone(value));
    return Promise.resolve();
  }

  /** Deletes the key; resolves whether it existed. */
  delete(scope: Scope, key: string): Promise<boolean> {
    return Promise.resolve(this.#data.delete(`${scope.key()}\u0000${key}`));
  }
}
