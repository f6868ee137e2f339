/**
 * Cognitions that drive a command-line agent (`claude`, `codex`) through the
 * `SpawnPort`: `ClaudeCliCognition`, `CodexCliCognition` and
 * `CodexCliSession` parse its JSON-lines output, charge its reported cost and
 * classify its failures as `CliTurnError`s.
 *
 * @example A scripted `claude` session, billed for real
 * ```ts
 * import { Agent, Budget, ClaudeCliCognition } from "@agentkit/testing/runtime";
 * import { claudeTurn, FakeClaudeCli, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const cli = FakeClaudeCli.script([claudeTurn({ text: "Done.", costUsd: 0.01 })]);
 * await using claude = new ClaudeCliCognition({ spawn: cli });
 * const budget = new Budget({ maxCostUsd: "1.00" });
 * const agent = new Agent("coder", { model: "fake-model", cognition: claude });
 * assertEquals((await agent.run("Fix it", makeTestCtx({ budget }))).output, "Done.");
 * assertEquals(budget.spent(), "0.010000");
 * ```
 *
 * @module
 */
export * from "./cli_turn_error.ts";
export * from "./claude_cli_cognition.ts";
export * from "./codex_cli_cognition.ts";
export * from "./codex_cli_session.ts";
