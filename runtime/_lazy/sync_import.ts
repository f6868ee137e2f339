// A dependency loaded the first time a synchronous path needs it, instead of
// by a static import that every test file pays for at start-up (on Node 22,
// zod about 45 ms and @sinonjs/fake-timers about 35 ms of a cold start that
// is otherwise about 90 ms; on Deno fake-timers, a CommonJS package, starts
// the Node compatibility layer, about 30 ms). zod is needed only where a
// hand-written check cannot vouch for a value or a schema is built (a tool's
// parameters, an agent's output), the timer engine only once a clock waits.
//
// There is no synchronous `import()`, so this goes through `require`, which
// Node and Deno both give out through `process.getBuiltinModule`: the
// dependency's ES module entry, found with `import.meta.resolve`, is required
// as a file (`require(esm)`: Node 20.19+, 22.12+, Deno 2), so the module
// instance is the one a user's own `import` of the same file gets. Under
// Deno the package's own, fully qualified specifier is resolved first
// (`npm:zod@^4.1.0`): JSR rewrites the package's import statements to it
// at publish, but not a string given to `import.meta.resolve`, and a bare
// `zod` would resolve through the user's import map (a zod 3, or nothing).
// Where require(esm) is refused (a Node 20 before 20.19), the package's
// CommonJS entry is resolved from this module instead.

/** What the loader needs of `process` (a test passes its own). */
export interface ModuleHost {
  getBuiltinModule?(id: string): unknown;
}
type Require = (id: string) => unknown;
interface ModuleBuiltin {
  createRequire(from: string): Require;
}
interface UrlBuiltin {
  fileURLToPath(url: string): string;
}

/**
 * The npm package `qualified` names (`npm:zod@^4.1.0`, what the package's
 * deno.json maps it to), loaded now: under Deno by that specifier first,
 * then by the package's bare name, elsewhere by the bare name. `needs`
 * (what the dependency is for) leads any error.
 */
export function syncImport<T>(qualified: string, needs: string): T {
  return requireModule<T>(
    bareName(qualified),
    dependencyFile(qualified, "Deno" in globalThis, (s) => import.meta.resolve(s)),
    import.meta.url,
    needs,
    (globalThis as { process?: ModuleHost }).process,
  );
}

/** The package name in an `npm:` specifier (`npm:@scope/name@^1` → `@scope/name`). */
export function bareName(qualified: string): string {
  if (!qualified.startsWith("npm:")) return qualified;
  const name = qualified.slice(4);
  const at = name.indexOf("@", 1);
  return at === -1 ? name : name.slice(0, at);
}

/**
 * The file URL the dependency resolves to through `resolve` (an
 * `import.meta.resolve`): under Deno (`deno`) its qualified specifier
 * first, then its bare name; undefined when neither is a file.
 */
export function dependencyFile(
  qualified: string,
  deno: boolean,
  resolve: (specifier: string) => string,
): string | undefined {
  return (deno ? fileUrl(qualified, resolve) : undefined) ?? fileUrl(bareName(qualified), resolve);
}

function fileUrl(specifier: string, resolve: (specifier: string) => string): string | undefined {
  let url: string;
  try {
    url = resolve(specifier);
  } catch {
    // Not resolvable as an import here: requireModule tries require's own resolution.
    return undefined;
  }
  return url.startsWith("file:") ? url : undefined;
}

/**
 * The loader behind {@linkcode syncImport}: `resolved` is the dependency's
 * file URL as an import resolves it (undefined if none), `from` the URL
 * `require` resolves `specifier` from when that file cannot be required,
 * `host` the runtime's `process`.
 */
export function requireModule<T>(
  specifier: string,
  resolved: string | undefined,
  from: string | undefined,
  needs: string,
  host: ModuleHost | undefined,
): T {
  if (typeof host?.getBuiltinModule !== "function") {
    throw new Error(
      `${needs} needs ${specifier}, loaded on first use through process.getBuiltinModule("node:module"), which this runtime lacks; use Node 20.16 or later, or Deno 2`,
    );
  }
  const { createRequire } = host.getBuiltinModule("node:module") as ModuleBuiltin;
  let refused: unknown;
  if (resolved !== undefined) {
    const { fileURLToPath } = host.getBuiltinModule("node:url") as UrlBuiltin;
    try {
      return createRequire(resolved)(fileURLToPath(resolved)) as T;
    } catch (error) {
      if (!esmRefused(error)) throw failed(needs, specifier, resolved, error);
      refused = error;
    }
  }
  if (typeof from === "string" && from.startsWith("file:")) {
    try {
      return createRequire(from)(specifier) as T;
    } catch (error) {
      throw failed(needs, specifier, `require's resolution from ${from}`, error);
    }
  }
  throw new Error(
    `${needs} could not load ${specifier}: it resolved to ${resolved ?? "no file"}${
      refused === undefined ? "" : ` (${String(refused)})`
    }, and this module (${from}) is not a file to require it from; load the package from its installed files (not a bundle of it), on Node 20.16 or later or Deno 2`,
  );
}

function failed(needs: string, specifier: string, where: string, cause: unknown): Error {
  return new Error(`${needs} could not load ${specifier} (${where}): ${String(cause)}`, { cause });
}

// What a runtime without require(esm) throws for an ES module.
function esmRefused(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_REQUIRE_ESM";
}
