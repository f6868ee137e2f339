// Marks an error a test double threw on purpose (a FakeLLM's `failTimes`, a
// scripted turn's `error`), so the runtime can say so when it reports it
// (retry() giving up names "the fake's scripted failure"). The flag is a
// symbol holding a short description, so it adds nothing to the error's
// visible shape, and runtime/ never imports testing/.
const SCRIPTED: unique symbol = Symbol.for("agentkit.scriptedFailure");

/**
 * Marks `error` as a double's scripted failure, described by `what`
 * (`"FakeLLM's failTimes"`), and returns it. A frozen error stays unmarked.
 */
export function markScripted<E>(error: E, what: string): E {
  if (typeof error === "object" && error !== null && scriptedBy(error) === undefined) {
    try {
      Object.defineProperty(error, SCRIPTED, { value: what });
    } catch {
      // frozen: reported as any other error
    }
  }
  return error;
}

/** What scripted `error`, or undefined when no double marked it. */
export function scriptedBy(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const what = (error as Record<symbol, unknown>)[SCRIPTED];
  return typeof what === "string" ? what : undefined;
}
