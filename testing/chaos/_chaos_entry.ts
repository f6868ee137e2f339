/**
 * The public `chaos()`: a thin function in the package's static module
 * graph. Its implementation (./chaos.ts, with the fault tables, the world,
 * the invariants and the watchdog) loads on the first call, so a test file
 * that never runs chaos does not pay for loading it.
 *
 * @module
 */
import "./_real_timers.ts";
import type { ChaosOptions, ChaosScenario, ChaosSummary } from "./chaos.ts";
import type { ChaosTrialsSummary } from "./chaos_trials_summary.ts";

/**
 * Property-based testing of an agent, on fast-check: each run builds the
 * agent with `scenario(world)` against a model that plays `options.script`
 * with a seeded schedule of faults injected (the provider's 429s, 5xx,
 * timeouts, cut streams and stalls; the model's empty answers, unknown
 * tools, broken tool JSON...; the tools' errors and delays), and checks the
 * built-in invariants and yours. A broken invariant is shrunk to the
 * smallest schedule that still breaks it and thrown as a
 * {@linkcode ChaosFailure}.
 *
 * Built in: `terminates` (the run settles within `maxSteps` model calls and
 * `maxVirtualMs`; a run that stops making progress is stopped, and one
 * that still does not settle is reported as hung, never left hanging),
 * `noHarnessError`, `typedFailure` (a failing run fails with a named error
 * class, never a TypeError, ReferenceError, RangeError or SyntaxError from
 * inside, nor a plain Error), `budgetHeld` (no model call after the
 * context's `Budget` is used up; no call charged twice),
 * `toolCallsAnswered` (every tool call the model made got exactly one
 * result) and `noDuplicateSideEffects` (a tool marked `idempotent: false`
 * never runs twice for one call id).
 *
 * @param scenario Builds the agent on the world, runs it, returns its result.
 * @param options The script, the faults, the runs, the limits, the invariants.
 * @returns What ran, when nothing broke.
 * @throws {ChaosFailure} When a run breaks an invariant.
 * @throws {InvalidScenario} When the scenario never calls the world's model, or does not await the run.
 * @throws {TypeError} For an options bag that is not one, an unknown option, fault kind or invariant name.
 * @throws {RangeError} For a number out of range (`runs: 0`).
 *
 * @example A ReAct agent with retry() survives every fault of the provider
 * ```ts
 * import { Agent, ReActCognition, retry } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { chaos, FakeTool } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const lookup = new FakeTool({ name: "lookup", responder: "42" });
 * const summary = await chaos(
 *   (world) =>
 *     new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [world.tool(lookup)] }) })
 *       .run("What is it?", world.ctx({ chatMiddleware: [retry({ maxAttempts: 5 })] })),
 *   {
 *     script: [{ toolCalls: [toolCall("c1", "lookup", {})] }, "It is 42."],
 *     faults: ["rateLimit", "serverError", "timeout", "toolError"],
 *     seed: 7,
 *     runs: 50,
 *   },
 * );
 * assertEquals([summary.runs, summary.seed], [50, 7]);
 * ```
 *
 * @example A rate, not a bit: with `passHatK`, every run is a trial
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { chaos, type ChaosOutcome } from "@agentkit/testing/testing";
 * import { assert, assertEquals } from "@std/assert";
 *
 * // No retry(): a run whose model call meets a rate limit fails.
 * const summary = await chaos(
 *   (world) =>
 *     new Agent("a", { model: "fake-model" }).run("Hi", world.ctx()).then((r) => r.output, () => "gave up"),
 *   {
 *     script: ["Hello."],
 *     faults: ["rateLimit"],
 *     seed: 3,
 *     runs: 60,
 *     invariants: { answered: (o: ChaosOutcome) => assertEquals(o.result, "Hello.") },
 *     passHatK: 3,
 *   },
 * );
 * assert(summary.passRate > 0 && summary.passRate < 1);
 * assertEquals(summary.passes + summary.failures, 60);
 * assert(summary.passHatK() < summary.passRate); // three in a row is rarer than one
 * ```
 */
export function chaos(
  scenario: ChaosScenario,
  options: ChaosOptions & { readonly passHatK: number },
): Promise<ChaosTrialsSummary>;
/**
 * Property-based testing of an agent; throws a `ChaosFailure` for the
 * first broken run, shrunk (see the first signature).
 *
 * @param scenario Builds the agent on the world, runs it, returns its result.
 * @param options The script, the faults, the runs, the limits, the invariants.
 * @returns What ran, when nothing broke.
 */
export function chaos(scenario: ChaosScenario, options: ChaosOptions): Promise<ChaosSummary>;
/**
 * The implementation behind both signatures: loads ./chaos.ts on first use.
 *
 * @param scenario Builds the agent on the world, runs it, returns its result.
 * @param options The script, the faults, the runs, the limits, the invariants.
 * @returns A `ChaosSummary`, or a `ChaosTrialsSummary` when `passHatK` is given.
 */
export async function chaos(scenario: ChaosScenario, options: ChaosOptions): Promise<ChaosSummary> {
  // The module cache makes every call after the first a lookup.
  const implementation = await import("./chaos.ts");
  return implementation.chaos(scenario, options);
}
