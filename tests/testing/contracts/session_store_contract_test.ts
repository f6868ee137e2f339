// The contract's own behaviour: it passes a store that keeps the SessionStore
// port, and each kind of broken store fails exactly the cases that concern
// its bug, with a violation that names the check that caught it.
import { assertEquals } from "@std/assert";
import type { Message, Scope, SessionState, SessionStore } from "@agentkit/testing/ports";
import { sessionStoreContract } from "@agentkit/testing/testing";
import { assertViolations, violations as runAll } from "../../fixtures/contract_violations.ts";

const NEVER = "load() of a session never saved resolves undefined";
const EQUAL = "save() then load() returns an equal state";
const REPLACES = "save() replaces the whole state";
const COPIES = "a state read or written is a copy, not an alias";
const SESSIONS = "sessions are isolated from each other";
const TENANTS = "sessions are isolated by tenant";
const DELETE = "delete() forgets one session and resolves whether it existed";
const LONG = "a long transcript round-trips (more than 64 KiB in all)";
const RUNS = "state survives across runs of the same session";

// A correct store; each broken store below overrides one step of it.
class MapStore implements SessionStore {
  protected readonly data = new Map<string, SessionState>();
  protected key(scope: Scope, id: string): string {
    return `${scope.key()}\u0000${id}`;
  }
  protected write(state: SessionState, _old: SessionState | undefined): SessionState {
    return structuredClone(state);
  }
  protected read(state: SessionState): SessionState | undefined {
    return structuredClone(state);
  }
  load(scope: Scope, id: string): Promise<SessionState | undefined> {
    const state = this.data.get(this.key(scope, id));
    return Promise.resolve(state === undefined ? undefined : this.read(state));
  }
  save(scope: Scope, id: string, state: SessionState): Promise<void> {
    const key = this.key(scope, id);
    this.data.set(key, this.write(state, this.data.get(key)));
    return Promise.resolve();
  }
  delete(scope: Scope, id: string): Promise<boolean> {
    return Promise.resolve(this.data.delete(this.key(scope, id)));
  }
}

const run = (make: () => SessionStore) => sessionStoreContract(make);
const violations = (make: () => SessionStore) => runAll("SessionStore", run(make));
const assertFails = (make: () => SessionStore, expected: Record<string, string>) =>
  assertViolations("SessionStore", run(make), expected);

Deno.test("sessionStoreContract() has its nine cases and passes a correct store", async () => {
  assertEquals(sessionStoreContract(() => new MapStore()).map((c) => c.name), [
    NEVER,
    EQUAL,
    REPLACES,
    COPIES,
    SESSIONS,
    TENANTS,
    DELETE,
    LONG,
    RUNS,
  ]);
  assertEquals(await violations(() => new MapStore()), {});
});

// A store stricter than the port asks: it refuses empty ids and transcripts
// that no model could have produced. The contract's data is all valid.
class StrictStore extends MapStore {
  protected override key(scope: Scope, id: string): string {
    if (!id) throw new TypeError("empty session id");
    return super.key(scope, id);
  }
  protected override write(state: SessionState, old: SessionState | undefined): SessionState {
    const called = new Set<string>();
    for (const m of state.transcript as Message[]) {
      if (!["user", "assistant", "tool", "system"].includes(m.role)) {
        throw new TypeError(`role ${JSON.stringify(m.role)}`);
      }
      if (m.role === "assistant" && !m.content && !m.toolCalls?.length) {
        throw new TypeError("an empty assistant turn");
      }
      if (m.role === "user" && !m.content) throw new TypeError("an empty user turn");
      for (const call of m.toolCalls ?? []) {
        if (!call.id || !call.name) throw new TypeError("a tool call without id or name");
        called.add(call.id);
      }
      if (m.role === "tool" && !called.has(m.toolCallId!)) {
        throw new TypeError(`a result for no call: ${JSON.stringify(m.toolCallId)}`);
      }
    }
    return super.write(state, old);
  }
}

