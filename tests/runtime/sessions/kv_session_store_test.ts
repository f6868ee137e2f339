import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import {
  type KvAtomicLike,
  type KvLike,
  KVSessionStore,
  KvSessionStore,
  type KvSessionStoreOptions,
  Session,
} from "@agentkit/testing/runtime";
import type { Message } from "@agentkit/testing/ports";
import * as root from "@agentkit/testing";
import { Scope } from "@agentkit/testing/ports";
import { sessionStoreContract } from "@agentkit/testing/testing";

// The test task runs with --unstable-kv; ":memory:" keeps every case apart.
Deno.test("KVSessionStore keeps the SessionStore contract", async (t) => {
  for (const c of sessionStoreContract(() => KVSessionStore.open(":memory:"))) {
    await t.step(c.name, c.fn);
  }
});

Deno.test("KVSessionStore keeps state across reopening the database file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/sessions.db`;
    {
      await using store = await KVSessionStore.open(path);
      const session = await Session.open("s-1", { store });
      session.persistent.set("plan", "pro");
      session.append({ role: "user", content: "hi" });
      await session.save();
    }
    await using store = await KVSessionStore.open(path);
    const again = await Session.open("s-1", { store });
    assertEquals([again.persistent.get("plan"), again.transcript], ["pro", [{
      role: "user",
      content: "hi",
    }]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("KVSessionStore.save() explains a persistent cache larger than one KV value", async () => {
  await using store = await KVSessionStore.open(":memory:");
  const e = await assertRejects(
    () =>
      store.save(new Scope(), "big", { persistent: { blob: "x".repeat(70_000) }, transcript: [] }),
    Error,
    'Cannot save session "big" to Deno KV',
  );
  assert(e.message.includes("64 KiB"));
  assertInstanceOf(e.cause, Error); // KV's own error stays reachable
});

Deno.test("KVSessionStore on a database it does not own leaves it open", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = new KVSessionStore(kv, { prefix: "app" });
  await store.save(new Scope(), "s", { persistent: { a: 1 }, transcript: [] });
  store.close();
  await assertRejects(() => store.load(new Scope(), "s"), Error, "this KVSessionStore is closed");
  assertEquals((await kv.get(["app", "session", "org0:dom0", "s", "meta"])).value, {
    persistent: { a: 1 },
    length: 0,
  });
  kv.close();
});

Deno.test("KvSessionStore and KvSessionStoreOptions are deprecated spellings of the KV* names", async () => {
  assert(KvSessionStore === KVSessionStore && root.KvSessionStore === root.KVSessionStore);
  const options: KvSessionStoreOptions = { prefix: "old" };
  await using store: KvSessionStore = await KvSessionStore.open(":memory:", options);
  assert(store instanceof KVSessionStore);
  const s = await Session.open("s", { store });
  s.append({ role: "user", content: "hi" });
  await s.save();
  assertEquals((await Session.open("s", { store })).transcript.length, 1);
});

const scope = new Scope();
const says = (n: number, text = (i: number) => `m${i}`): Message[] =>
  Array.from({ length: n }, (_, i) => ({ role: "user", content: text(i) }));

/** The message entries the store holds for a session, read from KV directly. */
async function messageKeys(kv: Deno.Kv, id: string, prefix = "agentkit"): Promise<unknown[]> {
  const keys: unknown[] = [];
  for await (const e of kv.list({ prefix: [prefix, "session", scope.key(), id, "msg"] })) {
    keys.push(e.key.at(-1));
  }
  return keys;
}

/** A Deno.Kv seen through KvLike, counting the mutations of every commit. */
function recording(kv: Deno.Kv, commit?: () => Promise<{ ok: boolean }>) {
  const commits: number[] = [];
  const wrap = (op: Deno.AtomicOperation, count: { n: number }): KvAtomicLike => ({
    set(key, value) {
      count.n++;
      return wrap(op.set(key as Deno.KvKey, value), count);
    },
    delete(key) {
      count.n++;
      return wrap(op.delete(key as Deno.KvKey), count);
    },
    commit() {
      commits.push(count.n);
      return commit ? commit() : op.commit();
    },
  });
  const like: KvLike = {
    get: (key) => kv.get(key as Deno.KvKey),
    list: (selector) => kv.list({ prefix: selector.prefix as Deno.KvKey }),
    atomic: () => wrap(kv.atomic(), { n: 0 }),
    close: () => kv.close(),
  };
  return { like, commits };
}

Deno.test("new KVSessionStore() refuses what is not a database, and unknown options", async () => {
  assertThrows(
    () => new KVSessionStore(undefined as unknown as KvLike),
    TypeError,
    "KVSessionStore.open",
  );
  // Something with get/list but no atomic() cannot save: refused up front, not at the first save.
  const half = { get: () => Promise.resolve({ value: null }), list: () => [], close() {} };
  assertThrows(
    () => new KVSessionStore(half as unknown as KvLike),
    TypeError,
    "KVSessionStore.open",
  );
  const kv = await Deno.openKv(":memory:");
  try {
    assertThrows(
      () => new KVSessionStore(kv, { prefx: "app" } as unknown as KvSessionStoreOptions),
      TypeError,
      "new KVSessionStore()",
    );
  } finally {
    kv.close();
  }
});

Deno.test("KVSessionStore keeps its entries under the agentkit prefix unless told otherwise", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = new KVSessionStore(kv);
    await store.save(scope, "s", { persistent: { a: 1 }, transcript: says(2) });
    assertEquals(await messageKeys(kv, "s"), [0, 1]);
    assertEquals((await kv.get(["agentkit", "session", scope.key(), "s", "meta"])).value, {
      persistent: { a: 1 },
      length: 2,
    });
  } finally {
    kv.close();
  }
});

