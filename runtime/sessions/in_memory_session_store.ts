/**
 * The in-process session store.
 *
 * @module
 */
import type { Scope } from "../../ports/scope.ts";
import type { SessionState, SessionStore } from "../../ports/session_store.ts";

/**
 * A `SessionStore` in a `Map`, partitioned by tenant. State is copied in and
 * out (`structuredClone`), so nothing a caller does to a loaded or saved
 * object changes what is stored. Production code for single-process
 * deployments, not a double; it passes `sessionStoreContract`.
 *
 * @example State survives a run; another tenant sees nothing
 * ```ts
 * import { Agent, InMemorySessionStore, Session } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const store = new InMemorySessionStore();
 * const scope = new Scope({ orgId: 7 });
 * const session = await Session.open("s-1", { store, scope });
 * await new Agent("a", { model: "fake-model" }).run("hi", makeTestCtx({ llm: new FakeLLM("hello"), scope }), { session });
 * assertEquals((await store.load(scope, "s-1"))?.transcript.length, 2);
 * assertEquals(await store.load(new Scope({ orgId: 8 }), "s-1"), undefined);
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  readonly #data = new Map<string, SessionState>();

  /** How many sessions are stored, across every tenant. */
  get size(): number {
    return this.#data.size;
  }

  /** Reads a copy of a session's state, or `undefined`. */
  load(scope: Scope, id: string): Promise<SessionState | undefined> {
    const state = this.#data.get(keyOf(scope, id));
    return Promise.resolve(state === undefined ? undefined : structuredClone(state));
  }

  /** Stores a copy of a session's state. */
  save(scope: Scope, id: string, state: SessionState): Promise<void> {
    try {
      this.#data.set(keyOf(scope, id), structuredClone(state));
    } catch (error) {
      return Promise.reject(
        new TypeError(
          `Cannot save session "${id}": its state is not structured-cloneable (${
            (error as Error).message
          }); keep plain data in session.persistent`,
          { cause: error },
        ),
      );
    }
    return Promise.resolve();
  }

  /** Forgets a session; resolves whether it existed. */
  delete(scope: Scope, id: string): Promise<boolean> {
    return Promise.resolve(this.#data.delete(keyOf(scope, id)));
  }
}

function keyOf(scope: Scope, id: string): string {
  return `${scope.key()}\u0000${id}`;
}
