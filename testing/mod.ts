/**
 * The doubles and the test context: `makeTestCtx` builds the real runtime,
 * and `FakeLLM`, `FakeTool`, `FakeClock`, `RecordingTracer` and friends sit at
 * the ports. Every double records what it saw. The doubles live in
 * rooms, each with a `mod.ts` this entry re-exports: `llm/` (the model
 * double), `tools/`, `ports/` (the other ports' doubles), `hooks/`, `assert/`
 * (matchers, assertions, transcripts), `cli/` (the CLI doubles), `contracts/`
 * (the port contract suites), `eval/` (the evaluation harness), `http/` (the
 * provider wire), `mcp/` (the MCP server double), `frameworks/`,
 * `cassette/` and `chaos/` (property-based testing of an agent under
 * injected faults).
 *
 * @example A scripted tool loop
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const tool = new FakeTool({ name: "lookup", responder: "42" });
 * const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "lookup", {})] }, { content: "It is 42." }]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });
 * assertEquals((await agent.run("?", makeTestCtx({ llm }))).output, "It is 42.");
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./fake_clock.ts";
export * from "./make_test_ctx.ts";
export * from "./settled.ts";
export * from "./test_sessions.ts";
export * from "./llm/mod.ts";
export * from "./tools/mod.ts";
export * from "./ports/mod.ts";
export * from "./hooks/mod.ts";
export * from "./assert/mod.ts";
export * from "./contracts/mod.ts";
export * from "./cli/mod.ts";
export * from "./eval/mod.ts";
export * from "./frameworks/mod.ts";
export * from "./cassette/mod.ts";
export * from "./http/mod.ts";
export * from "./mcp/mod.ts";
export * from "./chaos/mod.ts";
