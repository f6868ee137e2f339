// The text rules of transcript(): one Normalizer per transcript, so the same
// call id always becomes the same `call_N` within it and nothing depends on
// ids, clocks or secrets that differ between runs.

const REDACTED = "[REDACTED]";
const TIME = "<time>";

// Keys whose values are credentials, whatever they hold.
const SECRET_KEY =
  /^(api[-_]?key|x[-_]api[-_]key|authorization|proxy[-_]authorization|password|passwd|secret|client[-_]?secret|(access|refresh|id|auth|bearer|session)[-_]?token|token|cookie|set[-_]cookie|private[-_]?key)$/i;

// Keys whose values are points in time.
const TIME_KEY = /^(at|ts|time|timestamp|date[-_]?time)$|(At|Time|Timestamp|_at|_time)$/;

// Credentials in free text: vendor key formats, bearer tokens, JWTs.
const SECRET_TEXT: readonly RegExp[] = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;

// An ISO-8601 date with a time of day (a bare date is content, not a clock).
const ISO_TIME =
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;

/** Renames ids in order of appearance and scrubs text. */
export class Normalizer {
  readonly #ids = new Map<string, string>();
  readonly #messages = new Map<string, string>();

  /** `call_1`, `call_2`, ... by first appearance. */
  callId(id: string): string {
    let name = this.#ids.get(id);
    if (name === undefined) this.#ids.set(id, name = `call_${this.#ids.size + 1}`);
    return name;
  }

  /** `msg_1`, `msg_2`, ... by first appearance. */
  messageId(id: string): string {
    let name = this.#messages.get(id);
    if (name === undefined) this.#messages.set(id, name = `msg_${this.#messages.size + 1}`);
    return name;
  }

  /** Free text with credentials redacted and timestamps replaced. */
  text(s: string): string {
    let out = s.replace(BEARER, (_, scheme) => `${scheme} ${REDACTED}`);
    for (const re of SECRET_TEXT) out = out.replace(re, REDACTED);
    return out.replace(ISO_TIME, TIME);
  }

  /**
   * A value as one line of JSON with sorted keys, secret keys redacted, time
   * keys replaced and strings scrubbed like text.
   */
  json(value: unknown): string {
    return JSON.stringify(this.#canonical(value, undefined, new Set())) ?? String(value);
  }

  /** Text that holds JSON is shown as canonical JSON; other text is scrubbed. */
  content(s: string): string {
    const t = s.trim();
    if ((t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"))) {
      try {
        return this.json(JSON.parse(t));
      } catch {
        // Not JSON after all: show it as text.
      }
    }
    return this.text(s);
  }

  #canonical(value: unknown, key: string | undefined, seen: Set<object>): unknown {
    if (key !== undefined && SECRET_KEY.test(key) && value !== undefined && value !== null) {
      return REDACTED;
    }
    if (key !== undefined && TIME_KEY.test(key) && (typeof value === "number" || isTime(value))) {
      return TIME;
    }
    if (typeof value === "string") return this.text(value);
    if (typeof value === "bigint") return `${value}n`;
    if (value instanceof Date) return TIME;
    if (value instanceof Error) return `${value.name}: ${this.text(value.message)}`;
    if (value === null || typeof value !== "object") return value;
    if (seen.has(value)) return "[Circular]";
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((v) => this.#canonical(v, undefined, seen));
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) {
        out[k] = this.#canonical((value as Record<string, unknown>)[k], k, seen);
      }
      return out;
    } finally {
      seen.delete(value);
    }
  }
}

function isTime(value: unknown): boolean {
  if (typeof value !== "string") return false;
  ISO_TIME.lastIndex = 0;
  return ISO_TIME.test(value);
}

/** `label: text`, continuation lines indented by two spaces. */
export function line(label: string, text: string): string {
  if (text === "") return label;
  return `${label}: ${text.replace(/\r?\n/g, "\n  ")}`;
}
