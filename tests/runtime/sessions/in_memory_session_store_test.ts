import { assertEquals, assertRejects } from "@std/assert";
import { InMemorySessionStore } from "@agentkit/testing/runtime";
import { Scope } from "@agentkit/testing/ports";
import { sessionStoreContract } from "@agentkit/testing/testing";

Deno.test("InMemorySessionStore keeps the SessionStore contract", async (t) => {
  for (const c of sessionStoreContract(() => new InMemorySessionStore())) {
    await t.step(c.name, c.fn);
  }
});

Deno.test("InMemorySessionStore.save() rejects state that cannot be cloned, saying so", async () => {
  const store = new InMemorySessionStore();
  const e = await assertRejects(
    () => store.save(new Scope(), "s", { persistent: { f: () => 1 }, transcript: [] }),
    TypeError,
    "not structured-cloneable",
  );
  assertEquals((e.cause as Error).name, "DataCloneError", "the clone's own error as the cause");
  assertEquals(store.size, 0);
});
