// The runtime's spans, opened and closed alike by the agent and the invoker:
// a failure is an "error" event carrying its message, and the span ends
// however the work did.
import type { Span } from "../ports/trace.ts";

/** Records `error` on `span` as an "error" event with its message. */
export function spanError(span: Span, error: unknown): void {
  span.addEvent("error", { message: String((error as Error)?.message ?? error) });
}

/** Runs `work` in `span`: a failure is recorded, and the span ends either way. */
export async function inSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    spanError(span, error);
    throw error;
  } finally {
    span.end();
  }
}