Deno.test("sessionStoreContract() only gives a store valid ids and transcripts", async () => {
  assertEquals(await violations(() => new StrictStore()), {});
});

Deno.test("sessionStoreContract() releases each case's store, by either protocol", async () => {
  let disposed = 0;
  let closed = 0;
  class Disposing extends MapStore {
    [Symbol.asyncDispose](): Promise<void> {
      disposed++;
      return Promise.resolve();
    }
  }
  class Closing extends MapStore {
    close(): void {
      closed++;
    }
  }
  await violations(() => new Disposing());
  await violations(() => new Closing());
  assertEquals([disposed, closed], [9, 9]);
});

Deno.test("sessionStoreContract() catches a store that invents state for unknown sessions", async () => {
  class Inventing extends MapStore {
    override async load(scope: Scope, id: string): Promise<SessionState | undefined> {
      return (await super.load(scope, id)) ?? { persistent: {}, transcript: [] };
    }
  }
  await assertFails(() => new Inventing(), {
    [NEVER]: "load(never)",
    [SESSIONS]: "a prefix of an id",
    [TENANTS]: "the same id under another tenant",
    [DELETE]: "load(s1) after delete",
  });
});

Deno.test("sessionStoreContract() catches a save that merges instead of replacing", async () => {
  class MergingCache extends MapStore {
    protected override write(state: SessionState, old: SessionState | undefined): SessionState {
      return structuredClone({ ...state, persistent: { ...old?.persistent, ...state.persistent } });
    }
  }
  class AppendOnly extends MapStore {
    protected override write(state: SessionState, old: SessionState | undefined): SessionState {
      const kept = old?.transcript ?? [];
      return structuredClone({
        ...state,
        transcript: [...kept, ...state.transcript.slice(kept.length)],
      });
    }
  }
  await assertFails(() => new MergingCache(), {
    [REPLACES]: "load(s1) after the second save",
  });
  await assertFails(() => new AppendOnly(), { [REPLACES]: "load(s1) after the second save" });
});

Deno.test("sessionStoreContract() catches a store that keeps the first save only", async () => {
  class InsertOnly extends MapStore {
    protected override write(state: SessionState, old: SessionState | undefined): SessionState {
      return old ?? structuredClone(state);
    }
  }
  class TranscriptOnce extends MapStore {
    protected override write(state: SessionState, old: SessionState | undefined): SessionState {
      return structuredClone({ ...state, transcript: old?.transcript ?? state.transcript });
    }
  }
  await assertFails(() => new InsertOnly(), {
    [REPLACES]: "load(s1) after the second save",
    [RUNS]: "the persistent cache after two runs",
  });
  await assertFails(() => new TranscriptOnce(), {
    [REPLACES]: "load(s1) after the second save",
    [RUNS]: "the transcript after two runs",
  });
});

Deno.test("sessionStoreContract() catches a store that aliases what it was given", async () => {
  class KeepsCache extends MapStore {
    protected override write(state: SessionState): SessionState {
      return { persistent: state.persistent, transcript: structuredClone(state.transcript) };
    }
  }
  class KeepsTranscript extends MapStore {
    protected override write(state: SessionState): SessionState {
      return { persistent: structuredClone(state.persistent), transcript: state.transcript };
    }
  }
  const expected = { [COPIES]: "after mutating the saved object" };
  await assertFails(() => new KeepsCache(), expected);
  await assertFails(() => new KeepsTranscript(), expected);
});

Deno.test("sessionStoreContract() catches a store that hands out what it holds", async () => {
  class LendsCache extends MapStore {
    protected override read(state: SessionState): SessionState {
      return { persistent: state.persistent, transcript: structuredClone(state.transcript) };
    }
  }
  class LendsTranscript extends MapStore {
    protected override read(state: SessionState): SessionState {
      return { persistent: structuredClone(state.persistent), transcript: state.transcript };
    }
  }
  const expected = { [COPIES]: "after mutating a loaded object" };
  await assertFails(() => new LendsCache(), expected);
  await assertFails(() => new LendsTranscript(), expected);
});

