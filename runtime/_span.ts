// The runtime's spans, opened and closed alike by the agent and the invoker:
// a failure is an "error" event carrying its message, and the span ends
// however the work did.
import type { Span } from "../ports/trace.ts";
import type { Now } from "./_now.ts";

/** Records `error` on `span` as an "error" event with its message. */
export function spanError(span: Span, error: unknown): void {
  span.addEvent("error", { message: String((error as Error)?.message ?? error) });
}

/**
 * Runs `work(a, b)` in `span`: the span ends through `done` with the value
 * (`done` ends it, and records a failure of its own, as `spanFailed` does),
 * or records the work's failure and ends. A ready value is handed back as is and a
 * ready failure thrown (see ./_now.ts); a promise is chained. The work and
 * its arguments are passed apart, so a call makes no closure on the way.
 */
export function inSpan<A, B, T>(
  span: Span,
  work: (a: A, b: B) => Now<T>,
  a: A,
  b: B,
  done: (span: Span, value: T) => T,
): Now<T> {
  let value: Now<T>;
  try {
    value = work(a, b);
  } catch (error) {
    return spanFailed(span, error);
  }
  return value instanceof Promise
    ? value.then((v) => done(span, v), (error) => spanFailed(span, error))
    : done(span, value);
}

/** The end of work in `span` that failed with `error`: recorded, the span ended, `error` thrown. */
export function spanFailed(span: Span, error: unknown): never {
  spanError(span, error);
  span.end();
  throw error;
}

/** The end of work in `span` that gave `value`: the span ended, `value` returned. */
export function spanEnded<T>(span: Span, value: T): T {
  span.end();
  return value;
}
