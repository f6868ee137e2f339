// The full check of a scripted turn: the zod schema, which explains a turn
// the hand-written check (./_plain_turn.ts) does not take, and the checks
// between keys that a schema of single keys cannot make.
import type { z } from "zod";
import { zod } from "../../runtime/internal.ts";
import { parseOrExplain } from "../_validate.ts";
import { InvalidScript } from "../errors.ts";
import { jsonProblem } from "../_json_value.ts";
import { chunkCount } from "./_turn_chunks.ts";
import type { Turn } from "./turn.ts";

// The zod schemas are built on first use, not at import, and zod itself
// loads then (runtime/_lazy/): a valid script of plain turns never needs
// them.
let schemas: { readonly toolCall: z.ZodType; readonly turn: z.ZodType<Turn> } | undefined;

/** The zod schemas of a turn and of one tool call, built on first call. */
export function turnSchemas(): { readonly toolCall: z.ZodType; readonly turn: z.ZodType<Turn> } {
  if (schemas) return schemas;
  const z = zod();
  const usageSchema = z.strictObject({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cachedInputTokens: z.number().int().nonnegative().optional(),
    cacheWriteInputTokens: z.number().int().nonnegative().optional(),
    reasoningTokens: z.number().int().nonnegative().optional(),
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

/** A turn object parsed by the zod schema, or an `InvalidScript` explaining why not. */
export function schemaTurn(value: Record<string, unknown>, where: string): Turn {
  return parseOrExplain(turnSchemas().turn, value, where, toolCallHint(value));
}

/**
 * The checks across keys (and of tool-call arguments as JSON) of a turn
 * whose every key has the right shape; returns the turn.
 */
export function checkTurn(turn: Turn, where: string): Turn {
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
