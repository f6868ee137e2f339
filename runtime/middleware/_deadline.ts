// Shared plumbing of timeout() and idleTimeout(): option checks, and the
// stage that races a streamed call's steps against a watchdog, on a signal of
// the call's own (../_link_signal.ts).
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { RunContext } from "../context.ts";
import type { StreamStage } from "./_stream_stage.ts";
import { linkSignal } from "../_link_signal.ts";
import { checkOptions, is, type Rule } from "../_options.ts";

const MS_OPTIONS: Readonly<Record<string, Rule>> = { ms: is.positiveMs };

/** Checks `{ ms }` options when the middleware is built; returns `ms`. */
export function checkMs(middleware: string, options: unknown): number {
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      `Cannot build ${middleware}(): pass an options object such as ${middleware}({ ms: 30_000 }), got ${
        options === null ? "null" : typeof options
      }`,
    );
  }
  // The checker suggests "ms" for a near spelling ("msec", "MS") itself; these
  // say the same thing in other words. A hint only shows for an unknown key.
  const hints: Record<string, string> = {};
  for (const key of Object.keys(options)) {
    if (/ms|timeout|millis/i.test(key)) hints[key] = 'did you mean "ms"?';
  }
  checkOptions(`${middleware}()`, options, MS_OPTIONS, { required: ["ms"], hints });
  return (options as { ms: number }).ms;
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
 * A streamed call under a watchdog, as a stage: the call gets its own signal
 * (linked to the run's and the request's, passed down as both
 * `request.signal` and the context's signal), and opening the rest of the
 * chain and every wait for the next event race `fired`. When the watchdog
 * wins, the pending step is abandoned, not awaited, so a provider that
 * ignores cancellation cannot hang the caller.
 */
export function watchStage(
  watchdog: (ctx: RunContext, call: AbortController, events: () => number) => Watchdog,
): StreamStage {
  return async (req, ctx, next) => {
    const call = linkSignal([ctx.signal, req.signal]);
    const signal = call.controller.signal;
    let events = 0;
    const watch = watchdog(ctx, call.controller, () => events);
    let finished = false;
    const finish = (): void => {
      finished = true;
      watch.stop();
      call.unlink();
    };
    // One step of the call (opening it, or its next event) against the watchdog.
    const race = async <T>(pending: Promise<T>, abandon: (p: Promise<T>) => void): Promise<T> => {
      watch.waiting?.(true);
      let step: T | typeof FIRED;
      try {
        step = await Promise.race([pending, watch.fired]);
      } catch (error) {
        if (watch.expired === undefined) {
          finish();
          throw error;
        }
        step = FIRED;
      }
      watch.waiting?.(false);
      if (step === FIRED) {
        pending.catch(() => {});
        abandon(pending);
        const error = watch.fail();
        finish();
        throw error;
      }
      return step;
    };
    const src = await race(
      Promise.resolve().then(() => next({ ...req, signal }, ctx.with({ signal }))),
      (opening) => opening.then((s) => s.iterator.return?.()).catch(() => {}),
    );
    const inner = src.iterator;
    // Closes the provider's stream without waiting. A hand-written iterator
    // may answer return() without a promise, or throw: for await tolerates
    // both, and the caller must still see the watchdog's error.
    const abandonInner = (): void => {
      try {
        Promise.resolve(inner.return?.()).catch(() => {});
      } catch {
        // The provider's own cleanup failed; the call is given up either way.
      }
    };
    const iterator: AsyncIterator<StreamEvent, unknown, undefined> = {
      async next() {
        if (finished) return { done: true, value: undefined };
        const step = await race(inner.next(), abandonInner);
        if (step.done) finish();
        else events++;
        return step;
      },
      async return(value?: unknown) {
        if (!finished) {
          finish();
          await inner.return?.();
        }
        return { done: true, value };
      },
    };
    return { iterator, taps: src.taps };
  };
}
