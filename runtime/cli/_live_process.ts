// A spawned CLI process as a cognition holds it: the line reader over its
// stdout, the stderr tail, and its exit, recorded without ever rejecting.
import type { CliStderr } from "../../ports/cli.ts";
import type { ClockPort } from "../../ports/clock.ts";
import type { SpawnedProcess } from "../../ports/spawn.ts";
import { rethrowIfFatal } from "../harness_error.ts";
import { CliTurnError } from "./cli_turn_error.ts";
import { JsonlReader } from "./_jsonl_reader.ts";
import { StderrTail } from "./_stderr_tail.ts";
import type { CliSetup } from "./_options.ts";

/** One running CLI process. */
export interface LiveProcess {
  readonly argv: readonly string[];
  readonly proc: SpawnedProcess;
  readonly lines: JsonlReader;
  readonly stderr: StderrTail;
  readonly writer?: WritableStreamDefaultWriter<Uint8Array>;
  /** Settles (never rejects) once the process has exited. */
  readonly settled: Promise<void>;
  exitCode?: number;
  exitError?: unknown;
  /** True once it must not serve another turn (killed, ended, or poisoned). */
  dead: boolean;
}

/** Spawns, wrapping a failure to start in a `CliTurnError` (harness errors escape as they are). */
export function startProcess(
  setup: CliSetup,
  argv: readonly string[],
  stdin: "piped" | "null",
  clock: ClockPort,
): LiveProcess {
  let proc: SpawnedProcess;
  try {
    proc = setup.spawn(argv, {
      stdin,
      clock,
      ...(setup.cwd !== undefined ? { cwd: setup.cwd } : {}),
      ...(setup.env !== undefined ? { env: setup.env } : {}),
    });
  } catch (error) {
    rethrowIfFatal(error);
    throw spawnFailure(setup.binary, error);
  }
  const live: LiveProcess = {
    argv,
    proc,
    lines: new JsonlReader(proc.stdout),
    stderr: new StderrTail(proc.stderr),
    writer: proc.stdin?.getWriter(),
    settled: proc.exited.then(
      (r) => {
        live.exitCode = r.code;
      },
      (e) => {
        live.exitError = e;
      },
    ),
    dead: false,
  };
  return live;
}

/** The error for a program that could not be started. */
export function spawnFailure(binary: string, error: unknown): CliTurnError {
  return new CliTurnError(
    `Cannot start ${JSON.stringify(binary)}: ${
      (error as Error)?.message ?? String(error)
    }; check that it is installed and on PATH (or pass { binary }), and under Deno that --allow-run allows it`,
    { failure: "spawn", binary, cause: error },
  );
}

/** Kills the process and stops reading it. */
export function killProcess(live: LiveProcess): void {
  live.dead = true;
  try {
    live.proc.kill();
  } catch {
    // A process that is already gone cannot be killed twice.
  }
  live.lines.cancel();
}

/** Waits for the exit and the rest of stderr; returns what stderr held. */
export async function endProcess(live: LiveProcess): Promise<CliStderr> {
  live.dead = true;
  live.writer?.close().catch(() => {});
  await live.settled;
  await live.stderr.done;
  if (!live.lines.ended) live.lines.cancel();
  return live.stderr.snapshot(live.exitCode);
}
