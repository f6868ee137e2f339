/**
 * Builders for CLI output that went wrong, on purpose: every regression on the
 * CLI path is a session that came back malformed.
 *
 * @module
 */
import type { CliRun } from "../../ports/cli.ts";
import { InvalidScript } from "../errors.ts";

/**
 * A stdout line of raw bytes, written exactly as given (the newline is
 * added). This is how a line that is not valid UTF-8 is scripted.
 *
 * @param bytes The line's bytes, without the newline.
 * @returns The line, for a run's `lines`.
 *
 * @example
 * ```ts
 * import { rawLine } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(rawLine([0x7b, 0xff, 0x7d]), new Uint8Array([0x7b, 0xff, 0x7d]));
 * ```
 */
export function rawLine(bytes: Uint8Array | readonly number[]): Uint8Array {
  if (!(bytes instanceof Uint8Array) && !Array.isArray(bytes)) {
    throw new InvalidScript(`rawLine takes a Uint8Array or an array of bytes, got ${typeof bytes}`);
  }
  return Uint8Array.from(bytes);
}

/**
 * A line encoded as Latin-1: each character becomes one byte, so any
 * character from U+0080 to U+00FF (`é`, `ü`) yields a byte that is not valid
 * UTF-8, as when a tool prints in a legacy encoding. The JSON around it stays
 * intact, so a lenient reader can still use the line.
 *
 * @param text The line; every character must be at most U+00FF.
 * @returns The line's bytes.
 * @throws {InvalidScript} For a character Latin-1 cannot hold.
 *
 * @example
 * ```ts
 * import { latin1Line } from "@agentkit/testing/testing";
 * import { assertEquals, assertThrows } from "@std/assert";
 *
 * assertEquals(latin1Line('{"t":"é"}')[6], 0xe9);
 * assertThrows(() => new TextDecoder("utf-8", { fatal: true }).decode(latin1Line('{"t":"é"}')));
 * ```
 */
export function latin1Line(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) {
      throw new InvalidScript(
        `latin1Line cannot encode ${
          JSON.stringify(text[i])
        } at index ${i}: Latin-1 stops at U+00FF`,
      );
    }
    out[i] = c;
  }
  return out;
}

/**
 * A line of an event type neither CLI writes (what a newer CLI version might
 * add). The cognition must observe it and go on.
 *
 * @param type The event type.
 * @param fields More fields of the event.
 * @returns The line.
 *
 * @example
 * ```ts
 * import { unknownEventLine } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(unknownEventLine("telemetry", { n: 1 }), '{"type":"telemetry","n":1}');
 * ```
 */
export function unknownEventLine(
  type = "mystery_event",
  fields: Readonly<Record<string, unknown>> = {},
): string {
  return JSON.stringify({ type, ...fields });
}

/**
 * The run with `lines` inserted before line `at` (0-based; the run's length
 * appends).
 *
 * @param run The run.
 * @param at Where to insert.
 * @param lines What to insert.
 * @returns A new run.
 * @throws {InvalidScript} When `at` is outside the run.
 *
 * @example
 * ```ts
 * import { claudeTurn, insertLines, unknownEventLine } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const run = insertLines(claudeTurn({ text: "hi" }), 1, unknownEventLine());
 * assertEquals(JSON.parse(run.lines[1] as string).type, "mystery_event");
 * ```
 */
export function insertLines(run: CliRun, at: number, ...lines: (string | Uint8Array)[]): CliRun {
  if (!Number.isInteger(at) || at < 0 || at > run.lines.length) {
    throw new InvalidScript(
      `insertLines: at must be an index from 0 to ${run.lines.length}, got ${at}`,
    );
  }
  return { ...run, lines: [...run.lines.slice(0, at), ...lines, ...run.lines.slice(at)] };
}

/**
 * The run with its last line cut short and written without a newline, as
 * when the process died mid-write.
 *
 * @param run The run.
 * @param keep How many characters (bytes, for a raw line) of the last line
 *   survive; default half of it.
 * @returns A new run, `unterminated`.
 * @throws {InvalidScript} For an empty run, or `keep` not shorter than the line.
 *
 * @example
 * ```ts
 * import { codexTurn, truncateLastLine } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const run = truncateLastLine(codexTurn({ text: "done" }), 20);
 * assertEquals([run.lines.at(-1), run.unterminated], ['{"type":"turn.comple', true]);
 * ```
 */
export function truncateLastLine(run: CliRun, keep?: number): CliRun {
  const last = run.lines.at(-1);
  if (last === undefined) throw new InvalidScript("truncateLastLine: the run has no lines");
  const k = keep ?? Math.floor(last.length / 2);
  if (!Number.isInteger(k) || k < 0 || k >= last.length) {
    throw new InvalidScript(
      `truncateLastLine: keep must be an integer from 0 to ${last.length - 1}, got ${keep}`,
    );
  }
  return { ...run, lines: [...run.lines.slice(0, -1), last.slice(0, k)], unterminated: true };
}

/**
 * The run without its final line (claude's `result`, codex's
 * `turn.completed`): the process exits cleanly but the turn never ends.
 *
 * @param run The run.
 * @returns A new run.
 * @throws {InvalidScript} For an empty run.
 *
 * @example
 * ```ts
 * import { claudeTurn, withoutFinalLine } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const run = withoutFinalLine(claudeTurn({ text: "hi" }));
 * assertEquals(JSON.parse(run.lines.at(-1) as string).type, "assistant");
 * assertEquals(run.exitCode, 0);
 * ```
 */
export function withoutFinalLine(run: CliRun): CliRun {
  if (run.lines.length === 0) throw new InvalidScript("withoutFinalLine: the run has no lines");
  return { ...run, lines: run.lines.slice(0, -1), exitCode: run.exitCode ?? 0 };
}

/** Options for {@linkcode exitPartway}. */
export interface ExitPartwayOptions {
  /** How many lines are written before the process exits. */
  readonly afterLines: number;
  /**
   * The exit code.
   * @default {1}
   */
  readonly exitCode?: number;
  /**
   * What the process writes to stderr.
   * @default {"" }
   */
  readonly stderr?: string;
}

/**
 * The run with the process exiting after `afterLines` lines, with a
 * (non-zero) code and, usually, something on stderr.
 *
 * @param run The run.
 * @param options Where it dies, how, and what it says.
 * @returns A new run.
 * @throws {InvalidScript} When `afterLines` is outside the run.
 *
 * @example
 * ```ts
 * import { codexTurn, exitPartway } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const run = exitPartway(codexTurn({ text: "done" }), { afterLines: 2, stderr: "boom" });
 * assertEquals([run.exitAfterLines, run.exitCode, run.stderr], [2, 1, "boom"]);
 * ```
 */
export function exitPartway(run: CliRun, options: ExitPartwayOptions): CliRun {
  const n = options?.afterLines;
  if (!Number.isInteger(n) || n < 0 || n > run.lines.length) {
    throw new InvalidScript(
      `exitPartway: afterLines must be an integer from 0 to ${run.lines.length}, got ${n}`,
    );
  }
  return {
    ...run,
    exitAfterLines: n,
    exitCode: options.exitCode ?? 1,
    ...(options.stderr !== undefined ? { stderr: options.stderr } : {}),
  };
}
