// Marks an error a test double threw on purpose (a FakeLLM's `failTimes`, a
// scripted turn's `error`), so the runtime can say so when it reports it
// (retry() giving up names "the fake's scripted failure"). The flag is a
// symbol holding a short description, so it adds nothing to the error's
// visible shape, and runtime/ never imports testing/. It is a registered
// symbol, so two copies of the package (a dual install) read each other's mark.
const SCRIPTED: unique symbol = Symbol.for("agentkit.scriptedFailure");

/**
 * Marks `error` as a double's scripted failure, described by `what`
 * (`"FakeLLM's failTimes"`), and returns it. A frozen error stays unmarked.
 */
export function markScripted<E>(error: E, what: string): E {
  // A primitive, null and a frozen or sealed error are not extensible.
  if (Object.isExtensible(error) && !Object.hasOwn(error as object, SCRIPTED)) {
    Object.defineProperty(error, SCRIPTED, { value: what });
  }
  return error;
}

/** What scripted `error`, or undefined when no double marked it. */
export function scriptedBy(error: unknown): string | undefined {
  const what = error == null ? undefined : (error as Record<symbol, unknown>)[SCRIPTED];
  return typeof what === "string" ? what : undefined;
}
