/**
 * Money: what a model call costs and when to stop paying. `PriceTable` turns
 * usage into exact decimal dollars (no floating point), a `Meter` is charged
 * once per call, and `Budget` (per run) and `Quota` (per tenant) are the
 * meters that refuse the next call once a limit is reached.
 *
 * @example A budget that stops the second call
 * ```ts
 * import { Agent, Budget, BudgetExceeded, meter } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertRejects } from "@std/assert";
 *
 * const budget = new Budget({ maxCalls: 1 });
 * const ctx = makeTestCtx({ llm: FakeLLM.script(["one", "two"]), budget, chatMiddleware: [meter()] });
 * const agent = new Agent("a", { model: "fake-model" });
 * await agent.run("first", ctx);
 * await assertRejects(() => agent.run("second", ctx), BudgetExceeded);
 * ```
 *
 * @module
 */
export * from "./price_table.ts";
export type * from "./meter.ts";
export * from "./budget.ts";
export * from "./quota.ts";
