import { assert, assertEquals, assertRejects } from "@std/assert";
import {
  KVSessionStore,
  KvSessionStore,
  type KvSessionStoreOptions,
  Session,
} from "@agentkit/testing/runtime";
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
