/**
 * Cancelling model streams that stop producing.
 *
 * @module
 */
import { ProviderTimeoutError } from "../../ports/provider_errors.ts";
import type { ClockPort } from "../../ports/clock.ts";
import { checkMs, FIRED, type Watchdog, watchStage } from "./_deadline.ts";
import { streamOf, withStage } from "./_stream_stage.ts";
import type { ChatMiddleware } from "./types.ts";

/** Options for {@linkcode idleTimeout}. */
export interface IdleTimeoutOptions {
  /**
   * How long a stream may produce nothing, on `ctx.clock`, before it is
   * cancelled (ms). Required.
   */
  readonly ms: number;
}

/**
 * A model stream produced nothing for too long and was cancelled. Before the
 * first event it is a retryable pre-stream failure (so `retry()` outside
 * `idleTimeout()` tries again); after it, a mid-stream one that is not.
 *
 * @example
 * ```ts
 * import { StreamStalled } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new StreamStalled(5_000, 2);
 * assertEquals([e.name, e.idleMs, e.eventsBefore, e.phase], ["StreamStalled", 5_000, 2, "mid_stream"]);
 * ```
 */
export class StreamStalled extends ProviderTimeoutError {
  /** The idle limit that was reached (ms). */
  readonly idleMs: number;
  /** How many events the stream produced before it went quiet. */
  readonly eventsBefore: number;

  /**
   * Phase `pre_stream` when the stream never started, else `mid_stream`.
   *
   * @param idleMs The idle limit (ms).
   * @param eventsBefore Events seen before the stall.
   */
  constructor(idleMs: number, eventsBefore: number) {
    super(
      `The model stream produced nothing for ${idleMs} ms (after ${eventsBefore} event(s)) and was cancelled; raise idleTimeout({ ms }) if the model is slow to start, or find out why the provider hangs`,
      { phase: eventsBefore === 0 ? "pre_stream" : "mid_stream" },
    );
    this.name = "StreamStalled";
    this.idleMs = idleMs;
    this.eventsBefore = eventsBefore;
  }
}

/**
 * Cancels a model stream that produces nothing for `ms` on `ctx.clock` and
 * fails the call with {@linkcode StreamStalled}. The provider sees the
 * cancellation: each call gets its own signal (linked to the run's), passed
 * down as both `request.signal` and the context's signal, and aborted on a
 * stall. Only time spent waiting on the stream counts: a slow consumer is not
 * a stalled provider. One timer per stream, re-armed as needed, rather than
 * one per event. Blocking `chat` calls pass through
 * (bound them with `timeout()`). Under a `FakeClock` a stall is detected
 * without any wall-clock wait.
 *
 * @param options The idle limit.
 * @returns The middleware.
 * @throws {TypeError} For an unknown option. {RangeError} For a bad `ms`.
 *
 * @example A stalled stream is cancelled, in virtual time
 * ```ts
 * import { Agent, idleTimeout, StreamStalled } from "@agentkit/testing/runtime";
 * import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const clock = new FakeClock();
 * const llm = FakeLLM.script([{ chunks: ["Let me"], stall: true }]);
 * const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 30_000 })] });
 * const run = new Agent("a", { model: "fake-model" }).start("go", ctx);
 * await assertRejects(() => run.result, StreamStalled, "nothing for 30000 ms");
 * assertEquals([llm.cancelled, clock.now()], [["fake-stream-1"], 30_000]);
 * ```
 */
export function idleTimeout(options: IdleTimeoutOptions): ChatMiddleware {
  const ms = checkMs("idleTimeout", options);
  const stage = watchStage((ctx, call, events) => idleWatch(ctx.clock, ms, call, events));
  return withStage({ name: "idleTimeout", stream: streamOf(stage) }, stage);
}

// One watchdog timer per stream, not one per event: it is armed when a wait
// begins and nothing is armed, and when it fires it either finds the current
// wait `ms` old (a stall), re-arms for the rest of it, or finds nothing
// pending and stays off.
function idleWatch(
  clock: ClockPort,
  ms: number,
  call: AbortController,
  events: () => number,
): Watchdog {
  let pendingSince = -1; // when the current wait began; -1 while none
  let armed: AbortController | undefined;
  let reportStall!: (v: typeof FIRED) => void;
  const fired = new Promise<typeof FIRED>((resolve) => reportStall = resolve);
  const arm = (delay: number): void => {
    const timer = new AbortController();
    armed = timer;
    clock.sleep(delay, timer.signal).then(() => {
      if (armed !== timer) return;
      armed = undefined;
      if (pendingSince < 0) return;
      const idle = clock.now() - pendingSince;
      if (idle >= ms) reportStall(FIRED);
      else arm(ms - idle);
    }, () => {});
  };
  return {
    fired,
    waiting(on) {
      pendingSince = on ? clock.now() : -1;
      if (on && !armed) arm(ms);
    },
    fail() {
      if (call.signal.aborted) return call.signal.reason;
      const stalled = new StreamStalled(ms, events());
      call.abort(stalled);
      return stalled;
    },
    stop() {
      armed?.abort();
      armed = undefined;
    },
  };
}
