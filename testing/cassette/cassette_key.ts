/**
 * The content key a cassette matches requests by.
 *
 * @module
 */
import type { ChatRequest } from "../../ports/chat.ts";
import { type RecordedCall, recordedCall } from "./_cassette_line.ts";
import { globalCopy, keyHash, KeyWriter } from "./_canonical_key.ts";

/** A request as a cassette records and keys it: model, messages, tools, settings. */
export type CassetteRequest = RecordedCall;

/**
 * One normalisation rule beyond the built-in ones: a pattern, whose every
 * match in every string of the request is replaced by `"<normalized>"`, or
 * a function that returns the request with its volatile parts made stable.
 */
export type CassetteNormalizer = RegExp | ((request: CassetteRequest) => CassetteRequest);

// ISO-8601 date-times (2026-01-31T12:00:00Z, with fractions and offsets) and
// UUIDs: what a prompt carries that differs on every run.
const TIMESTAMP =
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const PLACEHOLDER = "<normalized>";

/**
 * The request with its volatile parts made stable, as the key sees it:
 * tool-call ids renamed `call_1`, `call_2`, ... in order of first
 * appearance (an assistant's `toolCalls[].id` and a tool message's
 * `toolCallId` alike, so a pairing is kept and a generated id is not),
 * `providerData` (opaque, per-run: thought signatures, item ids) dropped,
 * ISO-8601 timestamps replaced by `"<timestamp>"` and UUIDs by `"<uuid>"`
 * in every string; then each of `rules` in turn.
 *
 * @param request The request (already scrubbed, when it is to be compared with a recording).
 * @param rules More rules: patterns and functions (see {@linkcode CassetteNormalizer}).
 * @returns A new request; the given one is not changed.
 *
 * @example Generated ids and timestamps do not count
 * ```ts
 * import { normalizeRequest } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const n = normalizeRequest({
 *   model: "m",
 *   messages: [
 *     { role: "user", content: "now is 2026-03-01T10:00:00Z" },
 *     { role: "assistant", content: "", toolCalls: [{ id: "call_x7Yq", name: "t", args: {} }] },
 *     { role: "tool", content: "ok", toolCallId: "call_x7Yq" },
 *   ],
 * });
 * assertEquals(n.messages[0], { role: "user", content: "now is <timestamp>" });
 * assertEquals((n.messages[2] as { toolCallId: string }).toolCallId, "call_1");
 * ```
 */
export function normalizeRequest(
  request: CassetteRequest | ChatRequest,
  rules: readonly CassetteNormalizer[] = [],
): CassetteRequest {
  // What a cassette records of a request: model, messages, tools (when any), settings.
  request = recordedCall(request as ChatRequest);
  const ids = new Map<string, string>();
  const id = (raw: unknown): unknown => {
    if (typeof raw !== "string") return raw;
    let stable = ids.get(raw);
    if (stable === undefined) ids.set(raw, stable = `call_${ids.size + 1}`);
    return stable;
  };
  const messages = request.messages.map((m) => {
    const out: Record<string, unknown> = {};
    // In sorted order, so ids are renamed the same whatever order keys were written in.
    for (const k of Object.keys(m as Record<string, unknown>).sort()) {
      const v = (m as Record<string, unknown>)[k];
      if (k === "providerData" || v === undefined) continue;
      if (k === "toolCallId") out[k] = id(v);
      else if (k === "toolCalls" && Array.isArray(v)) {
        out[k] = v.map((c) => {
          const call = { ...(c as Record<string, unknown>) };
          call.id = id(call.id);
          delete call.rawArgs;
          return stableStrings(call);
        });
      } else out[k] = stableStrings(v);
    }
    return out;
  });
  let normalized: CassetteRequest = { ...(request as CassetteRequest), messages };
  for (const rule of rules) {
    normalized = typeof rule === "function"
      ? rule(normalized)
      : mapStrings(normalized, (s) => s.replace(globalCopy(rule), PLACEHOLDER)) as CassetteRequest;
  }
  return normalized;
}

/**
 * The content key of a request: a 96-bit hash (24 hex digits; a lookup
 * key, not a cryptographic digest) of its canonical JSON (keys sorted, `undefined` dropped) after
 * {@linkcode normalizeRequest}. Two requests that differ only in generated
 * ids, timestamps, key order or `providerData` have the same key; any other
 * change of model, messages, tools or settings gives another.
 *
 * @param request The request (scrubbed as the recording was), as recorded or as sent.
 * @param rules More normalisation rules.
 * @returns The key, 24 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { cassetteKey } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const a = cassetteKey({ model: "m", messages: [{ role: "user", content: "hi" }] });
 * const b = cassetteKey({ messages: [{ content: "hi", role: "user" }], model: "m" });
 * assertEquals(a, b);
 * assert(a !== cassetteKey({ model: "m", messages: [{ role: "user", content: "hello" }] }));
 * ```
 */
export function cassetteKey(
  request: CassetteRequest | ChatRequest,
  rules: readonly CassetteNormalizer[] = [],
): string {
  if (rules.every((r) => r instanceof RegExp)) {
    const text = new KeyWriter(undefined, (rules as RegExp[]).map(globalCopy)).text(
      recordedCall(request as ChatRequest),
    );
    if (text !== undefined) return keyHash(text);
  }
  return keyHash(canonicalJson(normalizeRequest(request, rules)));
}

/** Canonical JSON: object keys sorted, `undefined` properties dropped, as JSON.stringify otherwise. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => v === undefined ? null : sortKeys(v));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = sortKeys(v);
  }
  return out;
}

function stableStrings(value: unknown): unknown {
  return mapStrings(
    value,
    (s) => s.replace(TIMESTAMP, "<timestamp>").replace(UUID, "<uuid>"),
  );
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === "string") return f(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, f);
  return out;
}