Deno.test("sessionStoreContract() catches a store that mixes up tenants", async () => {
  class NoTenant extends MapStore {
    protected override key(_scope: Scope, id: string): string {
      return id;
    }
  }
  class NoDomain extends MapStore {
    protected override key(scope: Scope, id: string): string {
      return `${scope.orgId}\u0000${id}`;
    }
  }
  class NoOrganisation extends MapStore {
    protected override key(scope: Scope, id: string): string {
      return `${scope.domainId}\u0000${id}`;
    }
  }
  const crossTenant = {
    [TENANTS]: "the same id under another tenant",
    [RUNS]: "the same session id under another tenant",
  };
  await assertFails(() => new NoTenant(), crossTenant);
  await assertFails(() => new NoOrganisation(), crossTenant);
  await assertFails(() => new NoDomain(), {
    [TENANTS]: "another domain of the same organisation",
  });
});

Deno.test("sessionStoreContract() catches a delete() that reaches the wrong sessions", async () => {
  class DeletesAnyTenant extends MapStore {
    override delete(_scope: Scope, id: string): Promise<boolean> {
      const keys = [...this.data.keys()].filter((k) => k.endsWith(`\u0000${id}`));
      for (const k of keys) this.data.delete(k);
      return Promise.resolve(keys.length > 0);
    }
  }
  class DeletesAll extends MapStore {
    override delete(scope: Scope, id: string): Promise<boolean> {
      const existed = this.data.has(this.key(scope, id));
      this.data.clear();
      return Promise.resolve(existed);
    }
  }
  await assertFails(() => new DeletesAnyTenant(), { [TENANTS]: "delete() by another tenant" });
  await assertFails(() => new DeletesAll(), {
    [TENANTS]: "the owner's state",
    [DELETE]: "s2 is untouched",
  });
});

Deno.test("sessionStoreContract() catches a delete() that misreports or keeps the session", async () => {
  class KeepsDeleted extends MapStore {
    override delete(scope: Scope, id: string): Promise<boolean> {
      return Promise.resolve(this.data.has(this.key(scope, id)));
    }
  }
  class Tombstones extends MapStore {
    readonly #ever = new Set<string>();
    override save(scope: Scope, id: string, state: SessionState): Promise<void> {
      this.#ever.add(this.key(scope, id));
      return super.save(scope, id, state);
    }
    override async delete(scope: Scope, id: string): Promise<boolean> {
      await super.delete(scope, id);
      return this.#ever.has(this.key(scope, id));
    }
  }
  class NeverTrue extends MapStore {
    override async delete(scope: Scope, id: string): Promise<boolean> {
      await super.delete(scope, id);
      return false;
    }
  }
  await assertFails(() => new KeepsDeleted(), { [DELETE]: "load(s1) after delete" });
  await assertFails(() => new Tombstones(), { [DELETE]: "delete(s1) again" });
  await assertFails(() => new NeverTrue(), { [DELETE]: "delete(s1)" });
});

