// Build-time checks of a CLI cognition's options (no zod in the runtime's
// hot path; these run once, in the constructor).
import type { Spawner, SpawnPort } from "../../ports/spawn.ts";
import { checkOptions, describe, is, type Rule } from "../_options.ts";

/** The options every CLI cognition takes. */
export interface CommonCliOptions {
  readonly spawn: SpawnPort | Spawner;
  readonly binary?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

const COMMON: Readonly<Record<string, Rule>> = {
  spawn: is.any,
  binary: is.text,
  args: is.arrayOf(is.string),
  cwd: is.text,
  env: is.recordOf(is.string),
};

/** Validates the options (`extra` adds the cognition's own); returns the spawn function. */
export function checkCliOptions(
  where: string,
  options: CommonCliOptions,
  extra: Readonly<Record<string, Rule>> = {},
): SpawnPort {
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
  return spawn;
}
