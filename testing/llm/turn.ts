/**
 * A scripted model turn, validated when the script is built.
 *
 * @module
 */
import type { ToolCall } from "../../ports/message.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { InvalidScript } from "../errors.ts";
import { markOf } from "./_misbehaviour_mark.ts";
import { plainTurn, readyTurn } from "./_plain_turn.ts";
import { checkTurn, schemaTurn } from "./_turn_check.ts";

/**
 * One scripted model turn. Every key is optional.
 *
 * - a turn with tool calls finishes `"tool_calls"`, one with only content `"stop"`
 *   (unless `finishReason` says otherwise);
 * - `chunks` stream as separate `text_delta` events; `content` is their join;
 * - `failAfterChunks: n` emits n chunks, then fails mid-stream (not retryable);
 * - `error` fails the turn after delivering its tool calls, finish reason and
 *   usage, in that order;
 * - `gate` holds the call open until the promise settles;
 * - `stall` streams its chunks and then never ends until cancelled;
 * - `refusal` is the model declining: its text is the answer's content, the
 *   turn finishes `"content_filter"` and the response says `refusal: true`
 *   (each provider wire encodes it its own way); it takes no `content`,
 *   `chunks` or `toolCalls`;
 * - `reasoning` is the model's thinking, delivered before the answer (a
 *   `reasoning_delta` event, `ChatResponse.reasoning`), never in its text;
 * - `model` is the model the response says answered;
 * - `firstChunkDelayMs` and `chunkDelayMs` pace a stream on the context's
 *   clock (time to first token, then the gap between chunks), so a
 *   `FakeClock` makes them cost no wall time.
 *
 * @example
 * ```ts
 * import type { Turn } from "@agentkit/testing/testing";
 * import { toolCall } from "@agentkit/testing/ports";
 *
 * const cut: Turn = {
 *   chunks: ["I will start by ", "reading the"],
 *   finishReason: "length",
 *   error: "Hit max tokens",
 *   usage: { inputTokens: 198_000, outputTokens: 590 },
 * };
 * const call: Turn = { toolCalls: [toolCall("c1", "fs_read", { path: "a" })] };
 * ```
 */
export interface Turn {
  /** The text of the turn. */
  readonly content?: string;
  /** The text as separate streamed pieces. */
  readonly chunks?: readonly string[];
  /** Tool calls the model makes. */
  readonly toolCalls?: readonly ToolCall[];
  /** What the turn costs. Default: the fake's `usage` option. */
  readonly usage?: Usage;
  /** Overrides the derived finish reason. */
  readonly finishReason?: FinishReason;
  /** Fails the turn (a string becomes a `ProviderResponseError`). */
  readonly error?: string | Error;
  /** Emit this many chunks, then fail mid-stream. */
  readonly failAfterChunks?: number;
  /** Holds the call open until this promise settles. */
  readonly gate?: Promise<unknown>;
  /** Streams, then never ends on its own. */
  readonly stall?: boolean;
  /** The model the response names. */
  readonly model?: string;
  /** The model declines, with this text (finishes `"content_filter"`). */
  readonly refusal?: string;
  /** The model's thinking, before its answer. */
  readonly reasoning?: string;
  /**
   * Time to first token: a stream waits this long on the context's clock
   * before its first chunk (before its first tool call or its end when it
   * has no chunks). A blocking call waits the whole stream's time.
   */
  readonly firstChunkDelayMs?: number;
  /** The gap a stream waits on the context's clock before each chunk after the first. */
  readonly chunkDelayMs?: number;
}

/**
 * Validates one turn; `where` names it in messages (`"turn 2"`).
 *
 * @param value The turn as written.
 * @param where Where it is, for messages.
 * @returns The turn.
 * @throws {InvalidScript} With the bad key and the nearest valid one, or
 * the path of tool-call arguments that are not JSON (a BigInt, a cycle).
 *
 * @example
 * ```ts
 * import { parseTurn } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * assertThrows(() => parseTurn({ contnet: "hi" }, "turn 1"), Error, 'unknown key "contnet" in turn 1; did you mean "content"?');
 * ```
 */
export function parseTurn(value: unknown, where: string): Turn {
  if (typeof value === "string") return { content: value };
  // The common turn passes the hand-written check as it is, without zod.
  const ready = readyTurn(value);
  if (ready !== undefined) return ready;
  // A turn misbehave built is checked by its builder.
  if (markOf(value) !== undefined) return value as Turn;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidScript(
      `${where} must be a turn object or a string, got ${
        value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
      }`,
    );
  }
  const bag = value as Record<string, unknown>;
  return checkTurn(plainTurn(bag) ?? schemaTurn(bag, where), where);
}
