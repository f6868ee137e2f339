// One `deno run deno_harness.ts` for the runner (deno_runner.ts) and its
// JSON-lines channel. Kept free of Stryker imports so a Deno test can drive it.
//
// The harness runs in a process group of its own, and it is killed as a
// group: a mutant of spawn code can leave a child behind (a
// `print_jsonl.ts hang` its test never stops), and killing only the harness
// would leave that child running after Stryker ends. A harness the runner
// never killed (Stryker ended without `dispose`) is killed when Node exits.
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";

export const MARKER = "\u0001stryker-deno\u0001";
const HARNESS = fileURLToPath(new URL("./deno_harness.ts", import.meta.url));

/** The log the harness writes to (Stryker's Logger has these). */
export interface HarnessLog {
  debug(message: string, ...args: unknown[]): void;
  trace(message: string, ...args: unknown[]): void;
}

/** A command got no reply by its deadline. */
export class Expired extends Error {
  override name = "Expired";
}

/** The process died during a command. */
export class Exited extends Error {
  override name = "Exited";
}

/** Harnesses whose process group has not been killed yet. */
const live = new Set<Harness>();
let killOnExit = false;

export class Harness {
  readonly #child: ChildProcess;
  readonly #log: HarnessLog;
  #stdout = "";
  #stderr = "";
  #waiting: {
    resolve: (v: Record<string, unknown>) => void;
    reject: (e: Error) => void;
  }[] = [];
  #exit: Error | undefined;
  #killed = false;
  /** The test a mutant run started last. */
  started: string | undefined;

  constructor(deno: string, args: string[], cwd: string, log: HarnessLog) {
    this.#log = log;
    this.#child = spawn(deno, ["run", ...args, HARNESS], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
      // A process group of its own (setsid), with every process its tests start.
      detached: process.platform !== "win32",
    });
    live.add(this);
    if (!killOnExit) {
      killOnExit = true;
      process.once("exit", () => {
        for (const harness of live) harness.kill();
      });
    }
    this.#child.stdout!.setEncoding("utf8").on(
      "data",
      (text: string) => this.#read(text),
    );
    this.#child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-4000);
      this.#log.debug("deno: %s", text.trimEnd());
    });
    this.#child.on("exit", (code, signal) => {
      this.#exit = new Exited(
        `The Deno harness exited (${signal ?? `code ${code}`}): ${this.#stderr.trim()}`,
      );
      for (const waiter of this.#waiting.splice(0)) waiter.reject(this.#exit);
    });
    this.#child.on("error", (error) => {
      this.#exit = error;
      for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
    });
    this.#child.stdin!.on("error", () => {}); // a dead harness is reported by "exit"
  }

  /** The harness's process id, which is also its process group's. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  #read(text: string): void {
    this.#stdout += text;
    let newline;
    while ((newline = this.#stdout.indexOf("\n")) >= 0) {
      const line = this.#stdout.slice(0, newline);
      this.#stdout = this.#stdout.slice(newline + 1);
      const at = line.indexOf(MARKER);
      if (at < 0) {
        if (line.trim()) this.#log.trace("test output: %s", line);
        continue;
      }
      const message = JSON.parse(line.slice(at + MARKER.length));
      if (message.op === "started") {
        this.started = message.id;
        continue;
      }
      const waiter = this.#waiting.shift();
      if (!waiter) continue;
      if (message.op === "error") waiter.reject(new Error(message.message));
      else waiter.resolve(message);
    }
  }

  /** Sends a command; its reply, or a rejection at the deadline (epoch ms). */
  send(
    command: Record<string, unknown>,
    deadline = Infinity,
  ): Promise<Record<string, unknown>> {
    if (this.#exit) return Promise.reject(this.#exit);
    this.started = undefined;
    const reply = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
    });
    this.#child.stdin!.write(`${JSON.stringify(command)}\n`);
    if (deadline === Infinity) return reply;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Expired()),
        Math.max(0, deadline - Date.now()),
      );
    });
    return Promise.race([reply, expired]).finally(() => clearTimeout(timer));
  }

  /**
   * Kills the harness and every process still in its group, once; also when
   * the harness already exited on its own (its children may not have).
   */
  kill(): void {
    if (this.#killed) return;
    this.#killed = true;
    live.delete(this);
    this.#child.stdin!.end();
    const pid = this.#child.pid;
    if (pid === undefined) return; // it never started
    if (process.platform === "win32") {
      if (!this.#exit) this.#child.kill("SIGKILL");
      return;
    }
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // ESRCH: the harness and everything it started have ended already.
    }
  }
}
