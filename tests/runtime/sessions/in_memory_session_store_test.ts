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

Deno.test("InMemorySessionStore rejects a scope, an id or a state that is not one, naming it", async () => {
  const store = new InMemorySessionStore();
  const scope = new Scope();
  const state = { persistent: {}, transcript: [] };
  await assertRejects(
    () => store.save(undefined as never, "s", state),
    TypeError,
    "InMemorySessionStore.save(): the scope must be a Scope, got undefined",
  );
  await assertRejects(
    () => store.load(scope, 5 as never),
    TypeError,
    "the id must be a non-empty string, got 5",
  );
  await assertRejects(() => store.load(scope, ""), TypeError, 'got ""');
  await assertRejects(
    () => store.delete({} as never, "s"),
    TypeError,
    "InMemorySessionStore.delete()",
  );
  for (
    const bad of [
      null,
      [],
      { transcript: [] },
      { persistent: null, transcript: [] },
      { persistent: [], transcript: [] },
      { persistent: {} },
      { persistent: {}, transcript: {} },
    ]
  ) {
    await assertRejects(
      () => store.save(scope, "s", bad as never),
      TypeError,
      'InMemorySessionStore.save(): the state of session "s" must be',
    );
  }
  await assertRejects(
    () => store.load(scope, 5 as never),
    TypeError,
    "InMemorySessionStore.load()",
  );
  await assertRejects(
    () => store.save(scope, "s", 5 as never),
    TypeError,
    'the state of session "s" must be { persistent: {...}, transcript: [...] }, got 5',
  );
  await assertRejects(
    () =>
      store.save(
        scope,
        "s",
        { persistent: {}, transcript: [{ role: "bot", content: "x" }] } as never,
      ),
    TypeError,
    'the transcript of session "s": message 1 has role "bot"',
  );
  assertEquals(store.size, 0);
});
