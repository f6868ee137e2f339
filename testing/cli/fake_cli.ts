/**
 * What both CLI doubles are: a finite script of runs played at the spawn
 * seam, and the record of every spawn.
 *
 * @module
 */
import type { CliInvocation, CliRun } from "../../ports/cli.ts";
import type { SpawnedProcess, Spawner, SpawnOptions, SpawnPort } from "../../ports/spawn.ts";
import type { HarnessError } from "../../runtime/harness_error.ts";
import { SystemClock } from "../../runtime/system_clock.ts";
import { InvalidScript, ScriptExhausted, UnusedTurns } from "../errors.ts";
import { failedRuns, verifyAtDispose } from "../_dispose_verify.ts";
import { FakeProcess, type LiveInvocation } from "./_fake_process.ts";
import type { FakeCliOptions } from "./fake_cli_options.ts";

const FALLBACK_CLOCK = new SystemClock();

/**
 * The shared face of {@linkcode FakeClaudeCli} and {@linkcode FakeCodexCli}:
 * the spawn port, the record (`spawns`, `argv(i)`), how far the script got
 * (`turnsTaken`, `unusedTurns`), and the finite claim (`verify()`, and
 * `using` verifies at scope exit). The two differ in what a turn is: the
 * claude double plays a turn per user line on one long-lived process, the
 * codex double a turn per spawn. Build one with their static factories;
 * take a `FakeCli` where either will do.
 *
 * @example A helper that checks either CLI double
 * ```ts
 * import { FakeClaudeCli, type FakeCli, FakeCodexCli } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const untouched = (cli: FakeCli) => [cli.turnsTaken, cli.unusedTurns, cli.spawns.length];
 * assertEquals(untouched(FakeClaudeCli.script(["a"])), [0, 1, 0]);
 * assertEquals(untouched(FakeCodexCli.answering("a", "b")), [0, 2, 0]);
 * ```
 */
export abstract class FakeCli implements Spawner, Disposable {
  readonly #double: string;
  readonly #runs: readonly CliRun[];
  readonly #options: FakeCliOptions;
  readonly #mode: "session" | "oneshot";
  readonly #spawns: LiveInvocation[] = [];
  readonly #harnessErrors: HarnessError[] = [];
  #taken = 0;
  // failedRuns() at the last turn taken: a process is given no run context,
  // so the dispose asks about the last run that failed (../_dispose_verify.ts).
  #servedAt = failedRuns();

  /**
   * Holds the script; the subclasses' factories validate it first.
   *
   * @param double How errors name the double (`"FakeCodexCli.script"`).
   * @param runs The turns, already checked.
   * @param options Pacing and finiteness, already checked.
   * @param mode `"session"`: one process plays a turn per user line on its
   * stdin; `"oneshot"`: each spawn plays the next turn and exits.
   * @throws {InvalidScript} When there are no runs.
   */
  protected constructor(
    double: string,
    runs: readonly CliRun[],
    options: FakeCliOptions,
    mode: "session" | "oneshot",
  ) {
    if (runs.length === 0) {
      throw new InvalidScript(
        `${double} needs at least one turn; a script of none would fail on the first turn`,
      );
    }
    this.#double = double;
    this.#runs = runs;
    this.#options = options;
    this.#mode = mode;
  }

  /** Starts a fake process (bound: pass `cli.spawn` or `cli` itself). */
  readonly spawn: SpawnPort = (
    argv: readonly string[],
    options: SpawnOptions = {},
  ): SpawnedProcess => {
    if (!Array.isArray(argv) || argv.length === 0) {
      throw new TypeError(
        `Cannot spawn: argv must be a non-empty array, got ${JSON.stringify(argv)}`,
      );
    }
    const invocation: LiveInvocation = {
      argv: [...argv],
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.env !== undefined ? { env: { ...options.env } } : {}),
      stdin: [],
      killed: false,
    };
    // A one-shot process takes its turn at spawn, so running out fails the spawn.
    const run = this.#mode === "oneshot" ? this.#take() : undefined;
    this.#spawns.push(invocation);
    return new FakeProcess({
      invocation,
      clock: options.clock ?? FALLBACK_CLOCK,
      lineDelayMs: this.#options.lineDelayMs ?? 0,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(run ? { run } : {}),
      ...(this.#mode === "session" ? { onUserLine: () => this.#take() } : {}),
      piped: options.stdin === "piped",
    });
  };

