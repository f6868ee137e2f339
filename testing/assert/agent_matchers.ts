/**
 * Matchers for Vitest's and Jest's `expect.extend`.
 *
 * @module
 */
import { Run } from "../../runtime/run.ts";
import type { StopReason } from "../../runtime/cognition/cognition.ts";
import {
  calledTool,
  type Check,
  checkSettled,
  equal,
  render,
  spent,
  stopReason,
  transcriptContaining,
  usedAllTurns,
} from "./_agent_checks.ts";
import {
  planTrajectory,
  trajectory,
  type TrajectoryCall,
  type TrajectoryOptions,
} from "./_trajectory.ts";
import { transcript } from "./transcript.ts";

/**
 * The matchers as Vitest and Jest see them; `R` is what an assertion returns.
 * Merge it into Vitest's types once, in a setup or test file of your project,
 * to type `expect(result).toHaveCalledTool(...)`. On Vitest 5, into
 * `Matchers<R, T>`:
 *
 * ```ts ignore
 * import type { AgentMatchers } from "@agentkit/testing/testing";
 *
 * declare module "vitest" {
 *   interface Matchers<R, T> extends AgentMatchers<R> {}
 * }
 * ```
 *
 * On Vitest 3.x and 4.x, whose `Assertion` has one type parameter (each form
 * fails on the other major with TS2428), into `Assertion`:
 *
 * ```ts ignore
 * import type { AgentMatchers } from "@agentkit/testing/testing";
 *
 * declare module "vitest" {
 *   interface Assertion<T = any> extends AgentMatchers<T> {}
 *   interface AsymmetricMatchersContaining extends AgentMatchers {}
 * }
 * ```
 *
 * For Jest, merge it into `jest.Matchers<R>` the same way
 * (`declare global { namespace jest { interface Matchers<R> extends AgentMatchers<R> {} } }`).
 *
 * @example
 * ```ts
 * import type { AgentMatchers } from "@agentkit/testing/testing";
 *
 * // What an extended `expect(x)` offers:
 * type Extended = AgentMatchers<void>;
 * const names: Array<keyof Extended> = ["toHaveCalledTool", "toHaveStopReason"];
 * ```
 */
export interface AgentMatchers<R = unknown> {
  /**
   * A tool was called by name, and with exactly `args` when given (use
   * `expect.objectContaining({...})` for a partial match). Works on an
   * `AgentResult`, a `Run` (await it), messages, a run's events, a `FakeLLM`
   * (what its requests carried), a `FakeTool` or a `ScriptedProvider`.
   */
  toHaveCalledTool(name: string, args?: Record<string, unknown>): R;
  /** The result (or `Run`, awaited) ended for `reason`. */
  toHaveStopReason(reason: StopReason): R;
  /** The `Budget` has spent exactly `amount` USD (`"0.000100"` or `0.0001`). */
  toHaveSpent(amount: string | number): R;
  /** The scripted double (`FakeLLM.script`, a CLI fake, `FakeAsker`) used every turn. */
  toHaveUsedAllTurns(): R;
  /** The `transcript()` of the subject contains `text` (a `Run`: await it). */
  toHaveTranscriptContaining(text: string): R;
  /**
   * The tool calls follow `expected`, a list of `{ name, args? }`, under
   * `order` (`"strict"` by default, `"unordered"`, `"subset"`, `"superset"`)
   * and `args` (`"exact"` by default, `"ignore"`, `"subset"`, `"superset"`);
   * the failure message is a diff of the two trajectories. Same subjects as
   * `toHaveCalledTool` (a `Run`: await it).
   */
  toHaveTrajectory(expected: readonly TrajectoryCall[], options?: TrajectoryOptions): R;
}

/**
 * What Vitest and Jest pass a matcher as `this`: whether `.not` was used and
 * their own deep equality (which understands `expect.any` and friends).
 */
export interface AgentMatcherContext {
  /** True under `.not`. */
  readonly isNot?: boolean;
  /** The framework's deep equality. */
  readonly equals?: (actual: unknown, expected: unknown) => boolean;
}

/** What a matcher returns to the framework. */
export interface AgentMatcherResult {
  /** Whether the expectation holds (before `.not`). */
  readonly pass: boolean;
  /** The failure message; it shows the transcript. */
  readonly message: () => string;
}

/**
 * The matcher functions, for `expect.extend(agentMatchers)`. A type, not an
 * interface, so it fits the index-signature parameter of `expect.extend`.
 */
