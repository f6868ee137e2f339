import { assert, assertRejects } from "@std/assert";
import { InMemoryVector } from "@agentkit/testing/runtime";
import type { Scope, VectorHit, VectorStore } from "@agentkit/testing/ports";
import { ContractViolation, FakeEmbedder, vectorStoreContract } from "@agentkit/testing/testing";

Deno.test("vectorStoreContract() passes against InMemoryVector with a FakeEmbedder", async (t) => {
  const cases = vectorStoreContract(() => new InMemoryVector({ embedder: new FakeEmbedder() }));
  assert(cases.length >= 7);
  for (const c of cases) await t.step(c.name, c.fn);
});

// Wraps InMemoryVector but answers every tenant from tenant zero's index.
class LeakyVector implements VectorStore {
  readonly #inner = new InMemoryVector({ embedder: new FakeEmbedder() });
  readonly #zero = { key: () => "org0:dom0" } as Scope;
  upsert(_s: Scope, id: string, text: string, payload?: unknown): Promise<void> {
    return this.#inner.upsert(this.#zero, id, text, payload);
  }
  query(_s: Scope, text: string, options?: { k?: number }): Promise<VectorHit[]> {
    return this.#inner.query(this.#zero, text, options);
  }
  delete(_s: Scope, id: string): Promise<boolean> {
    return this.#inner.delete(this.#zero, id);
  }
}

Deno.test("vectorStoreContract() catches a store that leaks across tenants", async () => {
  const isolation = vectorStoreContract(() => new LeakyVector()).find((c) =>
    c.name.includes("tenant")
  )!;
  await assertRejects(() => isolation.fn(), ContractViolation, "org8 querying org7's text");
});
