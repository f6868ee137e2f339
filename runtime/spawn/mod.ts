/**
 * The production `SpawnPort`: `systemSpawn` starts a real process on Deno or
 * Node (whichever runs it), for the CLI cognitions. Tests give those a
 * `FakeClaudeCli` or `FakeCodexCli` instead.
 *
 * @example Nothing is spawned until a turn runs
 * ```ts
 * import { ClaudeCliCognition, systemSpawn } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const claude = new ClaudeCliCognition({ spawn: systemSpawn });
 * assertEquals(claude.name, "claude-cli");
 * await claude.close();
 * ```
 *
 * @module
 */
export * from "./system_spawn.ts";
