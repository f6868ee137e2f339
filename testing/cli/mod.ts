/**
 * The CLI doubles: `FakeClaudeCli` and `FakeCodexCli` stand in for the
 * `claude` and `codex` binaries at the spawn seam, so the real CLI
 * cognitions parse, charge and map what a scripted process prints. The turn
 * builders (`claudeTurn`, `codexTurn`) write the events the CLIs write, and
 * the malformed builders bend them on purpose.
 *
 * @example A scripted codex turn through the real cognition
 * ```ts
 * import { Agent, CodexCliCognition } from "@agentkit/testing/runtime";
 * import { codexTurn, FakeCodexCli, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * using cli = FakeCodexCli.script(codexTurn({ text: "done", usage: [120, 20, 8] }));
 * const agent = new Agent("a", { model: "fake-model", cognition: new CodexCliCognition({ spawn: cli }) });
 * const result = await agent.run("fix the test", makeTestCtx());
 * assertEquals([result.output, result.usage.inputTokens], ["done", 100]);
 * ```
 *
 * @module
 */
export * from "./claude_turn.ts";
export * from "./codex_turn.ts";
export * from "./cli_malformed.ts";
export * from "./fake_cli_options.ts";
export * from "./fake_cli.ts";
export * from "./fake_claude_cli.ts";
export * from "./fake_codex_cli.ts";
