// Lives in spawn/ beside the Node spawn adapter, its first user.
// A node: built-in module, loaded when a synchronous path first needs it
// rather than by a static import: under Deno a static node: import (fs,
// process, child_process, stream) starts its Node compatibility layer in
// every test file that loads the package, about 20 ms of a cold start,
// though most tests never spawn a process or touch a file. Async paths use
// `await import("node:...")` instead.

interface BuiltinHost {
  process?: { getBuiltinModule?(id: string): unknown };
}

/**
 * The built-in `id` (e.g. `"node:fs"`), through `process.getBuiltinModule`
 * (Node 20.16+, 22.3+; Deno 2).
 */
export function builtin<T>(id: string, needs: string): T {
  const host = (globalThis as BuiltinHost).process;
  const module = typeof host?.getBuiltinModule === "function"
    ? host.getBuiltinModule(id)
    : undefined;
  if (module === undefined) {
    throw new Error(
      `${needs} needs ${id}, loaded through process.getBuiltinModule, which this runtime lacks; use Node 20.16 or later (or Deno 2)`,
    );
  }
  return module as T;
}
