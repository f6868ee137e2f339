/**
 * Property-based testing of an agent: seeded fault schedules, invariants,
 * shrinking.
 *
 * @module
 */
import { checkOptions, describe, is, nearest, type Rule } from "../../runtime/internal.ts";
import { InvalidScript } from "../errors.ts";
import type { Responder } from "../llm/fake_llm.ts";
import type { MisbehaviourKind } from "../llm/misbehave.ts";
import { parseTurn, type Turn } from "../llm/turn.ts";
import type { Fc } from "./_fault_kit.ts";
import { FAULT_KINDS, isToolFault, MODEL_FAULTS, type PlannedFault } from "./_faults.ts";
import { TOOL_FAULTS } from "./_tool_faults.ts";
import { brokenBuiltIn, type BuiltInInvariant, INVARIANTS, type Limits } from "./_invariants.ts";
import { reproduction } from "./_source.ts";
import { runTranscript } from "./_run_transcript.ts";
import { watch } from "./_watch.ts";
import { realSetTimeout } from "./_real_timers.ts";
import { World } from "./_world.ts";
import { ChaosFailure } from "./chaos_failure.ts";
import type { ChaosOutcome, ChaosRunStatus } from "./chaos_outcome.ts";
import type { ChaosWorld } from "./chaos_world.ts";
import { InvalidScenario } from "./invalid_scenario.ts";
import { isFailure } from "../eval/_run_trials.ts";
import { redactText } from "../../runtime/internal.ts";
import type { TrialOutcome } from "../eval/trial_report.ts";
import { ChaosTrialsSummary } from "./chaos_trials_summary.ts";

/**
 * A fault kind: the provider's (`rateLimit`, `serverError`, `timeout`,
 * `midStreamCut`, `stall`), the tools' (`toolError`, `slowTool`), or the
 * model's own misbehaviour: every `misbehave` kind (`MISBEHAVIOUR_KINDS`),
 * played as that builder's turn in place of the script's.
 */
export type ChaosFaultKind =
  | "rateLimit"
  | "serverError"
  | "timeout"
  | "midStreamCut"
  | "stall"
  | "toolError"
  | "slowTool"
  | MisbehaviourKind;

/** A built-in invariant's name (what `skip` takes). */
export type ChaosInvariantName = BuiltInInvariant;

/** An invariant of your own: throw to fail the run. */
export type ChaosInvariant = (outcome: ChaosOutcome) => void | Promise<void>;

/** What a scenario is: build the agent from the world, run it, return its result. */
export type ChaosScenario = (world: ChaosWorld) => unknown;

/** Options for {@linkcode chaos}; `script` is required. */
export interface ChaosOptions {
  /**
   * The model's side of a good run: turns in call order (as
   * `FakeLLM.script` takes them), or a responder function. A fault takes no
   * turn of it: the fault answers its call, and the script's next turn the
   * next call.
   */
  readonly script: ReadonlyArray<Turn | string> | Responder;
  /**
   * Which faults to inject: a list of kinds, or kinds with integer weights
   * (`{ rateLimit: 3, stall: 1 }`; 0 turns a kind off).
   * @default {every kind, weight 1}
   */
  readonly faults?: readonly ChaosFaultKind[] | Readonly<Partial<Record<ChaosFaultKind, number>>>;
  /** How many runs. @default {100} */
  readonly runs?: number;
  /** fast-check's seed: the same seed gives the same runs. @default {a random one, reported} */
  readonly seed?: number;
  /**
   * With `seed`, replays only the run at this path (a `ChaosFailure`'s
   * `.path`); a path without its seed is an error.
   */
  readonly path?: string;
  /** The most faults in one run. @default {3} */
  readonly maxFaults?: number;
  /**
   * The most model calls a run may make before it counts as not
   * terminating.
   * @default {20, or the script's length plus maxFaults when longer}
   */
  readonly maxSteps?: number;
  /** The most virtual time a run may take on `world.clock`. @default {300_000} */
  readonly maxVirtualMs?: number;
  /**
   * Real milliseconds a run may sit idle without progress (no model call,
   * tool call, stream event or move of its clock) before chaos() stops it; a
   * run that sits as long again after that is reported as hung. Only idle
   * time counts: not the agent's own synchronous work, nor a pause of a
   * loaded machine. Your invariants are held to it too: one that sits idle
   * twice as long fails chaos() with `InvalidScenario`.
   * @default {50}
   */
  readonly hangMs?: number;
  /**
   * Your invariants: one function, a list, or a record of them by name. An
   * async one is awaited under the run's watchdog (see `hangMs`).
   */
  readonly invariants?:
    | ChaosInvariant
    | readonly ChaosInvariant[]
    | Readonly<Record<string, ChaosInvariant>>;
  /** Built-in invariants to turn off, by name. */
  readonly skip?: readonly ChaosInvariantName[];
  /**
   * Report a rate instead of stopping at the first broken run: every run
   * is a trial (a broken invariant fails it), and chaos() returns the pass
   * rate over the seeded schedules with its Wilson interval and pass^k at
   * this k ("survives a rate limit 95% of the time"). Nothing is shrunk or
   * thrown for a broken run; the report keeps each one's invariant and
   * transcript.
   */
  readonly passHatK?: number;
}

