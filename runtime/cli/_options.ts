// A CLI cognition's options, checked once in its constructor (no zod in the
// runtime's hot path), and the setup they give: how to start the process.
import type { Spawner, SpawnPort } from "../../ports/spawn.ts";
import { checkOptions, describe, is, type Rule } from "../_options.ts";

/** Options for {@linkcode CodexCliCognition} and {@linkcode CodexCliSession}. */
export interface CodexCliOptions {
  /** Starts the process: `systemSpawn` for the real binary, or a `FakeCodexCli`. */
  readonly spawn: SpawnPort | Spawner;
  /**
   * The program to run.
   * @default {"codex"}
   */
  readonly binary?: string;
  /**
   * Extra arguments, right after `exec` (`["--skip-git-repo-check", "-m", "gpt-5"]`).
   * @default {[]}
   */
  readonly args?: readonly string[];
  /**
   * The working directory of the process.
   * @default {the parent's}
   */
  readonly cwd?: string;
  /**
   * Variables set on top of the parent's environment.
   * @default {none}
   */
  readonly env?: Readonly<Record<string, string>>;
}

/** How to start a CLI: its checked options, with the defaults filled in. */
export interface CliSetup {
  readonly spawn: SpawnPort;
  readonly binary: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

// The options every CLI cognition takes; ClaudeCliOptions adds `model`.
const COMMON: Readonly<Record<string, Rule>> = {
  spawn: is.any,
  binary: is.text,
  args: is.arrayOf(is.string),
  cwd: is.text,
  env: is.recordOf(is.string),
};

/**
 * Validates the options (`extra` adds the cognition's own: every CLI
 * cognition's options have {@linkcode CodexCliOptions}' shape) and returns
 * the setup, running `binary` unless they name another.
 */
export function cliSetup(
  where: string,
  options: CodexCliOptions,
  binary: string,
  extra: Readonly<Record<string, Rule>> = {},
): CliSetup {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`${where} takes an options object with spawn, got ${describe(options)}`);
  }
  checkOptions(where, options, { ...COMMON, ...extra });
  const s = options.spawn as unknown;
  let spawn: SpawnPort | undefined;
  if (typeof s === "function") spawn = s as SpawnPort;
  else if (s !== null && typeof s === "object" && typeof (s as Spawner).spawn === "function") {
    const host = s as Spawner;
    spawn = (argv, o) => host.spawn(argv, o);
  }
  if (!spawn) {
    throw new TypeError(
      `${where} needs spawn${
        s === undefined ? "" : ` (got ${describe(s)})`
      }: pass { spawn: systemSpawn } for the real binary, or a double such as { spawn: FakeClaudeCli.script([...]) }`,
    );
  }
  return {
    spawn,
    binary: options.binary ?? binary,
    args: [...(options.args ?? [])],
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
  };
}
