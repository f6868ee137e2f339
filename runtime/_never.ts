// The signal of a context that was given none: it never aborts (its
// controller is unreachable), so waits on it need no abort listener.

/** A signal that never aborts. */
export const NEVER: AbortSignal = new AbortController().signal;
