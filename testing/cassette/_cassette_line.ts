// One line of a cassette: the request as sent (model, messages, tools,
// settings; never a header, a key or a signal) and the answer as a FakeLLM
// script turn. A provider failure keeps its class in `fault` so a replayed
// 429 is a RateLimitError again, retried as the recorded one was.
import type { z } from "zod";
import { zod } from "../../runtime/internal.ts";
import type { ChatRequest } from "../../ports/chat.ts";
import type { ProviderData } from "../../ports/message.ts";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
} from "../../ports/provider_errors.ts";
import { isSecretName } from "../../runtime/internal.ts";
import { parseOrExplain } from "../_validate.ts";
import { InvalidScript } from "../errors.ts";
import { parseTurn, type Turn } from "../llm/turn.ts";

/** A provider failure, as data. */
export interface Fault {
  readonly class:
    | "ProviderError"
    | "ProviderTimeoutError"
    | "RateLimitError"
    | "ProviderResponseError";
  readonly phase: "pre_stream" | "mid_stream";
  readonly retryable?: boolean;
  readonly retryAfterMs?: number;
  readonly status?: number;
}

/** The recorded request: what matching compares. */
export interface RecordedCall {
  readonly model: string;
  readonly messages: readonly unknown[];
  readonly tools?: readonly unknown[];
  readonly settings?: Readonly<Record<string, unknown>>;
}

/**
 * Where an entry came from: written when it is recorded, so a reader (and
 * `staleAfterDays`, and `verifyCassette`) can tell how old it is and what
 * it was recorded against.
 */
export interface Provenance {
  /** The upstream port's class (`"OpenAIChatLLM"`), or the API a proxy forwarded to. */
  readonly provider: string;
  /** The model that answered (the request's, when the answer named none). */
  readonly model: string;
  /** This package's version at recording. */
  readonly packageVersion: string;
  /** When, as an ISO-8601 date-time. */
  readonly recordedAt: string;
  /** SHA-256 (24 hex digits) of the system prompt(s), `""` joined. */
  readonly systemHash: string;
  /** SHA-256 (24 hex digits) of the tool declarations' canonical JSON. */
  readonly toolsHash: string;
}

/** The recorded pace of an answer, in milliseconds. */
export interface Timing {
  /** From sending the request to the first chunk (a blocking answer: to the answer). */
  readonly firstChunkMs: number;
  /** Between each chunk and the next. */
  readonly gapsMs?: readonly number[];
}

/** One parsed line. */
export interface CassetteLine {
  readonly request: RecordedCall;
  readonly turn: Turn;
  readonly fault?: Fault;
  /** The key written at recording (matching recomputes it: normalisation rules may have changed). */
  readonly key?: string;
  readonly provenance?: Provenance;
  readonly timing?: Timing;
  /**
   * What the answer asked the next request to send back (`ChatResponse.providerData`:
   * thought signatures, reasoning items), given back with the replayed answer.
   */
  readonly providerData?: ProviderData;
  /** The line's text as it is in the file (so pruning rewrites what was there). */
  readonly source: string;
  /** The 1-based line number in the file. */
  readonly lineNumber: number;
}

/**
 * The format version this package writes, as the `version` field of each
 * entry line; a line without one is version 1 (written before the format
 * was versioned) and is read as it always was.
 */
export const CASSETTE_VERSION = 2;

/** A parsed file. */
export interface ParsedCassette {
  /** The highest version of its lines: 1 for a file written before formats were versioned. */
  readonly version: number;
  readonly lines: CassetteLine[];
}

// Built on first use, not at import: zod itself loads then (runtime/_lazy/),
// so a test file that never needs these schemas never loads it.
function buildSchemas() {
  const z = zod();
  const faultSchema = z.strictObject({
    class: z.enum([
      "ProviderError",
      "ProviderTimeoutError",
      "RateLimitError",
      "ProviderResponseError",
    ]),
    phase: z.enum(["pre_stream", "mid_stream"]),
    retryable: z.boolean().optional(),
    retryAfterMs: z.number().nonnegative().optional(),
    status: z.number().int().optional(),
  });

  const lineSchema = z.strictObject({
    request: z.strictObject({
      model: z.string(),
      messages: z.array(z.record(z.string(), z.unknown())),
      tools: z.array(z.record(z.string(), z.unknown())).optional(),
      settings: z.record(z.string(), z.unknown()).optional(),
    }),
    turn: z.unknown(),
    fault: faultSchema.optional(),
    key: z.string().optional(),
    provenance: z.strictObject({
      provider: z.string(),
      model: z.string(),
      packageVersion: z.string(),
      recordedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), "an ISO-8601 date-time"),
      systemHash: z.string(),
      toolsHash: z.string(),
    }).optional(),
    timing: z.strictObject({
      firstChunkMs: z.number().nonnegative().finite(),
      gapsMs: z.array(z.number().nonnegative().finite()).optional(),
    }).optional(),
    providerData: z.record(z.string(), z.unknown()).optional(),
  });
  return { lineSchema };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = (): ReturnType<typeof buildSchemas> => built ??= buildSchemas();

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

