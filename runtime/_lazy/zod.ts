// zod, loaded on first use (./sync_import.ts says why). Every module of the
// package that builds a schema gets zod here; none imports it statically.
import type { z as Zod } from "zod";
import { syncImport } from "./sync_import.ts";

/** The `z` namespace of zod. */
export type ZodNamespace = typeof Zod;

let loaded: ZodNamespace | undefined;

/** zod's `z`, loaded the first time a schema is needed. */
export function zod(): ZodNamespace {
  return loaded ??=
    syncImport<{ z: ZodNamespace }>("zod", resolve(), import.meta.url, "a zod schema")
      .z;
}

/**
 * zod's `z` through a dynamic import, for asynchronous paths (no `require`).
 * The literal `import("zod")` is also what keeps zod in Deno's module graph,
 * so a JSR install downloads it though nothing imports it statically.
 */
export async function loadZod(): Promise<ZodNamespace> {
  return loaded ??= (await import("zod")).z;
}

function resolve(): string | undefined {
  try {
    return import.meta.resolve("zod");
  } catch {
    return undefined;
  }
}
