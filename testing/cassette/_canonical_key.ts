// The content key's text in one pass: the request projected as a cassette
// records it, scrubbed, normalised (tool-call ids renamed, providerData
// dropped, timestamps and UUIDs in messages replaced, the caller's patterns
// applied) and written as canonical JSON, without building the scrubbed and
// normalised copies on the way. It gives exactly the text of
// canonicalJson(normalizeRequest(scrub(request), patterns)) (a property test
// holds it to that); a request it cannot follow (a tool call that is not an
// object) returns undefined, for the caller to take that slower path.

import type * as Crypto from "node:crypto";
import { builtin } from "../../runtime/internal.ts";

/**
 * The content key of a canonical text: 24 hex digits (96 bits) of a fast
 * non-cryptographic hash, cyrb53's construction widened to three lanes. A
 * key only finds entries (a lookup, among at most thousands of entries of a
 * file anyone can edit), so it needs spread, not collision resistance; a
 * recording proxy keys every exchange, and SHA-256 through node:crypto cost
 * it more than the rest of the key.
 */
export function keyHash(text: string): string {
  let a = 0xdeadbeef ^ text.length;
  let b = 0x41c6ce57 ^ text.length;
  let c = 0x2545f491 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
    c = Math.imul(c ^ ch, 2246822519);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(c ^ (c >>> 13), 3266489909);
  c = Math.imul(c ^ (c >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  a ^= Math.imul(c ^ (c >>> 15), 2654435761);
  return hex8(a) + hex8(b) + hex8(c);
}

const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, "0");

/** SHA-256 of `text`, in hex. */
export function hash(text: string): string {
  cryptoModule ??= builtin<typeof Crypto>("node:crypto", "A cassette's key");
  return cryptoModule.createHash("sha256").update(text).digest("hex");
}
let cryptoModule: typeof Crypto | undefined;

/** A caller's pattern, global and non-sticky, so it holds no state between strings. */
export function globalCopy(pattern: RegExp): RegExp {
  const flags = pattern.flags.replace(/[gy]/g, "");
  return new RegExp(pattern.source, `${flags}g`);
}

/** How strings are scrubbed and which key names are secret. */
export interface KeyScrub {
  /** A string's scrubbed form (`secret`: it sits under a secret-named key). */
  readonly scrub: (s: string, secret: boolean) => string;
  /** Whether a key name is secret. */
  readonly secretName: (name: string) => boolean;
}

const TIMESTAMP =
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const PLACEHOLDER = "<normalized>";
const MAX_MEMO = 50_000;

/** The built-in replacements in a message's strings. */
export function stable(s: string): string {
  return s.replace(TIMESTAMP, "<timestamp>").replace(UUID, "<uuid>");
}

class Unfollowable extends Error {}

/** Writes keys' texts for one scrubber and one list of patterns, remembering each string's text. */
export class KeyWriter {
  readonly #scrub: KeyScrub | undefined;
  readonly #patterns: readonly RegExp[];
  readonly #memos: readonly Map<string, string>[] = [new Map(), new Map(), new Map(), new Map()];
  readonly #names = new Map<string, string>();

  constructor(scrub: KeyScrub | undefined, patterns: readonly RegExp[]) {
    this.#scrub = scrub;
    this.#patterns = patterns;
  }

  /** The canonical text the key hashes, or undefined when the request needs the slow path. */
  text(request: {
    readonly model: unknown;
    readonly messages: readonly unknown[];
    readonly tools?: readonly unknown[];
    readonly settings?: unknown;
  }): string | undefined {
    const ids = new Map<string, string>();
    try {
      // Keys in canonical (sorted) order: messages, model, settings, tools.
      let out = `{"messages":[${
        request.messages.map((m) => this.#message(m, ids) ?? "null").join(",")
      }]`;
      const model = this.#value(request.model, false, false);
      if (model !== undefined) out += `,"model":${model}`;
      if (request.settings) {
        const settings = this.#value(request.settings, false, false);
        if (settings !== undefined) out += `,"settings":${settings}`;
      }
      if (request.tools?.length) {
        const tools = this.#value(request.tools, false, false);
        if (tools !== undefined) out += `,"tools":${tools}`;
      }
      return out + "}";
    } catch (error) {
      if (error instanceof Unfollowable) return undefined;
      throw error;
    }
  }

  #name(k: string): string {
    let text = this.#names.get(k);
    if (text === undefined) {
      if (this.#names.size >= MAX_MEMO) this.#names.clear();
      this.#names.set(k, text = JSON.stringify(k));
    }
    return text;
  }

  #secret(name: string, secret: boolean): boolean {
    return secret || (this.#scrub?.secretName(name) ?? false);
  }

  #string(s: string, secret: boolean, inMessage: boolean): string {
    // One memo per kind of place, looked up by the string itself (whose hash
    // the engine keeps), not by a new string built for the lookup.
    const memo = this.#memos[(inMessage ? 2 : 0) + (secret ? 1 : 0)];
    let out = memo.get(s);
    if (out === undefined) {
      let t = this.#scrub ? this.#scrub.scrub(s, secret) : s;
      if (inMessage) t = stable(t);
      for (const p of this.#patterns) t = t.replace(p, PLACEHOLDER);
      out = JSON.stringify(t);
      if (memo.size >= MAX_MEMO) memo.clear();
      memo.set(s, out);
    }
    return out;
  }

  #id(raw: unknown, secret: boolean, ids: Map<string, string>): string | undefined {
    if (typeof raw !== "string") return this.#value(raw, secret, false);
    const scrubbed = this.#scrub ? this.#scrub.scrub(raw, secret) : raw;
    let renamed = ids.get(scrubbed);
    if (renamed === undefined) ids.set(scrubbed, renamed = `call_${ids.size + 1}`);
    let t = renamed;
    for (const p of this.#patterns) t = t.replace(p, PLACEHOLDER);
    return JSON.stringify(t);
  }

  #message(m: unknown, ids: Map<string, string>): string | undefined {
    if (!isPlain(m)) throw new Unfollowable();
    const parts: string[] = [];
    for (const k of ordered(Object.keys(m))) {
      const v = m[k];
      if (k === "providerData" || v === undefined) continue;
      const secret = this.#secret(k, false);
      let text: string | undefined;
      if (k === "toolCallId") text = this.#id(v, secret, ids);
      else if (k === "toolCalls" && Array.isArray(v)) {
        text = `[${v.map((c) => this.#call(c, secret, ids) ?? "null").join(",")}]`;
      } else text = this.#value(v, secret, true);
      if (text !== undefined) parts.push(`${this.#name(k)}:${text}`);
    }
    return `{${parts.join(",")}}`;
  }

  #call(c: unknown, secret: boolean, ids: Map<string, string>): string | undefined {
    if (!isPlain(c)) throw new Unfollowable();
    const keys = Object.keys(c).filter((k) => k !== "rawArgs");
    if (!("id" in c)) keys.push("id");
    const parts: string[] = [];
    for (const k of ordered(keys)) {
      const v = c[k];
      const s = this.#secret(k, secret);
      const text = k === "id"
        ? (v === undefined ? undefined : this.#id(v, s, ids))
        : this.#value(v, s, true);
      if (text !== undefined) parts.push(`${this.#name(k)}:${text}`);
    }
    return `{${parts.join(",")}}`;
  }

  #value(v: unknown, secret: boolean, inMessage: boolean): string | undefined {
    if (typeof v === "string") return this.#string(v, secret, inMessage);
    if (v === null) return "null";
    if (typeof v === "number") return JSON.stringify(v);
    if (typeof v === "boolean") return v ? "true" : "false";
    if (typeof v !== "object") {
      if (typeof v === "bigint") throw new Unfollowable();
      return undefined; // undefined, a function, a symbol: not JSON
    }
    if (Array.isArray(v)) {
      return `[${v.map((x) => this.#value(x, secret, inMessage) ?? "null").join(",")}]`;
    }
    if (!isPlain(v)) throw new Unfollowable();
    const parts: string[] = [];
    for (const k of ordered(Object.keys(v))) {
      const text = this.#value(v[k], this.#secret(k, secret), inMessage);
      if (text !== undefined) parts.push(`${this.#name(k)}:${text}`);
    }
    return `{${parts.join(",")}}`;
  }
}

// Keys as canonicalJson's sorted object writes them: JSON.stringify puts
// array-index keys ("0", "17") first, in numeric order, then the others in
// the order they were inserted (sorted).
const INDEX = /^(?:0|[1-9]\d{0,9})$/;
function ordered(keys: string[]): string[] {
  keys.sort();
  // Sorted, any index key comes before the first key that is not a digit run.
  const c = keys[0]?.charCodeAt(0) ?? 0;
  if (c < 48 || c > 57) {
    if (
      !keys.some((k) => {
        const d = k.charCodeAt(0);
        return d >= 48 && d <= 57;
      })
    ) return keys;
  }
  const index = keys.filter((k) => INDEX.test(k) && Number(k) < 4294967295);
  if (index.length === 0) return keys;
  index.sort((a, b) => Number(a) - Number(b));
  const set = new Set(index);
  return [...index, ...keys.filter((k) => !set.has(k))];
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
