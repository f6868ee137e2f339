// Which AI SDK (`ai`) the test's project has installed, read from its
// package.json the way Node resolves `ai` from the working directory
// (`process.getBuiltinModule("module").createRequire`, which Node 20.16+,
// Bun and Deno's Node compatibility all have). Reading a package.json is not
// importing the SDK: this package still takes no dependency on `ai`. Nothing
// found (no node_modules, as under Deno's npm: specifiers, or no `ai`) is
// `undefined`, and aiSdkModel() keeps its default.

/** The installed `ai`: its version and where its package.json is. */
export interface InstalledAi {
  readonly version: string;
  readonly major: number;
  readonly at: string;
}

type FsApi = { readFileSync(path: string, encoding: "utf8"): string };

type ModuleApi = {
  createRequire(from: string): { resolve(id: string): string };
};

/** Finds `ai`'s package.json from a directory: its parsed version and path. */
export type AiLoader = (from: string) => { readonly version: unknown; readonly at: string };

// Node's resolution from `from` (Deno's Node compatibility resolves through
// the project's import map, so `"ai": "npm:ai@6..."` in deno.json is found).
const nodeLoader: AiLoader = (from) => {
  const process = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } })
    .process;
  const module = process?.getBuiltinModule?.("module") as ModuleApi | undefined;
  if (!module) throw new Error("no Node module API");
  const require = module.createRequire(`${from.replace(/\/$/, "")}/`);
  const at = require.resolve("ai/package.json");
  // Read as a file, not require()d: a require of a computed path is a
  // dynamic import JSR cannot analyse at publish.
  const fs = process!.getBuiltinModule!("fs") as FsApi;
  return {
    version: (JSON.parse(fs.readFileSync(at, "utf8")) as { version?: unknown }).version,
    at,
  };
};

let loader: AiLoader = nodeLoader;
const cache = new Map<string, InstalledAi | undefined>();

/** Replaces the loader (tests); returns what puts the real one back. */
export function useAiLoader(next: AiLoader): () => void {
  loader = next;
  cache.clear();
  return () => {
    loader = nodeLoader;
    cache.clear();
  };
}

/** The `ai` package resolvable from `dir` (the working directory by default). */
export function installedAi(dir?: string): InstalledAi | undefined {
  if (!mayRead()) return undefined;
  let from = dir;
  try {
    from ??= (globalThis as { process?: { cwd?(): string } }).process?.cwd?.();
  } catch {
    return undefined;
  }
  if (from === undefined) return undefined;
  if (cache.has(from)) return cache.get(from);
  let found: InstalledAi | undefined;
  try {
    const { version, at } = loader(from);
    const major = typeof version === "string" ? Number(/^(\d+)\./.exec(version)?.[1]) : NaN;
    if (typeof version === "string" && Number.isInteger(major)) found = { version, major, at };
  } catch {
    // Not installed, or no Node module API here: nothing to say.
  }
  cache.set(from, found);
  return found;
}

/**
 * The specification version an `ai` major takes: 7 "v4", 6 "v3"; "none" for
 * 5 and older (specification "v2", which aiSdkModel does not implement);
 * `undefined` for a later major, which this package cannot know yet.
 */
export function specFor(major: number): "v4" | "v3" | "none" | undefined {
  if (major === 7) return "v4";
  if (major === 6) return "v3";
  return major < 6 ? "none" : undefined;
}

// Under Deno, reading the working directory and node_modules needs read
// permission: without it, the check is skipped rather than prompting.
function mayRead(): boolean {
  const deno = (globalThis as {
    Deno?: { permissions?: { querySync?(d: { name: "read" }): { state: string } } };
  }).Deno;
  if (deno?.permissions?.querySync === undefined) return true;
  try {
    return deno.permissions.querySync({ name: "read" }).state === "granted";
  } catch {
    return false;
  }
}
