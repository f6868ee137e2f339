/**
 * Hooks: code that runs around a run (`beforeRun`, `afterRun`) and on each
 * of its stream events (`onStreamEvent`), in the order given. A hook can
 * halt a run before it starts, replace or drop an event (returning the
 * events to send instead), and a hook that
 * throws fails the run with `HookFailed` naming it.
 *
 * @example An event hook that redacts the answer
 * ```ts
 * import { Agent, type StreamEventHook } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const redact: StreamEventHook = {
 *   name: "redact",
 *   onStreamEvent: (e) =>
 *     e.type === "text_delta" ? [{ ...e, content: e.content.replace(/\d/g, "#") }] : undefined,
 * };
 * const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [redact] } });
 * const result = await agent.run("pin?", makeTestCtx({ llm: new FakeLLM("It is 1234.") }));
 * assertEquals(result.output, "It is ####.");
 * ```
 *
 * @module
 */
export * from "./hooks.ts";
