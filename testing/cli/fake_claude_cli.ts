/**
 * The claude CLI double.
 *
 * @module
 */
import type * as Fs from "node:fs";
import type { z } from "zod";
import { zod } from "../../runtime/internal.ts";
import type { CliRun } from "../../ports/cli.ts";
import { parseCliOptions, parseCliRun } from "./_cli_script.ts";
import { FakeCli } from "./fake_cli.ts";
import type { FakeCliOptions } from "./fake_cli_options.ts";
import { nearest, parseOrExplain } from "../_validate.ts";
import { claudeTurn } from "./claude_turn.ts";
import { InvalidScript } from "../errors.ts";
import { builtin } from "../../runtime/internal.ts";

const KNOWN_TYPES = ["system", "assistant", "user", "result"];
// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const count = z.number().nonnegative().optional();
  const LINE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
    system: z.looseObject({ type: z.literal("system"), subtype: z.string() }),
    assistant: z.looseObject({
      type: z.literal("assistant"),
      message: z.looseObject({
        content: z.array(z.looseObject({ type: z.string() })),
      }),
    }),
    user: z.looseObject({
      type: z.literal("user"),
      message: z.looseObject({
        content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
      }),
    }),
    result: z.looseObject({
      type: z.literal("result"),
      subtype: z.string(),
      total_cost_usd: z.number().nonnegative().optional(),
      usage: z.looseObject({
        input_tokens: count,
        cache_creation_input_tokens: count,
        cache_read_input_tokens: count,
        output_tokens: count,
      }).optional(),
    }),
  };
  return { LINE_SCHEMAS };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * A double of the `claude` binary at the spawn seam, so a test runs
 * `ClaudeCliCognition`'s real parsing, charging and event mapping. Like the
 * CLI in stream-json input mode, one spawn serves many turns: each user line
 * written to stdin plays the next turn. A script is a finite claim about how
 * many turns the session takes: one more throws `ScriptExhausted` (unless
 * `repeatLast`), and `verify()` / `using` report turns never asked for.
 * `.spawns` records every spawn (argv, stdin lines, killed, exit code).
 *
 * Without `lineDelayMs` every line is ready the moment it is read: a timeout
 * on the clock cannot fire mid-turn, and a cancellation lands only between
 * the events the consumer reads (see docs/cli.md).
 *
 * @example A recorded session, replayed event for event
 * ```ts
 * import { Agent, ClaudeCliCognition } from "@agentkit/testing/runtime";
 * import { FakeClaudeCli, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const recording = [
 *   '{"type":"system","subtype":"init","session_id":"s-1","model":"claude-sonnet-4-5","tools":[],"cwd":"/repo"}',
 *   '{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"Hello."}],"usage":{"input_tokens":12,"output_tokens":3}}}',
 *   '{"type":"result","subtype":"success","is_error":false,"result":"Hello.","session_id":"s-1","total_cost_usd":0.0004,"usage":{"input_tokens":12,"output_tokens":3}}',
 * ].join("\n");
 * using cli = FakeClaudeCli.replay(recording);
 * await using claude = new ClaudeCliCognition({ spawn: cli });
 * const result = await new Agent("a", { model: "fake-model", cognition: claude }).run("hi", makeTestCtx());
 * assertEquals([result.output, result.usage.costUsd, claude.sessionId], ["Hello.", 0.0004, "s-1"]);
 * ```
 */
export class FakeClaudeCli extends FakeCli {
  /**
   * Creates the double from validated turns; use `script()` or `replay()`.
   *
   * @param turns The turns, already checked.
   * @param options Pacing and finiteness.
   */
  private constructor(turns: readonly CliRun[], options: FakeCliOptions, double: string) {
    super(double, turns.map(endsWithoutResult), options, "session");
  }

  /**
   * A double that plays turns nobody recorded. Build them with `claudeTurn`
   * (a string is shorthand for `claudeTurn({ text })`), or bend them with the
   * malformed-output builders. Validated now.
   *
   * @param turns The turns, in order.
   * @param options `repeatLast`, `allowUnused`, `lineDelayMs`.
   * @returns The double.
   * @throws {InvalidScript} When a turn or option is malformed.
   *
   * @example One turn too many
   * ```ts
   * import { Agent, ClaudeCliCognition } from "@agentkit/testing/runtime";
   * import { FakeClaudeCli, makeTestCtx, ScriptExhausted } from "@agentkit/testing/testing";
   * import { assertEquals, assertRejects } from "@std/assert";
   *
   * const cli = FakeClaudeCli.script(["only answer"]);
   * await using claude = new ClaudeCliCognition({ spawn: cli });
   * const agent = new Agent("a", { model: "fake-model", cognition: claude });
   * assertEquals((await agent.run("one", makeTestCtx())).output, "only answer");
   * await assertRejects(() => agent.run("two", makeTestCtx()), ScriptExhausted, "has 1 turn(s)");
   * ```
   */
  static script(
    turns: ReadonlyArray<CliRun | string>,
    options: FakeCliOptions = {},
  ): FakeClaudeCli {
    if (!Array.isArray(turns)) {
      throw new InvalidScript(
        `FakeClaudeCli.script takes an array of turns, got ${
          turns === null ? "null" : typeof turns
        }`,
      );
    }
    const o = parseCliOptions(options, "FakeClaudeCli.script");
    const parsed = turns.map((t, i) =>
      typeof t === "string" ? claudeTurn({ text: t }) : parseCliRun(t, `turn ${i + 1}`)
    );
    return new FakeClaudeCli(parsed, o, "FakeClaudeCli.script");
  }