const PLAIN_KEYS = new Set(["request", "turn", "key", "provenance", "timing", "providerData"]);
const PROVENANCE_KEYS = [
  "provider",
  "model",
  "packageVersion",
  "recordedAt",
  "systemHash",
  "toolsHash",
];
const isDuration = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v) && v >= 0;

function plainProvenance(v: unknown): boolean {
  if (!isObject(v) || Object.keys(v).length !== PROVENANCE_KEYS.length) return false;
  for (const k of PROVENANCE_KEYS) if (typeof v[k] !== "string") return false;
  return !Number.isNaN(Date.parse(v.recordedAt as string));
}

function plainTiming(v: unknown): boolean {
  if (!isObject(v) || !isDuration(v.firstChunkMs)) return false;
  for (const k in v) if (k !== "firstChunkMs" && k !== "gapsMs") return false;
  return v.gapsMs === undefined || (Array.isArray(v.gapsMs) && v.gapsMs.every(isDuration));
}

// The common line, checked without zod (a long cassette opens in
// microseconds); anything else goes to zod, which explains what is wrong.
function plainLine(
  value: unknown,
): z.infer<ReturnType<typeof buildSchemas>["lineSchema"]> | undefined {
  if (!isObject(value)) return undefined;
  // A line with a fault (or anything else to check) is left to zod.
  for (const key in value) if (!PLAIN_KEYS.has(key)) return undefined;
  if (value.key !== undefined && typeof value.key !== "string") return undefined;
  if (value.provenance !== undefined && !plainProvenance(value.provenance)) return undefined;
  if (value.timing !== undefined && !plainTiming(value.timing)) return undefined;
  if (value.providerData !== undefined && !isObject(value.providerData)) return undefined;
  const r = value.request;
  if (!isObject(r) || typeof r.model !== "string" || !Array.isArray(r.messages)) return undefined;
  for (const key in r) {
    if (key !== "model" && key !== "messages" && key !== "tools" && key !== "settings") {
      return undefined;
    }
  }
  if (!r.messages.every(isObject)) return undefined;
  if (r.tools !== undefined && !(Array.isArray(r.tools) && r.tools.every(isObject))) {
    return undefined;
  }
  if (r.settings !== undefined && !isObject(r.settings)) return undefined;
  return value as z.infer<ReturnType<typeof buildSchemas>["lineSchema"]>;
}

/** Parses a cassette's text; a bad line is an `InvalidScript` naming it. */
export function parseCassette(text: string, path: string): ParsedCassette {
  const lines: CassetteLine[] = [];
  const raw = text.split("\n");
  let version = 1;
  for (let i = 0; i < raw.length; i++) {
    const source = raw[i].trim();
    if (!source) continue;

    const where = `${path} line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      throw new InvalidScript(
        `${where} is not JSON (${
          (error as Error).message
        }); each line of a cassette is one JSON object { request, turn }: fix the line or re-record with AGENTKIT_CASSETTE=record`,
      );
    }
    const v = lineVersion(value, where);
    if (v > version) version = v;
    const line = plainLine(value) ?? parseOrExplain(schemas().lineSchema, value, where);
    const turn = parseTurn(line.turn, `${where} turn`);
    if (line.fault && turn.error === undefined) {
      throw new InvalidScript(`${where}: a fault needs the turn's error message ("error": "...")`);
    }
    const entry: { -readonly [K in keyof CassetteLine]: CassetteLine[K] } = {
      request: line.request,
      turn,
      source,
      lineNumber: i + 1,
    };
    if (line.fault) entry.fault = line.fault;
    if (line.key !== undefined) entry.key = line.key;
    if (line.provenance) entry.provenance = line.provenance;
    if (line.timing) entry.timing = line.timing;
    if (line.providerData) entry.providerData = line.providerData;
    lines.push(entry);
  }
  return { version, lines };
}

