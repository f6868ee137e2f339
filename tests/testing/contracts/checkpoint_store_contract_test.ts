import { assert, assertEquals, assertRejects } from "@std/assert";
import { InMemoryCheckpointStore } from "@agentkit/testing/runtime";
import type { CheckpointStore, Scope } from "@agentkit/testing/ports";
import { checkpointStoreContract, ContractViolation } from "@agentkit/testing/testing";
import { assertViolations, violations } from "../../fixtures/contract_violations.ts";

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

const NEVER = "load() of a run never saved resolves undefined";
const EQUAL = "save() then load() returns an equal checkpoint";
const REPLACES = "save() replaces the run's earlier checkpoint";
const LIST = "list() names every run with a checkpoint";
const COPIES = "a checkpoint loaded or saved is a copy, not an alias";
const TENANTS = "a tenant never loads or lists another tenant's runs";

// A correct store; each broken store below overrides one step of it.
class MapCheckpoints implements CheckpointStore {
  constructor(protected readonly data = new Map<string, Map<string, unknown>>()) {}
  protected runs(scope: Scope): Map<string, unknown> {
    const key = scope.key();
    if (!this.data.has(key)) this.data.set(key, new Map());
    return this.data.get(key)!;
  }
  protected write(checkpoint: unknown, _old: unknown): unknown {
    return structuredClone(checkpoint);
  }
  protected read(checkpoint: unknown): unknown {
    return structuredClone(checkpoint);
  }
  save(scope: Scope, runId: string, checkpoint: unknown): Promise<void> {
    const runs = this.runs(scope);
    const stored = this.write(checkpoint, runs.get(runId));
    if (stored === undefined) runs.delete(runId);
    else runs.set(runId, stored);
    return Promise.resolve();
  }
  load(scope: Scope, runId: string): Promise<unknown> {
    return Promise.resolve(this.read(this.runs(scope).get(runId)));
  }
  list(scope: Scope): Promise<string[]> {
    return Promise.resolve([...this.runs(scope).keys()]);
  }
}

const fails = (make: () => CheckpointStore, expected: Record<string, string>) =>
  assertViolations("CheckpointStore", checkpointStoreContract(make), expected);

Deno.test("checkpointStoreContract() has its six cases and passes a correct store", async () => {
  const scopes = new Set<string>();
  class Recording extends MapCheckpoints {
    protected override runs(scope: Scope): Map<string, unknown> {
      scopes.add(scope.key());
      return super.runs(scope);
    }
  }
  const cases = checkpointStoreContract(() => new Recording());
  assertEquals(cases.map((c) => c.name), [NEVER, EQUAL, REPLACES, LIST, COPIES, TENANTS]);
  assertEquals(await violations("CheckpointStore", cases), {});
  assertEquals([...scopes].sort(), ["org1:dom0", "org7:dom0", "org8:dom0"]);
});

Deno.test("checkpointStoreContract() passes stores that differ where the port allows", async () => {
  // Runs listed newest first; no empty run ids; a serializer that drops empty values.
  class NewestFirst extends MapCheckpoints {
    override async list(scope: Scope): Promise<string[]> {
      return (await super.list(scope)).reverse();
    }
  }
  class Strict extends MapCheckpoints {
    protected override runs(scope: Scope): Map<string, unknown> {
      const runs = super.runs(scope);
      const check = (id: string) => {
        if (!id) throw new TypeError("empty run id");
      };
      return Object.assign(Object.create(runs), {
        get: (id: string) => (check(id), runs.get(id)),
        set: (id: string, v: unknown) => (check(id), runs.set(id, v)),
        delete: (id: string) => runs.delete(id),
        keys: () => runs.keys(),
      });
    }
  }
  const compact = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const kept = value.map(compact).filter((v) => v !== undefined);
      return kept.length ? kept : undefined;
    }
    if (value && typeof value === "object") {
      const kept = Object.entries(value).map(([k, v]) => [k, compact(v)] as const)
        .filter(([, v]) => v !== undefined);
      return kept.length ? Object.fromEntries(kept) : undefined;
    }
    return value === "" ? undefined : value;
  };
  class Compacting extends MapCheckpoints {
    protected override write(checkpoint: unknown): unknown {
      return compact(checkpoint);
    }
  }
  for (const make of [() => new NewestFirst(), () => new Strict(), () => new Compacting()]) {
    assertEquals(await violations("CheckpointStore", checkpointStoreContract(make)), {});
  }
});

