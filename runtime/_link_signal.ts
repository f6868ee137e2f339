// The one way the runtime links a signal of its own to the signals above it
// (the run's, the request's): by hand, with listeners removed when the work
// is done. AbortSignal.any retains memory per call on Node 20, and a call or
// run made many times a second must leave nothing behind.

/** A controller linked to parent signals until `unlink()`. */
export interface LinkedSignal {
  /** The controller: aborted when any parent aborts (with its reason), or by hand. */
  readonly controller: AbortController;
  /** Stops listening to the parents. */
  unlink(): void;
}

/**
 * A fresh controller aborted when any of `signals` aborts (undefined ones
 * and duplicates skipped); aborted at once when one already has. `onAbort`
 * runs first, before anyone listening to the controller sees the abort.
 */
export function linkSignal(
  signals: ReadonlyArray<AbortSignal | undefined>,
  onAbort?: (reason: unknown) => void,
): LinkedSignal {
  const controller = new AbortController();
  const parents: AbortSignal[] = [];
  const abort = (reason: unknown): void => {
    onAbort?.(reason);
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const listener = (event: Event): void => abort((event.target as AbortSignal).reason);
  for (const s of signals) {
    if (!s || parents.includes(s)) continue;
    if (s.aborted) {
      abort(s.reason);
      break;
    }
    parents.push(s);
    s.addEventListener("abort", listener, { once: true });
  }
  return {
    controller,
    unlink() {
      for (const s of parents) s.removeEventListener("abort", listener);
    },
  };
}
