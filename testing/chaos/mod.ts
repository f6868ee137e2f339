/**
 * Chaos: property-based testing of an agent. `chaos(scenario, options)`
 * runs the agent many times against a model that plays a script with a
 * seeded schedule of faults injected (the provider's 429s, 5xx, timeouts,
 * cut streams and stalls, the model's empty answers, unknown tools and
 * broken tool JSON, the tools' errors and delays), checks invariants, and
 * shrinks a broken one to the smallest schedule, thrown as a
 * `ChaosFailure` with a pasteable `FakeLLM.script([...])` reproduction.
 *
 * @example An agent that trusts its tool's arguments, found out
 * ```ts
 * import { Agent, ReActCognition } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { chaos, ChaosFailure, FakeTool } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const shout = new FakeTool({
 *   name: "shout",
 *   parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
 *   responder: (args: Record<string, unknown>) => (args.text as string).toUpperCase(),
 * });
 * const failure = await assertRejects(
 *   () =>
 *     chaos(async (world) => {
 *       const result = await new Agent("a", {
 *         model: "fake-model",
 *         cognition: new ReActCognition({ tools: [world.tool(shout)] }),
 *       }).run("Shout hi", world.ctx());
 *       if (result.messages.some((m) => m.isError)) throw new Error(`a tool failed`);
 *       return result;
 *     }, {
 *       script: [{ toolCalls: [toolCall("c1", "shout", { text: "hi" })] }, "HI"],
 *       faults: ["emptyAnswer", "toolError"],
 *       seed: 1,
 *     }),
 *   ChaosFailure,
 * );
 * assertEquals([failure.invariant, failure.faults], ["typedFailure", 'tool call 1: toolError("shout")']);
 * ```
 *
 * @module
 */
export { chaos } from "./_chaos_entry.ts";
export type {
  ChaosFaultKind,
  ChaosInvariant,
  ChaosInvariantName,
  ChaosOptions,
  ChaosScenario,
  ChaosSummary,
} from "./chaos.ts";
export * from "./chaos_trials_summary.ts";
export type * from "./chaos_world.ts";
export type * from "./chaos_outcome.ts";
export * from "./chaos_failure.ts";
export * from "./invalid_scenario.ts";