/**
 * What a chaos() call that found nothing returns.
 *
 * @example
 * ```ts
 * import type { ChaosSummary } from "@agentkit/testing/testing";
 * const s: ChaosSummary = { runs: 100, faultsInjected: 140, byKind: { rateLimit: 12 }, seed: 42 };
 * ```
 */
export interface ChaosSummary {
  /** How many runs there were. */
  readonly runs: number;
  /** How many faults fired, in all. */
  readonly faultsInjected: number;
  /** How many of each kind fired. */
  readonly byKind: Readonly<Record<string, number>>;
  /** The seed: pass it back to get the same runs. */
  readonly seed: number;
}

interface Config {
  readonly turns?: readonly Turn[];
  readonly responder?: Responder;
  readonly kinds: ReadonlyArray<readonly [string, number]>;
  readonly runs: number;
  readonly seed?: number;
  readonly path?: string;
  readonly maxFaults: number;
  readonly limits: Limits;
  readonly invariants: ReadonlyArray<readonly [string, ChaosInvariant]>;
  readonly builtIns: ReadonlySet<string>;
  readonly modelHorizon: number;
  readonly toolHorizon: number;
  readonly rateK?: number;
}

const RULES: Readonly<Record<string, Rule>> = {
  script: is.any,
  faults: is.any,
  runs: is.number({ min: 1, integer: true }),
  seed: is.number({ integer: true }),
  path: is.text,
  maxFaults: is.count,
  maxSteps: is.number({ min: 1, integer: true }),
  maxVirtualMs: is.positiveMs,
  hangMs: is.positiveMs,
  invariants: is.any,
  skip: is.arrayOf(is.string),
  passHatK: is.number({ min: 1, integer: true }),
};

const WHERE = "chaos()";

/**
 * The implementation of the public `chaos()` (./_chaos_entry.ts), which
 * loads this module on its first call: a test file that never runs chaos
 * never loads it.
 *
 * @param scenario Builds the agent on the world, runs it, returns its result.
 * @param options The script, the faults, the runs, the limits, the invariants.
 * @returns What ran, when nothing broke.
 */
export async function chaos(scenario: ChaosScenario, options: ChaosOptions): Promise<ChaosSummary> {
  if (typeof scenario !== "function") {
    throw new TypeError(
      `chaos(): the scenario must be a function (world) => the agent's run, e.g. (world) => agent.run(task, world.ctx()); got ${
        describe(scenario)
      }`,
    );
  }
  const config = configure(options);
  const fc = await import("fast-check");
  if (config.rateK !== undefined) return await rates(fc, scenario, config);
  let run = 0;
  let misuse: Error | undefined;
  let last: Broken | undefined;
  let injected = 0;
  const byKind: Record<string, number> = {};
  const property = fc.asyncProperty(schedule(fc, config), async (faults) => {
    if (misuse) throw misuse;
    const done = await runOnce(scenario, config, faults, ++run);
    if (done.misuse) throw misuse = done.misuse;
    if (done.broken) {
      last = { ...done.broken, faults, outcome: done.outcome, world: done.world };
      throw new Error(`invariant "${done.broken.invariant}" broke: ${done.broken.message}`);
    }
    for (const f of done.outcome.faults) {
      injected++;
      byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
    }
  });
  const details = await fc.check(property, {
    numRuns: config.runs,
    seed: config.seed,
    path: config.path,
  });
  if (misuse) throw misuse;
  if (!details.failed) {
    return { runs: details.numRuns, faultsInjected: injected, byKind, seed: details.seed };
  }
  const found = last;
  if (!found) throw details.errorInstance;
  throw new ChaosFailure({
    seed: details.seed,
    path: details.counterexamplePath ?? "",
    invariant: found.invariant,
    problem: found.message,
    schedule: found.outcome.faults,
    transcript: runTranscript(found.outcome, found.world),
    reproduction: reproduction(found.world),
    outcome: found.outcome,
    cause: found.cause,
  });
}

