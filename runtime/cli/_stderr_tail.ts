// Drains a process's stderr in the background (a full pipe would block the
// process) and keeps its tail for error reports.
import type { CliStderr } from "../../ports/cli.ts";

const MAX_BYTES = 64 * 1024;
const lenient = new TextDecoder("utf-8");

/** Reads stderr to its end, keeping the last 64 KiB. */
export class StderrTail {
  readonly done: Promise<void>;
  #parts: Uint8Array[] = [];
  #size = 0;
  #truncated = false;
  #reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
    this.done = this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      while (true) {
        const r = await this.#reader.read();
        if (r.done) return;
        this.#parts.push(r.value);
        this.#size += r.value.length;
        while (this.#size > MAX_BYTES && this.#parts.length > 1) {
          this.#size -= this.#parts.shift()!.length;
          this.#truncated = true;
        }
      }
    } catch {
      // A stream that errors has said all it will.
    }
  }

  /** What was captured so far. */
  snapshot(exitCode?: number): CliStderr {
    let bytes: Uint8Array;
    if (this.#parts.length === 1) bytes = this.#parts[0];
    else {
      bytes = new Uint8Array(this.#size);
      let off = 0;
      for (const p of this.#parts) {
        bytes.set(p, off);
        off += p.length;
      }
    }
    let truncated = this.#truncated;
    if (bytes.length > MAX_BYTES) {
      bytes = bytes.subarray(bytes.length - MAX_BYTES);
      truncated = true;
    }
    return {
      text: lenient.decode(bytes),
      truncated,
      ...(exitCode !== undefined ? { exitCode } : {}),
    };
  }
}
