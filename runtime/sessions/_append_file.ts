// The file adapter of JsonlSession: an append handle held open. On Deno it is
// a Deno.FsFile, so Deno's resource sanitizer reports a session a test forgot
// to close (node:fs handles are plain fds it does not track); elsewhere it is
// a node:fs/promises FileHandle, imported on first use: a static node:
// import would start Deno's Node layer in every test file that loads the
// package (about 20 ms of its cold start), sessions or not.
import type { FileHandle } from "node:fs/promises";

/** An open append handle. */
export interface AppendFile {
  /** Writes all of `text`; resolves when the write has completed. */
  write(text: string): Promise<void>;
  /** Asks the OS to put what was written on disk. */
  datasync(): Promise<void>;
  /** Releases the handle. */
  close(): Promise<void>;
}

// Only the parts of the Deno namespace used here, so the file type checks in
// a build that has no Deno types.
interface DenoFile {
  write(bytes: Uint8Array): Promise<number>;
  syncData(): Promise<void>;
  close(): void;
}
interface DenoFs {
  open(
    path: string,
    options: { write: boolean; append: boolean; create?: boolean; createNew?: boolean },
  ): Promise<DenoFile>;
}

const deno = (globalThis as unknown as { Deno?: DenoFs }).Deno;
const encoder = new TextEncoder();

/**
 * Opens `path` for appending: `"create"` makes a new file (failing with code
 * `EEXIST` when it exists), `"append"` opens an existing one.
 */
export async function openAppend(path: string, mode: "create" | "append"): Promise<AppendFile> {
  if (typeof deno?.open === "function") {
    // Deno's file errors carry node's code (EEXIST for a file that exists).
    const file: DenoFile = await deno.open(path, {
      write: true,
      append: true,
      ...(mode === "create" ? { createNew: true } : { create: false }),
    });
    return {
      async write(text) {
        const bytes = encoder.encode(text);
        for (let n = 0; n < bytes.length;) n += await file.write(bytes.subarray(n));
      },
      datasync: () => file.syncData(),
      close: () => Promise.resolve(file.close()),
    };
  }
  // "a" would create a missing file; an existing one is opened by flags.
  const fs = await import("node:fs/promises");
  const { O_APPEND, O_WRONLY } = fs.constants;
  const handle: FileHandle = await fs.open(path, mode === "create" ? "wx" : O_WRONLY | O_APPEND);
  return {
    async write(text) {
      await handle.write(text);
    },
    datasync: () => handle.datasync(),
    close: () => handle.close(),
  };
}

/** Reads a whole file as UTF-8. */
export async function readText(path: string): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  return readFile(path, "utf8");
}
