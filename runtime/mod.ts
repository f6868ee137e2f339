/**
 * The real, production path: `Agent`, `RunContext`, `Services`, the `Invoker`
 * and its middleware chains, budgets and meters, cognitions, and in-process
 * adapters and null objects. Nothing here imports the test doubles.
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
export * from "./price_table.ts";
export * from "./meter.ts";
export * from "./budget.ts";
export * from "./system_clock.ts";
export * from "./noop.ts";
export * from "./collecting_observer.ts";
export * from "./in_memory_store.ts";
export * from "./in_memory_vector.ts";
export * from "./in_memory_checkpoint_store.ts";
export * from "./quota.ts";
export * from "./estimate_tokens.ts";
export * from "./summary_compactor.ts";
export * from "./services.ts";
export * from "./context.ts";
export * from "./null_ctx.ts";
export * from "./invoker.ts";
export * from "./middleware/types.ts";
export * from "./middleware/retry.ts";
export * from "./middleware/meter.ts";
export * from "./middleware/timeout.ts";
export * from "./middleware/idle_timeout.ts";
export * from "./middleware/memoize.ts";
export * from "./middleware/idempotent.ts";
export * from "./middleware/semantic_memoize.ts";
export * from "./tool_schema.ts";
export * from "./cognition/cognition.ts";
export * from "./cognition/single_shot.ts";
export * from "./cognition/react.ts";
export * from "./request_builder.ts";
export * from "./agent.ts";
export * from "./stream_event_schema.ts";
export * from "./hooks.ts";
export * from "./session.ts";
export * from "./in_memory_session_store.ts";
export * from "./kv_session_store.ts";
export * from "./stream_chunk.ts";
export * from "./run.ts";
export * from "./jsonl_session.ts";
export * from "./spawn/system_spawn.ts";
export * from "./cli/cli_turn_error.ts";
export * from "./cli/claude_cli_cognition.ts";
export * from "./cli/codex_cli_cognition.ts";
export * from "./cli/codex_cli_session.ts";
export * from "./providers/mod.ts";
export * from "./structured_output.ts";
