/**
 * A builder for claude stream-json turns.
 *
 * @module
 */
import { zod } from "../../runtime/internal.ts";
import type { CliRun } from "../../ports/cli.ts";
import { parseOrExplain } from "../_validate.ts";

/**
 * A tool the CLI used during the turn, and what the tool returned.
 *
 * @example
 * ```ts
 * import type { ClaudeToolUse } from "@agentkit/testing/testing";
 * const read: ClaudeToolUse = { name: "Read", input: { file_path: "src/app.ts" }, result: "export const app = 1;" };
 * ```
 */
export interface ClaudeToolUse {
  /** The tool's name (`"Read"`, `"Edit"`, `"Bash"`). */
  readonly name: string;
  /**
   * Its arguments.
   * @default {{}}
   */
  readonly input?: Readonly<Record<string, unknown>>;
  /**
   * The tool_use id.
   * @default {"toolu_01", "toolu_02", ... in order}
   */
  readonly id?: string;
  /**
   * What the tool returned (the `tool_result` content).
   * @default {"ok"}
   */
  readonly result?: string;
  /**
   * The tool failed.
   * @default {false}
   */
  readonly isError?: boolean;
}

/**
 * What a claude turn consists of.
 *
 * @example
 * ```ts
 * import type { ClaudeTurnOptions } from "@agentkit/testing/testing";
 * const turn: ClaudeTurnOptions = { text: "Done.", usage: { inputTokens: 1200, outputTokens: 80 }, costUsd: 0.0123 };
 * ```
 */
export interface ClaudeTurnOptions {
  /** The final answer (the last assistant text and the result's `result`). */
  readonly text: string;
  /**
   * Tools the CLI used before answering, in order.
   * @default {[]}
   */
  readonly toolUses?: readonly ClaudeToolUse[];
  /**
   * The turn's usage in agentkit's convention, which is claude's too
   * (`inputTokens` excludes the cached prefix). It is the result line's
   * usage; the first assistant message reports all of it and later ones
   * none, so a turn cut off after its first line still reports the work.
   * @default {{ inputTokens: 10, outputTokens: 0 }}
   */
  readonly usage?: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly cachedInputTokens?: number;
  };
  /**
   * The result's `total_cost_usd`.
   * @default {0.0001}
   */
  readonly costUsd?: number;
  /**
   * The result's `subtype`; anything but `"success"` is a failed turn.
   * @default {"success"}
   */
  readonly subtype?: "success" | "error_max_turns" | "error_during_execution";
  /**
   * The session id on the init and result lines.
   * @default {"fake-session"}
   */
  readonly sessionId?: string;
  /**
   * The model the init line names.
   * @default {"claude-fake"}
   */
  readonly model?: string;
}

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const schema = z.strictObject({
    text: z.string(),
    toolUses: z.array(z.strictObject({
      name: z.string().min(1),
      input: z.record(z.string(), z.unknown()).optional(),
      id: z.string().min(1).optional(),
      result: z.string().optional(),
      isError: z.boolean().optional(),
    })).optional(),
    usage: z.strictObject({
      inputTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
      cachedInputTokens: z.number().int().nonnegative().optional(),
    }).optional(),
    costUsd: z.number().nonnegative().finite().optional(),
    subtype: z.enum(["success", "error_max_turns", "error_during_execution"]).optional(),
    sessionId: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
  });
  return { schema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

/**
 * Builds one claude turn in the order the CLI writes it: the `system` init
 * line, then for each tool use an `assistant` line with the `tool_use` and a
 * `user` line with its `tool_result`, then an `assistant` line with the text,
 * then the `result` line that ends the turn. The options are validated now:
 * a mistyped key is an error naming the nearest valid one.
 *
 * @param options What the turn says, uses and costs.
 * @returns The turn, for `FakeClaudeCli.script([...])`.
 * @throws {InvalidScript} When the options are malformed.
 *
 * @example
 * ```ts
 * import { claudeTurn } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const turn = claudeTurn({ text: "Done.", toolUses: [{ name: "Read", input: { file_path: "a.ts" } }] });
 * const types = turn.lines.map((l) => JSON.parse(l as string).type);
 * assertEquals(types, ["system", "assistant", "user", "assistant", "result"]);
 * ```
 */
export function claudeTurn(options: ClaudeTurnOptions): CliRun {
  const o = parseOrExplain(schemas().schema, options, "claudeTurn options") as ClaudeTurnOptions;
  const sessionId = o.sessionId ?? "fake-session";
  const usage = o.usage ?? { inputTokens: 10, outputTokens: 0 };
  const wire = {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedInputTokens ?? 0,
    output_tokens: usage.outputTokens,
  };
  const none = {
    input_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 0,
  };
  const tools = o.toolUses ?? [];
  const lines: string[] = [JSON.stringify({
    type: "system",
    subtype: "init",
    session_id: sessionId,
    model: o.model ?? "claude-fake",
    tools: [...new Set(tools.map((t) => t.name))],
    cwd: "/fake",
  })];
  let n = 0;
  const assistant = (content: unknown[]) => {
    n++;
    lines.push(JSON.stringify({
      type: "assistant",
      message: {
        id: `msg_${String(n).padStart(2, "0")}`,
        type: "message",
        role: "assistant",
        model: o.model ?? "claude-fake",
        content,
        usage: n === 1 ? wire : none,
      },
      session_id: sessionId,
    }));
  };
  tools.forEach((t, i) => {
    const id = t.id ?? `toolu_${String(i + 1).padStart(2, "0")}`;
    assistant([{ type: "tool_use", id, name: t.name, input: t.input ?? {} }]);
    lines.push(JSON.stringify({
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: id,
          content: t.result ?? "ok",
          ...(t.isError ? { is_error: true } : {}),
        }],
      },
      session_id: sessionId,
    }));
  });
  assistant([{ type: "text", text: o.text }]);
  const subtype = o.subtype ?? "success";
  lines.push(JSON.stringify({
    type: "result",
    subtype,
    is_error: subtype !== "success",
    result: o.text,
    session_id: sessionId,
    num_turns: n,
    duration_ms: 0,
    total_cost_usd: o.costUsd ?? 0.0001,
    usage: wire,
  }));
  return { lines };
}