// The line's format version, taken off it (the rest is checked as before).
function lineVersion(value: unknown, where: string): number {
  if (!isObject(value) || !("version" in value)) return 1;
  const v = value.version;
  delete value.version;
  if (!Number.isInteger(v) || (v as number) < 1) {
    throw new InvalidScript(
      `${where}: "version" must be a format version (an integer, ${CASSETTE_VERSION} for this package), got ${
        JSON.stringify(v)
      }`,
    );
  }
  if ((v as number) > CASSETTE_VERSION) {
    throw new InvalidScript(
      `${where} is cassette format version ${v}, newer than this package reads (${CASSETTE_VERSION}): upgrade @agentkit/testing, or re-record the cassette`,
    );
  }
  return v as number;
}

/** The turn a replay plays: the recorded error rebuilt as its class. */
export function replayTurn(line: CassetteLine): Turn {
  const { turn, fault } = line;
  if (!fault || typeof turn.error !== "string") return turn;
  return { ...turn, error: toError(turn.error, fault, turn) };
}

function toError(message: string, fault: Fault, turn: Turn): ProviderError {
  const options = {
    phase: fault.phase,
    status: fault.status,
    usage: turn.usage,
    finishReason: turn.finishReason,
  };
  switch (fault.class) {
    case "RateLimitError":
      return new RateLimitError(message, { ...options, retryAfterMs: fault.retryAfterMs });
    case "ProviderTimeoutError":
      return new ProviderTimeoutError(message, { ...options, retryable: fault.retryable ?? true });
    case "ProviderResponseError":
      return new ProviderResponseError(message, { ...options, retryable: fault.retryable });
    case "ProviderError":
      return new ProviderError(message, { ...options, retryable: fault.retryable });
  }
}

/** A provider failure as data, or `undefined` for what is not recorded. */
export function faultOf(error: unknown, phase: Fault["phase"]): Fault | undefined {
  if (!(error instanceof ProviderError)) return undefined;
  const status = (error as { status?: unknown }).status;
  return {
    class: error instanceof RateLimitError
      ? "RateLimitError"
      : error instanceof ProviderTimeoutError
      ? "ProviderTimeoutError"
      : error instanceof ProviderResponseError
      ? "ProviderResponseError"
      : "ProviderError",
    phase: error.phase === "mid_stream" ? "mid_stream" : phase,
    retryable: error.retryable,
    // An undefined field is not written: the fault goes out through JSON.stringify.
    retryAfterMs: error instanceof RateLimitError ? error.retryAfterMs : undefined,
    status: typeof status === "number" ? status : undefined,
  };
}

/** The request as recorded: JSON values only, no signal. */
export function recordedCall(request: ChatRequest): RecordedCall {
  const call: { -readonly [K in keyof RecordedCall]: RecordedCall[K] } = {
    model: request.model,
    messages: request.messages,
  };
  if (request.tools?.length) call.tools = request.tools;
  if (request.settings) call.settings = request.settings as Record<string, unknown>;
  return call;
}

/** Where a live request first differs from its recording. */
export interface Difference {
  /** The path of the field (`"messages[1].content"`). */
  readonly field: string;
  /** The recorded value there. */
  readonly recorded: unknown;
  /** The live value there. */
  readonly actual: unknown;
}

/**
 * The first field where `actual` (a live request) differs from `recorded`
 * (parsed JSON), with both values there, or `undefined` when they match. An
 * `undefined` property counts as absent; strings are compared after `mask`,
 * which the recording went through (`secret` when the string sits under a
 * secret-named key, at any depth). The values travel with the path because
 * a key may hold a dot or a bracket, which a path cannot be walked back by.
 */
export function firstDifference(
  recorded: unknown,
  actual: unknown,
  mask: (s: string, secret: boolean) => string,
  path = "",
  secret = false,
): Difference | undefined {
  if (recorded === actual) return undefined;
  if (typeof actual === "string") {
    return mask(actual, secret) === recorded ? undefined : { field: path, recorded, actual };
  }
  if (
    recorded === null || actual === null || typeof recorded !== "object" ||
    typeof actual !== "object"
  ) return { field: path, recorded, actual };
  if (Array.isArray(recorded) || Array.isArray(actual)) {
    if (!Array.isArray(recorded) || !Array.isArray(actual)) {
      return { field: path, recorded, actual };
    }
    const n = Math.max(recorded.length, actual.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(recorded[i], actual[i], mask, `${path}[${i}]`, secret);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const r = recorded as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  // A recorded value is never undefined (it is JSON), so an undefined key
  // matches only where the recording lacks it, and differs where it has it.
  for (const key in a) {
    const field = path ? `${path}.${key}` : key;
    const d = firstDifference(r[key], a[key], mask, field, secret || isSecretName(key));
    if (d !== undefined) return d;
  }
  for (const key in r) {
    if (!(key in a)) {
      return { field: path ? `${path}.${key}` : key, recorded: r[key], actual: a[key] };
    }
  }
  return undefined;
}
