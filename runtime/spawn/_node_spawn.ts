// The Node adapter of the spawn seam, on node:child_process (loaded on first
// spawn, see ./_builtin.ts; Deno spawns through Deno.Command instead).
import type * as ChildProcess from "node:child_process";
import type * as Stream from "node:stream";
import { builtin } from "./_builtin.ts";
import type { SpawnedProcess, SpawnExit, SpawnOptions } from "../../ports/spawn.ts";

const SIGNALS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGKILL: 9,
  SIGTERM: 15,
};

/** Spawns through `node:child_process`. */
export function nodeSpawn(argv: readonly string[], options: SpawnOptions = {}): SpawnedProcess {
  const { spawn } = builtin<typeof ChildProcess>("node:child_process", "systemSpawn");
  const { Readable, Writable } = builtin<typeof Stream>("node:stream", "systemSpawn");
  const piped = options.stdin === "piped";
  const env = options.env === undefined ? undefined : {
    ...(globalThis as unknown as { process: { env: Record<string, string> } }).process.env,
    ...options.env,
  };
  const child = spawn(argv[0], argv.slice(1), {
    stdio: [piped ? "pipe" : "ignore", "pipe", "pipe"],
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(env !== undefined ? { env } : {}),
  });
  let done = false;
  const exited = new Promise<SpawnExit>((resolve, reject) => {
    child.once("error", (error: Error) => {
      // Only a failure to start rejects; a later error is followed by "close".
      if (child.pid === undefined) {
        done = true;
        reject(error);
      }
    });
    child.once("close", (code: number | null, signal: string | null) => {
      done = true;
      resolve({ code: code ?? (signal ? 128 + (SIGNALS[signal] ?? 0) : 1) });
    });
  });
  const kill = (): void => {
    if (done) return;
    child.kill("SIGTERM");
  };
  const signal = options.signal;
  if (signal) {
    if (signal.aborted) kill();
    else {
      signal.addEventListener("abort", kill, { once: true });
      exited.then(() => signal.removeEventListener("abort", kill), () => {});
    }
  }
  return {
    stdout: Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
    stderr: Readable.toWeb(child.stderr!) as unknown as ReadableStream<Uint8Array>,
    ...(piped ? { stdin: Writable.toWeb(child.stdin!) as WritableStream<Uint8Array> } : {}),
    exited,
    kill,
  };
}
