/**
 * The human-in-the-loop transport.
 *
 * @module
 */
import type { Ctx } from "./context.ts";

/**
 * Asks a human a question and returns the answer.
 *
 * @example
 * ```ts
 * import type { AskerPort } from "@agentkit/testing/ports";
 * const alwaysYes: AskerPort = { ask: () => Promise.resolve("yes") };
 * ```
 */
export interface AskerPort {
  /** Asks and waits for the answer. */
  ask(question: string, ctx: Ctx): Promise<string>;
}
