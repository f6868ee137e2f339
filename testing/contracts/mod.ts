/**
 * Contract suites, one per durable port: the cases every `KVStore`,
 * `VectorStore`, `CheckpointStore` and `SessionStore` must pass. The
 * runtime's in-process adapters run them in this repository; run them
 * against an adapter of your own to know it is a drop-in.
 *
 * @example Check a store, one step per case
 * ```ts
 * import { InMemoryStore } from "@agentkit/testing/runtime";
 * import { kvStoreContract } from "@agentkit/testing/testing";
 * import { assert } from "@std/assert";
 *
 * const cases = kvStoreContract(() => new InMemoryStore());
 * for (const c of cases) await c.fn();
 * assert(cases.some((c) => c.name.includes("tenant")));
 * ```
 *
 * @module
 */
export * from "./contract.ts";
export * from "./kv_store_contract.ts";
export * from "./vector_store_contract.ts";
export * from "./checkpoint_store_contract.ts";
export * from "./session_store_contract.ts";
