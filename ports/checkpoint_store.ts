/**
 * The checkpoint seam: where a long run saves its progress.
 *
 * @module
 */
import type { Scope } from "./scope.ts";

/**
 * Saves and loads run checkpoints, partitioned by {@linkcode Scope}.
 *
 * @example
 * ```ts
 * import type { CheckpointStore } from "@agentkit/testing/ports";
 * const none: CheckpointStore = {
 *   save: () => Promise.resolve(),
 *   load: () => Promise.resolve(undefined),
 *   list: () => Promise.resolve([]),
 * };
 * ```
 */
export interface CheckpointStore {
  /** Saves the checkpoint of a run (replacing an earlier one). */
  save(scope: Scope, runId: string, checkpoint: unknown): Promise<void>;
  /** The last checkpoint of a run; `undefined` when there is none. */
  load(scope: Scope, runId: string): Promise<unknown>;
  /** The run ids with checkpoints in this scope. */
  list(scope: Scope): Promise<string[]>;
}
