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
 * The turn as given when it is a plain turn that passes every check of
 * parseTurn (the checks across keys, its tool-call arguments flat JSON),
 * else undefined: parseTurn then runs the full check on it.
 *
 * Every key is read by name and the keys are only counted (a key read by
 * name costs less than one told apart by a switch); a key the turn has that
 * none of the names read (unknown, or known but set to undefined) makes the
 * counts differ, and the turn goes to the full check.
 */
export function readyTurn(value: unknown): Turn | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const t = value as Turn;
  let known = 0;
  const { content, chunks, toolCalls, refusal, failAfterChunks } = t;
  if (content !== undefined) {
    if (typeof content !== "string") return undefined;
    known++;
  }
  if (toolCalls !== undefined) {
    if (!readyToolCalls(toolCalls)) return undefined;
    known++;
  }
  if (chunks !== undefined) {
    if (!strings(chunks)) return undefined;
    known++;
  }
  if (refusal !== undefined) {
    if (typeof refusal !== "string") return undefined;
    known++;
  }
  if (failAfterChunks !== undefined) {
    if (!isCount(failAfterChunks)) return undefined;
    known++;
  }
  const { usage, finishReason, error, gate, stall, model, reasoning } = t;
  if (usage !== undefined) {
    if (!plainUsage(usage)) return undefined;
    known++;
  }
  if (finishReason !== undefined) {
    if (
      finishReason !== "stop" && finishReason !== "tool_calls" && finishReason !== "length" &&
      finishReason !== "content_filter" && finishReason !== "error"
    ) return undefined;
    known++;
  }
  if (error !== undefined) {
    if (typeof error !== "string" && !(error instanceof Error)) return undefined;
    known++;
  }
  if (gate !== undefined) {
    if (gate === null || typeof gate.then !== "function") return undefined;
    known++;
  }
  if (stall !== undefined) {
    if (typeof stall !== "boolean") return undefined;
    known++;
  }
  if (model !== undefined) {
    if (typeof model !== "string" || model === "") return undefined;
    known++;
  }
  if (reasoning !== undefined) {
    if (typeof reasoning !== "string") return undefined;
    known++;
  }
  const { firstChunkDelayMs, chunkDelayMs } = t;
  if (firstChunkDelayMs !== undefined) {
    if (!isDelay(firstChunkDelayMs)) return undefined;
    known++;
  }
  if (chunkDelayMs !== undefined) {
    if (!isDelay(chunkDelayMs)) return undefined;
    known++;
  }
  let keys = 0;
  for (const _ in t) keys++;
  if (keys !== known) return undefined;
  if (chunks !== undefined && content !== undefined && chunks.join("") !== content) {
    return undefined;
  }
  if (
    refusal !== undefined &&
    (content !== undefined || chunks !== undefined || toolCalls?.length)
  ) return undefined;
  return failAfterChunks !== undefined && failAfterChunks > chunkCount(t) ? undefined : t;
}

// The tool calls of a ready turn: each plain, its arguments flat JSON.
function readyToolCalls(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === null || typeof c !== "object" || Array.isArray(c)) return false;
    const { id, name, args, rawArgs } = c as Record<string, unknown>;
    if (typeof id !== "string" || id === "" || typeof name !== "string" || name === "") {
      return false;
    }
    if (!isPlainObject(args) || !flatJson(args)) return false;
    let known = 3;
    if (rawArgs !== undefined) {
      if (typeof rawArgs !== "string") return false;
      known++;
    }
    let keys = 0;
    for (const _ in c) keys++;
    if (keys !== known) return false;
  }
  return true;
}

/**
 * The turn when every key is one the schema knows with a value it takes as
 * given (no default to fill), else undefined: parseTurn's check before zod,
 * for a turn that readyTurn did not take (its arguments nested, or a check
 * across keys to explain).
 */
export function plainTurn(t: Record<string, unknown>): Turn | undefined {
  for (const key in t) {
    const v = t[key];
    if (v === undefined) {
      if (!KEYS.has(key)) return undefined;
      continue;
    }
    switch (key) {
      case "content":
      case "reasoning":
      case "refusal":
        if (typeof v !== "string") return undefined;
        break;
      case "toolCalls":
        if (!plainToolCalls(v)) return undefined;
        break;
      case "model":
        if (typeof v !== "string" || v === "") return undefined;
        break;
      case "chunks":
        if (!strings(v)) return undefined;
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
        if (!isDelay(v)) return undefined;
        break;
      case "gate":
        if (v === null || typeof (v as Promise<unknown>).then !== "function") return undefined;
        break;
      default:
        return undefined;
    }
  }
  return t as Turn;
}

const FINISH_REASONS: ReadonlySet<string> = new Set([
  "stop",
  "tool_calls",
  "length",
  "content_filter",
  "error",
]);

const KEYS: ReadonlySet<string> = new Set([
  "content",
  "chunks",
  "toolCalls",
  "usage",
  "finishReason",
  "error",
  "failAfterChunks",
  "gate",
  "stall",
  "model",
  "refusal",
  "reasoning",
  "firstChunkDelayMs",
  "chunkDelayMs",
]);

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
    } else if (
      key === "cachedInputTokens" || key === "cacheWriteInputTokens" || key === "reasoningTokens"
    ) {
      if (v !== undefined && !isCount(v)) return false;
    } else if (key === "costUsd") {
      if (v !== undefined && !isDelay(v)) return false;
    } else return false;
  }
  return isCount(usage.inputTokens) && isCount(usage.outputTokens);
}
