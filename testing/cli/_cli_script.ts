// What both CLI doubles share: the finite list of runs, the spawn record,
// pacing options, ScriptExhausted and verify().
import { z } from "zod";
import type { CliInvocation, CliRun } from "../../ports/cli.ts";
import type { SpawnedProcess, SpawnOptions } from "../../ports/spawn.ts";
import type { HarnessError } from "../../runtime/harness_error.ts";
import { SystemClock } from "../../runtime/system_clock.ts";
import { parseOrExplain } from "../_validate.ts";
import { checkOptions, is, type Rule } from "../../runtime/internal.ts";
import { InvalidScript, ScriptExhausted, UnusedTurns } from "../errors.ts";
import { FakeProcess, type LiveInvocation } from "./_fake_process.ts";
import type { FakeCliOptions } from "./fake_cli_options.ts";

export type { FakeCliOptions };

const OPTIONS: Readonly<Record<string, Rule>> = {
  repeatLast: is.boolean,
  allowUnused: is.boolean,
  lineDelayMs: is.ms,
};

const runSchema = z.strictObject({
  lines: z.array(z.union([z.string(), z.instanceof(Uint8Array)])),
  stderr: z.string().optional(),
  exitCode: z.number().int().min(0).max(255).optional(),
  exitAfterLines: z.number().int().nonnegative().optional(),
  unterminated: z.boolean().optional(),
});

const FALLBACK_CLOCK = new SystemClock();

/** Validates a double's options. */
export function parseCliOptions(options: unknown, double: string): FakeCliOptions {
  return checkOptions(`${double}()`, (options ?? {}) as FakeCliOptions, OPTIONS, {
    optional: true,
  });
}

/**
 * Validates one run: its keys, and that every string line is one JSON object
 * with a string `type` (raw `Uint8Array` lines, and the cut last line of an
 * `unterminated` run, are malformed on purpose and pass as they are).
 */
export function parseCliRun(value: unknown, where: string): CliRun {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidScript(
      `${where} must be a CliRun ({ lines, stderr?, exitCode?, exitAfterLines?, unterminated? }) or a string, got ${
        value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
      }`,
    );
  }
  const run = parseOrExplain(runSchema, value, where) as CliRun;
  run.lines.forEach((line, i) => {
    if (typeof line !== "string") return;
    if (run.unterminated && i === run.lines.length - 1) return;
    if (line.includes("\n")) {
      throw new InvalidScript(
        `line ${i + 1} of ${where} contains a newline; give each line its own entry`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new InvalidScript(
        `line ${i + 1} of ${where} is not valid JSON (${
          (error as Error).message
        }); fix it, or build a broken line on purpose with rawLine() or truncateLastLine()`,
      );
    }
    if (
      parsed === null || typeof parsed !== "object" || Array.isArray(parsed) ||
      typeof (parsed as { type?: unknown }).type !== "string"
    ) {
      throw new InvalidScript(
        `line ${
          i + 1
        } of ${where} is not a JSON object with a string "type"; every CLI line is one`,
      );
    }
  });
  if (run.exitAfterLines !== undefined && run.exitAfterLines > run.lines.length) {
    throw new InvalidScript(
      `${where}: exitAfterLines is ${run.exitAfterLines} but the run has only ${run.lines.length} line(s)`,
    );
  }
  return run;
}

/** The finite script and the record of one CLI double. */
export class CliScript {
  readonly spawns: LiveInvocation[] = [];
  readonly harnessErrors: HarnessError[] = [];
  readonly runs: readonly CliRun[];
  readonly options: FakeCliOptions;
  readonly #double: string;
  #next = 0;

  constructor(double: string, runs: readonly CliRun[], options: FakeCliOptions) {
    if (runs.length === 0) {
      throw new InvalidScript(
        `${double} needs at least one turn; a script of none would fail on the first turn`,
      );
    }
    this.#double = double;
    this.runs = runs;
    this.options = options;
  }

  /** How many turns were asked for. */
  get taken(): number {
    return this.#next;
  }

  /** The next run, or `ScriptExhausted`. */
  take(): CliRun {
    const i = this.#next++;
    if (i < this.runs.length) return this.runs[i];
    if (this.options.repeatLast) return this.runs[this.runs.length - 1];
    const error = new ScriptExhausted(this.#double, this.runs.length, i + 1);
    this.harnessErrors.push(error);
    throw error;
  }

  /** Starts a fake process and records the spawn. */
  spawn(
    argv: readonly string[],
    options: SpawnOptions = {},
    mode: "session" | "oneshot",
  ): SpawnedProcess {
    if (!Array.isArray(argv) || argv.length === 0) {
      throw new TypeError(
        `Cannot spawn: argv must be a non-empty array, got ${JSON.stringify(argv)}`,
      );
    }
    const invocation: LiveInvocation = {
      argv: [...argv],
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.env !== undefined ? { env: { ...options.env } } : {}),
      stdin: [],
      killed: false,
    };
    // A one-shot process takes its turn at spawn, so running out fails the spawn.
    const run = mode === "oneshot" ? this.take() : undefined;
    this.spawns.push(invocation);
    return new FakeProcess({
      invocation,
      clock: options.clock ?? FALLBACK_CLOCK,
      lineDelayMs: this.options.lineDelayMs ?? 0,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(run ? { run } : {}),
      ...(mode === "session" ? { onUserLine: () => this.take() } : {}),
      piped: options.stdin === "piped",
    });
  }

  /** The argv of spawn `i`. */
  argv(i: number): readonly string[] {
    const s = this.spawns[i];
    if (!s) {
      throw new RangeError(
        `${this.#double} was spawned ${this.spawns.length} time(s); there is no spawn ${i} (spawns count from 0)`,
      );
    }
    return s.argv;
  }

  /** Throws a swallowed harness error, or `UnusedTurns`. */
  verify(): void {
    const swallowed = this.harnessErrors[0];
    if (swallowed) throw swallowed;
    if (this.options.repeatLast || this.options.allowUnused) return;
    if (this.#next < this.runs.length) {
      throw new UnusedTurns(this.#double, this.runs.length, this.#next);
    }
  }
}

/** The spawn records, as the doubles expose them. */
export type Spawns = readonly CliInvocation[];
