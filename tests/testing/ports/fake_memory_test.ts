import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import { assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import { FakeCtx, FakeMemory, InvalidScript } from "@agentkit/testing/testing";

const RUNBOOK = { text: "rotate every 90d", source: "runbook" };

Deno.test("FakeMemory({ responses }).query() matches keys as substrings, first key wins, cut to k", async () => {
  const memory = new FakeMemory({
    responses: {
      cert: [RUNBOOK, { text: "certs live in vault", source: "wiki" }],
      vault: [{ text: "vault is sealed on Sundays", source: "wiki" }],
    },
  });
  const ctx = new FakeCtx();
  assertEquals(await memory.query("cert in vault", { k: 1, ctx }), [RUNBOOK]);
  assertEquals((await memory.query("vault", { k: 5, ctx })).length, 1);
  assertEquals(await memory.query("lunch", { k: 5, ctx }), []);
});

Deno.test("FakeMemory({ items }).query() ignores the query and returns the first k", async () => {
  const items = ["a", "b", "c"].map((text) => ({ text, source: "s" }));
  const memory = new FakeMemory({ items });
  const ctx = new FakeCtx();
  assertEquals(await memory.query("anything", { k: 2, ctx }), items.slice(0, 2));
  assertEquals(await memory.query("", { k: 10, ctx }), items);
});

Deno.test("FakeMemory.queries records { query, k } and .writes records copies of items", async () => {
  const memory = new FakeMemory({ items: [] });
  const ctx = new FakeCtx();
  await memory.query("cert", { k: 2, ctx });
  const item = { text: "rotated", source: "sre" };
  await memory.write(item, ctx);
  item.text = "changed after writing";
  assertEquals(memory.queries, [{ query: "cert", k: 2 }]);
  assertEquals(memory.writes, [{ text: "rotated", source: "sre" }]);
  assertEquals(await memory.query("rotated", { k: 2, ctx }), []); // writes never change the script
});

Deno.test("FakeMemory honours the context's cancellation", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  controller.abort(reason);
  const ctx = new FakeCtx({ signal: controller.signal });
  const memory = new FakeMemory({ items: [RUNBOOK] });
  assertStrictEquals(await assertRejects(() => memory.query("x", { k: 1, ctx })), reason);
  assertStrictEquals(await assertRejects(() => memory.write(RUNBOOK, ctx)), reason);
});

Deno.test("FakeMemory validates its options when built", async (t) => {
  await t.step("both modes, or neither", () => {
    assertThrows(
      () => new FakeMemory({ responses: {}, items: [] } as never),
      TypeError,
      "exactly one of",
    );
    assertThrows(() => new FakeMemory({} as never), TypeError, "exactly one of");
  });
  await t.step("a mistyped key suggests the right one", () => {
    assertThrows(
      () => new FakeMemory({ response: {} } as never),
      InvalidScript,
      'did you mean "responses"?',
    );
  });
  await t.step("an item without a source", () => {
    assertThrows(
      () => new FakeMemory({ items: [{ text: "x" } as never] }),
      InvalidScript,
      "source",
    );
  });
});

Deno.test("FakeMemory names what it was given when an option or item is malformed", () => {
  assertThrows(
    () => new FakeMemory({ items: [], extra: 1 } as never),
    InvalidScript,
    "FakeMemory options",
  );
  assertThrows(
    () => new FakeMemory({ items: [{ text: 1 }] as never }),
    InvalidScript,
    "the FakeMemory items",
  );
  assertThrows(
    () => new FakeMemory({ responses: { cert: [{ text: 1 }] } } as never),
    InvalidScript,
    'the FakeMemory items for "cert"',
  );
});

Deno.test("FakeMemory.query() takes any non-negative integer k, with or without a run", async () => {
  const memory = new FakeMemory({ items: [RUNBOOK] });
  // Without a run to check for cancellation.
  const noCtx = (k: number) => ({ k }) as never;
  assertEquals(await memory.query("q", noCtx(0)), []);
  assertEquals(await memory.query("q", noCtx(2)), [RUNBOOK]);
  for (const k of [-1, 1.5, NaN]) {
    await assertRejects(
      () => memory.query("q", noCtx(k)),
      RangeError,
      `Cannot query memory with k = ${k}: pass a non-negative integer`,
    );
  }
  await memory.write(RUNBOOK, undefined as never);
  assertEquals(memory.writes, [RUNBOOK]);
});

Deno.test('FakeMemory refuses the key "", a query, options or an item that is not one', async () => {
  A.assertThrows(
    () => new K.FakeMemory({ responses: { "": [] } }),
    K.InvalidScript,
    'the key "" matches every query',
  );
  const memory = new K.FakeMemory({ items: [] });
  await A.assertRejects(
    () => memory.query(5 as never, { k: 1 } as never),
    TypeError,
    "FakeMemory.query(): the query must be a string, got 5",
  );
  await A.assertRejects(
    () => memory.query("x", undefined as never),
    TypeError,
    "the options ({ k, ctx }) must be an object, got undefined",
  );
  await A.assertRejects(
    () => memory.write(null as never, new K.FakeCtx()),
    K.InvalidScript,
    "FakeMemory.write(): the item",
  );
  await A.assertRejects(
    () => memory.write({ text: 1 } as never, new K.FakeCtx()),
    K.InvalidScript,
    "text",
  );
  A.assertEquals([memory.queries, memory.writes], [[], []]);
});
