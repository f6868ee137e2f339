// The common scripted turn, checked by hand: a script is built in every
// test, and a cassette of a thousand lines is parsed in microseconds. Each
// check answers only "this is certainly fine as it is"; anything unusual (a
// missing `args` that zod defaults, a wrong type, an unknown key, nested
// arguments) answers undefined, and the full check (./_turn_check.ts)
// decides and explains. tests/testing/llm/plain_turn_property_test.ts pins
// that what these take, zod takes unchanged, and that parseTurn's answer
// and errors are the full check's.
import type { Turn } from "./turn.ts";
import { chunkCount } from "./_turn_chunks.ts";

// The safe integers, as zod's .int() takes them.
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

const isDelay = (v: unknown): boolean => typeof v === "number" && v >= 0 && Number.isFinite(v);

/**
 * The turn when every key is one the schema knows with a value it takes as
 * given (no default to fill), else undefined.
 */
export function plainTurn(t: Record<string, unknown>): Turn | undefined {
  for (const key in t) {
    const v = t[key];
    switch (key) {
      case "content":
      case "refusal":
      case "reasoning":
        if (v !== undefined && typeof v !== "string") return undefined;
        break;
      case "model":
        if (v !== undefined && (typeof v !== "string" || v === "")) return undefined;
        break;
      case "chunks":
        if (v !== undefined && !strings(v)) return undefined;
        break;
      case "toolCalls":
        if (v !== undefined && !plainToolCalls(v)) return undefined;
        break;
      case "usage":
        if (v !== undefined && !plainUsage(v)) return undefined;
        break;
      case "finishReason":
        if (
          v !== undefined && v !== "stop" && v !== "tool_calls" && v !== "length" &&
          v !== "content_filter" && v !== "error"
        ) return undefined;
        break;
      case "error":
        if (v !== undefined && typeof v !== "string" && !(v instanceof Error)) return undefined;
        break;
      case "failAfterChunks":
        if (v !== undefined && !isCount(v)) return undefined;
        break;
      case "stall":
        if (v !== undefined && typeof v !== "boolean") return undefined;
        break;
      case "firstChunkDelayMs":
      case "chunkDelayMs":
        if (v !== undefined && !isDelay(v)) return undefined;
        break;
      case "gate":
        if (v !== undefined && typeof (v as Promise<unknown>)?.then !== "function") {
          return undefined;
        }
        break;
      default:
        return undefined;
    }
  }
  return t as Turn;
}

/**
 * The turn as given when it is a plain turn that passes every check of
 * parseTurn (the checks across keys, its tool-call arguments flat JSON),
 * else undefined: parseTurn then runs the full check on it.
 */
export function readyTurn(value: unknown): Turn | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const turn = plainTurn(value as Record<string, unknown>);
  if (turn === undefined) return undefined;
  const calls = turn.toolCalls;
  if (calls) {
    for (let i = 0; i < calls.length; i++) if (!flatJson(calls[i].args)) return undefined;
  }
  const { chunks, content } = turn;
  if (chunks && content !== undefined && chunks.join("") !== content) return undefined;
  if (
    turn.refusal !== undefined && (content !== undefined || chunks !== undefined || calls?.length)
  ) return undefined;
  const fail = turn.failAfterChunks;
  return fail !== undefined && fail > chunkCount(turn) ? undefined : turn;
}

function strings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  // An index loop, not every(): a hole is undefined, which zod refuses.
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== "string") return false;
  return true;
}

function plainToolCalls(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!plainToolCall(v[i])) return false;
  return true;
}

function plainToolCall(c: unknown): boolean {
  if (c === null || typeof c !== "object" || Array.isArray(c)) return false;
  const call = c as Record<string, unknown>;
  for (const key in call) {
    if (key !== "id" && key !== "name" && key !== "args" && key !== "rawArgs") return false;
  }
  const { id, name, args, rawArgs } = call;
  return typeof id === "string" && id !== "" && typeof name === "string" && name !== "" &&
    isPlainObject(args) && (rawArgs === undefined || typeof rawArgs === "string");
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

// Arguments of one level of plain values: JSON keeps them as they are.
// Anything nested goes to jsonProblem(), which walks it and names a problem.
function flatJson(args: Record<string, unknown>): boolean {
  for (const key in args) {
    const v = args[key];
    switch (typeof v) {
      case "string":
      case "boolean":
      case "undefined":
        break;
      case "number":
        if (!Number.isFinite(v)) return false;
        break;
      default:
        if (v !== null) return false;
    }
  }
  return true;
}

function plainUsage(u: unknown): boolean {
  if (u === null || typeof u !== "object" || Array.isArray(u)) return false;
  const usage = u as Record<string, unknown>;
  for (const key in usage) {
    const v = usage[key];
    if (key === "inputTokens" || key === "outputTokens") {
      if (!isCount(v)) return false;
    } else if (key === "cachedInputTokens") {
      if (v !== undefined && !isCount(v)) return false;
    } else if (key === "costUsd") {
      if (v !== undefined && !isDelay(v)) return false;
    } else return false;
  }
  return isCount(usage.inputTokens) && isCount(usage.outputTokens);
}
