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
 * Runs `work` in `span`: a failure is recorded, and the span ends either way;
 * `settled` sees the value first (to set attributes from it). A ready value
 * is handed back as is and a ready failure thrown (see ./_now.ts); a promise
 * is chained rather than awaited.
 */
export function inSpan<T>(
  span: Span,
  work: () => Now<T>,
  settled?: (value: T) => void,
): Now<T> {
  const failed = (error: unknown): never => {
    spanError(span, error);
    span.end();
    throw error;
  };
  const done = (value: T): T => {
    if (settled) {
      try {
        settled(value);
      } catch (error) {
        failed(error);
      }
    }
    span.end();
    return value;
  };
  let called: Now<T>;
  try {
    called = work();
  } catch (error) {
    return failed(error);
  }
  return called instanceof Promise ? called.then(done, failed) : done(called);
}
