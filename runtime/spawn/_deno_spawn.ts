// The Deno adapter of the spawn seam, on Deno.Command.
import type { SpawnedProcess, SpawnExit, SpawnOptions } from "../../ports/spawn.ts";

// Only the parts of the Deno namespace this adapter uses, so the file type
// checks in a build that has no Deno types.
interface DenoChild {
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ code: number; signal: string | null }>;
  kill(signal?: string): void;
}
interface DenoCommandCtor {
  new (command: string, options: Record<string, unknown>): { spawn(): DenoChild };
}

/** Spawns through `Deno.Command`. */
export function denoSpawn(argv: readonly string[], options: SpawnOptions = {}): SpawnedProcess {
  const Command = (globalThis as unknown as { Deno: { Command: DenoCommandCtor } }).Deno.Command;
  const piped = options.stdin === "piped";
  const child = new Command(argv[0], {
    args: argv.slice(1),
    stdin: piped ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.env !== undefined ? { env: { ...options.env } } : {}),
  }).spawn();
  let done = false;
  const exited: Promise<SpawnExit> = child.status.then((s) => {
    done = true;
    return { code: s.code };
  });
  const kill = (): void => {
    if (done) return;
    try {
      child.kill("SIGTERM");
    } catch {
      // Already gone: killing an exited process is a no-op here.
    }
  };
  const signal = options.signal;
  if (signal) {
    if (signal.aborted) kill();
    else {
      signal.addEventListener("abort", kill, { once: true });
      exited.then(() => signal.removeEventListener("abort", kill));
    }
  }
  return {
    stdout: child.stdout,
    stderr: child.stderr,
    ...(piped ? { stdin: child.stdin } : {}),
    exited,
    kill,
  };
}
