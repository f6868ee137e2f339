import { assert, assertRejects } from "@std/assert";
import { InMemoryCheckpointStore } from "@agentkit/testing/runtime";
import type { CheckpointStore, Scope } from "@agentkit/testing/ports";
import { checkpointStoreContract, ContractViolation } from "@agentkit/testing/testing";

Deno.test("checkpointStoreContract() passes against InMemoryCheckpointStore", async (t) => {
  const cases = checkpointStoreContract(() => new InMemoryCheckpointStore());
  assert(cases.length >= 6);
  for (const c of cases) await t.step(c.name, c.fn);
});

// Keys runs by id alone.
class SharedCheckpoints implements CheckpointStore {
  readonly #m = new Map<string, unknown>();
  save(_s: Scope, id: string, c: unknown): Promise<void> {
    this.#m.set(id, structuredClone(c));
    return Promise.resolve();
  }
  load(_s: Scope, id: string): Promise<unknown> {
    return Promise.resolve(structuredClone(this.#m.get(id)));
  }
  list(): Promise<string[]> {
    return Promise.resolve([...this.#m.keys()]);
  }
}

Deno.test("checkpointStoreContract() catches a store that ignores the tenant", async () => {
  const isolation = checkpointStoreContract(() => new SharedCheckpoints()).find((c) =>
    c.name.includes("tenant")
  )!;
  await assertRejects(() => isolation.fn(), ContractViolation, "org8 loading org7's run");
});
