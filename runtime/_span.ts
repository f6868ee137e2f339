// The runtime's spans, opened and closed alike by the agent and the invoker:
// a failure is an "error" event carrying its message, and the span ends
// however the work did.
import type { Span } from "../ports/trace.ts";

/** Records `error` on `span` as an "error" event with its message. */
export function spanError(span: Span, error: unknown): void {
  span.addEvent("error", { message: String((error as Error)?.message ?? error) });
}

/**
 * Runs `work` in `span`: a failure is recorded, and the span ends either way;
 * `settled` sees the value first (to set attributes from it). Chained rather
 * than async: one promise on every model and tool call.
 */
export function inSpan<T>(
  span: Span,
  work: () => T | Promise<T>,
  settled?: (value: T) => void,
): Promise<T> {
  const failed = (error: unknown): never => {
    spanError(span, error);
    span.end();
    throw error;
  };
  let called: Promise<T>;
  try {
    called = Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error).catch(failed);
  }
  return called.then((value) => {
    if (settled) {
      try {
        settled(value);
      } catch (error) {
        failed(error);
      }
    }
    span.end();
    return value;
  }, failed);
}
