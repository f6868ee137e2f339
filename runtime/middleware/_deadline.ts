// Shared plumbing of timeout() and idleTimeout(): option checks and a per-call
// abort controller linked by hand to the signals above it (AbortSignal.any
// retains memory per call on Node 20).
import { editDistance } from "../errors.ts";

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
