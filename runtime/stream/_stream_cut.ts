// Marks a mid-stream failure that is a broken connection rather than an
// error the provider reported. A FakeProvider serves the first as a stream
// cut without its terminator and the second as the wire's error frame; the
// flag is a symbol, so it adds nothing to the error's visible shape.
const CUT: unique symbol = Symbol.for("agentkit.streamCut");

/** Marks `error` as a cut connection and returns it. */
export function markCut<E extends Error>(error: E): E {
  try {
    if (!isCut(error)) Object.defineProperty(error, CUT, { value: true });
  } catch {
    // a frozen error stays unmarked: it is served as the wire's error frame
  }
  return error;
}

/** Whether `error` was marked as a cut connection. */
export function isCut(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    (error as Record<symbol, unknown>)[CUT] === true;
}
