/**
 * Sessions: a conversation that outlives one run. A `Session` holds the
 * transcript and saves it through a `SessionStore` after each run; the stores
 * here keep it in memory (`InMemorySessionStore`), in Deno KV
 * (`KVSessionStore`), or as an append-only JSON-lines file (`JsonlSession`).
 *
 * @example A second run sees the first one's turns
 * ```ts
 * import { Agent, InMemorySessionStore, Session } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script(["Hello, Ada.", "You are Ada."]);
 * const session = new Session("s-1", { store: new InMemorySessionStore() });
 * const agent = new Agent("a", { model: "fake-model" });
 * const ctx = makeTestCtx({ llm });
 * await agent.run("I am Ada.", ctx, { session });
 * await agent.run("Who am I?", ctx, { session });
 * assertEquals(llm.requests[1].messages.map((m) => m.role), ["user", "assistant", "user"]);
 * ```
 *
 * @module
 */
export * from "./session.ts";
export * from "./in_memory_session_store.ts";
export * from "./kv_session_store.ts";
export * from "./jsonl_session.ts";