Deno.test("KVSessionStore.open() checks its path and opens Deno's default database without one", async () => {
  await assertRejects(
    () => KVSessionStore.open(42 as unknown as string),
    TypeError,
    "KVSessionStore.open(): the path",
  );
  await assertRejects(
    () => KVSessionStore.open(":memory:", { closeKv: false } as never),
    TypeError,
    "KVSessionStore.open()",
  );
  const real = Deno.openKv;
  const asked: (string | undefined)[] = [];
  await withDeno(
    { ...Deno, openKv: (path?: string) => (asked.push(path), real(":memory:")) },
    async () => {
      await using store = await KVSessionStore.open();
      await store.save(scope, "s", { persistent: {}, transcript: [] });
    },
  );
  assertEquals(asked, [undefined]);
});

Deno.test("KVSessionStore.open() says what is missing: --unstable-kv, or Deno itself", async () => {
  const { openKv: _, ...withoutKv } = Deno;
  await withDeno(withoutKv, async () => {
    await assertRejects(() => KVSessionStore.open(":memory:"), Error, "--unstable-kv");
  });
  await withDeno(undefined, async () => {
    await assertRejects(() => KVSessionStore.open(":memory:"), Error, "InMemorySessionStore");
  });
});

/** Runs `body` with globalThis.Deno replaced (as under Node, or without --unstable-kv). */
async function withDeno(replacement: unknown, body: () => Promise<void>): Promise<void> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "Deno")!;
  Object.defineProperty(globalThis, "Deno", { ...descriptor, value: replacement });
  try {
    await body();
  } finally {
    Object.defineProperty(globalThis, "Deno", descriptor);
  }
}

Deno.test("KVSessionStore.load() reads only its session's messages, up to the saved length", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = new KVSessionStore(kv);
    await store.save(scope, "a", { persistent: {}, transcript: says(2, (i) => `a${i}`) });
    await store.save(scope, "b", { persistent: {}, transcript: says(3, (i) => `b${i}`) });
    // A save cut off after its messages and before its metadata leaves a message past the length.
    await kv.set(["agentkit", "session", scope.key(), "a", "msg", 2], {
      role: "user",
      content: "a2",
    });
    const a = await store.load(scope, "a");
    assertEquals(a?.transcript.map((m) => m.content), ["a0", "a1"]);
  } finally {
    kv.close();
  }
});

