/**
 * Sessions: a conversation's caches and transcript, and the async context
 * that makes the current one reachable from anywhere inside a run.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Message } from "../../ports/message.ts";
import { Scope } from "../../ports/scope.ts";
import type { SessionState, SessionStore } from "../../ports/session_store.ts";
import { checkOptions, checkValue, describe, is, type Rule } from "../_options.ts";
import { checkMessages } from "./_message_problem.ts";

const storage = new AsyncLocalStorage<Session>();
const DEFAULT_SCOPE = new Scope();

/** Options for {@linkcode Session}. */
export interface SessionOptions {
  /**
   * The tenant the session belongs to; an agent refuses to run it under
   * another tenant's context.
   * @default {new Scope()}
   */
  readonly scope?: Scope;
  /**
   * Where the session is saved after every run; without one it lives in
   * memory only.
   * @default {undefined}
   */
  readonly store?: SessionStore;
  /**
   * The persistent cache to start with.
   * @default {{}}
   */
  readonly persistent?: Readonly<Record<string, unknown>>;
  /**
   * The transcript to start with: messages with a role (`system`, `user`,
   * `assistant`, `tool`) and string content.
   * @default {[]}
   */
  readonly transcript?: readonly Message[];
}

/** Options for {@linkcode Session.open}. */
export interface SessionOpenOptions {
  /** Where the session is loaded from and saved to. */
  readonly store: SessionStore;
  /**
   * The tenant.
   * @default {new Scope()}
   */
  readonly scope?: Scope;
}

/**
 * A session's store failed to save it. The run that ended with the save
 * fails with this error, and the session in memory is rolled back to what it
 * last saved (or was built or loaded with): the run's turns and persistent
 * changes are undone, so memory is never ahead of the store and the run can
 * be retried.
 *
 * @example
 * ```ts
 * import { Agent, Session, SessionSaveFailed } from "@agentkit/testing/runtime";
 * import type { SessionStore } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const broken: SessionStore = {
 *   load: () => Promise.resolve(undefined),
 *   save: () => Promise.reject(new Error("disk full")),
 *   delete: () => Promise.resolve(false),
 * };
 * const session = new Session("s-1", { store: broken });
 * const agent = new Agent("a", { model: "fake-model" });
 * const e = await assertRejects(
 *   () => agent.run("hi", makeTestCtx({ llm: new FakeLLM("ok") }), { session }),
 *   SessionSaveFailed,
 *   'session "s-1"',
 * );
 * assertEquals([e.sessionId, session.transcript.length], ["s-1", 0]);
 * ```
 */
export class SessionSaveFailed extends Error {
  /** The session that was not saved. */
  readonly sessionId: string;
  /** The store's name (its class). */
  readonly store: string;

  /**
   * The message says the session was rolled back to what the store holds.
   *
   * @param sessionId The session.
   * @param store The store's name.
   * @param cause What the store threw.
   */
  constructor(sessionId: string, store: string, cause: unknown) {
    super(
      `Cannot save session "${sessionId}" to ${store}: ${
        cause instanceof Error ? cause.message : String(cause)
      }; the session in memory was rolled back to what the store holds, so the run can be retried once the store works`,
      { cause },
    );
    this.name = "SessionSaveFailed";
    this.sessionId = sessionId;
    this.store = store;
  }
}

const STORE: Rule = is.port("a SessionStore", ["load", "save"]);
const SESSION_OPTIONS: Readonly<Record<string, Rule>> = {
  scope: is.instance(Scope),
  store: STORE,
  persistent: is.object,
  transcript: is.arrayOf(is.object),
};
const STATE = "a SessionState ({ persistent, transcript }) or undefined";

