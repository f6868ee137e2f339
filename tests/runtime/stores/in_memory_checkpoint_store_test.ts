import { assertEquals } from "@std/assert";
import { InMemoryCheckpointStore } from "@agentkit/testing/runtime";
import { Scope } from "@agentkit/testing/ports";

Deno.test("InMemoryCheckpointStore saves, replaces, loads and lists per tenant", async () => {
  const store = new InMemoryCheckpointStore();
  const org7 = new Scope({ orgId: 7 });
  const org8 = new Scope({ orgId: 8 });
  await store.save(org7, "run-1", { step: 1 });
  await store.save(org7, "run-2", { step: 1 });
  await store.save(org7, "run-1", { step: 2 });
  await store.save(org8, "run-9", { step: 5 });
  assertEquals(await store.load(org7, "run-1"), { step: 2 });
  assertEquals(await store.list(org7), ["run-1", "run-2"]);
  assertEquals(await store.list(org8), ["run-9"]);
  assertEquals(await store.load(org8, "run-1"), undefined);
  assertEquals(store.size, 3);
});

Deno.test("InMemoryCheckpointStore copies checkpoints in and out", async () => {
  const store = new InMemoryCheckpointStore();
  const s = new Scope();
  const checkpoint = { messages: ["a"] };
  await store.save(s, "r", checkpoint);
  checkpoint.messages.push("b");
  const loaded = await store.load(s, "r") as { messages: string[] };
  loaded.messages.push("c");
  assertEquals(await store.load(s, "r"), { messages: ["a"] });
});

Deno.test("InMemoryCheckpointStore: a tenant that never saved has no runs", async () => {
  const store = new InMemoryCheckpointStore();
  await store.save(new Scope({ orgId: 1 }), "run-1", { step: 1 });
  const stranger = new Scope({ orgId: 2 });
  assertEquals(await store.load(stranger, "run-1"), undefined);
  assertEquals(await store.list(stranger), []);
});
