/**
 * The real spawn adapter: `Deno.Command` under Deno, `node:child_process`
 * under Node, chosen when called.
 *
 * @module
 */
import type { SpawnedProcess, SpawnOptions, SpawnPort } from "../../ports/spawn.ts";
import { denoSpawn } from "./_deno_spawn.ts";
import { nodeSpawn } from "./_node_spawn.ts";

/**
 * Starts a real process: through `Deno.Command` when `globalThis.Deno` is
 * present, through `node:child_process` otherwise. stdout and stderr are
 * always piped; stdin is piped only with `{ stdin: "piped" }`. Under Deno the
 * caller needs `--allow-run` for the program. Read both streams (or cancel
 * them) and await `exited`, or the process's resources stay open.
 *
 * @param argv The program, then its arguments.
 * @param options stdin, env, cwd, signal.
 * @returns The running process.
 * @throws When the program cannot be started (under Deno: at once; under
 *   Node: `exited` rejects).
 *
 * @example The production wiring of a CLI cognition
 * ```ts
 * import { ClaudeCliCognition, systemSpawn } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const claude = new ClaudeCliCognition({ spawn: systemSpawn, model: "claude-sonnet-4-5" });
 * assertEquals(claude.name, "claude-cli");
 * await claude.close(); // nothing was spawned yet, so nothing to end
 * ```
 */
export const systemSpawn: SpawnPort = (
  argv: readonly string[],
  options?: SpawnOptions,
): SpawnedProcess => {
  if (!Array.isArray(argv) || argv.length === 0 || typeof argv[0] !== "string" || !argv[0]) {
    throw new TypeError(
      `Cannot spawn: argv must be a non-empty array whose first item is the program, got ${
        JSON.stringify(argv)
      }`,
    );
  }
  return "Deno" in globalThis ? denoSpawn(argv, options) : nodeSpawn(argv, options);
};