/**
 * One conversation. `volatile` is a cache for the current run only (the
 * agent clears it when a run ends); `persistent` survives runs and is saved
 * to the session's store; the transcript grows by the user's task and the
 * agent's answer on every `agent.run(task, ctx, { session })`, so a follow-up
 * question sees the earlier turns. Inside `session.run(fn)` (and inside every
 * run of an agent given this session), `Session.current()` returns it, across
 * awaits; outside, it is `undefined`.
 *
 * One run at a time per session: concurrent runs would interleave their
 * turns in the transcript.
 *
 * @example A follow-up sees the earlier turn
 * ```ts
 * import { Agent, Session } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const llm = FakeLLM.script(["Sri Lanka won it.", "They beat Australia."]);
 * const ctx = makeTestCtx({ llm });
 * const agent = new Agent("quiz", { model: "fake-model" });
 * const session = new Session("s-1");
 * await agent.run("Who won the 1996 cricket world cup?", ctx, { session });
 * await agent.run("Whom did they beat?", ctx, { session });
 * assertEquals(llm.requests[1].messages.map((m) => m.content), [
 *   "Who won the 1996 cricket world cup?",
 *   "Sri Lanka won it.",
 *   "Whom did they beat?",
 * ]);
 * assertEquals(session.transcript.length, 4);
 * ```
 *
 * @example The current session, across awaits
 * ```ts
 * import { Session } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const session = new Session("s-2");
 * const id = await session.run(async () => {
 *   await Promise.resolve();
 *   return Session.current()?.id;
 * });
 * assertEquals(id, "s-2");
 * assertEquals(Session.current(), undefined);
 * ```
 */
export class Session {
  /** The session's id. */
  readonly id: string;
  /** The tenant. */
  readonly scope: Scope;
  /** Where it is saved, if anywhere. */
  readonly store?: SessionStore;
  /** A cache for the current run; cleared when a run of an agent ends. */
  readonly volatile: Map<string, unknown> = new Map();
  /** A cache that survives runs and is saved with the session. */
  readonly persistent: Map<string, unknown>;
  readonly #transcript: Message[];
  #depth = 0;
  // What the store holds as far as this session knows (as built, loaded or
  // last saved), to roll back to when a save fails.
  #saved: { length: number; persistent: [string, unknown][] } | undefined;

  /**
   * Creates a session in memory (load a saved one with {@linkcode Session.open}).
   *
   * @param id The session's id.
   * @param options Tenant, store, initial state.
   */
  constructor(id: string, options: SessionOptions = {}) {
    if (typeof id !== "string" || !id) {
      throw new TypeError(
        `Cannot build a Session: id must be a non-empty string, got ${JSON.stringify(id)}`,
      );
    }
    checkOptions("new Session()", options, SESSION_OPTIONS);
    if (options.transcript) checkMessages("new Session(): transcript", options.transcript);
    this.id = id;
    this.scope = options.scope ?? DEFAULT_SCOPE;
    this.store = options.store;
    this.persistent = new Map(Object.entries(options.persistent ?? {}));
    this.#transcript = [...(options.transcript ?? [])];
    if (this.store) this.#remember();
  }

