/**
 * The error `chaos()` throws when a run breaks an invariant.
 *
 * @module
 */
import { HarnessError } from "../../runtime/harness_error.ts";
import { redactText } from "../../runtime/internal.ts";
import type { ChaosOutcome, InjectedFault } from "./chaos_outcome.ts";

/** What a {@linkcode ChaosFailure} carries. */
export interface ChaosFailureDetails {
  /** The seed of the chaos() call: the same seed gives the same runs. */
  readonly seed: number;
  /** fast-check's path to the shrunk run: `{ seed, path }` replays only it. */
  readonly path: string;
  /** The invariant that broke (a built-in name, or your invariant's name). */
  readonly invariant: string;
  /** What broke, in words. */
  readonly problem: string;
  /** The shrunk run's faults, as they fired. */
  readonly schedule: readonly InjectedFault[];
  /** The shrunk run's transcript. */
  readonly transcript: string;
  /** A `FakeLLM.script([...])` that replays the shrunk run without chaos. */
  readonly reproduction: string;
  /** The shrunk run. */
  readonly outcome: ChaosOutcome;
  /** What your invariant threw, when it was yours. */
  readonly cause?: unknown;
}

/**
 * A run broke an invariant. The run was shrunk (by fast-check) to the
 * smallest schedule of faults that still breaks it; the error says which
 * invariant, what broke, the schedule (`.faults`:
 * `call 2: rateLimit(retryAfterMs=1500); call 3: invalidToolJson("lookup")`),
 * how to replay it (`.seed` and `.path`), the run's `.transcript`, and a
 * `.reproduction`: the source of a `FakeLLM.script([...])` that replays the
 * model's side of the run without chaos. A harness error: it escapes every
 * catch site of the runtime.
 *
 * @example
 * ```ts
 * import { ChaosFailure } from "@agentkit/testing/testing";
 * import { assert } from "@std/assert";
 *
 * const failure = new ChaosFailure({
 *   seed: 1, path: "0", invariant: "typedFailure", problem: "the run failed with a plain Error",
 *   schedule: [], transcript: "", reproduction: 'FakeLLM.script([\n  "hi",\n])',
 *   outcome: {
 *     run: 1, status: "threw", result: undefined, error: new Error("x"), faults: [],
 *     modelCalls: 1, turns: [], requests: [], toolCalls: [], virtualMs: 0,
 *   },
 * });
 * assert(failure.message.includes('invariant "typedFailure" broke'));
 * ```
 */
export class ChaosFailure extends HarnessError {
  /** The seed of the chaos() call. */
  readonly seed: number;
  /** fast-check's path to the shrunk run. */
  readonly path: string;
  /** The invariant that broke. */
  readonly invariant: string;
  /** The shrunk schedule, readable; `"none"` when the script alone breaks it. */
  readonly faults: string;
  /** The shrunk schedule, as data. */
  readonly schedule: readonly InjectedFault[];
  /** The shrunk run's transcript. */
  readonly transcript: string;
  /** Source of a `FakeLLM.script([...])` replaying the shrunk run without chaos. */
  readonly reproduction: string;
  /** The shrunk run. */
  readonly outcome: ChaosOutcome;

  /**
   * The message says what broke, the schedule, and both ways to replay it.
   *
   * @param details What the failure carries.
   */
  constructor(details: ChaosFailureDetails) {
    // Every text it carries is masked by the one redaction engine: the
    // reproduction is source meant to be pasted into a committed test, and
    // a scripted error's key must not ride along into it.
    const faults = redactText(details.schedule.map((f) => f.label).join("; ") || "none");
    const transcript = redactText(details.transcript);
    const reproduction = redactText(details.reproduction);
    super(
      [
        `chaos(): invariant "${redactText(details.invariant)}" broke: ${
          redactText(details.problem)
        }`,
        `shrunk to the faults: ${faults}`,
        `replay it: chaos(scenario, { ...options, seed: ${details.seed}, path: ${
          JSON.stringify(details.path)
        } })`,
        `or without chaos(), with this model:\n${reproduction}`,
        `the run:\n${transcript}`,
      ].join("\n"),
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.seed = details.seed;
    this.path = details.path;
    this.invariant = details.invariant;
    this.faults = faults;
    this.schedule = details.schedule;
    this.transcript = transcript;
    this.reproduction = reproduction;
    this.outcome = details.outcome;
  }
}
