/**
 * The process seam: how a CLI cognition starts a subprocess. The runtime's
 * `systemSpawn` is the real adapter; `FakeClaudeCli` and `FakeCodexCli` are
 * the doubles.
 *
 * @module
 */
import type { ClockPort } from "./clock.ts";

/**
 * Options of one {@linkcode SpawnPort} call.
 *
 * @example
 * ```ts
 * import type { SpawnOptions } from "@agentkit/testing/ports";
 * const options: SpawnOptions = { stdin: "piped", cwd: "/repo", env: { NO_COLOR: "1" } };
 * ```
 */
export interface SpawnOptions {
  /**
   * `"piped"` gives the process a writable `stdin` (claude reads its
   * multi-turn input there); `"null"` gives it none.
   * @default {"null"}
   */
  readonly stdin?: "piped" | "null";
  /**
   * Variables set on top of the parent's environment.
   * @default {none: the parent's environment as it is}
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The working directory.
   * @default {the parent's}
   */
  readonly cwd?: string;
  /**
   * Kills the process when it aborts.
   * @default {none}
   */
  readonly signal?: AbortSignal;
  /**
   * The run's clock. A real process ignores it; a double that paces its
   * output (`lineDelayMs`) waits on it, so a `FakeClock` controls the pace.
   * @default {none}
   */
  readonly clock?: ClockPort;
}

/**
 * How a process ended.
 *
 * @example
 * ```ts
 * import type { SpawnExit } from "@agentkit/testing/ports";
 * const ok: SpawnExit = { code: 0 };
 * ```
 */
export interface SpawnExit {
  /** The exit code; 128 + the signal number for a killed process (143 for SIGTERM). */
  readonly code: number;
}

/**
 * A running process: its output as byte streams, its input, its exit.
 *
 * @example A process that has already finished
 * ```ts
 * import type { SpawnedProcess } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const bytes = new TextEncoder().encode('{"type":"ping"}\n');
 * const proc: SpawnedProcess = {
 *   stdout: new ReadableStream({ start: (c) => { c.enqueue(bytes); c.close(); } }),
 *   stderr: new ReadableStream({ start: (c) => c.close() }),
 *   exited: Promise.resolve({ code: 0 }),
 *   kill() {},
 * };
 * assertEquals(await new Response(proc.stdout).text(), '{"type":"ping"}\n');
 * assertEquals((await proc.exited).code, 0);
 * ```
 */
export interface SpawnedProcess {
  /** What the process writes to stdout. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** What the process writes to stderr. */
  readonly stderr: ReadableStream<Uint8Array>;
  /** The process's stdin, when spawned with `stdin: "piped"`. */
  readonly stdin?: WritableStream<Uint8Array>;
  /** Settles when the process has exited. */
  readonly exited: Promise<SpawnExit>;
  /** Ends the process (SIGTERM). Safe to call twice or after it exited. */
  kill(): void;
}

/**
 * Starts a process: `argv[0]` is the program, the rest its arguments. May
 * throw at once when the program cannot be started (not found).
 *
 * @example A port that only records what it was asked to run
 * ```ts
 * import type { SpawnPort } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const seen: string[][] = [];
 * const spawn: SpawnPort = (argv) => {
 *   seen.push([...argv]);
 *   return {
 *     stdout: new ReadableStream({ start: (c) => c.close() }),
 *     stderr: new ReadableStream({ start: (c) => c.close() }),
 *     exited: Promise.resolve({ code: 0 }),
 *     kill() {},
 *   };
 * };
 * await spawn(["codex", "exec", "--json", "hi"]).exited;
 * assertEquals(seen, [["codex", "exec", "--json", "hi"]]);
 * ```
 */
export type SpawnPort = (argv: readonly string[], options?: SpawnOptions) => SpawnedProcess;

/**
 * Something that spawns: what the CLI doubles are, so a cognition takes
 * `{ spawn: cli }` as readily as `{ spawn: systemSpawn }`.
 *
 * @example
 * ```ts
 * import type { SpawnPort, Spawner } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const port: SpawnPort = () => ({
 *   stdout: new ReadableStream({ start: (c) => c.close() }),
 *   stderr: new ReadableStream({ start: (c) => c.close() }),
 *   exited: Promise.resolve({ code: 0 }),
 *   kill() {},
 * });
 * const host: Spawner = { spawn: port };
 * assertEquals((await host.spawn(["true"]).exited).code, 0);
 * ```
 */
export interface Spawner {
  /** Starts a process. */
  readonly spawn: SpawnPort;
}
