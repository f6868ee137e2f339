// The one replay mechanism both CLI doubles share: a fake process that
// writes scripted runs (CliRun) to its stdout, one line per read, optionally
// paced on the run's clock, and exits the way the run says.
import type { CliInvocation, CliRun } from "../../ports/cli.ts";
import type { ClockPort } from "../../ports/clock.ts";
import type { SpawnedProcess, SpawnExit } from "../../ports/spawn.ts";

/** A spawn record the double updates while the process runs. */
export interface LiveInvocation extends CliInvocation {
  stdin: string[];
  killed: boolean;
  exitCode?: number;
}

/** How a fake process behaves. */
export interface FakeProcessSetup {
  readonly invocation: LiveInvocation;
  readonly clock: ClockPort;
  readonly lineDelayMs: number;
  readonly signal?: AbortSignal;
  /** One-shot (codex): the run it plays at once, then exits. */
  readonly run?: CliRun;
  /** Long-lived (claude): the run to play for each user line on stdin. */
  readonly onUserLine?: () => CliRun;
  /** Whether the process has a stdin. */
  readonly piped: boolean;
}

const encoder = new TextEncoder();
const NEWLINE = 10;

/** Encodes one scripted line, with its newline unless `bare`. */
export function lineBytes(line: string | Uint8Array, bare: boolean): Uint8Array {
  if (typeof line === "string") return encoder.encode(bare ? line : `${line}\n`);
  if (bare) return line.slice();
  const out = new Uint8Array(line.length + 1);
  out.set(line);
  out[line.length] = NEWLINE;
  return out;
}

/** A process whose output is a script. */
export class FakeProcess implements SpawnedProcess {
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly stdin?: WritableStream<Uint8Array>;
  readonly exited: Promise<SpawnExit>;
  readonly #setup: FakeProcessSetup;
  readonly #queue: Uint8Array[] = [];
  readonly #kill = new AbortController();
  #stderr?: ReadableStreamDefaultController<Uint8Array>;
  #resolveExit!: (exit: SpawnExit) => void;
  #endCode?: number;
  #done = false;
  #stdoutGone = false;
  #wake?: () => void;
  #pending = "";
  readonly #decoder = new TextDecoder();

  constructor(setup: FakeProcessSetup) {
    this.#setup = setup;
    this.exited = new Promise<SpawnExit>((resolve) => this.#resolveExit = resolve);
    this.stdout = new ReadableStream<Uint8Array>({
      pull: (c) => this.#pull(c),
      cancel: () => {
        this.#stdoutGone = true;
        this.#maybeFinish();
      },
    }, { highWaterMark: 0 });
    this.stderr = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.#stderr = c;
      },
    });
    if (setup.piped) {
      this.stdin = new WritableStream<Uint8Array>({
        write: (chunk) => this.#write(chunk),
        close: () => this.#stdinClosed(),
        abort: () => this.#stdinClosed(),
      });
    }
    if (setup.run) this.#play(setup.run, true);
    else if (!setup.piped) this.#end(0);
    const signal = setup.signal;
    if (signal) {
      if (signal.aborted) this.kill();
      else signal.addEventListener("abort", () => this.kill(), { once: true });
    }
  }

  kill(): void {
    if (this.#done) return;
    this.#setup.invocation.killed = true;
    this.#kill.abort(new Error("killed"));
    this.#queue.length = 0;
    this.#finish(143);
    this.#wake?.();
  }

  #play(run: CliRun, last: boolean): void {
    const n = Math.min(run.exitAfterLines ?? run.lines.length, run.lines.length);
    for (let i = 0; i < n; i++) {
      this.#queue.push(lineBytes(run.lines[i], run.unterminated === true && i === n - 1));
    }
    if (run.stderr) this.#stderr?.enqueue(encoder.encode(run.stderr));
    if (
      last || run.exitCode !== undefined || run.exitAfterLines !== undefined || run.unterminated
    ) {
      this.#end(run.exitCode ?? 0);
    }
    this.#wake?.();
  }

  #end(code: number): void {
    if (this.#endCode === undefined) this.#endCode = code;
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    if (this.#endCode !== undefined && (this.#queue.length === 0 || this.#stdoutGone)) {
      this.#finish(this.#endCode);
    }
  }

  #finish(code: number): void {
    if (this.#done) return;
    this.#done = true;
    this.#setup.invocation.exitCode = code;
    try {
      this.#stderr?.close();
    } catch {
      // Already closed.
    }
    this.#resolveExit({ code });
  }

  async #pull(c: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    while (true) {
      const next = this.#queue.shift();
      if (next) {
        const delay = this.#setup.lineDelayMs;
        if (delay > 0) {
          try {
            await this.#setup.clock.sleep(delay, this.#kill.signal);
          } catch {
            return close(c);
          }
        }
        if (this.#stdoutGone) return;
        c.enqueue(next);
        if (this.#queue.length === 0 && this.#endCode !== undefined) {
          close(c);
          this.#finish(this.#endCode);
        }
        return;
      }
      if (this.#done || this.#endCode !== undefined) {
        close(c);
        this.#maybeFinish();
        return;
      }
      await new Promise<void>((resolve) => this.#wake = resolve);
      this.#wake = undefined;
    }
  }

  #write(chunk: Uint8Array): void {
    if (this.#done) {
      throw new Error("write to a process that has exited (EPIPE)");
    }
    this.#pending += this.#decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = this.#pending.indexOf("\n")) >= 0) {
      const line = this.#pending.slice(0, at);
      this.#pending = this.#pending.slice(at + 1);
      if (!line.trim()) continue;
      this.#setup.invocation.stdin.push(line);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if ((message as { type?: unknown })?.type === "user" && this.#setup.onUserLine) {
        this.#play(this.#setup.onUserLine(), false);
      }
    }
  }

  #stdinClosed(): void {
    this.#end(0);
    this.#wake?.();
  }
}

function close(c: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    c.close();
  } catch {
    // The reader cancelled first.
  }
}
