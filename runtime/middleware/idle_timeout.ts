/**
 * Cancelling model streams that stop producing.
 *
 * @module
 */
import { ProviderTimeoutError } from "../../ports/provider_errors.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { checkMs, linkCall } from "./_deadline.ts";
import type { ChatMiddleware } from "./types.ts";

const STALLED: unique symbol = Symbol("stalled");

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
   * Creates the instance.
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
  return {
    name: "idleTimeout",
    async *stream(req, ctx, next): AsyncGenerator<StreamEvent, void, undefined> {
      const call = linkCall(ctx.signal, req.signal);
      const signal = call.controller.signal;
      const clock = ctx.clock;
      // One watchdog timer per stream, not one per event: it is armed when a
      // wait begins and nothing is armed, and when it fires it either finds
      // the current wait `ms` old (a stall), re-arms for the rest of it, or
      // finds nothing pending and stays off.
      let pendingSince = -1; // when the current wait began; -1 while none
      let armed: AbortController | undefined;
      let reportStall!: (v: typeof STALLED) => void;
      const stall = new Promise<typeof STALLED>((resolve) => reportStall = resolve);
      const arm = (delay: number): void => {
        const timer = new AbortController();
        armed = timer;
        clock.sleep(delay, timer.signal).then(() => {
          if (armed !== timer) return;
          armed = undefined;
          if (pendingSince < 0) return;
          const idle = clock.now() - pendingSince;
          if (idle >= ms) reportStall(STALLED);
          else arm(ms - idle);
        }, () => {});
      };
      let iterator: AsyncIterator<StreamEvent> | undefined;
      let events = 0;
      let finished = false;
      try {
        iterator = next({ ...req, signal }, ctx.with({ signal }))[Symbol.asyncIterator]();
        while (true) {
          const pending = iterator.next();
          pendingSince = clock.now();
          if (!armed) arm(ms);
          const step = await Promise.race([pending, stall]);
          pendingSince = -1;
          if (step === STALLED) {
            // Give up on the pending event without waiting for it: a provider
            // that ignores cancellation must not hang the caller.
            finished = true;
            pending.catch(() => {});
            iterator.return?.()?.catch(() => {});
            if (signal.aborted) throw signal.reason;
            const stalled = new StreamStalled(ms, events);
            call.controller.abort(stalled);
            throw stalled;
          }
          if (step.done) {
            finished = true;
            return;
          }
          events++;
          yield step.value;
        }
      } finally {
        armed?.abort();
        armed = undefined;
        call.unlink();
        if (!finished) await iterator?.return?.();
      }
    },
  };
}
