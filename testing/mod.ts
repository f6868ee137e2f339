/**
 * The doubles and the test context: `makeTestCtx` builds the real runtime,
 * and `FakeLLM`, `FakeTool`, `FakeClock`, `RecordingTracer` and friends sit at
 * the ports. Every double records what it saw. The sub-products live in
 * rooms of their own, each with a `mod.ts` this entry re-exports: `cli/`
 * (the CLI doubles), `contracts/` (the port contract suites), `eval/` (the
 * evaluation harness), `http/` (the provider wire), `frameworks/` and
 * `cassette/`.
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
export * from "./turn.ts";
export * from "./fake_llm.ts";
export * from "./fake_tool.ts";
export * from "./fake_clock.ts";
export * from "./recording_tracer.ts";
export * from "./make_test_ctx.ts";
export * from "./fake_search.ts";
export * from "./fake_fetch.ts";
export * from "./fake_memory.ts";
export * from "./fake_grounder.ts";
export * from "./fake_compactor.ts";
export * from "./fake_ctx.ts";
export * from "./fake_asker.ts";
export * from "./fake_embedder.ts";
export * from "./contracts/mod.ts";
export * from "./scripted_provider.ts";
export * from "./settled.ts";
export * from "./test_sessions.ts";
export * from "./cli/mod.ts";
export * from "./recording_hook.ts";
export * from "./halting_hook.ts";
export * from "./assertion_error.ts";
export * from "./eval/mod.ts";
export * from "./transcript.ts";
export * from "./agent_matchers.ts";
export * from "./agent_assertions.ts";
export * from "./frameworks/mod.ts";
export * from "./cassette/mod.ts";
export * from "./http/mod.ts";
