/**
 * `@agentkit/testing`: make LLM agents testable. Deterministic, offline,
 * free, and with no wall-clock waiting: doubles at every port, the real
 * runtime in between. This root entry re-exports `./ports`, `./runtime` and
 * `./testing`.
 *
 * @example The smallest thing that works
 * ```ts
 * import { Agent, FakeLLM, makeTestCtx } from "@agentkit/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const ctx = makeTestCtx({ llm: new FakeLLM("The cert expired on 2026-08-01.") });
 * const result = await new Agent("analyst", { model: "fake-model" }).run("Why did the deploy fail?", ctx);
 * assertEquals(result.output, "The cert expired on 2026-08-01.");
 * ```
 *
 * @module
 */
export * from "./ports/mod.ts";
export * from "./runtime/mod.ts";
export * from "./testing/mod.ts";
