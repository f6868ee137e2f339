/**
 * The in-process session store.
 *
 * @module
 */
import { Scope } from "../../ports/scope.ts";
import { describe } from "../_options.ts";
import { checkMessages } from "./_message_problem.ts";
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

  /**
   * Reads a copy of a session's state, or `undefined`.
   * @param scope The tenant: a `Scope`.
   * @param id The session's id: a non-empty string.
   * @returns The state, or `undefined` when none is saved.
   * @throws {TypeError} (as a rejection) For a scope or an id of the wrong kind.
   */
  load(scope: Scope, id: string): Promise<SessionState | undefined> {
    const problem = keyProblem("InMemorySessionStore.load()", scope, id);
    if (problem) return Promise.reject(problem);
    const state = this.#data.get(keyOf(scope, id));
    return Promise.resolve(state === undefined ? undefined : structuredClone(state));
  }

  /**
   * Stores a copy of a session's state.
   * @param scope The tenant: a `Scope`.
   * @param id The session's id: a non-empty string.
   * @param state `{ persistent, transcript }`: an object of plain data and an
   * array of messages (each with a valid role and string content).
   * @returns When stored.
   * @throws {TypeError} (as a rejection) For arguments of the wrong kind, or state that cannot be copied.
   */
  save(scope: Scope, id: string, state: SessionState): Promise<void> {
    const where = "InMemorySessionStore.save()";
    try {
      const problem = keyProblem(where, scope, id);
      if (problem) throw problem;
      stateProblem(where, id, state);
    } catch (error) {
      return Promise.reject(error);
    }
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

  /**
   * Forgets a session; resolves whether it existed.
   * @param scope The tenant: a `Scope`.
   * @param id The session's id: a non-empty string.
   * @returns Whether it existed.
   */
  delete(scope: Scope, id: string): Promise<boolean> {
    const problem = keyProblem("InMemorySessionStore.delete()", scope, id);
    if (problem) return Promise.reject(problem);
    return Promise.resolve(this.#data.delete(keyOf(scope, id)));
  }
}

function keyOf(scope: Scope, id: string): string {
  return `${scope.key()}\u0000${id}`;
}

function keyProblem(where: string, scope: unknown, id: unknown): TypeError | undefined {
  if (!(scope instanceof Scope)) {
    return new TypeError(`${where}: the scope must be a Scope, got ${describe(scope)}`);
  }
  if (typeof id !== "string" || id === "") {
    return new TypeError(`${where}: the id must be a non-empty string, got ${describe(id)}`);
  }
  return undefined;
}

function stateProblem(where: string, id: string, state: SessionState): void {
  if (!isRecord(state) || !isRecord(state.persistent) || !Array.isArray(state.transcript)) {
    throw new TypeError(
      `${where}: the state of session "${id}" must be { persistent: {...}, transcript: [...] }, got ${
        describe(state)
      }`,
    );
  }
  checkMessages(`${where}: the transcript of session "${id}"`, state.transcript);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
