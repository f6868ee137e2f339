// How both CLI doubles check what they are given: their options and each
// scripted run. The doubles themselves share FakeCli.
import { zod } from "../../runtime/internal.ts";
import type { CliRun } from "../../ports/cli.ts";
import { parseOrExplain } from "../_validate.ts";
import { checkOptions, is, type Rule } from "../../runtime/internal.ts";
import { InvalidScript } from "../errors.ts";
import type { FakeCliOptions } from "./fake_cli_options.ts";

export type { FakeCliOptions };

const OPTIONS: Readonly<Record<string, Rule>> = {
  repeatLast: is.boolean,
  allowUnused: is.boolean,
  lineDelayMs: is.ms,
};

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const runSchema = z.strictObject({
    lines: z.array(z.union([z.string(), z.instanceof(Uint8Array)])),
    stderr: z.string().optional(),
    exitCode: z.number().int().min(0).max(255).optional(),
    exitAfterLines: z.number().int().nonnegative().optional(),
    unterminated: z.boolean().optional(),
  });
  return { runSchema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

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
  const run = parseOrExplain(schemas().runSchema, value, where) as CliRun;
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
