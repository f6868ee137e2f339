// Provenance on each recorded entry, and what makes one stale.
import type { Provenance, RecordedCall } from "./_cassette_line.ts";
import { hash } from "./_canonical_key.ts";
import { canonicalJson } from "./cassette_key.ts";

/** This package's version, written into each entry (a test pins it to deno.json's). */
export const PACKAGE_VERSION = "0.1.0";

const DAY_MS = 86_400_000;

/** Provenance for an entry recorded now. */
export function provenanceOf(
  provider: string,
  request: RecordedCall,
  answeredBy: string | undefined,
  nowMs: number,
): Provenance {
  return {
    provider,
    model: answeredBy ?? request.model,
    packageVersion: PACKAGE_VERSION,
    recordedAt: isoAt(nowMs),
    systemHash: systemHash(request),
    toolsHash: toolsHash(request),
  };
}

// `new Date(ms).toISOString()`, formatted once a second: a recording proxy
// dates every exchange, and the engine's formatting costs more than the rest
// of the provenance.
let isoSecond = NaN;
let isoPrefix = "";
/** `new Date(ms).toISOString()`, with the text up to the second kept. */
export function isoAt(ms: number): string {
  const second = Math.floor(ms / 1000);
  // Outside years 0000-9999 the ISO text has another shape: the engine's.
  if (!(ms >= 0 && ms < 253_402_300_800_000)) return new Date(ms).toISOString();
  if (second !== isoSecond) {
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    isoSecond = second;
  }
  const milli = ms - second * 1000;
  return `${isoPrefix}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`;
}

// A recording repeats its system prompt and tools on every request: each
// hash is kept for the text it was computed from.
const hashes = new Map<string, string>();
function memoHash(text: string): string {
  let h = hashes.get(text);
  if (h === undefined) {
    if (hashes.size >= 1_000) hashes.clear();
    hashes.set(text, h = hash(text).slice(0, 24));
  }
  return h;
}

/** The hash of a request's system prompt(s). */
export function systemHash(request: RecordedCall): string {
  const system = request.messages
    .filter((m) => (m as { role?: unknown }).role === "system")
    .map((m) => (m as { content?: unknown }).content);
  // The usual request, one system prompt as text: canonical JSON of
  // `[text]` is JSON.stringify's, so the canonical walk is skipped.
  if (system.length === 1 && typeof system[0] === "string") {
    return memoHash(`[${JSON.stringify(system[0])}]`);
  }
  return memoHash(canonicalJson(system));
}

/** The hash of a request's tool declarations. */
export function toolsHash(request: RecordedCall): string {
  const tools = request.tools;
  return memoHash(tools === undefined || tools.length === 0 ? "[]" : canonicalJson(tools));
}

/**
 * The port's name as provenance gives it: what its `providerFor(request)`
 * says for this request (a recording proxy's dispatch, whose requests go to
 * different ports), else its `provider` string, else its class, else
 * `"unknown"`.
 */
export function providerName(port: unknown, request?: object): string {
  const providerFor = (port as { providerFor?: unknown } | null)?.providerFor;
  if (request && typeof providerFor === "function") {
    const named = providerFor.call(port, request);
    if (typeof named === "string" && named !== "") return named;
  }
  const own = (port as { provider?: unknown } | null)?.provider;
  if (typeof own === "string" && own !== "") return own;
  const name = (port as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === "string" && name !== "" && name !== "Object" ? name : "unknown";
}

/**
 * Why an entry is too old to trust after `days` days, or `undefined` when it
 * is not. An entry without provenance (recorded before the format kept it)
 * has no date to trust, so it is stale under any limit.
 */
export function staleReason(
  provenance: Provenance | undefined,
  days: number,
  nowMs: number,
): string | undefined {
  if (!provenance) {
    return `it has no recorded date (it was written before cassettes kept provenance), and staleAfterDays is ${days}`;
  }
  const age = (nowMs - Date.parse(provenance.recordedAt)) / DAY_MS;
  if (age <= days) return undefined;
  return `it was recorded ${
    Math.floor(age)
  } day(s) ago (${provenance.recordedAt}), more than staleAfterDays ${days}`;
}
