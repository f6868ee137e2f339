/**
 * `assertTrajectory`: the tool calls of a run, in order or not, against an
 * expected list, with a diff of the two on failure.
 *
 * @module
 */
import type { Run } from "../../runtime/run.ts";
import { type Check, checkSettled, equal } from "./_agent_checks.ts";
import {
  planTrajectory,
  trajectory,
  type TrajectoryCall,
  type TrajectoryOptions,
} from "./_trajectory.ts";
import { AssertionError } from "./assertion_error.ts";
import type { SettledOf } from "./agent_assertions.ts";
import type { Transcribable } from "./transcript.ts";

export type {
  TrajectoryArgs,
  TrajectoryCall,
  TrajectoryOptions,
  TrajectoryOrder,
} from "./_trajectory.ts";

/**
 * Asserts the tool calls a subject made against an expected trajectory, a
 * list of `{ name, args? }` (an entry without `args` matches any arguments).
 * `order`: `"strict"` (default; the same calls in the same order),
 * `"unordered"` (the same calls, any order), `"subset"` (every call made is
 * among the expected) or `"superset"` (every expected call was made).
 * `args`: `"exact"` (default; deep equality, asymmetric matchers honoured),
 * `"ignore"`, `"subset"` (the actual arguments contain the expected ones,
 * object by object) or `"superset"` (the expected contain the actual). Each
 * call made pairs with at most one expected call, and the pairing is a
 * maximum one, so an entry without `args` never steals the call a stricter
 * entry needs. `subject` is anything `transcript()` takes; a `Run` is
 * awaited (the function then returns a promise).
 *
 * @param subject Where the calls are: a result, a `Run`, messages, a run's
 * events, a `FakeLLM`, a `FakeTool` or a `ScriptedProvider`.
 * @param expected The calls expected.
 * @param options The order and argument modes.
 * @throws {AssertionError} When the calls do not follow the trajectory; the
 * message says what failed and lists both trajectories as a diff (`"  "`
 * matched, `"- "` expected but not made, `"+ "` made but not expected).
 * @throws {TypeError} When `expected` is not a list of `{ name, args? }` or
 * an option is unknown or out of its modes.
 *
 * @example
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { AssertionError, assertTrajectory, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * const search = new FakeTool({ name: "search", responder: "found" });
 * const fetch = new FakeTool({ name: "fetch", responder: "<html>" });
 * const llm = FakeLLM.script([
 *   { toolCalls: [toolCall("c1", "search", { q: "deno", limit: 5 })] },
 *   { toolCalls: [toolCall("c2", "fetch", { url: "https://deno.com" })] },
 *   "Done.",
 * ]);
 * const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [search, fetch] }) });
 * const result = await agent.run("find deno", makeTestCtx({ llm }));
 *
 * assertTrajectory(result, [{ name: "search", args: { q: "deno", limit: 5 } }, { name: "fetch" }]);
 * assertTrajectory(result, [{ name: "fetch" }, { name: "search", args: { q: "deno" } }], { order: "unordered", args: "subset" });
 * assertTrajectory(result, [{ name: "search" }], { order: "superset" });
 * assertThrows(
 *   () => assertTrajectory(result, [{ name: "fetch" }, { name: "search" }]),
 *   AssertionError,
 *   "the same calls were made in another order",
 * );
 * ```
 */
export function assertTrajectory<S extends Transcribable | Run>(
  subject: S,
  expected: readonly TrajectoryCall[],
  options?: TrajectoryOptions,
): SettledOf<S> {
  const plan = planTrajectory(expected, options, "assertTrajectory");
  const check = checkSettled(subject, (x) => trajectory(x, plan, equal, "assertTrajectory"));
  const enforce = (c: Check): void => {
    if (!c.pass) throw new AssertionError(c.message(false));
  };
  return (check instanceof Promise ? check.then(enforce) : enforce(check)) as SettledOf<S>;
}