export type AgentMatcherFunctions = {
  /** See {@linkcode AgentMatchers.toHaveCalledTool}. */
  toHaveCalledTool(
    this: AgentMatcherContext,
    received: unknown,
    name: string,
    args?: Record<string, unknown>,
  ): AgentMatcherResult | Promise<AgentMatcherResult>;
  /** See {@linkcode AgentMatchers.toHaveStopReason}. */
  toHaveStopReason(
    this: AgentMatcherContext,
    received: unknown,
    reason: StopReason,
  ): AgentMatcherResult | Promise<AgentMatcherResult>;
  /** See {@linkcode AgentMatchers.toHaveSpent}. */
  toHaveSpent(
    this: AgentMatcherContext,
    received: unknown,
    amount: string | number,
  ): AgentMatcherResult;
  /** See {@linkcode AgentMatchers.toHaveUsedAllTurns}. */
  toHaveUsedAllTurns(this: AgentMatcherContext, received: unknown): AgentMatcherResult;
  /** See {@linkcode AgentMatchers.toHaveTranscriptContaining}. */
  toHaveTranscriptContaining(
    this: AgentMatcherContext,
    received: unknown,
    text: string,
  ): AgentMatcherResult | Promise<AgentMatcherResult>;
  /** See {@linkcode AgentMatchers.toHaveTrajectory}. */
  toHaveTrajectory(
    this: AgentMatcherContext,
    received: unknown,
    expected: readonly TrajectoryCall[],
    options?: TrajectoryOptions,
  ): AgentMatcherResult | Promise<AgentMatcherResult>;
};

// The host's equality, called as a method of the host's context: Bun's
// `this.equals` checks that its `this` is its ExpectMatcherContext ("Expected
// this to be instanceof ExpectMatcherContext"), Jest's and Vitest's do not;
// a bare `const equals = this.equals` loses it on Bun.
function hostEquals(ctx: AgentMatcherContext): (actual: unknown, expected: unknown) => boolean {
  if (ctx === null || ctx === undefined || typeof ctx.equals !== "function") return equal;
  return (actual, expected) => ctx.equals!(actual, expected);
}

function result(ctx: AgentMatcherContext, check: Check): AgentMatcherResult {
  return { pass: check.pass, message: () => check.message(ctx?.isNot === true) };
}

// A check now, or (of a Run) once it settles.
function reported(
  ctx: AgentMatcherContext,
  check: Check | Promise<Check>,
): AgentMatcherResult | Promise<AgentMatcherResult> {
  return check instanceof Promise ? check.then((c) => result(ctx, c)) : result(ctx, check);
}

/**
 * Agent matchers for `expect.extend`, in Vitest and in Jest (or Jest's
 * standalone `expect` package): `toHaveCalledTool(name, args?)`,
 * `toHaveStopReason(reason)`, `toHaveSpent(amount)` on a `Budget`,
 * `toHaveUsedAllTurns()` on a scripted double,
 * `toHaveTranscriptContaining(text)` and `toHaveTrajectory(expected, options?)`.
 * Each failure message shows the {@linkcode transcript} (a trajectory's, a
 * diff of the two lists of calls). Given a `Run`, a matcher awaits it, so write
 * `await expect(run).toHaveStopReason("stop")`. On Deno, use the
 * `assert*` functions instead ({@linkcode assertCalledTool} and friends).
 *
 * ```ts ignore
 * import { expect } from "vitest";
 * import { agentMatchers } from "@agentkit/testing/testing";
 *
 * expect.extend(agentMatchers);
 * expect(result).toHaveCalledTool("lookup_cert", { host: "example.com" });
 * expect(budget).toHaveSpent("0.000200");
 * ```
 *
 * @example The matchers are plain functions of what they receive
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { agentMatchers, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assert, assertStringIncludes } from "@std/assert";
 *
 * const result = await new Agent("a", { model: "fake-model" }).run("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
 * const outcome = await agentMatchers.toHaveStopReason.call({}, result, "length");
 * assert(!outcome.pass);
 * assertStringIncludes(outcome.message(), 'stopped for "stop"');
 * assertStringIncludes(outcome.message(), "assistant: hello");
 * ```
 */
export const agentMatchers: AgentMatcherFunctions = {
  toHaveCalledTool(received, name, args) {
    const withArgs = arguments.length > 2;
    const equals = hostEquals(this);
    return reported(
      this,
      checkSettled(
        received,
        (x) => calledTool(x, name, args, withArgs, equals, "toHaveCalledTool"),
      ),
    );
  },
  toHaveStopReason(received, reason) {
    return reported(this, checkSettled(received, (x) => stopReason(x, reason, "toHaveStopReason")));
  },
  toHaveSpent(received, amount) {
    return result(this, spent(received, amount, "toHaveSpent"));
  },
  toHaveUsedAllTurns(received) {
    return result(this, usedAllTurns(received, "toHaveUsedAllTurns"));
  },
  toHaveTranscriptContaining(received, text) {
    if (received instanceof Run) {
      render([], text, "toHaveTranscriptContaining");
      return transcript(received).then((t) => result(this, transcriptContaining(text, t)));
    }
    const rendered = render(received, text, "toHaveTranscriptContaining");
    return result(this, transcriptContaining(text, rendered));
  },
  toHaveTrajectory(received, expected, options) {
    const plan = planTrajectory(expected, options, "toHaveTrajectory");
    const equals = hostEquals(this);
    return reported(
      this,
      checkSettled(received, (x) => trajectory(x, plan, equals, "toHaveTrajectory")),
    );
  },
};
