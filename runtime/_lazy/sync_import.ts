// A dependency loaded the first time a synchronous path needs it, instead of
// by a static import that every test file pays for at start-up (on Node 22,
// zod about 45 ms and @sinonjs/fake-timers about 35 ms of a cold start that
// is otherwise about 90 ms; on Deno fake-timers, a CommonJS package, starts
// the Node compatibility layer, about 30 ms). A plain agent run needs
// neither: zod only where a hand-written check cannot vouch for a value, the
// timer engine only once a clock waits.
//
// There is no synchronous `import()`, so this goes through `require`, which
// Node and Deno both give out through `process.getBuiltinModule`: the
// dependency's ESM entry (`import.meta.resolve`, what a static import would
// have loaded, so the module instance is the one the user's own `import`
// gets) is required as a file (`require(esm)`: Node 20.19+, 22.12+, Deno 2).
// Where that is refused (an older Node 20), the package's CommonJS entry is
// resolved from the importing module instead.

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
 * The module `specifier` names, loaded now, resolved as a static import of
 * it in this package would be; `needs` (what it is for) leads the error
 * when nothing can load it.
 */
export function syncImport<T>(specifier: string, needs: string): T {
  return requireModule<T>(
    specifier,
    resolvedUrl(specifier),
    import.meta.url,
    needs,
    (globalThis as { process?: ModuleHost }).process,
  );
}

function resolvedUrl(specifier: string): string | undefined {
  try {
    return import.meta.resolve(specifier);
  } catch {
    // Not resolvable as an import here: requireModule tries require's own resolution.
  }
  return undefined;
}

/**
 * The loader behind {@linkcode syncImport}: `resolved` is what
 * `import.meta.resolve` gave (undefined if it failed), `from` the URL to
 * resolve `specifier` from with `require` when the resolved file cannot be
 * required, `host` the runtime's `process`.
 */
export function requireModule<T>(
  specifier: string,
  resolved: string | undefined,
  from: string,
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
  if (resolved?.startsWith("file:")) {
    const { fileURLToPath } = host.getBuiltinModule("node:url") as UrlBuiltin;
    try {
      return createRequire(resolved)(fileURLToPath(resolved)) as T;
    } catch (error) {
      if (!esmRefused(error)) throw error;
      refused = error;
    }
  }
  if (from.startsWith("file:")) return createRequire(from)(specifier) as T;
  throw new Error(
    `${needs} could not load ${specifier}: it resolved to ${
      resolved ?? "nothing"
    } from ${from}, and neither is a file require() can load${
      refused === undefined ? "" : ` (${String(refused)})`
    }; import ${specifier} once before this call, or report the runtime you use`,
  );
}

// What a runtime without require(esm) throws for an ES module.
function esmRefused(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_REQUIRE_ESM";
}
