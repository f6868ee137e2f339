import { assert, assertEquals, assertRejects } from "@std/assert";
import { InMemoryStore } from "@agentkit/testing/runtime";
import type { KVStore } from "@agentkit/testing/ports";
import { ContractViolation, kvStoreContract } from "@agentkit/testing/testing";

Deno.test("kvStoreContract() passes against InMemoryStore", async (t) => {
  const cases = kvStoreContract(() => new InMemoryStore());
  assert(cases.length >= 8);
  for (const c of cases) await t.step(c.name, c.fn);
});

// A store that forgets the tenant: exactly the bug the contract exists to catch.
class SharedStore implements KVStore {
  readonly #m = new Map<string, unknown>();
  get(_s: unknown, k: string): Promise<unknown> {
    return Promise.resolve(structuredClone(this.#m.get(k)));
  }
  set(_s: unknown, k: string, v: unknown): Promise<void> {
    this.#m.set(k, structuredClone(v));
    return Promise.resolve();
  }
  delete(_s: unknown, k: string): Promise<boolean> {
    return Promise.resolve(this.#m.delete(k));
  }
}

// A store that hands out the stored object itself.
class AliasingStore implements KVStore {
  readonly #m = new Map<string, unknown>();
  get(s: { key(): string }, k: string): Promise<unknown> {
    return Promise.resolve(this.#m.get(`${s.key()}/${k}`));
  }
  set(s: { key(): string }, k: string, v: unknown): Promise<void> {
    this.#m.set(`${s.key()}/${k}`, v);
    return Promise.resolve();
  }
  delete(s: { key(): string }, k: string): Promise<boolean> {
    return Promise.resolve(this.#m.delete(`${s.key()}/${k}`));
  }
}

Deno.test("kvStoreContract() catches a store that ignores the tenant", async () => {
  const cases = kvStoreContract(() => new SharedStore());
  const isolation = cases.find((c) => c.name.includes("tenant"))!;
  const error = await assertRejects(() => isolation.fn(), ContractViolation);
  assertEquals(error.contract, "KVStore");
  assert(error.message.includes("org8 reading org7's key"), error.message);
});

Deno.test("kvStoreContract() catches a store that aliases values", async () => {
  const cases = kvStoreContract(() => new AliasingStore());
  const copies = cases.find((c) => c.name.includes("copy"))!;
  await assertRejects(() => copies.fn(), ContractViolation, "after mutating the written object");
  const others = cases.filter((c) => c !== copies);
  for (const c of others) await c.fn(); // the rest of the contract still holds
});