Deno.test("checkpointStoreContract() catches a store that invents or shares runs", async () => {
  class NullForMissing extends MapCheckpoints {
    override async load(scope: Scope, runId: string): Promise<unknown> {
      return (await super.load(scope, runId)) ?? null;
    }
  }
  const shared = new Map<string, Map<string, unknown>>();
  const sharing = () => new MapCheckpoints(shared);
  await violations("CheckpointStore", checkpointStoreContract(sharing));
  await fails(() => new NullForMissing(), {
    [NEVER]: "load(run-x)",
    [TENANTS]: "org8 loading org7's run",
  });
  await fails(sharing, {
    [NEVER]: "list() of an empty store",
    [REPLACES]: "list() after two saves of one run",
    [TENANTS]: "org8 loading org7's run",
  });
  class ListsEveryTenant extends MapCheckpoints {
    override list(): Promise<string[]> {
      return Promise.resolve([...this.data.values()].flatMap((runs) => [...runs.keys()]));
    }
  }
  await fails(() => new ListsEveryTenant(), { [TENANTS]: "org8 listing runs" });
});

Deno.test("checkpointStoreContract() catches a checkpoint lost, kept or aliased", async () => {
  // Keeps only the top level of an object (a flat row).
  class Flat extends MapCheckpoints {
    protected override write(checkpoint: unknown): unknown {
      if (!checkpoint || typeof checkpoint !== "object") return checkpoint;
      return Object.fromEntries(
        Object.entries(checkpoint).filter(([, v]) => typeof v !== "object"),
      );
    }
  }
  class KeepsFirst extends MapCheckpoints {
    protected override write(checkpoint: unknown, old: unknown): unknown {
      return old ?? structuredClone(checkpoint);
    }
  }
  class KeepsSaved extends MapCheckpoints {
    protected override write(checkpoint: unknown): unknown {
      return checkpoint;
    }
  }
  class LendsLoaded extends MapCheckpoints {
    protected override read(checkpoint: unknown): unknown {
      return checkpoint;
    }
  }
  await fails(() => new Flat(), {
    [EQUAL]: "load(run-1)",
    [COPIES]: "load() after mutating the saved object",
  });
  await fails(() => new KeepsFirst(), { [REPLACES]: "load(run-1)" });
  await fails(() => new KeepsSaved(), { [COPIES]: "load() after mutating the saved object" });
  await fails(() => new LendsLoaded(), { [COPIES]: "load() after mutating a loaded object" });
});

Deno.test("checkpointStoreContract() catches a list() with runs missing or repeated", async () => {
  class LastOnly extends MapCheckpoints {
    override async list(scope: Scope): Promise<string[]> {
      return (await super.list(scope)).slice(-1);
    }
  }
  class OnePerSave extends MapCheckpoints {
    readonly #saved: string[] = [];
    override save(scope: Scope, runId: string, checkpoint: unknown): Promise<void> {
      this.#saved.push(`${scope.key()}/${runId}`);
      return super.save(scope, runId, checkpoint);
    }
    override list(scope: Scope): Promise<string[]> {
      const prefix = `${scope.key()}/`;
      return Promise.resolve(
        this.#saved.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)),
      );
    }
  }
  await fails(() => new LastOnly(), { [LIST]: "list()" });
  await fails(() => new OnePerSave(), { [REPLACES]: "list() after two saves of one run" });
});

Deno.test("checkpointStoreContract() catches a save that reaches another tenant", async () => {
  class WritesEveryTenant extends MapCheckpoints {
    override save(scope: Scope, runId: string, checkpoint: unknown): Promise<void> {
      for (const runs of this.data.values()) {
        if (runs.has(runId)) runs.set(runId, structuredClone(checkpoint));
      }
      return super.save(scope, runId, checkpoint);
    }
  }
  await fails(() => new WritesEveryTenant(), { [TENANTS]: "org7's run after org8 saved one" });
});
