// Runtime-neutral access to the working directory, environment and files,
// through node: modules that Deno and Node both provide.
import { readFile } from "node:fs/promises";
import process from "node:process";
import { pathToFileURL } from "node:url";

/** The working directory as a file URL ending in "/". */
export function cwdUrl(): URL {
  const url = pathToFileURL(process.cwd());
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** An environment variable; `undefined` when unset or not readable. */
export function env(name: string): string | undefined {
  try {
    return process.env[name];
  } catch {
    return undefined; // no permission to read it: treat as unset
  }
}

/** A file's text; `undefined` when it does not exist. */
export async function readTextIfExists(url: URL): Promise<string | undefined> {
  try {
    return await readFile(url, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Resolves a path or specifier against a base directory URL. */
export function resolveSpecifier(spec: string, base: URL): URL | string {
  if (spec.startsWith("/") || /^[a-z]:[\\/]/i.test(spec)) return pathToFileURL(spec);
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return spec; // file:, npm:, jsr:, https:
  return new URL(spec, base);
}
