/**
 * The assertion surface: `agentMatchers` for Vitest and Jest, the same checks
 * as plain functions for Deno (`assertCalledTool`, `assertStopReason`,
 * `assertSpent`, `assertUsedAllTurns`, `assertTranscriptContains`,
 * `assertTrajectory`), and
 * `transcript()`, a stable text of a run for snapshots.
 *
 * @example A tool was called with these arguments
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { assertCalledTool, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 *
 * const tool = new FakeTool({ name: "lookup_cert", responder: "2026-08-01" });
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "lookup_cert", { host: "example.com" })] },
 *   "It expired on 2026-08-01.",
 * ]);
 * const agent = new Agent("sre", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });
 * const result = await agent.run("Why?", makeTestCtx({ llm }));
 * assertCalledTool(result, "lookup_cert", { host: "example.com" });
 * ```
 *
 * @module
 */
export * from "./assertion_error.ts";
export * from "./transcript.ts";
export * from "./agent_matchers.ts";
export * from "./agent_assertions.ts";
export * from "./agent_trajectory.ts";
