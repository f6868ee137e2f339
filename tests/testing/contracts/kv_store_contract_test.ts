import { assert, assertEquals, assertRejects } from "@std/assert";
import { InMemoryStore } from "@agentkit/testing/runtime";
import type { KVStore, Scope } from "@agentkit/testing/ports";
import { ContractViolation, kvStoreContract } from "@agentkit/testing/testing";
import { assertViolations, violations } from "../../fixtures/contract_violations.ts";

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

const MISSING = "get() of a missing key resolves undefined";
const EQUAL = "set() then get() returns an equal value";
const REPLACES = "set() replaces the earlier value";
const DELETE = "delete() resolves whether the key existed and removes it";
const FALSY = "falsy values are stored, not taken for missing";
const COPIES = "a value read or written is a copy, not an alias";
const KEYS = "keys that share a prefix or separator stay distinct";
const TENANTS = "a tenant never reads or deletes another tenant's key";

// A correct store; each broken store below overrides one step of it.
class MapKV implements KVStore {
  protected readonly data = new Map<string, unknown>();
  protected key(scope: Scope, key: string): string {
    return `${scope.key()}\u0000${key}`;
  }
  protected write(value: unknown, _old: unknown): unknown {
    return structuredClone(value);
  }
  get(scope: Scope, key: string): Promise<unknown> {
    return Promise.resolve(structuredClone(this.data.get(this.key(scope, key))));
  }
  set(scope: Scope, key: string, value: unknown): Promise<void> {
    const k = this.key(scope, key);
    const stored = this.write(value, this.data.get(k));
    if (stored === undefined) this.data.delete(k);
    else this.data.set(k, stored);
    return Promise.resolve();
  }
  delete(scope: Scope, key: string): Promise<boolean> {
    return Promise.resolve(this.data.delete(this.key(scope, key)));
  }
}

const fails = (make: () => KVStore, expected: Record<string, string>) =>
  assertViolations("KVStore", kvStoreContract(make), expected);

Deno.test("kvStoreContract() has its eight cases and passes a correct store", async () => {
  const cases = kvStoreContract(() => new MapKV());
  assertEquals(cases.map((c) => c.name), [
    MISSING,
    EQUAL,
    REPLACES,
    DELETE,
    FALSY,
    COPIES,
    KEYS,
    TENANTS,
  ]);
  assertEquals(await violations("KVStore", cases), {});
});

// Stricter than the port asks: no empty keys, and no tenant-less (org 0) scope
// besides the one the contract's tenant case names on purpose.
Deno.test("kvStoreContract() gives a store non-empty keys and distinct tenants", async () => {
  const scopes = new Set<string>();
  class Strict extends MapKV {
    protected override key(scope: Scope, key: string): string {
      if (!key) throw new TypeError("empty key");
      scopes.add(scope.key());
      return super.key(scope, key);
    }
  }
  assertEquals(await violations("KVStore", kvStoreContract(() => new Strict())), {});
  assertEquals([...scopes].sort(), ["org1:dom1", "org7:dom0", "org7:dom2", "org8:dom0"]);
});

Deno.test("kvStoreContract() catches a store that answers null for a missing key", async () => {
  class NullForMissing extends MapKV {
    override async get(scope: Scope, key: string): Promise<unknown> {
      return (await super.get(scope, key)) ?? null;
    }
  }
  const found = await violations("KVStore", kvStoreContract(() => new NullForMissing()));
  assertEquals(
    found[MISSING],
    `KVStore contract, case "${MISSING}": get(missing): expected undefined, got null`,
  );
  await fails(() => new NullForMissing(), {
    [MISSING]: "get(missing)",
    [DELETE]: "get(k) after delete",
    [TENANTS]: "org8 reading org7's key",
  });
});

Deno.test("kvStoreContract() catches a store that loses or mangles values", async () => {
  // Keeps only the top level of an object (a flat row).
  class Flat extends MapKV {
    protected override write(value: unknown): unknown {
      if (!value || typeof value !== "object") return value;
      return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v !== "object"));
    }
  }
  // A serializer that compacts: drops falsy and empty values, in objects and lists too.
  const compact = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(compact).filter((v) => v !== undefined);
    if (value && typeof value === "object") {
      const kept = Object.entries(value).map(([k, v]) => [k, compact(v)] as const)
        .filter(([, v]) => v !== undefined);
      return kept.length ? Object.fromEntries(kept) : undefined;
    }
    return value || undefined;
  };
  class Compacting extends MapKV {
    protected override write(value: unknown): unknown {
      const kept = compact(value);
      return Array.isArray(kept) && !kept.length ? undefined : kept;
    }
  }
  await fails(() => new Flat(), {
    [EQUAL]: "get(k)",
    [COPIES]: "get(k) after mutating the written object",
  });
  await fails(() => new Compacting(), { [FALSY]: "get(zero)" });
  // A violation shows both values with their keys sorted, so a diff reads in one order.
  const found = await violations("KVStore", kvStoreContract(() => new Flat()));
  assertEquals(
    found[EQUAL],
    `KVStore contract, case "${EQUAL}": get(k): expected {"list":["a","b"],"n":1,"nested":{"ok":true}}, got {"n":1}`,
  );
});

