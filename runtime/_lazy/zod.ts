// zod, loaded on first use (./sync_import.ts says why). Every module of the
// package that builds a schema gets zod here; none imports it statically.
import type { z as Zod } from "zod";
import { syncImport } from "./sync_import.ts";

/** The `z` namespace of zod. */
export type ZodNamespace = typeof Zod;
/** zod's module. */
export type ZodModule = typeof import("zod");

let loaded: ZodNamespace | undefined;

/** What deno.json maps `zod` to (a test keeps the two the same). */
export const ZOD_SPECIFIER = "npm:zod@^4.1.0";

/** zod's `z`, loaded the first time a schema is needed. */
export function zod(): ZodNamespace {
  return loaded ??= syncImport<{ z: ZodNamespace }>(ZOD_SPECIFIER, "a zod schema").z;
}

/**
 * zod through a dynamic import, for asynchronous paths. The literal
 * `import("zod")` is also what keeps zod in Deno's module graph, so a JSR
 * install downloads it though nothing imports it statically.
 */
export function importZod(): Promise<ZodModule> {
  return import("zod");
}

/**
 * Forgets the loaded zod, so the next {@linkcode zod} call loads it again
 * (the same module: `require` keeps its own cache). For tests of the loader.
 */
export function forgetZod(): void {
  loaded = undefined;
}
