// Runtime-neutral access to the working directory, environment and files.
// No static node: import: under Deno one would start its Node layer in every
// test file that loads the package (runtime/spawn/_builtin.ts); these are loaded
// when a harness first needs them.
import type * as Url from "node:url";
import { builtin } from "../runtime/internal.ts";

interface Host {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined>; cwd(): string };
}

function url(): typeof Url {
  return builtin<typeof Url>("node:url", "The eval harness");
}

/** The working directory as a file URL ending in "/". */
export function cwdUrl(): URL {
  const host = globalThis as Host;
  const href = url().pathToFileURL(host.process!.cwd());
  if (!href.pathname.endsWith("/")) href.pathname += "/";
  return href;
}

/** An environment variable; `undefined` when unset or not readable. */
export function env(name: string): string | undefined {
  const host = globalThis as Host;
  try {
    // Deno.env first: reading globalThis.process would start the Node layer.
    return host.Deno ? host.Deno.env.get(name) : host.process?.env[name];
  } catch {
    return undefined; // no permission to read it: treat as unset
  }
}

/** A file's text; `undefined` when it does not exist. */
export async function readTextIfExists(url: URL): Promise<string | undefined> {
  const { readFile } = await import("node:fs/promises");
  try {
    return await readFile(url, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Resolves a path or specifier against a base directory URL. */
export function resolveSpecifier(spec: string, base: URL): URL | string {
  if (spec.startsWith("/") || /^[a-z]:[\\/]/i.test(spec)) return url().pathToFileURL(spec);
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return spec; // file:, npm:, jsr:, https:
  return new URL(spec, base);
}