  #remember(): void {
    this.#saved = { length: this.#transcript.length, persistent: [...this.persistent] };
  }

  /**
   * Loads a session from a store, or starts a new one there.
   *
   * @param id The session's id.
   * @param options The store and the tenant.
   * @returns The session, bound to the store (saved after every run).
   *
   * @example
   * ```ts
   * import { InMemorySessionStore, Session } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const store = new InMemorySessionStore();
   * const first = await Session.open("s-1", { store });
   * first.persistent.set("plan", "pro");
   * await first.save();
   * assertEquals((await Session.open("s-1", { store })).persistent.get("plan"), "pro");
   * ```
   */
  static async open(id: string, options: SessionOpenOptions): Promise<Session> {
    if (options && typeof options === "object" && !Array.isArray(options) && !options.store) {
      throw new TypeError(
        `Cannot open session "${id}" without a store: pass Session.open(id, { store }), or use new Session(id) for one that lives in memory`,
      );
    }
    checkValue("Session.open()", "the id", id, is.text);
    checkOptions("Session.open()", options, { store: STORE, scope: SESSION_OPTIONS.scope });
    const scope = options.scope ?? DEFAULT_SCOPE;
    const state = await options.store.load(scope, id);
    // A store answers what it holds; a broken one is named here, not when
    // the transcript reaches a provider.
    if (state !== undefined && (state === null || typeof state !== "object")) {
      throw new TypeError(
        `Session.open(): the store loaded session "${id}" as ${describe(state)}, not ${STATE}`,
      );
    }
    if (state?.transcript !== undefined) {
      if (!Array.isArray(state.transcript)) {
        throw new TypeError(
          `Session.open(): the store loaded session "${id}" with transcript ${
            describe(state.transcript)
          }, not an array of messages`,
        );
      }
      checkMessages(
        `Session.open(): the transcript of session "${id}" as loaded`,
        state.transcript,
      );
    }
    return new Session(id, {
      scope,
      store: options.store,
      persistent: state?.persistent,
      transcript: state?.transcript,
    });
  }

  /**
   * The session of the current async context.
   *
   * @returns The session `run` (or an agent run) entered, or `undefined`.
   *
   * @example
   * ```ts
   * import { Session } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * assertEquals(Session.current(), undefined);
   * ```
   */
  static current(): Session | undefined {
    return storage.getStore();
  }

  /** The conversation so far, oldest first (a read-only view). */
  get transcript(): readonly Message[] {
    return this.#transcript;
  }

  /**
   * Adds messages to the end of the transcript. Each has a role (`system`,
   * `user`, `assistant` or `tool`) and string content; none is added unless
   * all are.
   *
   * @param messages The messages.
   * @throws {TypeError} For a message with another role or non-string content.
   *
   * @example
   * ```ts
   * import { Session } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const s = new Session("s");
   * s.append({ role: "user", content: "hi" });
   * assertEquals(s.transcript, [{ role: "user", content: "hi" }]);
   * ```
   */
  append(...messages: Message[]): void {
    checkMessages("Session.append()", messages);
    for (const m of messages) this.#transcript.push({ ...m });
  }

  /**
   * Runs `fn` with this session as `Session.current()`, across every await
   * inside it.
   *
   * @param fn The work: a function.
   * @returns What `fn` returns.
   * @throws {TypeError} When `fn` is not a function.
   *
   * @example
   * ```ts
   * import { Session } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * assertEquals(new Session("s").run(() => Session.current()?.id), "s");
   * ```
   */
  run<T>(fn: () => T): T {
    if (typeof fn !== "function") {
      throw new TypeError(`Session.run(): fn must be a function, got ${describe(fn)}`);
    }
    return storage.run(this, fn);
  }

  /**
   * The state a store keeps: the persistent cache and the transcript.
   *
   * @returns A snapshot (the store copies it).
   *
   * @example
   * ```ts
   * import { Session } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const s = new Session("s", { persistent: { a: 1 } });
   * s.volatile.set("scratch", true);
   * assertEquals(s.state(), { persistent: { a: 1 }, transcript: [] });
   * ```
   */
  state(): SessionState {
    return { persistent: Object.fromEntries(this.persistent), transcript: this.#transcript };
  }

  /**
   * Saves the state to the session's store (nothing without one). When the
   * store fails, the session is rolled back to what it last saved (or was
   * built or loaded with) and {@linkcode SessionSaveFailed} is thrown.
   *
   * @returns When saved.
   *
   * @example
   * ```ts
   * import { InMemorySessionStore, Session } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const store = new InMemorySessionStore();
   * const s = new Session("s", { store });
   * s.persistent.set("a", 1);
   * await s.save();
   * assertEquals((await store.load(s.scope, "s"))?.persistent, { a: 1 });
   * ```
   */
  async save(): Promise<void> {
    if (!this.store) return;
    try {
      await this.store.save(this.scope, this.id, this.state());
      this.#remember();
    } catch (error) {
      const saved = this.#saved;
      if (saved) {
        this.#transcript.length = saved.length;
        this.persistent.clear();
        for (const [k, v] of saved.persistent) this.persistent.set(k, v);
      }
      const name = (this.store as { constructor?: { name?: string } }).constructor?.name;
      throw new SessionSaveFailed(
        this.id,
        name && name !== "Object" ? name : "its store",
        error,
      );
    }
  }

  /**
   * Marks the start of a run (the agent calls it). Runs nest: an agent that
   * runs another agent on the same session is one run.
   *
   * @example
   * ```ts
   * import { Session } from "@agentkit/testing/runtime";
   * import { assertEquals } from "@std/assert";
   *
   * const s = new Session("s");
   * s.beginRun();
   * s.volatile.set("k", 1);
   * await s.endRun();
   * assertEquals(s.volatile.size, 0);
   * ```
   */
  beginRun(): void {
    this.#depth++;
  }

  /**
   * Marks the end of a run (the agent calls it, whether the run succeeded or
   * not): the outermost run's end clears the volatile cache and saves the
   * session to its store.
   *
   * @returns When saved.
   * @throws {SessionSaveFailed} When the store fails; the session is then
   * rolled back to what the store holds.
   */
  async endRun(): Promise<void> {
    if (this.#depth > 0) this.#depth--;
    if (this.#depth > 0) return;
    this.volatile.clear();
    await this.save();
  }
}
