/**
 * Hook doubles: `RecordingHook` keeps every stream event it is shown, and
 * `HaltingHook` drops the events after a condition, so a test can check what
 * the hooks after it (and the run's result) still see.
 *
 * @example What an event hook saw
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx, RecordingHook } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const hook = new RecordingHook();
 * const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [hook] } });
 * await agent.run("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
 * assertEquals(hook.events.map((e) => e.type), ["message_start", "text_delta", "message_end"]);
 * ```
 *
 * @module
 */
export * from "./recording_hook.ts";
export * from "./halting_hook.ts";
