// The one line reader both CLI cognitions use: splits a byte stream into
// lines, decodes each leniently, parses it, and never throws on a bad line.

/** One line of the stream, parsed or not. */
export type JsonlItem =
  | {
    readonly kind: "event";
    /** The 1-based line number. */
    readonly line: number;
    /** The parsed object. */
    readonly event: Readonly<Record<string, unknown>>;
    /** True when the line was not valid UTF-8 and was decoded with U+FFFD. */
    readonly lossy: boolean;
  }
  | {
    readonly kind: "bad";
    readonly line: number;
    /** The decoded text (its first 200 characters). */
    readonly text: string;
    /** Why it was skipped. */
    readonly reason: string;
    /** True for a last line that ended without its newline and does not parse. */
    readonly truncated: boolean;
    readonly lossy: boolean;
  };

const NEWLINE = 10;
const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/**
 * Reads JSON lines from a byte stream. Lines are split on bytes (a newline
 * byte never occurs inside a UTF-8 sequence), so a chunk boundary anywhere is
 * harmless; each line is decoded on its own, strictly first and leniently
 * when that fails, so one bad byte costs one line's exactness, not the run.
 */
export class JsonlReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #parts: Uint8Array[] = [];
  #chunk: Uint8Array = new Uint8Array(0);
  #pos = 0;
  #line = 0;
  #eof = false;
  #cancelled = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /** Whether the stream has ended. */
  get ended(): boolean {
    return this.#eof;
  }

  /** The next non-empty line, or `undefined` at the end of the stream. */
  async next(): Promise<JsonlItem | undefined> {
    while (true) {
      const at = this.#chunk.indexOf(NEWLINE, this.#pos);
      if (at >= 0) {
        const piece = this.#chunk.subarray(this.#pos, at);
        this.#pos = at + 1;
        const bytes = this.#parts.length ? this.#join(piece) : piece;
        const item = this.#parse(bytes, false);
        if (item) return item;
        continue;
      }
      if (this.#pos < this.#chunk.length) this.#parts.push(this.#chunk.subarray(this.#pos));
      this.#chunk = new Uint8Array(0);
      this.#pos = 0;
      if (this.#eof) return undefined;
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await this.#reader.read();
      } catch {
        // A stream that errors (a killed process) ends like one that closes.
        r = { done: true, value: undefined };
      }
      if (r.done) {
        this.#eof = true;
        if (!this.#parts.length || this.#cancelled) return undefined;
        const rest = this.#join(new Uint8Array(0));
        return this.#parse(rest, true) ?? undefined;
      }
      this.#chunk = r.value;
    }
  }

  /** Stops reading: a pending `next()` resolves with `undefined`. */
  cancel(reason?: unknown): void {
    this.#eof = true;
    this.#cancelled = true;
    this.#reader.cancel(reason).catch(() => {});
  }

  #join(last: Uint8Array): Uint8Array {
    let size = last.length;
    for (const p of this.#parts) size += p.length;
    const out = new Uint8Array(size);
    let off = 0;
    for (const p of this.#parts) {
      out.set(p, off);
      off += p.length;
    }
    out.set(last, off);
    this.#parts = [];
    return out;
  }

  #parse(bytes: Uint8Array, final: boolean): JsonlItem | undefined {
    const line = ++this.#line;
    let lossy = false;
    let text: string;
    try {
      text = strict.decode(bytes);
    } catch {
      lossy = true;
      text = lenient.decode(bytes);
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (!text.trim()) {
      this.#line--;
      return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return {
        kind: "bad",
        line,
        text: text.slice(0, 200),
        reason: final
          ? "the stream ended in the middle of this line"
          : `not valid JSON (${(error as Error).message})`,
        truncated: final,
        lossy,
      };
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return {
        kind: "bad",
        line,
        text: text.slice(0, 200),
        reason: "not a JSON object",
        truncated: false,
        lossy,
      };
    }
    return { kind: "event", line, event: value as Record<string, unknown>, lossy };
  }
}
