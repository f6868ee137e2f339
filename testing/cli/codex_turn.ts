/**
 * A builder for codex exec JSONL turns.
 *
 * @module
 */
import { zod } from "../../runtime/internal.ts";
import type { CliRun } from "../../ports/cli.ts";
import { parseOrExplain } from "../_validate.ts";
import { InvalidScript } from "../errors.ts";

/**
 * A shell command codex ran during the turn.
 *
 * @example
 * ```ts
 * import type { CodexCommand } from "@agentkit/testing/testing";
 * const test: CodexCommand = { command: "deno test", output: "ok | 3 passed", exitCode: 0 };
 * ```
 */
export interface CodexCommand {
  /** The command line. */
  readonly command: string;
  /**
   * What it printed.
   * @default {""}
   */
  readonly output?: string;
  /**
   * Its exit code.
   * @default {0}
   */
  readonly exitCode?: number;
}

/**
 * What a codex turn consists of.
 *
 * @example
 * ```ts
 * import type { CodexTurnOptions } from "@agentkit/testing/testing";
 * const turn: CodexTurnOptions = { text: "done", usage: [1200, 1000, 40] };
 * ```
 */
export interface CodexTurnOptions {
  /** The agent's final message. */
  readonly text: string;
  /**
   * `[input, cachedInput, output]` in the CLI's own convention: `input`
   * includes `cachedInput`. The cognition does the subtraction, not this
   * builder.
   * @default {[10, 0, 0]}
   */
  readonly usage?: readonly [number, number, number];
  /**
   * The id `thread.started` reports.
   * @default {"fake-thread"}
   */
  readonly threadId?: string;
  /**
   * Commands codex ran before answering, in order.
   * @default {[]}
   */
  readonly commands?: readonly CodexCommand[];
}

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const count = z.number().int().nonnegative();
  const schema = z.strictObject({
    text: z.string(),
    usage: z.tuple([count, count, count]).optional(),
    threadId: z.string().min(1).optional(),
    commands: z.array(z.strictObject({
      command: z.string(),
      output: z.string().optional(),
      exitCode: z.number().int().optional(),
    })).optional(),
  });
  return { schema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * Builds one codex turn in the order `codex exec --json` writes it:
 * `thread.started` (first: a later turn resumes that thread), `turn.started`,
 * the items (each command as `item.started` and `item.completed`, then the
 * agent's message), and `turn.completed` with the usage (last: the budget is
 * charged from it). Validated now.
 *
 * @param options What the turn says, runs and uses.
 * @returns The turn, for `FakeCodexCli.script(...)`.
 * @throws {InvalidScript} When the options are malformed, or the cached
 *   input exceeds the input (codex counts input inclusive of the cache).
 *
 * @example
 * ```ts
 * import { codexTurn } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const turn = codexTurn({ text: "done", usage: [1200, 1000, 40] });
 * const types = turn.lines.map((l) => JSON.parse(l as string).type);
 * assertEquals(types, ["thread.started", "turn.started", "item.completed", "turn.completed"]);
 * assertEquals(JSON.parse(turn.lines[3] as string).usage.input_tokens, 1200);
 * ```
 */
export function codexTurn(options: CodexTurnOptions): CliRun {
  const o = parseOrExplain(schemas().schema, options, "codexTurn options") as CodexTurnOptions;
  const [input, cached, output] = o.usage ?? [10, 0, 0];
  if (cached > input) {
    throw new InvalidScript(
      `codexTurn usage is [${input}, ${cached}, ${output}], but the cached input (${cached}) exceeds the input (${input}); codex counts input inclusive of the cached part, so pass [input + cached, cached, output]`,
    );
  }
  const lines: string[] = [
    JSON.stringify({ type: "thread.started", thread_id: o.threadId ?? "fake-thread" }),
    JSON.stringify({ type: "turn.started" }),
  ];
  let n = 0;
  for (const c of o.commands ?? []) {
    const id = `item_${n++}`;
    const started = {
      id,
      type: "command_execution",
      command: c.command,
      aggregated_output: "",
      exit_code: null,
      status: "in_progress",
    };
    lines.push(JSON.stringify({ type: "item.started", item: started }));
    const code = c.exitCode ?? 0;
    lines.push(JSON.stringify({
      type: "item.completed",
      item: {
        ...started,
        aggregated_output: c.output ?? "",
        exit_code: code,
        status: code === 0 ? "completed" : "failed",
      },
    }));
  }
  lines.push(JSON.stringify({
    type: "item.completed",
    item: { id: `item_${n}`, type: "agent_message", text: o.text },
  }));
  lines.push(JSON.stringify({
    type: "turn.completed",
    usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
  }));
  return { lines };
}
