// The runtime's spans, opened and closed alike by the agent and the invoker:
// a failure is an "error" event carrying its message, and the span ends
// however the work did.
import type { Span } from "../ports/trace.ts";

/** Records `error` on `span` as an "error" event with its message. */
export function spanError(span: Span, error: unknown): void {
  span.addEvent("error", { message: String((error as Error)?.message ?? error) });
}

/**
 * The end of work in `span` that failed with `error`: recorded, the span
 * ended, `error` thrown. With {@linkcode spanEnded}, how the invoker runs a
 * call in its span without a closure: a ready answer is handed back as is
 * and a ready failure thrown (see ./_now.ts), a promise chained.
 */
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
