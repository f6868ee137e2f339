/**
 * The real, production path: `Agent`, `RunContext`, `Services`, the `Invoker`
 * and its middleware chains, cognitions, and in-process adapters and null
 * objects. Nothing here imports the test doubles. The rooms, each with a
 * `mod.ts` this entry re-exports: `money/` (prices, meters, budgets, quotas),
 * `middleware/`, `cognition/`, `hooks/`, `stream/`, `sessions/`, `stores/`,
 * `tools/`, `providers/` (the real model ports), `cli/` and `spawn/`.
 *
 * @example A metered, retried run
 * ```ts
 * import { Agent, Budget, meter, retry } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const budget = new Budget({ maxCalls: 3 });
 * const ctx = makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [retry(), meter()] });
 * const result = await new Agent("a", { model: "fake-model" }).run("go", ctx);
 * assertEquals([result.output, budget.calls], ["ok", 1]);
 * ```
 *
 * @module
 */
export { Scope, type ScopeOptions } from "../ports/scope.ts";
export * from "./harness_error.ts";
export * from "./errors.ts";
export * from "./system_clock.ts";
export * from "./noop.ts";
export * from "./collecting_observer.ts";
export * from "./estimate_tokens.ts";
export * from "./summary_compactor.ts";
export * from "./services.ts";
export * from "./context.ts";
export * from "./null_ctx.ts";
export * from "./invoker.ts";
export * from "./request_builder.ts";
export * from "./agent.ts";
export * from "./run.ts";
export * from "./structured_output.ts";
export * from "./money/mod.ts";
export * from "./middleware/mod.ts";
export * from "./cognition/mod.ts";
export * from "./hooks/mod.ts";
export * from "./stream/mod.ts";
export * from "./sessions/mod.ts";
export * from "./stores/mod.ts";
export * from "./tools/mod.ts";
export * from "./providers/mod.ts";
export * from "./cli/mod.ts";
export * from "./spawn/mod.ts";
// The process's secret registry (issue 38): a credential of your own, masked everywhere.
export { MIN_SECRET_LENGTH, registerSecret } from "./_secrets/registry.ts";
