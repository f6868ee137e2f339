/**
 * A scripted model turn, validated when the script is built.
 *
 * @module
 */
import { z } from "zod";
import type { ToolCall } from "../../ports/message.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { parseOrExplain } from "../_validate.ts";
import { InvalidScript } from "../errors.ts";
import { jsonProblem } from "../_json_value.ts";
import { markOf } from "./_misbehaviour_mark.ts";
import { chunkCount } from "./_turn_chunks.ts";

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

// The zod schemas explain a turn the plain check below rejects. They are
// built on first use, not at import: building zod schemas is the larger part
// of what zod costs a process that starts (bench/cold_start.ts), and a valid
// script never needs them.
let schemas: { readonly toolCall: z.ZodType; readonly turn: z.ZodType<Turn> } | undefined;
function turnSchemas(): { readonly toolCall: z.ZodType; readonly turn: z.ZodType<Turn> } {
  if (schemas) return schemas;
  const usageSchema = z.strictObject({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cachedInputTokens: z.number().int().nonnegative().optional(),
    costUsd: z.number().nonnegative().optional(),
  });

  const missingOr = (what: string) => (iss: { input: unknown }) =>
    iss.input === undefined ? `is missing; every tool call needs ${what}` : `must be ${what}`;

  const toolCallSchema = z.strictObject({
    id: z.string({ error: missingOr("an id (a non-empty string)") }).min(1, {
      error: "is empty; every tool call needs an id (a non-empty string)",
    }),
    name: z.string({ error: missingOr("a name (the tool's name)") }).min(1, {
      error:
        "is empty; every tool call needs a name (the tool's name); misbehave.malformedToolCall() scripts a nameless call on purpose",
    }),
    args: z.record(z.string(), z.unknown()).default({}),
    rawArgs: z.string().optional(),
  });

  const turnSchema: z.ZodType<Turn> = z.strictObject({
    content: z.string().optional(),
    chunks: z.array(z.string()).optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    usage: usageSchema.optional(),
    finishReason: z.enum(["stop", "tool_calls", "length", "content_filter", "error"]).optional(),
    error: z.union([z.string(), z.instanceof(Error)]).optional(),
    failAfterChunks: z.number().int().nonnegative().optional(),
    gate: z.custom<Promise<unknown>>((v) => typeof (v as Promise<unknown>)?.then === "function", {
      message: "gate must be a Promise",
    }).optional(),
    stall: z.boolean().optional(),
    model: z.string().min(1).optional(),
    refusal: z.string().optional(),
    reasoning: z.string().optional(),
    firstChunkDelayMs: z.number().nonnegative().finite().optional(),
    chunkDelayMs: z.number().nonnegative().finite().optional(),
  }) as unknown as z.ZodType<Turn>;
  return schemas = { toolCall: toolCallSchema, turn: turnSchema };
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
  // A turn misbehave built is checked by its builder.
  if (markOf(value) !== undefined) return value as Turn;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidScript(
      `${where} must be a turn object or a string, got ${
        value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
      }`,
    );
  }
  const turn = plainTurn(value as Record<string, unknown>) ??
    parseOrExplain(
      turnSchemas().turn,
      value,
      where,
      toolCallHint(value as Record<string, unknown>),
    );
  const calls = turn.toolCalls;
  if (calls) {
    for (let i = 0; i < calls.length; i++) {
      const problem = jsonProblem(calls[i].args, `toolCalls[${i}].args`);
      if (problem) {
        throw new InvalidScript(
          `${where}: ${problem}; tool-call arguments reach the tool (and a recording) as JSON, so give plain data`,
        );
      }
    }
  }
  if (turn.chunks && turn.content !== undefined && turn.chunks.join("") !== turn.content) {
    throw new InvalidScript(
      `${where}: content must equal the join of chunks when both are given; drop one of them`,
    );
  }
  if (
    turn.refusal !== undefined &&
    (turn.content !== undefined || turn.chunks !== undefined || turn.toolCalls?.length)
  ) {
    throw new InvalidScript(
      `${where}: a refusal is the whole answer, so it takes no content, chunks or toolCalls; drop them, or drop refusal`,
    );
  }
  const count = chunkCount(turn);
  if (turn.failAfterChunks !== undefined && turn.failAfterChunks > count) {
    throw new InvalidScript(
      `${where}: failAfterChunks is ${turn.failAfterChunks} but the turn has only ${count} chunk(s)`,
    );
  }
  return turn;
}

