/**
 * The session store on Deno KV, the embedded database Deno ships.
 *
 * Deno KV is still an unstable API: run Deno with `--unstable-kv` (the test
 * tasks of this package do). Nothing here touches `Deno` until
 * {@linkcode KVSessionStore.open} is called, so importing the package from
 * Node is safe; under Node use `InMemorySessionStore` or your own store.
 *
 * @module
 */
import type { Message } from "../../ports/message.ts";
import type { Scope } from "../../ports/scope.ts";
import type { SessionState, SessionStore } from "../../ports/session_store.ts";
import { checkOptions, checkValue, is } from "../_options.ts";

/** One part of a KV key (the subset this store uses). */
export type KvKeyPart = string | number;

/**
 * The part of a `Deno.Kv` database the store uses; a `Deno.Kv` satisfies it.
 *
 * @example
 * ```ts
 * import type { KvLike } from "@agentkit/testing/runtime";
 *
 * const kv: KvLike = await Deno.openKv(":memory:");
 * kv.close();
 * ```
 */
export interface KvLike {
  /** Reads one entry. */
  get(key: readonly KvKeyPart[]): Promise<{ readonly value: unknown }>;
  /** Lists entries under a prefix, in key order. */
  list(selector: { readonly prefix: readonly KvKeyPart[] }): AsyncIterable<{
    readonly key: readonly unknown[];
    readonly value: unknown;
  }>;
  /** Starts an atomic write. */
  atomic(): KvAtomicLike;
  /** Closes the database. */
  close(): void;
}

/**
 * The part of a `Deno.AtomicOperation` the store uses.
 *
 * @example
 * ```ts
 * import type { KvAtomicLike } from "@agentkit/testing/runtime";
 *
 * const kv = await Deno.openKv(":memory:");
 * const op: KvAtomicLike = kv.atomic();
 * await op.set(["k"], 1).commit();
 * kv.close();
 * ```
 */
export interface KvAtomicLike {
  /** Queues a write. */
  set(key: readonly KvKeyPart[], value: unknown): KvAtomicLike;
  /** Queues a delete. */
  delete(key: readonly KvKeyPart[]): KvAtomicLike;
  /** Applies the queued mutations together. */
  commit(): Promise<{ readonly ok: boolean }>;
}

/** Options for {@linkcode KVSessionStore}. */
export interface KVSessionStoreOptions {
  /**
   * The first key part of every entry, to share a database with other data.
   * @default {"agentkit"}
   */
  readonly prefix?: string;
  /**
   * Whether `close()` closes the database. `KVSessionStore.open` sets it.
   * @default {false}
   */
  readonly closeKv?: boolean;
}

interface Meta {
  readonly persistent: Readonly<Record<string, unknown>>;
  readonly length: number;
}

// A batch stays well inside Deno KV's limits on one atomic write.
const BATCH_MUTATIONS = 64;
const BATCH_BYTES = 256 * 1024;

/**
 * A `SessionStore` on Deno KV, partitioned by tenant. Each session is one
 * metadata entry (the persistent cache and the transcript's length) plus
 * one entry per transcript message, so a long conversation never hits KV's
 * 64 KiB limit on a single value; the persistent cache must fit in one entry.
 * A save rewrites the session and writes the metadata last, so a reader
 * never sees a length beyond the messages written. One writer per session.
 *
 * Run Deno with `--unstable-kv`; in tests open `":memory:"`.
 *
 * @example
 * ```ts
 * import { KVSessionStore, Session } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * await using store = await KVSessionStore.open(":memory:");
 * const session = await Session.open("s-1", { store });
 * session.persistent.set("plan", "pro");
 * session.append({ role: "user", content: "hi" });
 * await session.save();
 * const again = await Session.open("s-1", { store });
 * assertEquals([again.persistent.get("plan"), again.transcript.length], ["pro", 1]);
 * ```
 */
export class KVSessionStore implements SessionStore, AsyncDisposable {
  readonly #kv: KvLike;
  readonly #prefix: string;
  readonly #closeKv: boolean;
  #closed = false;

  /**
   * Creates a store on an open database (the caller keeps ownership unless
   * `closeKv` is set).
   *
   * @param kv The database (`await Deno.openKv(path)`).
   * @param options Key prefix and ownership.
   */
  constructor(kv: KvLike, options: KVSessionStoreOptions = {}) {
    if (!kv || typeof kv.atomic !== "function") {
      throw new TypeError(
        "Cannot build a KVSessionStore without a database: pass new KVSessionStore(await Deno.openKv(path)), or use KVSessionStore.open(path)",
      );
    }
    checkOptions("new KVSessionStore()", options, { prefix: is.text, closeKv: is.boolean });
    this.#kv = kv;
    this.#prefix = options.prefix ?? "agentkit";
    this.#closeKv = options.closeKv ?? false;
  }

