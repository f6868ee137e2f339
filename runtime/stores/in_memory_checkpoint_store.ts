/**
 * The in-process checkpoint store.
 *
 * @module
 */
import type { CheckpointStore } from "../../ports/checkpoint_store.ts";
import type { Scope } from "../../ports/scope.ts";

/**
 * A `CheckpointStore` in memory, partitioned by tenant: a run id saved by one
 * tenant is invisible to every other. Checkpoints are copied in and out
 * (`structuredClone`), so mutating a loaded checkpoint cannot change the saved
 * one. Production code for single-process deployments, not a double.
 *
 * @example Save, load, list
 * ```ts
 * import { InMemoryCheckpointStore } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const checkpoints = new InMemoryCheckpointStore();
 * const org7 = new Scope({ orgId: 7 });
 * await checkpoints.save(org7, "run-1", { step: 3 });
 * assertEquals(await checkpoints.load(org7, "run-1"), { step: 3 });
 * assertEquals(await checkpoints.list(org7), ["run-1"]);
 * assertEquals(await checkpoints.load(new Scope({ orgId: 8 }), "run-1"), undefined);
 * ```
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  readonly #tenants = new Map<string, Map<string, unknown>>();

  /** How many runs have a checkpoint, across every tenant. */
  get size(): number {
    let n = 0;
    for (const t of this.#tenants.values()) n += t.size;
    return n;
  }

  /**
   * Saves a copy of the checkpoint, replacing the run's earlier one.
   * @param scope The tenant.
   * @param runId The run.
   * @param checkpoint Any structured-cloneable value.
   */
  save(scope: Scope, runId: string, checkpoint: unknown): Promise<void> {
    let tenant = this.#tenants.get(scope.key());
    if (!tenant) this.#tenants.set(scope.key(), tenant = new Map());
    tenant.set(runId, structuredClone(checkpoint));
    return Promise.resolve();
  }

  /**
   * A copy of the run's last checkpoint.
   * @param scope The tenant.
   * @param runId The run.
   * @returns The checkpoint, or `undefined` when there is none.
   */
  load(scope: Scope, runId: string): Promise<unknown> {
    const v = this.#tenants.get(scope.key())?.get(runId);
    return Promise.resolve(v === undefined ? undefined : structuredClone(v));
  }

  /**
   * The tenant's run ids, in the order they were first saved.
   * @param scope The tenant.
   * @returns The run ids.
   */
  list(scope: Scope): Promise<string[]> {
    return Promise.resolve([...(this.#tenants.get(scope.key())?.keys() ?? [])]);
  }
}
