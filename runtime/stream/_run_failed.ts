// Which runs failed, for the scripted doubles of testing/.
//
// A double's `[Symbol.dispose]` verifies the script, and JavaScript gives a
// dispose no way to see that the scope is being left by an exception: when
// the run failed and the script has turns left, the dispose would throw, and
// `deno test` and `node --test` would print only "SuppressedError: An error
// was suppressed during disposal", hiding the run's error. So the runtime
// notes here each run that fails, by the context it ran on (the object every
// port of the run is called with), and a double asks at dispose whether a run
// it served failed after its last call. runtime/ never imports testing/; the
// doubles import this.

/** A failed run: its error, and when it failed on this module's count. */
export interface RunFailure {
  /** What the run threw (or failed with, on an `error` event). */
  readonly error: unknown;
  /** The count of failed runs when this one failed (1 for the first). */
  readonly at: number;
}

// The count of failed runs so far; a double reads it at each call.
let failed = 0;
let last: RunFailure | undefined;
const byContext = new WeakMap<object, RunFailure>();

/** Notes that the run on `ctx` failed with `error`. */
export function noteRunFailed(ctx: object, error: unknown): void {
  const failure = { error, at: ++failed };
  last = failure;
  byContext.set(ctx, failure);
}

/** How many runs failed so far: what a double keeps of its last call. */
export function failedRuns(): number {
  return failed;
}

/**
 * The failure of a run that ended after a double's last call (`at`, what
 * {@linkcode failedRuns} said then), or undefined. With the context the
 * double was last called with, only that run counts; a double that is given
 * no context (a fake process, a fake HTTP server) takes the last failed run.
 */
export function failedAfter(ctx: unknown, at: number): RunFailure | undefined {
  const failure = ctx !== null && typeof ctx === "object" ? byContext.get(ctx) : last;
  return failure !== undefined && failure.at > at ? failure : undefined;
}
