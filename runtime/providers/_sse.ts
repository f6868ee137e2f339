// Reads a server-sent-events body in batches: one batch of messages per
// network read, so a port's stream loop costs one await per read, not per
// message. The line protocol (fields, multi-line data, comments, CRLF, a
// message split across reads) is eventsource-parser's: a small, dependency-free,
// well-kept parser that the AI SDK and the vendor clients' ecosystem rely on,
// and whose 3.x line runs on Node 18+ as well as Deno. It is loaded with the
// first streamed body, not with the package: a test that never streams from a
// provider port never pays for it (bench/cold_start.ts).
import type { EventSourceMessage, EventSourceParser } from "eventsource-parser";

let parsers: typeof import("eventsource-parser") | undefined;

/** One SSE message: its `event:` name (when given) and its `data:`. */
export type SseMessage = EventSourceMessage;

/** Pulls SSE messages off a response body; `cancel()` releases it early. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #parser?: EventSourceParser;
  #batch: SseMessage[] = [];
  #done = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next non-empty batch, or `undefined` once the body ended cleanly. */
  async next(): Promise<SseMessage[] | undefined> {
    if (!this.#parser) {
      parsers ??= await import("eventsource-parser");
      this.#parser = parsers.createParser({ onEvent: (message) => this.#batch.push(message) });
    }
    const parser = this.#parser;
    while (!this.#done) {
      const { value, done } = await this.#reader.read();
      if (done) {
        this.#done = true;
        // A final message without its blank line is incomplete: a cut, so
        // it is dropped (reset without consuming), as a browser would.
        parser.feed(this.#decoder.decode());
        parser.reset();
      } else {
        parser.feed(this.#decoder.decode(value, { stream: true }));
      }
      if (this.#batch.length > 0) {
        const batch = this.#batch;
        this.#batch = [];
        return batch;
      }
    }
    return undefined;
  }

  /** Whether the body ended. */
  get done(): boolean {
    return this.#done;
  }

  /** Stops reading and releases the connection (idempotent). */
  async cancel(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.#reader.cancel().catch(() => {});
  }
}
