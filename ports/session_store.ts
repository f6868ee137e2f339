/**
 * The session seam: where a conversation's durable state lives between runs.
 *
 * @module
 */
import type { Message } from "./message.ts";
import type { Scope } from "./scope.ts";

/**
 * What a session keeps between runs: its persistent cache and its transcript.
 * The volatile cache is never stored; it lives for one run. Values must be
 * structured-cloneable (plain data, `Date`, `Map`, typed arrays).
 *
 * @example
 * ```ts
 * import type { SessionState } from "@agentkit/testing/ports";
 * const state: SessionState = {
 *   persistent: { plan: "pro" },
 *   transcript: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }],
 * };
 * ```
 */
export interface SessionState {
  /** The persistent cache, key by key. */
  readonly persistent: Readonly<Record<string, unknown>>;
  /** The conversation so far, oldest first. It only grows. */
  readonly transcript: readonly Message[];
}

/**
 * Durable session state, partitioned by tenant: the same session id under two
 * scopes names two unrelated sessions. Implementations copy values in and
 * out, so a caller mutating what it loaded changes nothing stored.
 * `sessionStoreContract` (in `testing/`) checks an implementation.
 *
 * @example A store in a Map
 * ```ts
 * import { Scope, type SessionState, type SessionStore } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const m = new Map<string, SessionState>();
 * const store: SessionStore = {
 *   load: (s, id) => Promise.resolve(structuredClone(m.get(`${s.key()}/${id}`))),
 *   save: (s, id, state) => { m.set(`${s.key()}/${id}`, structuredClone(state)); return Promise.resolve(); },
 *   delete: (s, id) => Promise.resolve(m.delete(`${s.key()}/${id}`)),
 * };
 * await store.save(new Scope({ orgId: 7 }), "s1", { persistent: { a: 1 }, transcript: [] });
 * assertEquals(await store.load(new Scope({ orgId: 8 }), "s1"), undefined);
 * ```
 */
export interface SessionStore {
  /** Reads a session's state; `undefined` when it was never saved. */
  load(scope: Scope, id: string): Promise<SessionState | undefined>;
  /** Replaces a session's state. */
  save(scope: Scope, id: string, state: SessionState): Promise<void>;
  /** Forgets a session; resolves whether it existed. */
  delete(scope: Scope, id: string): Promise<boolean>;
}