  /**
   * Opens a Deno KV database and a store that owns it (closed with the store).
   *
   * @param path The database file, or `":memory:"`; Deno's default when omitted.
   * @param options The key prefix.
   * @returns The store.
   * @throws {Error} Outside Deno, or when Deno runs without `--unstable-kv`.
   *
   * @example
   * ```ts
   * import { KVSessionStore } from "@agentkit/testing/runtime";
   * import { Scope } from "@agentkit/testing/ports";
   * import { assertEquals } from "@std/assert";
   *
   * await using store = await KVSessionStore.open(":memory:");
   * assertEquals(await store.load(new Scope(), "nobody"), undefined);
   * ```
   */
  static async open(
    path?: string,
    options: Omit<KVSessionStoreOptions, "closeKv"> = {},
  ): Promise<KVSessionStore> {
    if (path !== undefined) checkValue("KVSessionStore.open()", "the path", path, is.text);
    checkOptions("KVSessionStore.open()", options, { prefix: is.text });
    const deno = (globalThis as { Deno?: { openKv?: (path?: string) => Promise<KvLike> } }).Deno;
    if (typeof deno?.openKv !== "function") {
      throw new Error(
        deno
          ? "Cannot open Deno KV: Deno.openKv is not available because it is an unstable API; run Deno with --unstable-kv"
          : "Cannot open Deno KV outside Deno: use InMemorySessionStore, or implement SessionStore on your database",
      );
    }
    return new KVSessionStore(await deno.openKv(path), { ...options, closeKv: true });
  }

  #base(scope: Scope, id: string): KvKeyPart[] {
    if (this.#closed) {
      throw new Error(`Cannot use session "${id}": this KVSessionStore is closed`);
    }
    return [this.#prefix, "session", scope.key(), id];
  }

  /** Reads a session's state, or `undefined`. */
  async load(scope: Scope, id: string): Promise<SessionState | undefined> {
    const base = this.#base(scope, id);
    const meta = (await this.#kv.get([...base, "meta"])).value as Meta | null;
    if (!meta) return undefined;
    const transcript: Message[] = [];
    for await (const entry of this.#kv.list({ prefix: [...base, "msg"] })) {
      if ((entry.key[entry.key.length - 1] as number) < meta.length) {
        transcript.push(entry.value as Message);
      }
    }
    return { persistent: meta.persistent, transcript };
  }

  /** Replaces a session's state. */
  async save(scope: Scope, id: string, state: SessionState): Promise<void> {
    const base = this.#base(scope, id);
    const old = (await this.#kv.get([...base, "meta"])).value as Meta | null;
    const messages = state.transcript;
    let op = this.#kv.atomic();
    let mutations = 0;
    let bytes = 0;
    const flush = async () => {
      if (mutations === 0) return;
      await this.#commit(op, id);
      op = this.#kv.atomic();
      mutations = 0;
      bytes = 0;
    };
    for (let i = 0; i < messages.length; i++) {
      const size = messages[i].content.length * 3 + 256;
      if (mutations >= BATCH_MUTATIONS || bytes + size > BATCH_BYTES) await flush();
      op.set([...base, "msg", i], { ...messages[i] });
      mutations++;
      bytes += size;
    }
    for (let i = messages.length; i < (old?.length ?? 0); i++) {
      if (mutations >= BATCH_MUTATIONS) await flush();
      op.delete([...base, "msg", i]);
      mutations++;
    }
    await flush();
    const meta: Meta = { persistent: { ...state.persistent }, length: messages.length };
    await this.#commit(this.#kv.atomic().set([...base, "meta"], meta), id);
  }

  /** Forgets a session; resolves whether it existed. */
  async delete(scope: Scope, id: string): Promise<boolean> {
    const base = this.#base(scope, id);
    const meta = (await this.#kv.get([...base, "meta"])).value as Meta | null;
    if (!meta) return false;
    await this.#commit(this.#kv.atomic().delete([...base, "meta"]), id);
    const keys: KvKeyPart[][] = [];
    for await (const entry of this.#kv.list({ prefix: [...base, "msg"] })) {
      keys.push(entry.key as KvKeyPart[]);
    }
    for (let i = 0; i < keys.length; i += BATCH_MUTATIONS) {
      let op = this.#kv.atomic();
      for (const key of keys.slice(i, i + BATCH_MUTATIONS)) op = op.delete(key);
      await this.#commit(op, id);
    }
    return true;
  }

  async #commit(op: KvAtomicLike, id: string): Promise<void> {
    let result: { readonly ok: boolean };
    try {
      result = await op.commit();
    } catch (error) {
      throw new Error(
        `Cannot save session "${id}" to Deno KV: ${
          (error as Error).message
        }; a single value (one message, or the whole persistent cache) must stay under 64 KiB and be structured-cloneable`,
        { cause: error },
      );
    }
    if (!result.ok) {
      throw new Error(`Cannot save session "${id}" to Deno KV: the write was not committed`);
    }
  }

  /** Closes the database if the store owns it; idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#closeKv) this.#kv.close();
  }

  /** `await using store = await KVSessionStore.open(...)` closes it. */
  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }
}

/**
 * The old spelling of {@linkcode KVSessionStore}, the same class.
 *
 * @deprecated Use KVSessionStore; removed in the next minor release.
 *
 * @example
 * ```ts
 * import { KvSessionStore, KVSessionStore } from "@agentkit/testing/runtime";
 * import { assertStrictEquals } from "@std/assert";
 *
 * assertStrictEquals(KvSessionStore, KVSessionStore);
 * ```
 */
export const KvSessionStore: typeof KVSessionStore = KVSessionStore;
/**
 * The old spelling of {@linkcode KVSessionStore}, the same class.
 *
 * @deprecated Use KVSessionStore; removed in the next minor release.
 */
export type KvSessionStore = KVSessionStore;

/**
 * The old spelling of {@linkcode KVSessionStoreOptions}.
 *
 * @deprecated Use KVSessionStoreOptions; removed in the next minor release.
 *
 * @example
 * ```ts
 * import type { KvSessionStoreOptions } from "@agentkit/testing/runtime";
 * const options: KvSessionStoreOptions = { prefix: "app" };
 * ```
 */
export type KvSessionStoreOptions = KVSessionStoreOptions;
