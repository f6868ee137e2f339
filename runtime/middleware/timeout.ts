/**
 * A deadline on whole model calls.
 *
 * @module
 */
import { ProviderTimeoutError } from "../../ports/provider_errors.ts";
import type { ClockPort } from "../../ports/clock.ts";
import { checkMs, FIRED, type Watchdog, watchStage } from "./_deadline.ts";
import { linkSignal } from "../_link_signal.ts";
import { streamOf, withStage } from "./_stream_stage.ts";
import type { ChatMiddleware } from "./types.ts";

/** Options for {@linkcode timeout}. */
export interface TimeoutOptions {
  /** How long one model call may take in total, on `ctx.clock` (ms). Required. */
  readonly ms: number;
}

/**
 * A model call did not finish within its deadline and was cancelled. Before
 * any streamed event it is a retryable pre-stream failure; after one, a
 * mid-stream failure that is not.
 *
 * @example
 * ```ts
 * import { ModelTimeout } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new ModelTimeout(10_000, 0);
 * assertEquals([e.name, e.timeoutMs, e.retryable, e.phase], ["ModelTimeout", 10_000, true, "pre_stream"]);
 * ```
 */
export class ModelTimeout extends ProviderTimeoutError {
  /** The deadline that was missed (ms). */
  readonly timeoutMs: number;
  /** How many events the stream produced before the deadline (0 for a blocking call). */
  readonly eventsBefore: number;

  /**
   * Phase `pre_stream` when no event arrived before the deadline, else `mid_stream`.
   *
   * @param timeoutMs The deadline (ms).
   * @param eventsBefore Events seen before it passed.
   */
  constructor(timeoutMs: number, eventsBefore: number) {
    super(
      `The model call did not finish within ${timeoutMs} ms (after ${eventsBefore} event(s)) and was cancelled; raise timeout({ ms }) if the answers are legitimately long`,
      { phase: eventsBefore === 0 ? "pre_stream" : "mid_stream" },
    );
    this.name = "ModelTimeout";
    this.timeoutMs = timeoutMs;
    this.eventsBefore = eventsBefore;
  }
}

/**
 * Bounds every model call (blocking or streamed) to `ms` on `ctx.clock`: past
 * it the call is cancelled (the provider sees the abort on `request.signal`
 * and on the context's signal) and fails with {@linkcode ModelTimeout}. One
 * timer per call, cleared when the call ends; under a `FakeClock` a deadline
 * costs no wall time.
 *
 * @param options The deadline.
 * @returns The middleware.
 * @throws {TypeError} For an unknown option. {RangeError} For a bad `ms`.
 *
 * @example A slow model misses its deadline, in virtual time
 * ```ts
 * import { Agent, ModelTimeout, timeout } from "@agentkit/testing/runtime";
 * import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const clock = new FakeClock();
 * const llm = new FakeLLM("late", { delayMs: 60_000 });
 * const ctx = makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 10_000 })] });
 * await assertRejects(() => new Agent("a", { model: "fake-model" }).run("go", ctx), ModelTimeout);
 * assertEquals([llm.cancelled, clock.now()], [["fake-chat-1"], 10_000]);
 * ```
 */
export function timeout(options: TimeoutOptions): ChatMiddleware {
  const ms = checkMs("timeout", options);
  const stage = watchStage((ctx, call, events) => deadline(ctx.clock, ms, call, events));
  return withStage({
    name: "timeout",
    async chat(req, ctx, next) {
      const call = linkSignal([ctx.signal, req.signal]);
      const signal = call.controller.signal;
      const watch = deadline(ctx.clock, ms, call.controller, () => 0);
      try {
        const answer = next({ ...req, signal }, ctx.with({ signal }));
        answer.catch(() => {});
        const settled = await Promise.race([answer, watch.fired]);
        if (settled === FIRED) throw watch.fail();
        return settled;
      } catch (error) {
        // The provider may reject with the abort reason before the deadline
        // wins the race: either way the caller sees the ModelTimeout.
        throw watch.expired ?? error;
      } finally {
        watch.stop();
        call.unlink();
      }
    },
    stream: streamOf(stage),
  }, stage);
}

// One timer per call, started with it: when it fires, the call is aborted
// with a ModelTimeout counting the events seen so far.
function deadline(
  clock: ClockPort,
  ms: number,
  call: AbortController,
  events: () => number,
): Watchdog {
  const timer = new AbortController();
  let expired: ModelTimeout | undefined;
  const fired = clock.sleep(ms, timer.signal).then((): typeof FIRED => {
    expired = new ModelTimeout(ms, events());
    call.abort(expired);
    return FIRED;
  });
  fired.catch(() => {});
  return {
    fired,
    get expired() {
      return expired;
    },
    fail: () => expired,
    stop: () => timer.abort(),
  };
}
