/**
 * Middleware: what sits between an agent and its model or tools, composed
 * once per `Invoker`, outermost first. `retry` (model faults, with backoff on
 * `ctx.clock`), `timeout` and `idleTimeout`, `meter` (charges the budget),
 * `memoize`, `semanticMemoize` and `idempotent`.
 *
 * @example A 429 retried after the provider's hint, in virtual time
 * ```ts
 * import { Agent, retry } from "@agentkit/testing/runtime";
 * import { RateLimitError } from "@agentkit/testing/ports";
 * import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const clock = new FakeClock();
 * const llm = FakeLLM.script([{ error: new RateLimitError("slow down", { retryAfterMs: 30_000 }) }, "ok"]);
 * const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry()] });
 * assertEquals((await new Agent("a", { model: "fake-model" }).run("go", ctx)).output, "ok");
 * assertEquals(clock.sleeps, [30_000]);
 * ```
 *
 * @module
 */
export type * from "./types.ts";
export * from "./retry.ts";
export * from "./meter.ts";
export * from "./timeout.ts";
export * from "./idle_timeout.ts";
export * from "./memoize.ts";
export * from "./idempotent.ts";
export * from "./semantic_memoize.ts";