Deno.test("KVSessionStore.save() of a shorter transcript removes the messages past it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = new KVSessionStore(kv);
    await store.save(scope, "s", { persistent: {}, transcript: says(5) });
    await store.save(scope, "s", { persistent: {}, transcript: says(2) });
    assertEquals(await messageKeys(kv, "s"), [0, 1]);
    await store.save(scope, "s", { persistent: {}, transcript: [] });
    assertEquals(await messageKeys(kv, "s"), []);
    assertEquals((await store.load(scope, "s"))?.transcript, []);
  } finally {
    kv.close();
  }
});

Deno.test("KVSessionStore saves, shrinks and deletes transcripts past Deno KV's limits on one write", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = new KVSessionStore(kv);
    // More messages than one atomic write may hold (1000 mutations), even
    // empty ones, which weigh least...
    await store.save(scope, "long", { persistent: {}, transcript: says(1100, () => "") });
    assertEquals((await store.load(scope, "long"))?.transcript.length, 1100);
    await store.save(scope, "long", { persistent: {}, transcript: says(3) });
    assertEquals((await messageKeys(kv, "long")).length, 3);
    await store.save(scope, "long", { persistent: {}, transcript: says(1100) });
    assert(await store.delete(scope, "long"));
    assertEquals(await messageKeys(kv, "long"), []);
    assertEquals(await store.load(scope, "long"), undefined);
    // ...and more bytes (800 KB): twenty messages of 60 KB, each 30,000
    // characters that KV stores in two bytes and UTF-8 in three.
    const big = says(20, (i) => `${i}`.padEnd(30_000, "€"));
    await store.save(scope, "big", { persistent: {}, transcript: big });
    assertEquals((await store.load(scope, "big"))?.transcript, big);
    assertEquals(await store.delete(scope, "nobody"), false);
  } finally {
    kv.close();
  }
});

Deno.test("KVSessionStore writes a transcript in a few batches, not one write per message", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { like, commits } = recording(kv);
    const store = new KVSessionStore(like);
    await store.save(scope, "s", { persistent: {}, transcript: [] });
    assertEquals(commits, [1]); // the metadata alone
    commits.length = 0;
    await store.save(scope, "s", { persistent: {}, transcript: says(200) });
    assert(commits.length <= 5, `200 messages took ${commits.length} writes`);
    assertEquals(commits.reduce((a, b) => a + b), 201);
    commits.length = 0;
    await store.save(scope, "s", { persistent: {}, transcript: says(1) });
    assert(commits.length <= 5, `shrinking took ${commits.length} writes`);
    assertEquals(commits.reduce((a, b) => a + b), 201); // one set, 199 deletes, the metadata
    assertEquals(await messageKeys(kv, "s"), [0]);
    await store.save(scope, "empty", { persistent: {}, transcript: [] });
    commits.length = 0;
    assert(await store.delete(scope, "empty"));
    assertEquals(commits, [1]); // the metadata alone: no empty writes
  } finally {
    kv.close();
  }
});

Deno.test("KVSessionStore.save() fails when the database did not commit the write", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const { like } = recording(kv, () => Promise.resolve({ ok: false }));
    const store = new KVSessionStore(like);
    await assertRejects(
      () => store.save(scope, "s", { persistent: {}, transcript: says(1) }),
      Error,
      "not committed",
    );
    assertEquals(await store.load(scope, "s"), undefined);
  } finally {
    kv.close();
  }
});

Deno.test("KVSessionStore.close() closes a database it owns once, however often it is called", async () => {
  const store = await KVSessionStore.open(":memory:");
  store.close();
  store.close();
  await store[Symbol.asyncDispose]();
  await assertRejects(() => store.load(scope, "s"), Error, "closed");
});
