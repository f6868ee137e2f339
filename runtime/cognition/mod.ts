/**
 * Cognitions: how an agent thinks. `SingleShotCognition` (the default) asks
 * the model once; `ReActCognition` runs the tool loop: call, dispatch the
 * calls, feed the results back, until the model answers or a limit stops it.
 *
 * @example One tool call, then the answer
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const tool = new FakeTool({ name: "lookup", responder: "42" });
 * const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "lookup", {})] }, "It is 42."]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });
 * assertEquals((await agent.run("?", makeTestCtx({ llm }))).stopReason, "stop");
 * assertEquals(tool.calls, [{}]);
 * ```
 *
 * @module
 */
export * from "./cognition.ts";
export * from "./single_shot.ts";
export * from "./react.ts";
