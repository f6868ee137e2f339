import { assert, assertEquals, assertRejects } from "@std/assert";
import { InMemoryVector } from "@agentkit/testing/runtime";
import type { Scope, VectorHit, VectorStore } from "@agentkit/testing/ports";
import { ContractViolation, FakeEmbedder, vectorStoreContract } from "@agentkit/testing/testing";
import { assertViolations, violations } from "../../fixtures/contract_violations.ts";

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

const EMPTY = "query() of an empty index resolves []";
const NEAREST = "a stored text is its own nearest neighbour";
const RANKED = "hits come best first and at most k of them";
const PAYLOAD = "a payload comes back with its hit, as a copy";
const REPLACES = "upsert() of an existing id replaces its text";
const DELETE = "delete() resolves whether the id existed and removes it";
const TENANTS = "a tenant never sees another tenant's texts";

interface Entry {
  id: string;
  text: string;
  payload?: unknown;
}

// Cosine similarity of word counts: 1 for the same text, less for others.
function similarity(a: string, b: string): number {
  const count = (t: string) => {
    const m = new Map<string, number>();
    for (const w of t.split(" ")) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const x = count(a);
  const y = count(b);
  let dot = 0;
  for (const [w, n] of x) dot += n * (y.get(w) ?? 0);
  const norm = (m: Map<string, number>) =>
    Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  return dot / (norm(x) * norm(y));
}

// A correct store; each broken store below overrides one step of it.
class MapVector implements VectorStore {
  constructor(protected readonly data = new Map<string, Map<string, Entry>>()) {}
  protected index(scope: Scope): Map<string, Entry> {
    const key = scope.key();
    if (!this.data.has(key)) this.data.set(key, new Map());
    return this.data.get(key)!;
  }
  protected rank(hits: VectorHit[], k: number): VectorHit[] {
    return hits.sort((a, b) => b.score - a.score).slice(0, k);
  }
  upsert(scope: Scope, id: string, text: string, payload?: unknown): Promise<void> {
    this.index(scope).set(id, structuredClone({ id, text, payload }));
    return Promise.resolve();
  }
  query(scope: Scope, text: string, options?: { k?: number }): Promise<VectorHit[]> {
    const hits = [...this.index(scope).values()].map((e) => ({
      ...structuredClone(e),
      score: similarity(text, e.text),
    }));
    return Promise.resolve(this.rank(hits, options?.k ?? 4));
  }
  delete(scope: Scope, id: string): Promise<boolean> {
    return Promise.resolve(this.index(scope).delete(id));
  }
}

const fails = (make: () => VectorStore, expected: Record<string, string>) =>
  assertViolations("VectorStore", vectorStoreContract(make), expected);

Deno.test("vectorStoreContract() has its seven cases and passes a correct store", async () => {
  const scopes = new Set<string>();
  class Recording extends MapVector {
    protected override index(scope: Scope): Map<string, Entry> {
      scopes.add(scope.key());
      return super.index(scope);
    }
  }
  const cases = vectorStoreContract(() => new Recording());
  assertEquals(cases.map((c) => c.name), [
    EMPTY,
    NEAREST,
    RANKED,
    PAYLOAD,
    REPLACES,
    DELETE,
    TENANTS,
  ]);
  assertEquals(await violations("VectorStore", cases), {});
  assertEquals([...scopes].sort(), ["org1:dom0", "org7:dom0", "org8:dom0"]);
});

Deno.test("vectorStoreContract() passes a store whose default k is 1", async () => {
  class OneByDefault extends MapVector {
    override query(scope: Scope, text: string, options?: { k?: number }): Promise<VectorHit[]> {
      return super.query(scope, text, { k: options?.k ?? 1 });
    }
  }
  assertEquals(await violations("VectorStore", vectorStoreContract(() => new OneByDefault())), {});
});

Deno.test("vectorStoreContract() catches stores whose instances share one index", async () => {
  const shared = new Map<string, Map<string, Entry>>();
  const make = () => new MapVector(shared);
  assertEquals(await violations("VectorStore", vectorStoreContract(make)), {});
  await fails(make, {
    [EMPTY]: "query() of an empty index",
    [TENANTS]: "org8 querying org7's text",
  });
});

Deno.test("vectorStoreContract() catches hits in the wrong order or number", async () => {
  class Unsorted extends MapVector {
    protected override rank(hits: VectorHit[], k: number): VectorHit[] {
      return hits.slice(0, k);
    }
  }
  // The best k, worst first.
  class Ascending extends MapVector {
    protected override rank(hits: VectorHit[], k: number): VectorHit[] {
      return super.rank(hits, k).reverse();
    }
  }
  class IgnoresK extends MapVector {
    protected override rank(hits: VectorHit[]): VectorHit[] {
      return super.rank(hits, hits.length);
    }
  }
  class OneShort extends MapVector {
    protected override rank(hits: VectorHit[], k: number): VectorHit[] {
      return super.rank(hits, k - 1);
    }
  }
  await fails(() => new Unsorted(), { [NEAREST]: "the nearest hit of lunch's own text" });
  // The violation shows the scores, worst first here: the contract's query (its runbook text)
  // against the cafeteria text, then against itself.
  const query = "rotate the TLS certificates of the api servers every ninety days";
  const cafeteria = "the staff cafeteria serves soup and sandwiches at noon";
  const [lunch, certs] = [cafeteria, query].map((t) => similarity(query, t));
  await fails(() => new Ascending(), { [RANKED]: `scores must not increase: ${lunch},${certs}` });
  await fails(() => new IgnoresK(), { [RANKED]: "the number of hits for k = 2" });
  await fails(() => new OneShort(), {
    [NEAREST]: "the nearest hit of certs's own text",
    [RANKED]: "the number of hits for k = 2",
    [PAYLOAD]: "the payload of the hit",
    [TENANTS]: "org7's text after org8 indexed the same id",
  });
});

Deno.test("vectorStoreContract() catches scores that do not mean similarity", async () => {
  class Scaled extends MapVector {
    protected override rank(hits: VectorHit[], k: number): VectorHit[] {
      return super.rank(hits.map((h) => ({ ...h, score: Math.min(h.score, 0.99) })), k);
    }
  }
  // Every hit scores 1, so ties keep the order of insertion.
  class Flat extends MapVector {
    protected override rank(hits: VectorHit[], k: number): VectorHit[] {
      return super.rank(hits.map((h) => ({ ...h, score: 1 })), k);
    }
  }
  await fails(() => new Scaled(), { [RANKED]: "the exact text must score about 1, got 0.99" });
  await fails(() => new Flat(), { [NEAREST]: "the nearest hit of lunch's own text" });
});

Deno.test("vectorStoreContract() catches a store that cuts the texts it returns", async () => {
  class Preview extends MapVector {
    protected override rank(hits: VectorHit[], k: number): VectorHit[] {
      return super.rank(hits, k).map((h) => ({ ...h, text: h.text.slice(0, 32) }));
    }
  }
  await fails(() => new Preview(), {
    [NEAREST]: "the text of certs's hit",
    [REPLACES]: "the replaced text",
    [TENANTS]: "org7's text after org8 indexed the same id",
  });
});

Deno.test("vectorStoreContract() catches a payload lost or lent out", async () => {
  class NoPayload extends MapVector {
    override upsert(scope: Scope, id: string, text: string): Promise<void> {
      return super.upsert(scope, id, text);
    }
  }
  class Lends extends MapVector {
    override query(scope: Scope, text: string, options?: { k?: number }): Promise<VectorHit[]> {
      const entries = this.index(scope);
      return super.query(scope, text, options).then((hits) =>
        hits.map((h) => ({ ...h, payload: entries.get(h.id)!.payload }))
      );
    }
  }
  await fails(() => new NoPayload(), { [PAYLOAD]: "the payload of the hit" });
  await fails(() => new Lends(), { [PAYLOAD]: "the payload after mutating a returned one" });
});

Deno.test("vectorStoreContract() catches an upsert() that does not replace", async () => {
  class Appends extends MapVector {
    #n = 0;
    override upsert(scope: Scope, id: string, text: string, payload?: unknown): Promise<void> {
      this.index(scope).set(`${id}#${this.#n++}`, { id, text, payload });
      return Promise.resolve();
    }
    override delete(scope: Scope, id: string): Promise<boolean> {
      const index = this.index(scope);
      const keys = [...index].filter(([, e]) => e.id === id).map(([k]) => k);
      for (const k of keys) index.delete(k);
      return Promise.resolve(keys.length > 0);
    }
  }
  class KeepsFirst extends MapVector {
    override upsert(scope: Scope, id: string, text: string, payload?: unknown): Promise<void> {
      return this.index(scope).has(id) ? Promise.resolve() : super.upsert(scope, id, text, payload);
    }
  }
  await fails(() => new Appends(), { [REPLACES]: "hits with id certs" });
  await fails(() => new KeepsFirst(), { [REPLACES]: "the replaced text" });
});

Deno.test("vectorStoreContract() catches a delete() that misreports or keeps the id", async () => {
  class KeepsDeleted extends MapVector {
    override delete(scope: Scope, id: string): Promise<boolean> {
      return Promise.resolve(this.index(scope).has(id));
    }
  }
  class Tombstones extends MapVector {
    readonly #ever = new Set<string>();
    override upsert(scope: Scope, id: string, text: string, payload?: unknown): Promise<void> {
      this.#ever.add(`${scope.key()}/${id}`);
      return super.upsert(scope, id, text, payload);
    }
    override async delete(scope: Scope, id: string): Promise<boolean> {
      await super.delete(scope, id);
      return this.#ever.has(`${scope.key()}/${id}`);
    }
  }
  class NeverTrue extends MapVector {
    override async delete(scope: Scope, id: string): Promise<boolean> {
      await super.delete(scope, id);
      return false;
    }
  }
  // Reports the delete but leaves the vector in the index.
  class StaleIndex extends MapVector {
    readonly #gone = new Set<string>();
    override delete(scope: Scope, id: string): Promise<boolean> {
      const key = `${scope.key()}/${id}`;
      const existed = this.index(scope).has(id) && !this.#gone.has(key);
      this.#gone.add(key);
      return Promise.resolve(existed);
    }
  }
  await fails(() => new KeepsDeleted(), {
    [DELETE]: "delete(certs) again",
  });
  await fails(() => new Tombstones(), { [DELETE]: "delete(certs) again" });
  await fails(() => new NeverTrue(), { [DELETE]: "delete(certs)" });
  await fails(() => new StaleIndex(), { [DELETE]: "a deleted id must not be returned" });
});

Deno.test("vectorStoreContract() catches each way of mixing up tenants", async () => {
  class DeletesAnyTenant extends MapVector {
    override delete(_scope: Scope, id: string): Promise<boolean> {
      let existed = false;
      for (const index of this.data.values()) existed = index.delete(id) || existed;
      return Promise.resolve(existed);
    }
  }
  // Indexing an id refreshes it for every tenant holding it.
  class WritesEveryTenant extends MapVector {
    override upsert(scope: Scope, id: string, text: string, payload?: unknown): Promise<void> {
      for (const index of this.data.values()) {
        if (index.has(id)) index.set(id, { id, text, payload });
      }
      return super.upsert(scope, id, text, payload);
    }
  }
  await fails(() => new LeakyVector(), {
    [TENANTS]: "org8 querying org7's text",
  });
  await fails(() => new DeletesAnyTenant(), { [TENANTS]: "org8 deleting org7's id" });
  await fails(() => new WritesEveryTenant(), {
    [TENANTS]: "org7's text after org8 indexed the same id",
  });
});
