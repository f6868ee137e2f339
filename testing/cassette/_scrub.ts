// A cassette's scrubbing of requests, memoised: the Redactor's rules, applied
// string by string as Redactor.json applies them (a string under a
// secret-named key masked whole, any other scrubbed as text), with each
// string's and each key name's verdict kept. A conversation's requests repeat
// every earlier message, so all but the newest strings are found in the memo;
// what comes out is exactly what Redactor.json gives.
import { isSecretName, type Redactor } from "../../runtime/internal.ts";

// Past this many distinct strings the memo is dropped and started again.
const MAX_MEMO = 50_000;

/** Scrubs JSON-like values with one redactor's rules, remembering each verdict. */
export class Scrubber {
  readonly #redactor: Redactor;
  readonly #texts = new Map<string, string>();
  readonly #names = new Map<string, boolean>();

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  /** A deep copy of `value` as `redactor.json(value)` would give it. */
  json(value: unknown, secret = false): unknown {
    if (typeof value === "string") return this.#field(value, secret);
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => this.json(v, secret));
    if (Object.getPrototypeOf(value) !== Object.prototype) {
      // Errors, dates, class instances: the redactor's own handling.
      return this.#redactor.json(value, secret);
    }
    const out: Record<string, unknown> = {};
    for (const k in value) {
      const v = (value as Record<string, unknown>)[k];
      out[k] = this.json(v, secret || this.#secretName(k));
    }
    return out;
  }

  /** One string, as `redactor.field(s, secret)` gives it. */
  field(s: string, secret: boolean): string {
    return this.#field(s, secret);
  }

  /** Whether a key name is secret (remembered). */
  secretName(k: string): boolean {
    return this.#secretName(k);
  }

  #field(s: string, secret: boolean): string {
    if (secret) return this.#redactor.field(s, true);
    let out = this.#texts.get(s);
    if (out === undefined) {
      if (this.#texts.size >= MAX_MEMO) this.#texts.clear();
      out = this.#redactor.text(s);
      this.#texts.set(s, out);
    }
    return out;
  }

  #secretName(k: string): boolean {
    let v = this.#names.get(k);
    if (v === undefined) this.#names.set(k, v = isSecretName(k));
    return v;
  }
}