Deno.test("kvStoreContract() catches each falsy value taken for missing", async () => {
  for (const [name, value] of [["zero", 0], ["empty", ""], ["no", false], ["nil", null]]) {
    class Loses extends MapKV {
      protected override write(v: unknown): unknown {
        return Object.is(v, value) ? undefined : structuredClone(v);
      }
    }
    await fails(() => new Loses(), { [FALSY]: `get(${name})` });
  }
});

Deno.test("kvStoreContract() catches a set() that keeps the first value", async () => {
  class InsertOnly extends MapKV {
    protected override write(value: unknown, old: unknown): unknown {
      return old === undefined ? structuredClone(value) : old;
    }
  }
  await fails(() => new InsertOnly(), { [REPLACES]: "get(k)" });
});

Deno.test("kvStoreContract() catches a delete() that misreports or keeps the key", async () => {
  class KeepsDeleted extends MapKV {
    override delete(scope: Scope, key: string): Promise<boolean> {
      return Promise.resolve(this.data.has(this.key(scope, key)));
    }
  }
  class Tombstones extends MapKV {
    readonly #ever = new Set<string>();
    override set(scope: Scope, key: string, value: unknown): Promise<void> {
      this.#ever.add(this.key(scope, key));
      return super.set(scope, key, value);
    }
    override async delete(scope: Scope, key: string): Promise<boolean> {
      await super.delete(scope, key);
      return this.#ever.has(this.key(scope, key));
    }
  }
  class NeverTrue extends MapKV {
    override async delete(scope: Scope, key: string): Promise<boolean> {
      await super.delete(scope, key);
      return false;
    }
  }
  await fails(() => new KeepsDeleted(), { [DELETE]: "get(k) after delete" });
  await fails(() => new Tombstones(), { [DELETE]: "delete(k) of a deleted key" });
  await fails(() => new NeverTrue(), { [DELETE]: "delete(k) of a stored key" });
});

Deno.test("kvStoreContract() catches keys that collide once sanitized", async () => {
  class Sanitizing extends MapKV {
    protected override key(scope: Scope, key: string): string {
      return super.key(scope, key.replace(/[^a-z0-9]/gi, ""));
    }
  }
  await fails(() => new Sanitizing(), { [KEYS]: "the three keys" });
});

Deno.test("kvStoreContract() catches each way of mixing up tenants", async () => {
  class NoDomain extends MapKV {
    protected override key(scope: Scope, key: string): string {
      return `${scope.orgId}\u0000${key}`;
    }
  }
  class DeletesAnyTenant extends MapKV {
    override delete(_scope: Scope, key: string): Promise<boolean> {
      const keys = [...this.data.keys()].filter((k) => k.endsWith(`\u0000${key}`));
      for (const k of keys) this.data.delete(k);
      return Promise.resolve(keys.length > 0);
    }
  }
  // A write-through cache that refreshes the key for every tenant holding it.
  class WritesEveryTenant extends MapKV {
    override async set(scope: Scope, key: string, value: unknown): Promise<void> {
      for (const k of this.data.keys()) {
        if (k.endsWith(`\u0000${key}`)) this.data.set(k, structuredClone(value));
      }
      await super.set(scope, key, value);
    }
  }
  await fails(() => new SharedStore(), { [TENANTS]: "org8 reading org7's key" });
  await fails(() => new NoDomain(), { [TENANTS]: "org7:dom2 reading org7:dom0's key" });
  await fails(() => new DeletesAnyTenant(), { [TENANTS]: "org8 deleting org7's key" });
  await fails(() => new WritesEveryTenant(), {
    [TENANTS]: "org7's key after org8 wrote its own",
  });
});

Deno.test("kvStoreContract() compares values whatever the order of their keys", async () => {
  // Like a JSON column that stores an object's keys in its own order.
  const reordered = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reordered);
    if (!value || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)]));
  };
  class Reordering extends MapKV {
    protected override write(value: unknown): unknown {
      return reordered(value);
    }
  }
  assertEquals(await violations("KVStore", kvStoreContract(() => new Reordering())), {});
  // The order still does not hide a difference: a list is not an object with its indexes.
  class ListAsObject extends MapKV {
    protected override write(value: unknown): unknown {
      return JSON.parse(JSON.stringify(value, (_k, v) => Array.isArray(v) ? { ...v } : v));
    }
  }
  await fails(() => new ListAsObject(), {
    [EQUAL]: "get(k)",
    [COPIES]: "get(k) after mutating the written object",
  });
});
