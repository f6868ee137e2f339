/**
 * The error a failed expectation throws.
 *
 * @module
 */

/**
 * An expectation failed: the agent answered something other than what the
 * test expects. It has the same name and shape as the `AssertionError` of
 * `@std/assert` (and the same `name` as Node's), so test runners report it
 * the same way, but it is this package's own class: the published code
 * depends on nothing but zod and the fake-timer engine, so it cannot import
 * `@std/assert`. Catch it with this class, or by `error.name === "AssertionError"`.
 *
 * @example
 * ```ts
 * import { AssertionError } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new AssertionError("expected 4, got 5");
 * assertEquals([e.name, e.message], ["AssertionError", "expected 4, got 5"]);
 * ```
 */
export class AssertionError extends Error {
  /**
   * Its `name` is `AssertionError`, which every test runner reports as a failed check.
   *
   * @param message What was expected and what happened.
   * @param options The cause, if any.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AssertionError";
  }
}