Deno.test("sessionStoreContract() catches sessions that collide or go missing", async () => {
  // A fixed-width id column: "alice" and "ali" share a row.
  class ShortIds extends MapStore {
    protected override key(scope: Scope, id: string): string {
      return super.key(scope, id.slice(0, 3));
    }
  }
  // One row per tenant: the last session saved overwrites the others.
  class OneSlot extends MapStore {
    #id = "";
    protected override key(scope: Scope, _id: string): string {
      return scope.key();
    }
    override save(scope: Scope, id: string, state: SessionState): Promise<void> {
      this.#id = id;
      return super.save(scope, id, state);
    }
    override load(scope: Scope, id: string): Promise<SessionState | undefined> {
      return id === this.#id ? super.load(scope, id) : Promise.resolve(undefined);
    }
  }
  // "Nothing to save": a session with no transcript is skipped, or stored without one.
  class SkipsEmpty extends MapStore {
    override save(scope: Scope, id: string, state: SessionState): Promise<void> {
      return state.transcript.length ? super.save(scope, id, state) : Promise.resolve();
    }
  }
  class OmitsEmpty extends MapStore {
    protected override write(state: SessionState): SessionState {
      const { persistent, transcript } = structuredClone(state);
      return (transcript.length ? { persistent, transcript } : { persistent }) as SessionState;
    }
  }
  await assertFails(() => new ShortIds(), { [SESSIONS]: "a prefix of an id" });
  await assertFails(() => new OneSlot(), { [SESSIONS]: "alice", [DELETE]: "s2 is untouched" });
  await assertFails(() => new SkipsEmpty(), { [SESSIONS]: "bob" });
  await assertFails(() => new OmitsEmpty(), { [SESSIONS]: "bob's transcript" });
});

Deno.test("sessionStoreContract() catches a store that loses part of the state", async () => {
  class NoTranscript extends MapStore {
    protected override write(state: SessionState): SessionState {
      return { persistent: structuredClone(state.persistent), transcript: [] };
    }
  }
  class NoCache extends MapStore {
    protected override write(state: SessionState): SessionState {
      return { persistent: {}, transcript: structuredClone(state.transcript) };
    }
  }
  // Empty strings stored as "no value" (a column that maps "" to NULL).
  class DropsEmptyStrings extends MapStore {
    protected override write(state: SessionState): SessionState {
      return JSON.parse(JSON.stringify(state, (_k, v) => v === "" ? undefined : v));
    }
  }
  await assertFails(() => new NoTranscript(), {
    [EQUAL]: "load(s1)",
    [REPLACES]: "load(s1) after the second save",
    [COPIES]: "after mutating the saved object",
    [DELETE]: "s2 is untouched",
    [LONG]: "messages loaded",
    [RUNS]: "the transcript after one run",
  });
  await assertFails(() => new NoCache(), {
    [EQUAL]: "load(s1)",
    [REPLACES]: "load(s1) after the second save",
    [COPIES]: "after mutating the saved object",
    [SESSIONS]: "alice",
    [TENANTS]: "the owner's state",
    [RUNS]: "the persistent cache after one run",
  });
  await assertFails(() => new DropsEmptyStrings(), { [EQUAL]: "load(s1)" });
});

Deno.test("sessionStoreContract() catches a store that cannot hold a long transcript", async () => {
  const big = (state: SessionState) => JSON.stringify(state).length > 64 * 1024;
  // A 64 KiB value limit, hit silently: the save is lost, or the messages past it are.
  class LosesBigSaves extends MapStore {
    override save(scope: Scope, id: string, state: SessionState): Promise<void> {
      return big(state) ? Promise.resolve() : super.save(scope, id, state);
    }
  }
  class CutsBigTranscripts extends MapStore {
    protected override write(state: SessionState): SessionState {
      const copy = { ...structuredClone(state), transcript: [...state.transcript] };
      while (big(copy)) copy.transcript.pop();
      return copy;
    }
  }
  // A 1000-character content column.
  class CutsLongMessages extends MapStore {
    protected override write(state: SessionState): SessionState {
      const transcript = state.transcript.map((m) => ({ ...m, content: m.content.slice(0, 1000) }));
      return structuredClone({ ...state, transcript });
    }
  }
  await assertFails(() => new LosesBigSaves(), { [LONG]: "messages loaded" });
  await assertFails(() => new CutsBigTranscripts(), { [LONG]: "messages loaded" });
  await assertFails(() => new CutsLongMessages(), { [LONG]: "the transcript" });
});
