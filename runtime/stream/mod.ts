/**
 * The stream a run is made of: the checks every `StreamEvent` passes
 * (`checkStreamEvent`, `isStreamEvent`) and `toChunk`, which turns an event
 * into the flat chunk a UI or a server-sent-events endpoint sends.
 *
 * @example A streamed run's events, each one well formed
 * ```ts
 * import { Agent, isStreamEvent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const agent = new Agent("a", { model: "fake-model" });
 * const events = await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: new FakeLLM("hey") })));
 * assert(events.every(isStreamEvent));
 * assertEquals(events.map((e) => e.type), ["message_start", "text_delta", "message_end"]);
 * ```
 *
 * @module
 */
export * from "./stream_chunk.ts";
export * from "./stream_event_schema.ts";