interface Broken {
  readonly invariant: string;
  readonly message: string;
  readonly cause?: unknown;
  readonly faults: readonly PlannedFault[];
  readonly outcome: ChaosOutcome;
  readonly world: World;
}

interface RunDone {
  readonly outcome: ChaosOutcome;
  readonly world: World;
  readonly broken?: {
    readonly invariant: string;
    readonly message: string;
    readonly cause?: unknown;
  };
  readonly misuse?: Error;
}

// Lets what is already queued run: a scenario that returned early shows
// its late model calls here (a ready model answers within a few turns).
async function drain(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await undefined;
}

async function runOnce(
  scenario: ChaosScenario,
  config: Config,
  faults: readonly PlannedFault[],
  run: number,
): Promise<RunDone> {
  const world = new World({
    run,
    faults,
    turns: config.turns,
    responder: config.responder,
    maxSteps: config.limits.maxSteps,
    maxVirtualMs: config.limits.maxVirtualMs,
  });
  let status: ChaosRunStatus = "hung";
  let result: unknown;
  let error: unknown;
  // Where the scenario ended: the model calls made by then.
  let end: End = { calls: 0 };
  const returned = (value: unknown, sync: boolean) => {
    status = "returned";
    result = value;
    end = { calls: world.inner.calls, sync, value };
  };
  const threw = (thrown: unknown) => {
    status = "threw";
    error = thrown;
    end = { calls: world.inner.calls };
  };
  try {
    const running = start(scenario, world, returned, threw);
    const how = await watch(running, {
      progress: () => `${world.progress} ${world.clock.now()}`,
      stop: (reason) => world.stop(reason),
    }, config.limits.hangMs);
    if (how === "hung") status = "hung";
    else if (world.stoppedBy !== undefined) status = "stopped";
    const outcome = world.outcome(status, result, error);
    let misuse: Error | undefined;
    if (status !== "hung") {
      await drain(16);
      if (world.inner.calls === 0) {
        // None yet: wait out a whole turn of the event loop before saying never.
        await new Promise((resolve) => realSetTimeout(resolve, 0));
        await drain(64);
      }
      misuse = misused(world, end, error);
    }
    // What is left of the run ends now, while its timers are still virtual.
    if (world.finish()) await drain(16);
    if (misuse) return { outcome, world, misuse };
    const verdict = await broken(config, outcome, world);
    if (verdict instanceof InvalidScenario) return { outcome, world, misuse: verdict };
    return { outcome, world, broken: verdict };
  } finally {
    world.uninstall();
  }
}

