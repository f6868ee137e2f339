// Shared plumbing of timeout() and idleTimeout(): option checks, a per-call
// abort controller linked by hand to the signals above it (AbortSignal.any
// retains memory per call on Node 20), and the loop that races a streamed
// call's events against a watchdog.
import type { ChatRequest } from "../../ports/chat.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { RunContext } from "../context.ts";
import { editDistance } from "../errors.ts";
import type { StreamNext } from "./types.ts";

/** Checks `{ ms }` options when the middleware is built; returns `ms`. */
export function checkMs(middleware: string, options: unknown): number {
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      `Cannot build ${middleware}(): pass an options object such as ${middleware}({ ms: 30_000 }), got ${
        options === null ? "null" : typeof options
      }`,
    );
  }
  for (const key of Object.keys(options)) {
    if (key !== "ms") {
      const hint = editDistance(key.toLowerCase(), "ms") <= 2 || /ms|timeout|millis/i.test(key)
        ? '; did you mean "ms"?'
        : '; the only option is "ms"';
      throw new TypeError(`Cannot build ${middleware}(): unknown option "${key}"${hint}`);
    }
  }
  const ms = (options as { ms?: unknown }).ms;
  if (typeof ms !== "number" || !(ms > 0) || !Number.isFinite(ms)) {
    throw new RangeError(
      `Cannot build ${middleware}(): ms must be a positive number of milliseconds, got ${
        JSON.stringify(ms)
      }`,
    );
  }
  return ms;
}

/** A controller for one call, aborted when any of `signals` aborts. */
export interface CallController {
  /** The call's own controller. */
  readonly controller: AbortController;
  /** Stops listening to the parent signals. */
  unlink(): void;
}

/** Links a fresh controller to `signals` (undefined and duplicates skipped). */
export function linkCall(...signals: ReadonlyArray<AbortSignal | undefined>): CallController {
  const controller = new AbortController();
  const parents: AbortSignal[] = [];
  const onAbort = (event: Event) => {
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const s of signals) {
    if (!s || parents.includes(s)) continue;
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    parents.push(s);
    s.addEventListener("abort", onAbort, { once: true });
  }
  return {
    controller,
    unlink() {
      for (const s of parents) s.removeEventListener("abort", onAbort);
    },
  };
}

/** What {@linkcode Watchdog.fired} resolves with. */
export const FIRED: unique symbol = Symbol("fired");

/**
 * Decides when one call must give up: timeout() after `ms` in all,
 * idleTimeout() after `ms` of waiting for one event.
 */
export interface Watchdog {
  /** Resolves with FIRED once the call must give up; never rejects before stop(). */
  readonly fired: Promise<typeof FIRED>;
  /**
   * The error the watchdog already aborted the call with, if any: it is
   * thrown in place of the provider's rejection (the abort reason).
   */
  readonly expired?: unknown;
  /** A wait for the provider's next event begins (true) or has ended (false). */
  waiting?(on: boolean): void;
  /**
   * Called once `fired` won: aborts the call if it is not yet, and returns
   * what to throw.
   */
  fail(): unknown;
  /** The call is over: clears the timer. */
  stop(): void;
}

/**
 * A streamed call under a watchdog: the call gets its own signal (linked to
 * the run's and the request's, passed down as both `request.signal` and the
 * context's signal), and every wait for the next event races `fired`. When
 * the watchdog wins, the pending event is abandoned, not awaited, so a
 * provider that ignores cancellation cannot hang the caller.
 */
export async function* watchStream(
  req: ChatRequest,
  ctx: RunContext,
  next: StreamNext,
  watchdog: (call: AbortController, events: () => number) => Watchdog,
): AsyncGenerator<StreamEvent, void, undefined> {
  const call = linkCall(ctx.signal, req.signal);
  const signal = call.controller.signal;
  let events = 0;
  const watch = watchdog(call.controller, () => events);
  let iterator: AsyncIterator<StreamEvent> | undefined;
  let finished = false;
  try {
    iterator = next({ ...req, signal }, ctx.with({ signal }))[Symbol.asyncIterator]();
    while (true) {
      const pending = iterator.next();
      watch.waiting?.(true);
      let step: IteratorResult<StreamEvent> | typeof FIRED;
      try {
        step = await Promise.race([pending, watch.fired]);
      } catch (error) {
        if (watch.expired === undefined) throw error;
        step = FIRED;
      }
      watch.waiting?.(false);
      if (step === FIRED) {
        finished = true;
        pending.catch(() => {});
        iterator.return?.()?.catch(() => {});
        throw watch.fail();
      }
      if (step.done) {
        finished = true;
        return;
      }
      events++;
      yield step.value;
    }
  } finally {
    watch.stop();
    call.unlink();
    if (!finished) await iterator?.return?.();
  }
}
