/**
 * The seams: interfaces for everything an agent talks to but does not own,
 * and the value types that cross them. Nothing here imports the runtime or the
 * test doubles.
 *
 * @example A tool call and a scope
 * ```ts
 * import { Scope, toolCall } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(toolCall("c1", "lookup", { host: "a" }).name, "lookup");
 * assertEquals(new Scope({ orgId: 7, domainId: 2 }).key(), "org7:dom2");
 * ```
 *
 * @module
 */
export * from "./message.ts";
export * from "./usage.ts";
export * from "./tool_spec.ts";
export * from "./chat.ts";
export * from "./stream_event.ts";
export * from "./provider_errors.ts";
export * from "./scope.ts";
export * from "./clock.ts";
export * from "./trace.ts";
export * from "./observer.ts";
export * from "./kv_store.ts";
export * from "./context.ts";
export * from "./llm.ts";
export * from "./tool.ts";
export * from "./asker.ts";
export * from "./vector_store.ts";
export * from "./checkpoint_store.ts";
export * from "./grounder.ts";
export * from "./search.ts";
export * from "./fetch.ts";
export * from "./memory.ts";
export * from "./compactor.ts";
export * from "./session_store.ts";
export * from "./spawn.ts";
export * from "./cli.ts";