// Runs the scenario, and marks where it ended as soon as that can be seen:
// a plain value or a throw at once, a promise as it settles. Seen any later,
// the calls of a run it did not return or await would pass for its own.
function start(
  scenario: ChaosScenario,
  world: World,
  returned: (value: unknown, sync: boolean) => void,
  threw: (thrown: unknown) => void,
): Promise<unknown> {
  let value: unknown;
  try {
    value = scenario(world);
  } catch (thrown) {
    threw(thrown);
    return Promise.resolve();
  }
  if (!isThenable(value)) {
    returned(value, true);
    return Promise.resolve();
  }
  const running = Promise.resolve(value);
  running.then((v) => returned(v, false), threw);
  return running;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

interface End {
  readonly calls: number;
  /** Returned a plain value (no promise), and which. */
  readonly sync?: boolean;
  readonly value?: unknown;
}

const AWAIT_IT = "return or await the run, e.g. (world) => agent.run(task, world.ctx())";

function misused(world: World, end: End, thrown: unknown): Error | undefined {
  const calls = world.inner.calls;
  if (calls > end.calls) {
    return new InvalidScenario(
      `chaos(): the scenario returned before the agent's run was over (model call ${
        end.calls + 1
      } came after it returned); ${AWAIT_IT}`,
    );
  }
  // A plain value returned after a model call began: no call ends
  // synchronously, so it was still going, and nothing awaits it.
  if (end.sync && calls > 0) {
    return new InvalidScenario(
      `chaos(): the scenario returned before the agent's run was over (it returned ${
        describe(end.value)
      }, not the run, while model call ${calls} was under way); ${AWAIT_IT}`,
    );
  }
  if (calls === 0) {
    const wire = world.fetchRequests();
    const threw = thrown === undefined
      ? ""
      : ` (it threw first: ${
        thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : describe(thrown)
      })`;
    return new InvalidScenario(
      `chaos(): the scenario never called the model, so no fault could reach it${threw}; build the agent on the world's model: world.ctx() (or world.llm), world.fetch.fetch for a provider client, or world.aiSdkModel()${
        wire ? ` (world.fetch got ${wire}, but none reached the model)` : ""
      }`,
      thrown === undefined ? undefined : { cause: thrown },
    );
  }
  return undefined;
}

// Your invariants are awaited under the scenario's own watchdog: one that
// never settles (a promise nothing resolves) is the test's setup broken,
// named, rather than a chaos() call that never ends.
async function broken(
  config: Config,
  outcome: ChaosOutcome,
  world: World,
): Promise<RunDone["broken"] | InvalidScenario> {
  const built = brokenBuiltIn(config.builtIns, outcome, world, config.limits);
  if (built) return built;
  const hangMs = config.limits.hangMs;
  for (const [name, invariant] of config.invariants) {
    // A synchronous throw becomes a rejection, checked like an async one.
    const checking = Promise.resolve().then(() => invariant(outcome));
    const how = await watch(checking, {
      progress: () => `${world.progress} ${world.clock.now()}`,
      stop: () => {},
    }, hangMs);
    if (how === "hung") {
      // Nothing awaits it from now on; a late rejection is not unhandled.
      checking.catch(() => {});
      return new InvalidScenario(
        `chaos(): invariant "${name}" did not settle: it sat idle for twice hangMs (${hangMs} ms of real time each) with nothing left to wait for on the world's clock; an invariant must return, throw, or resolve: await only what settles by itself (the outcome, the world's clock), or raise hangMs if it waits on real work`,
      );
    }
    try {
      await checking;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { invariant: name, message, cause: error };
    }
  }
  return undefined;
}

// The schedules: up to maxFaults faults, at most one per model call and one
// per tool call, each kind drawn by its weight.
function schedule(fc: Fc, config: Config) {
  const arbitraries = config.kinds.filter(([, w]) => w > 0).map(([kind, weight]) => {
    const tool = isToolFault(kind);
    const params = (tool ? TOOL_FAULTS[kind] : MODEL_FAULTS[kind]).params(fc);
    return {
      weight,
      arbitrary: fc.record({
        kind: fc.constant(kind),
        at: fc.integer({ min: 1, max: tool ? config.toolHorizon : config.modelHorizon }),
        params,
      }) as ReturnType<typeof fc.constant<PlannedFault>>,
    };
  });
  // kindsOf() leaves at least one kind with a weight, so oneof() has one.
  return fc.uniqueArray(fc.oneof(...arbitraries), {
    maxLength: config.maxFaults,
    // A tool call's number negated: tool call 2 and model call 2 are two calls.
    selector: (f: PlannedFault) => isToolFault(f.kind) ? -f.at : f.at,
  });
}

function configure(options: ChaosOptions): Config {
  checkOptions(WHERE, options, RULES, { required: ["script"] });
  pathOf(options);
  const { turns, responder } = scriptOf(options.script);
  const maxFaults = options.maxFaults ?? 3;
  const maxSteps = options.maxSteps ?? Math.max(20, (turns?.length ?? 0) + maxFaults);
  const toolCalls = turns?.reduce((n, t) => n + (t.toolCalls?.length ?? 0), 0);
  const skip = new Set<string>();
  for (const name of options.skip ?? []) {
    if (!(INVARIANTS as readonly string[]).includes(name)) {
      throw new TypeError(
        `${WHERE}: skip names an unknown invariant "${name}"${
          hint(name, INVARIANTS)
        }; the built-in invariants are ${INVARIANTS.join(", ")}`,
      );
    }
    skip.add(name);
  }
  return {
    turns,
    responder,
    kinds: kindsOf(options.faults),
    runs: options.runs ?? 100,
    seed: options.seed,
    path: options.path,
    maxFaults,
    limits: {
      maxSteps,
      maxVirtualMs: options.maxVirtualMs ?? 300_000,
      hangMs: options.hangMs ?? 50,
    },
    invariants: invariantsOf(options.invariants),
    builtIns: new Set(INVARIANTS.filter((n) => !skip.has(n))),
    modelHorizon: turns ? Math.min(maxSteps, turns.length + maxFaults) : maxSteps,
    toolHorizon: toolCalls === undefined ? maxSteps : Math.max(1, toolCalls + maxFaults),
    rateK: rateK(options),
  };
}

function rateK(options: ChaosOptions): number | undefined {
  const k = options.passHatK;
  if (k !== undefined && k > (options.runs ?? 100)) {
    throw new RangeError(
      `${WHERE}: option "passHatK" (${k}) is more than the runs (${
        options.runs ?? 100
      }); pass a k at most runs, or more runs`,
    );
  }
  return k;
}

// Every run a trial: a broken invariant fails the run (an invariant of
// yours that throws something other than an assertion is an error), and
// the runs go on; the same seed gives the same schedules as without
// passHatK.
async function rates(
  fc: Fc,
  scenario: ChaosScenario,
  config: Config,
): Promise<ChaosTrialsSummary> {
  let run = 0;
  let misuse: Error | undefined;
  let injected = 0;
  const byKind: Record<string, number> = {};
  const trials: TrialOutcome[] = [];
  const property = fc.asyncProperty(schedule(fc, config), async (faults) => {
    if (misuse) throw misuse;
    const index = run;
    const done = await runOnce(scenario, config, faults, ++run);
    if (done.misuse) throw misuse = done.misuse;
    for (const f of done.outcome.faults) {
      injected++;
      byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
    }
    const broken = done.broken;
    if (!broken) {
      trials.push({ index, seed: 0, outcome: "pass" });
      return;
    }
    const builtIn = (INVARIANTS as readonly string[]).includes(broken.invariant);
    trials.push({
      index,
      seed: 0,
      outcome: builtIn || isFailure(broken.cause) ? "failure" : "error",
      // Masked like every trial's: a report may be written to a baseline file.
      error: { name: `invariant ${broken.invariant}`, message: redactText(broken.message) },
      transcript: redactText(
        `faults: ${done.outcome.faults.map((f) => f.kind).join(", ") || "none"}\n${
          runTranscript(done.outcome, done.world)
        }`,
      ),
    });
  });
  const details = await fc.check(property, { numRuns: config.runs, seed: config.seed });
  if (misuse) throw misuse;
  if (details.failed) throw details.errorInstance;
  const seed = details.seed;
  return new ChaosTrialsSummary({
    name: "chaos",
    trials: trials.map((t) => ({ ...t, seed })),
    planned: config.runs,
    k: config.rateK!,
    seed,
    runs: details.numRuns,
    faultsInjected: injected,
    byKind,
  });
}

// A path is fast-check's counterexample path, which means something only
// under the seed it was found with; fast-check itself fails on a malformed
// one with an error that names neither chaos() nor the option.
function pathOf(options: ChaosOptions): void {
  const path = options.path;
  if (path === undefined) return;
  if (!/^\d+(:\d+)*$/.test(path)) {
    throw new RangeError(
      `${WHERE}: option "path" must be a ChaosFailure's .path, run numbers joined by ":" ("4:1:1"), got ${
        describe(path)
      }`,
    );
  }
  if (options.seed === undefined) {
    throw new TypeError(
      `${WHERE}: option "path" replays a run of one seed, but no seed was given; pass both, as a ChaosFailure's replay line does: { seed, path }`,
    );
  }
}

function scriptOf(script: unknown): { turns?: readonly Turn[]; responder?: Responder } {
  if (typeof script === "function") return { responder: script as Responder };
  if (!Array.isArray(script)) {
    throw new TypeError(
      `${WHERE}: script must be the model's turns (an array, as FakeLLM.script takes) or a responder function, got ${
        describe(script)
      }`,
    );
  }
  if (script.length === 0) {
    throw new InvalidScript(`${WHERE}: script needs at least one turn, the model's answer`);
  }
  return { turns: script.map((t, i) => parseTurn(t, `chaos() script turn ${i + 1}`)) };
}

function kindsOf(faults: unknown): ReadonlyArray<readonly [string, number]> {
  if (faults === undefined) return FAULT_KINDS.map((k) => [k, 1] as const);
  const known = (kind: string) => {
    if (!FAULT_KINDS.includes(kind)) {
      throw new TypeError(
        `${WHERE}: faults names an unknown fault kind "${kind}"${
          hint(kind, FAULT_KINDS)
        }; the kinds are ${FAULT_KINDS.join(", ")}`,
      );
    }
  };
  if (Array.isArray(faults)) {
    if (faults.length === 0) {
      throw new RangeError(
        `${WHERE}: faults is an empty list, so no fault could fire; name at least one kind, or pass maxFaults: 0 to run the script without faults`,
      );
    }
    return faults.map((kind) => {
      if (typeof kind !== "string") {
        throw new TypeError(`${WHERE}: faults lists fault kinds (strings), got ${describe(kind)}`);
      }
      known(kind);
      return [kind, 1] as const;
    });
  }
  if (faults === null || typeof faults !== "object") {
    throw new TypeError(
      `${WHERE}: faults must be a list of kinds or a record of kind to weight, got ${
        describe(faults)
      }`,
    );
  }
  const entries = Object.entries(faults as Record<string, unknown>).map(([kind, weight]) => {
    known(kind);
    // Number.isInteger is false for what is not a number, too.
    if (!Number.isInteger(weight) || (weight as number) < 0) {
      const text =
        `${WHERE}: faults: the weight of fault kind "${kind}" must be an integer, 0 or more, got ${
          describe(weight)
        }`;
      throw typeof weight === "number" ? new RangeError(text) : new TypeError(text);
    }
    return [kind, weight as number] as const;
  });
  if (entries.length === 0) {
    throw new RangeError(
      `${WHERE}: faults is an empty record, so no fault could fire; give a kind a weight ({ rateLimit: 1 }), or pass maxFaults: 0 to run the script without faults`,
    );
  }
  if (!entries.some(([, w]) => w > 0)) {
    throw new RangeError(
      `${WHERE}: faults: every fault kind has weight 0, so no fault could fire; give one a weight, or pass maxFaults: 0`,
    );
  }
  return entries;
}

function invariantsOf(invariants: unknown): ReadonlyArray<readonly [string, ChaosInvariant]> {
  if (invariants === undefined) return [];
  // `label` is how the message points at it: invariants[1], invariant "mine".
  const fn = (value: unknown, name: string, label: string): readonly [string, ChaosInvariant] => {
    if (typeof value !== "function") {
      throw new TypeError(
        `${WHERE}: ${label} must be a function (outcome) => void that throws to fail, got ${
          describe(value)
        }`,
      );
    }
    return [name, value as ChaosInvariant];
  };
  if (typeof invariants === "function") {
    return [fn(invariants, invariants.name || "invariants", "invariants")];
  }
  if (Array.isArray(invariants)) {
    return invariants.map((v, i) =>
      fn(v, (typeof v === "function" && v.name) || `invariants[${i}]`, `invariants[${i}]`)
    );
  }
  if (invariants !== null && typeof invariants === "object") {
    return Object.entries(invariants).map(([name, v]) => {
      if ((INVARIANTS as readonly string[]).includes(name)) {
        throw new TypeError(
          `${WHERE}: invariants: invariant "${name}" is a built-in one; name yours differently (the built-in invariants are ${
            INVARIANTS.join(", ")
          }; skip turns one off)`,
        );
      }
      return fn(v, name, `invariants: invariant "${name}"`);
    });
  }
  throw new TypeError(
    `${WHERE}: invariants must be a function, a list of functions, or a record of them by name, got ${
      describe(invariants)
    }`,
  );
}

function hint(name: string, known: readonly string[]): string {
  const near = nearest(name, known);
  return near ? `; did you mean "${near}"?` : "";
}