const TOOL_CALL_SHAPE =
  '; a tool call is toolCall(id, name, args) from "@agentkit/testing/ports", ' +
  'e.g. toolCall("c1", "search", { q: "x" }), or the object { id: "c1", name: "search", args: { q: "x" } }' +
  " (the id is any non-empty string; the tool's result answers the call by it)";

// Only on the slow path (the turn already failed the fast check): when a
// tool call is not the shape zod wants, the message shows the shape.
function toolCallHint(t: Record<string, unknown>): string {
  const calls = t.toolCalls;
  if (!Array.isArray(calls)) return "";
  return calls.every((c) => turnSchemas().toolCall.safeParse(c).success) ? "" : TOOL_CALL_SHAPE;
}

const FINISH_REASONS = new Set(["stop", "tool_calls", "length", "content_filter", "error"]);

const isCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;

// The common turn, checked without zod: a cassette of a thousand lines or a
// long script is parsed in microseconds. Anything unusual (a missing `args`
// that zod defaults, a wrong type, an unknown key) returns undefined, and zod
// then parses it and explains what is wrong.
function plainTurn(t: Record<string, unknown>): Turn | undefined {
  for (const key in t) {
    const v = t[key];
    if (v === undefined) continue;
    switch (key) {
      case "content":
        if (typeof v !== "string") return undefined;
        break;
      case "model":
        if (typeof v !== "string" || v === "") return undefined;
        break;
      case "refusal":
      case "reasoning":
        if (typeof v !== "string") return undefined;
        break;
      case "chunks":
        if (!Array.isArray(v) || !v.every((c) => typeof c === "string")) return undefined;
        break;
      case "toolCalls":
        if (!Array.isArray(v) || !v.every(plainToolCall)) return undefined;
        break;
      case "usage":
        if (!plainUsage(v)) return undefined;
        break;
      case "finishReason":
        if (!FINISH_REASONS.has(v as string)) return undefined;
        break;
      case "error":
        if (typeof v !== "string" && !(v instanceof Error)) return undefined;
        break;
      case "failAfterChunks":
        if (!isCount(v)) return undefined;
        break;
      case "stall":
        if (typeof v !== "boolean") return undefined;
        break;
      case "firstChunkDelayMs":
      case "chunkDelayMs":
        if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) return undefined;
        break;
      case "gate":
        if (typeof (v as Promise<unknown>)?.then !== "function") return undefined;
        break;
      default:
        return undefined;
    }
  }
  return t as Turn;
}

function plainToolCall(c: unknown): boolean {
  if (c === null || typeof c !== "object") return false;
  const call = c as Record<string, unknown>;
  for (const key in call) {
    if (key !== "id" && key !== "name" && key !== "args" && key !== "rawArgs") return false;
  }
  const args = call.args;
  return typeof call.id === "string" && call.id !== "" && typeof call.name === "string" &&
    call.name !== "" && args !== null && typeof args === "object" && !Array.isArray(args) &&
    (call.rawArgs === undefined || typeof call.rawArgs === "string");
}

function plainUsage(u: unknown): boolean {
  if (u === null || typeof u !== "object") return false;
  const usage = u as Record<string, unknown>;
  for (const key in usage) {
    const v = usage[key];
    if (key === "inputTokens" || key === "outputTokens") {
      if (!isCount(v)) return false;
    } else if (key === "cachedInputTokens") {
      if (v !== undefined && !isCount(v)) return false;
    } else if (key === "costUsd") {
      if (v !== undefined && !(typeof v === "number" && v >= 0 && Number.isFinite(v))) {
        return false;
      }
    } else return false;
  }
  return isCount(usage.inputTokens) && isCount(usage.outputTokens);
}