  /**
   * A double that replays a recorded session: the text of a `.jsonl`
   * recording (one JSON object a line), or a path or `file:` URL to one.
   * Each `result` line ends a turn. Every line is checked now: a line that is
   * not JSON, or a known event missing what the CLI always writes, is an
   * error naming its line number (script broken lines on purpose with
   * `script()` and the malformed builders instead).
   *
   * @param recording The recording's text, or where it is.
   * @param options `repeatLast`, `allowUnused`, `lineDelayMs`.
   * @returns The double.
   * @throws {InvalidScript} When the recording cannot be read or is malformed.
   *
   * @example A malformed recording fails when loaded
   * ```ts
   * import { FakeClaudeCli, InvalidScript } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * const text = '{"type":"system","subtype":"init","session_id":"s"}\n{"type":"assistant",';
   * assertThrows(() => FakeClaudeCli.replay(text), InvalidScript, "line 2 of the recording is not valid JSON");
   * ```
   */
  static replay(recording: string | URL, options: FakeCliOptions = {}): FakeClaudeCli {
    const o = parseCliOptions(options, "FakeClaudeCli.replay");
    const turns = parseRecording(readRecording(recording));
    return new FakeClaudeCli(turns, o, "FakeClaudeCli.replay");
  }
}

// A turn with no `result` line never ends on its own: the cognition waits for
// the result and a session process waits for the next user line. Like the real
// CLI when it dies mid-turn, such a process exits once its lines run out, so
// the run ends with stopReason "error" instead of hanging.
function endsWithoutResult(run: CliRun): CliRun {
  if (run.exitCode !== undefined || run.lines.some(isResultLine)) return run;
  return { ...run, exitCode: 0 };
}

function isResultLine(line: string | Uint8Array): boolean {
  if (typeof line !== "string" || !line.includes('"result"')) return false;
  try {
    return (JSON.parse(line) as { type?: unknown })?.type === "result";
  } catch {
    return false;
  }
}

function readRecording(recording: string | URL): string {
  if (recording instanceof URL) return readPath(recording);
  if (typeof recording !== "string") {
    throw new InvalidScript(
      `FakeClaudeCli.replay takes the recording's text, a path or a file: URL, got ${typeof recording}`,
    );
  }
  if (recording.includes("\n") || recording.trimStart().startsWith("{")) return recording;
  return readPath(recording);
}

function readPath(path: string | URL): string {
  try {
    return builtin<typeof Fs>("node:fs", "FakeClaudeCli").readFileSync(path, "utf8");
  } catch (error) {
    throw new InvalidScript(
      `Cannot read the recording ${JSON.stringify(String(path))}: ${
        (error as Error).message
      }; pass a path that exists (relative to the working directory), a file: URL, or the .jsonl text itself`,
      { cause: error },
    );
  }
}

function parseRecording(text: string): CliRun[] {
  const turns: CliRun[] = [];
  let lines: string[] = [];
  const all = text.split("\n");
  all.forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!line.trim()) return;
    const where = `line ${i + 1} of the recording`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InvalidScript(
        `${where} is not valid JSON (${
          (error as Error).message
        }); fix the recording, or script a broken line on purpose with FakeClaudeCli.script([...]) and rawLine() or truncateLastLine()`,
      );
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new InvalidScript(`${where} is not a JSON object; every claude line is one`);
    }
    const type = (value as { type?: unknown }).type;
    if (typeof type !== "string") {
      throw new InvalidScript(`${where} has no string "type"; every claude line has one`);
    }
    const schema = schemas().LINE_SCHEMAS[type];
    if (schema) parseOrExplain(schema, value, `${where} (${type})`);
    else {
      const near = nearest(type, KNOWN_TYPES);
      if (near) {
        throw new InvalidScript(
          `${where} has type ${JSON.stringify(type)}; did you mean ${
            JSON.stringify(near)
          }? (a type far from every known one is kept, as an unknown event)`,
        );
      }
    }
    lines.push(line);
    if (type === "result") {
      turns.push({ lines });
      lines = [];
    }
  });
  if (lines.length) turns.push({ lines });
  if (turns.length === 0) {
    throw new InvalidScript("The recording is empty; a recording needs at least one line");
  }
  return turns;
}
