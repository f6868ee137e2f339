// The text rules of transcript(): one Normalizer per transcript, so the same
// call id always becomes the same `call_N` within it and nothing depends on
// ids, clocks or secrets that differ between runs. Secrets are the
// package's one redaction engine (runtime/_redact.ts), so a transcript masks
// what a cassette and a port's errors mask.
import { isSecretName, REDACTED, redactText } from "../../runtime/internal.ts";

const TIME = "<time>";

// Keys whose values are points in time.
const TIME_KEY = /^(at|ts|time|timestamp|date[-_]?time)$|(At|Time|Timestamp|_at|_time)$/;

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

  /**
   * Free text with credentials redacted and timestamps replaced; what is not
   * a string (content parts, a number a provider sent) is shown as JSON,
   * scrubbed alike.
   */
  text(s: unknown): string {
    if (typeof s !== "string") return this.json(s);
    return redactText(s).replace(ISO_TIME, TIME);
  }

  /**
   * A value as one line of JSON with sorted keys, secret keys redacted, time
   * keys replaced and strings scrubbed like text.
   */
  json(value: unknown): string {
    return JSON.stringify(this.#canonical(value, undefined, false, new Set())) ??
      this.text(String(value));
  }

  /** Text that holds JSON is shown as canonical JSON; other text is scrubbed. */
  content(s: unknown): string {
    if (typeof s !== "string") return this.json(s);
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

  // Under a secret-named key, at any depth, every string (an empty one too:
  // the snapshot does not change when a key is set) and number is masked;
  // the shape stays, so a snapshot still shows what was there.
  #canonical(value: unknown, key: string | undefined, secret: boolean, seen: Set<object>): unknown {
    secret ||= key !== undefined && isSecretName(key);
    if (
      secret &&
      (typeof value === "number" || typeof value === "bigint" || typeof value === "string")
    ) return REDACTED;
    if (key !== undefined && TIME_KEY.test(key) && (typeof value === "number" || isTime(value))) {
      return TIME;
    }
    if (typeof value === "string") return this.text(value);
    if (typeof value === "bigint") return `${value}n`;
    if (value instanceof Date) return TIME;
    if (value instanceof Error) return `${value.name}: ${this.text(String(value.message))}`;
    if (value === null || typeof value !== "object") return value;
    if (seen.has(value)) return "[Circular]";
    seen.add(value);
    try {
      if (Array.isArray(value)) {
        return value.map((v) => this.#canonical(v, undefined, secret, seen));
      }
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) {
        out[k] = this.#canonical((value as Record<string, unknown>)[k], k, secret, seen);
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
