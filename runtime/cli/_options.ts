// Build-time checks of a CLI cognition's options (no zod in the runtime's
// hot path; these run once, in the constructor).
import type { Spawner, SpawnPort } from "../../ports/spawn.ts";
import { editDistance } from "../errors.ts";

/** The options every CLI cognition takes. */
export interface CommonCliOptions {
  readonly spawn: SpawnPort | Spawner;
  readonly binary?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

const COMMON = ["spawn", "binary", "args", "cwd", "env"];

/** Validates the options; returns the spawn function. */
export function checkCliOptions(
  where: string,
  options: CommonCliOptions,
  extra: readonly string[] = [],
): SpawnPort {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`Cannot build ${where}: pass an options object with spawn`);
  }
  const known = [...COMMON, ...extra];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const near = known.find((k) => k.toLowerCase() === key.toLowerCase()) ??
        known.find((k) => editDistance(k, key) <= 2);
      throw new TypeError(
        `Cannot build ${where}: unknown option "${key}"${near ? `; did you mean "${near}"?` : ""}`,
      );
    }
  }
  const s = options.spawn as unknown;
  let spawn: SpawnPort | undefined;
  if (typeof s === "function") spawn = s as SpawnPort;
  else if (s !== null && typeof s === "object" && typeof (s as Spawner).spawn === "function") {
    const host = s as Spawner;
    spawn = (argv, o) => host.spawn(argv, o);
  }
  if (!spawn) {
    throw new TypeError(
      `Cannot build ${where} without spawn: pass { spawn: systemSpawn } for the real binary, or a double such as { spawn: FakeClaudeCli.script([...]) }`,
    );
  }
  for (const key of ["binary", "cwd"] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== "string" || !v)) {
      throw new TypeError(
        `Cannot build ${where}: ${key} must be a non-empty string, got ${JSON.stringify(v)}`,
      );
    }
  }
  if (
    options.args !== undefined &&
    (!Array.isArray(options.args) || options.args.some((a) => typeof a !== "string"))
  ) {
    throw new TypeError(
      `Cannot build ${where}: args must be an array of strings, got ${
        JSON.stringify(options.args)
      }`,
    );
  }
  if (
    options.env !== undefined &&
    (options.env === null || typeof options.env !== "object" ||
      Object.values(options.env).some((v) => typeof v !== "string"))
  ) {
    throw new TypeError(`Cannot build ${where}: env must map names to string values`);
  }
  return spawn;
}
