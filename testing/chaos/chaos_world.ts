/**
 * What a chaos scenario builds its agent from.
 *
 * @module
 */
import type { LLMPort } from "../../ports/llm.ts";
import type { ToolPort } from "../../ports/tool.ts";
import type { RunContext } from "../../runtime/context.ts";
import type { FakeClock } from "../fake_clock.ts";
import type { TestCtxOptions } from "../make_test_ctx.ts";
import type { AiSdkModelOptions } from "../frameworks/ai_sdk_model.ts";
import type { AiSdkLanguageModel } from "../frameworks/ai_sdk_spec.ts";
import type { FakeProvider } from "../http/fake_provider.ts";

/**
 * One run's world: the faulty model, the tools' wrapper, the virtual clock,
 * and the same model on the provider wire and as an AI SDK model. Build the
 * agent under test from it, run it, and return its result.
 *
 * During a run the global timers, `Date` and `performance.now` run on
 * `clock` (`FakeClock.install()`), so a third-party client's retry backoff
 * or timeout costs no wall time either.
 *
 * @example
 * ```ts
 * import type { ChaosWorld } from "@agentkit/testing/testing";
 * import { Agent } from "@agentkit/testing/runtime";
 * const scenario = (world: ChaosWorld) => new Agent("a", { model: "fake-model" }).run("hi", world.ctx());
 * ```
 */
export interface ChaosWorld {
  /** The 1-based run. */
  readonly run: number;
  /** The model: `options.script` with this run's faults injected. */
  readonly llm: LLMPort;
  /**
   * The tool, wrapped so this run's tool faults hit it (`toolError`,
   * `slowTool`); the same wrapper for the same tool within a run.
   */
  tool(tool: ToolPort): ToolPort;
  /** The run's virtual clock (every wait of the world and of `ctx()` runs on it). */
  readonly clock: FakeClock;
  /** A `FakeProvider` serving `llm` on the provider wires: pass `fetch.fetch` to a client. */
  readonly fetch: FakeProvider;
  /** `llm` as an AI SDK language model (`aiSdkModel`), on the run's clock. */
  aiSdkModel<V extends "v4" | "v3" = "v4">(
    options?: Omit<AiSdkModelOptions<V>, "ctx">,
  ): AiSdkLanguageModel<V>;
  /**
   * `makeTestCtx(options)` wired to `llm`, `clock` and the run's stop
   * signal (pass no `llm`, `invoker` or `clock`).
   */
  ctx(options?: TestCtxOptions): RunContext;
  /** Aborts when chaos() stops the run. */
  readonly signal: AbortSignal;
}
