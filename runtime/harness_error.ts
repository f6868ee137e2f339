/**
 * The family of "the test itself is wrong" errors, and the rule that keeps them
 * visible: every catch site in the runtime rethrows them.
 *
 * @module
 */

/**
 * Base of errors that say the test or its setup is wrong (a script ran out, a
 * middleware has nothing to work with). The runtime never swallows one: a
 * failing tool, a retry classifier, hooks and observers all rethrow it.
 *
 * @example
 * ```ts
 * import { HarnessError } from "@agentkit/testing/runtime";
 * import { assert } from "@std/assert";
 *
 * class MyScriptError extends HarnessError {}
 * assert(new MyScriptError("x") instanceof HarnessError);
 * ```
 */
export class HarnessError extends Error {
  /**
   * The error's `name` is the subclass's own, so a report names the exact mistake.
   *
   * @param message What is wrong and how to fix it.
   * @param options The cause, if any.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Whether an error is a {@linkcode HarnessError}.
 *
 * @param error Anything thrown.
 * @returns True for harness errors.
 *
 * @example
 * ```ts
 * import { HarnessError, isHarnessError } from "@agentkit/testing/runtime";
 * import { assert } from "@std/assert";
 *
 * assert(isHarnessError(new HarnessError("x")));
 * assert(!isHarnessError(new Error("x")));
 * ```
 */
export function isHarnessError(error: unknown): error is HarnessError {
  return error instanceof HarnessError;
}

/**
 * Rethrows what no catch site may absorb: harness errors, and the abort reason
 * once `signal` has aborted. Call it first in every `catch` of the runtime.
 *
 * @param error The caught value.
 * @param signal The run's cancellation signal.
 * @throws The error itself when it must escape.
 *
 * @example
 * ```ts
 * import { HarnessError, rethrowIfFatal } from "@agentkit/testing/runtime";
 * import { assertThrows } from "@std/assert";
 *
 * rethrowIfFatal(new Error("a tool failed")); // absorbed: returns
 * assertThrows(() => rethrowIfFatal(new HarnessError("script ran out")), HarnessError);
 * ```
 */
export function rethrowIfFatal(error: unknown, signal?: AbortSignal): void {
  if (error instanceof HarnessError) throw error;
  if (signal?.aborted) throw error;
}
