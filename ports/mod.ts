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
export type * from "./chat.ts";
export type * from "./stream_event.ts";
export * from "./provider_errors.ts";
export * from "./scope.ts";
export * from "./clock.ts";
export * from "./trace.ts";
export * from "./observer.ts";
export type * from "./kv_store.ts";
export type * from "./context.ts";
export type * from "./llm.ts";
export type * from "./tool.ts";
export type * from "./asker.ts";
export type * from "./vector_store.ts";
export type * from "./checkpoint_store.ts";
export type * from "./grounder.ts";
export * from "./search.ts";
export * from "./fetch.ts";
export type * from "./memory.ts";
export type * from "./compactor.ts";
export type * from "./session_store.ts";
export type * from "./spawn.ts";
export * from "./cli.ts";
