/**
 * The prompt builder's grounding seam.
 *
 * @module
 */
import type { Ctx } from "./context.ts";

/**
 * Supplies facts for a task (retrieved documents, memory) that the request
 * builder puts in front of the model.
 *
 * @example
 * ```ts
 * import type { GrounderPort } from "@agentkit/testing/ports";
 * const runbook: GrounderPort = { ground: () => Promise.resolve(["rotate certs every 90 days"]) };
 * ```
 */
export interface GrounderPort {
  /** Facts for `task`; an empty list adds nothing. */
  ground(ctx: Ctx, task: string): Promise<string | readonly string[]>;
}
