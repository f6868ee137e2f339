/**
 * Value types shared by the CLI cognitions and their doubles: what a process
 * wrote (`CliRun`), how it was started (`CliInvocation`), and what a failed
 * one left on stderr (`CliStderr`).
 *
 * @module
 */

/**
 * What one CLI process (or one turn of a long-lived one) writes: its stdout
 * lines, its stderr text, and how it ends. A recorded spawn is a recorded
 * spawn whichever binary produced it.
 *
 * Each entry of `lines` is one stdout line; the newline is added. A string is
 * written as UTF-8; a `Uint8Array` is written byte for byte, which is how a
 * line that is not valid UTF-8 is expressed.
 *
 * @example A codex turn that dies after two lines
 * ```ts
 * import type { CliRun } from "@agentkit/testing/ports";
 *
 * const run: CliRun = {
 *   lines: [
 *     '{"type":"thread.started","thread_id":"t-1"}',
 *     '{"type":"turn.started"}',
 *     '{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":1}}',
 *   ],
 *   exitAfterLines: 2,
 *   exitCode: 1,
 *   stderr: "panic: connection reset",
 * };
 * ```
 */
export interface CliRun {
  /** The stdout lines, in order (a newline follows each). */
  readonly lines: readonly (string | Uint8Array)[];
  /**
   * What the process writes to stderr.
   * @default {""}
   */
  readonly stderr?: string;
  /**
   * The exit code. On a long-lived process (claude) a run that sets it,
   * `exitAfterLines` or `unterminated` is the process's last.
   * @default {0}
   */
  readonly exitCode?: number;
  /**
   * The process exits after writing this many lines; the rest are never
   * written (a crash partway).
   * @default {every line}
   */
  readonly exitAfterLines?: number;
  /**
   * The last line written goes out without its newline, as when the process
   * died mid-write; the process then exits (with `exitCode`), since a reader
   * only learns that a line was cut when the output ends.
   * @default {false}
   */
  readonly unterminated?: boolean;
}

/**
 * One spawn as a double saw it. The double updates `stdin`, `killed` and
 * `exitCode` while the process runs.
 *
 * @example
 * ```ts
 * import type { CliInvocation } from "@agentkit/testing/ports";
 *
 * const spawn: CliInvocation = {
 *   argv: ["codex", "exec", "resume", "t-1", "--json", "next"],
 *   stdin: [],
 *   killed: false,
 *   exitCode: 0,
 * };
 * ```
 */
export interface CliInvocation {
  /** The program and its arguments. */
  readonly argv: readonly string[];
  /** The working directory asked for. */
  readonly cwd?: string;
  /** The extra environment asked for. */
  readonly env?: Readonly<Record<string, string>>;
  /** Every line written to stdin, in order (claude's user turns). */
  readonly stdin: readonly string[];
  /** Whether the process was killed. */
  readonly killed: boolean;
  /** The exit code, once the process has exited. */
  readonly exitCode?: number;
}

/**
 * What a CLI process left behind when a turn went wrong: its exit code and
 * the tail of its stderr, decoded leniently (bytes that are not UTF-8 become
 * U+FFFD).
 *
 * @example
 * ```ts
 * import type { CliStderr } from "@agentkit/testing/ports";
 *
 * const left: CliStderr = { text: "Error: not logged in\n", truncated: false, exitCode: 1 };
 * ```
 */
export interface CliStderr {
  /** The stderr text (its last 64 KiB when `truncated`). */
  readonly text: string;
  /** True when earlier stderr was dropped to keep only the tail. */
  readonly truncated: boolean;
  /** The exit code, when the process had exited. */
  readonly exitCode?: number;
}
