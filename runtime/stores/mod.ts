/**
 * In-process stores for the store ports: `InMemoryStore` (a `KVStore`),
 * `InMemoryVector` (a `VectorStore`) and `InMemoryCheckpointStore`. Each keeps
 * one tenant's data apart from another's by `Scope`, as a real store must.
 *
 * @example Scoped values do not cross tenants
 * ```ts
 * import { InMemoryStore } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const store = new InMemoryStore();
 * await store.set(new Scope({ orgId: 1 }), "plan", "pro");
 * assertEquals(await store.get(new Scope({ orgId: 2 }), "plan"), undefined);
 * ```
 *
 * @module
 */
export * from "./in_memory_store.ts";
export * from "./in_memory_vector.ts";
export * from "./in_memory_checkpoint_store.ts";