  /** Every spawn, in order (argv, stdin lines, killed, exit code). */
  get spawns(): readonly CliInvocation[] {
    return this.#spawns;
  }

  /**
   * The argv of spawn `i` (0-based).
   *
   * @param i Which spawn.
   * @returns Its argv.
   * @throws {RangeError} When there was no such spawn.
   *
   * @example
   * ```ts
   * import { FakeCodexCli } from "@agentkit/testing/testing";
   * import { assertEquals, assertThrows } from "@std/assert";
   *
   * const cli = FakeCodexCli.answering("hi");
   * cli.spawn(["codex", "exec", "--json", "say hi"]);
   * assertEquals(cli.argv(0).at(-1), "say hi");
   * assertThrows(() => cli.argv(1), RangeError, "spawned 1 time(s)");
   * ```
   */
  argv(i: number): readonly string[] {
    const s = this.#spawns[i];
    if (!s) {
      throw new RangeError(
        `${this.#double} was spawned ${this.#spawns.length} time(s); there is no spawn ${i} (spawns count from 0)`,
      );
    }
    return s.argv;
  }

  /**
   * How many turns were asked for, the one that found the script exhausted
   * included (so one past the end shows as `scripted + 1`).
   *
   * @example
   * ```ts
   * import { FakeCodexCli } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const cli = FakeCodexCli.answering("one", "two");
   * cli.spawn(["codex", "exec", "--json", "go"]);
   * assertEquals([cli.turnsTaken, cli.unusedTurns], [1, 1]);
   * ```
   */
  get turnsTaken(): number {
    return this.#taken;
  }

  /** How many scripted turns were never asked for. */
  get unusedTurns(): number {
    return Math.max(0, this.#runs.length - this.#taken);
  }

  /** Harness errors this double threw (a swallowed one still shows here). */
  get harnessErrors(): readonly HarnessError[] {
    return this.#harnessErrors;
  }

  /**
   * Throws what a finished test must not hide: the first harness error the
   * double threw (even if user code caught it), or `UnusedTurns` when turns
   * were never asked for (unless `allowUnused` or `repeatLast`).
   *
   * @throws {HarnessError} As described.
   *
   * @example
   * ```ts
   * import { FakeClaudeCli, FakeCodexCli, UnusedTurns } from "@agentkit/testing/testing";
   * import { assertThrows } from "@std/assert";
   *
   * assertThrows(() => FakeClaudeCli.script(["a", "b"]).verify(), UnusedTurns, "used only 0");
   * assertThrows(() => FakeCodexCli.answering("a").verify(), UnusedTurns);
   * FakeCodexCli.script(["a", "b"], { allowUnused: true }).verify(); // opted out: passes
   * ```
   */
  verify(): void {
    const swallowed = this.#harnessErrors[0];
    if (swallowed) throw swallowed;
    if (this.#options.repeatLast || this.#options.allowUnused) return;
    if (this.#taken < this.#runs.length) {
      throw new UnusedTurns(this.#double, this.#runs.length, this.#taken);
    }
  }

  /**
   * `using cli = FakeCodexCli.script(...)` verifies at scope exit; after a run that failed, it notes what `verify()` found on the run's
   * error instead of throwing over it.
   */
  [Symbol.dispose](): void {
    verifyAtDispose(() => this.verify(), undefined, this.#servedAt);
  }

  // The next run, or ScriptExhausted (recorded, so verify() reports it even if caught).
  #take(): CliRun {
    this.#servedAt = failedRuns();
    const i = this.#taken++;
    if (i < this.#runs.length) return this.#runs[i];
    if (this.#options.repeatLast) return this.#runs[this.#runs.length - 1];
    const error = new ScriptExhausted(this.#double, this.#runs.length, i + 1);
    this.#harnessErrors.push(error);
    throw error;
  }
}
