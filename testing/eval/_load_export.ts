// Loads "path/to/module.ts#ExportName" (default export without "#"): how
// agentkit.test.json names a custom evaluator or a judge.
import { resolveSpecifier } from "../_env.ts";

export async function loadExport(spec: string, base: URL, what: string): Promise<unknown> {
  const hash = spec.lastIndexOf("#");
  const path = hash >= 0 ? spec.slice(0, hash) : spec;
  const name = hash >= 0 ? spec.slice(hash + 1) : "default";
  if (!path || !name) {
    throw new TypeError(
      `Cannot load the ${what} "${spec}": write it as "./module.ts#ExportName"`,
    );
  }
  const target = resolveSpecifier(path, base);
  let mod: Record<string, unknown>;
  try {
    mod = await import(target.toString());
  } catch (error) {
    throw new TypeError(
      `Cannot load the ${what} "${spec}": importing ${target} failed (${
        (error as Error).message
      }); relative paths resolve against the config file's folder, or the working directory`,
      { cause: error },
    );
  }
  if (!(name in mod)) {
    throw new TypeError(
      `Cannot load the ${what} "${spec}": ${target} has no export "${name}"; it exports ${
        Object.keys(mod).map((k) => `"${k}"`).join(", ") || "nothing"
      }`,
    );
  }
  return mod[name];
}
