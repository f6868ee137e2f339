import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import { assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import { FakeSearch, InvalidScript } from "@agentkit/testing/testing";

const HIT = { url: "https://ex/1", title: "Cert rotation", snippet: "rotate every 90d" };

Deno.test("FakeSearch.search() returns the hits of the first key that is a substring of the query", async () => {
  const other = { url: "https://ex/2", title: "TLS", snippet: "handshakes" };
  const search = new FakeSearch({ cert: [HIT], tls: [other] });
  assertEquals(await search.search("tls cert expiry"), [HIT]); // "cert" is written first
  assertEquals(await search.search("tls handshake"), [other]);
});

Deno.test("FakeSearch.search() returns [] for a query no key matches", async () => {
  const search = new FakeSearch({ cert: [HIT] });
  assertEquals(await search.search("lunch menu"), []);
  assertEquals(await search.search("CERT"), []); // matching is case-sensitive, like FakeLLM's keys
});

Deno.test("FakeSearch.search() cuts the hits to k", async () => {
  const hits = [1, 2, 3].map((n) => ({ ...HIT, url: `https://ex/${n}` }));
  const search = new FakeSearch({ cert: hits });
  assertEquals((await search.search("cert", { k: 2 })).map((h) => h.url), [
    "https://ex/1",
    "https://ex/2",
  ]);
  assertEquals((await search.search("cert")).length, 3);
  await assertRejects(() => search.search("cert", { k: -1 }), RangeError, "k = -1");
});

Deno.test("FakeSearch.calls records every query with its k, matched or not", async () => {
  const search = new FakeSearch({ cert: [HIT] });
  await search.search("cert", { k: 5 });
  await search.search("nothing");
  assertEquals(search.calls, [{ query: "cert", k: 5 }, { query: "nothing" }]);
});

Deno.test("FakeSearch.search() returns copies: a caller cannot edit the script", async () => {
  const search = new FakeSearch({ cert: [HIT] });
  const [first] = await search.search("cert");
  (first as { title: string }).title = "changed";
  assertEquals((await search.search("cert"))[0].title, "Cert rotation");
});

Deno.test("FakeSearch.search() rejects with the abort reason on an aborted signal", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  controller.abort(reason);
  const search = new FakeSearch({ cert: [HIT] });
  assertStrictEquals(
    await assertRejects(() => search.search("cert", { signal: controller.signal })),
    reason,
  );
});

Deno.test("FakeSearch validates its hits when built, naming the bad key", () => {
  assertThrows(
    () => new FakeSearch({ cert: [{ url: "u", title: "t", snipet: "s" } as never] }),
    InvalidScript,
    'unknown key "snipet"',
  );
  assertThrows(
    () => new FakeSearch({ cert: [{ url: "u", title: "t" } as never] }),
    InvalidScript,
    "snippet",
  );
});

Deno.test("FakeSearch takes only a map of key to hits, and a k of 0 finds nothing", async () => {
  for (const results of [null, "cert", [HIT]]) {
    assertThrows(
      () => new FakeSearch(results as never),
      InvalidScript,
      "FakeSearch takes a map of key to hits",
    );
  }
  assertEquals(await new FakeSearch({ cert: [HIT] }).search("cert", { k: 0 }), []);
});

Deno.test('FakeSearch refuses the key "" and a query that is not text, naming them', async () => {
  A.assertThrows(
    () => new K.FakeSearch({ "": [] }),
    K.InvalidScript,
    'the key "" matches every query',
  );
  const search = new K.FakeSearch({ cert: [] });
  await A.assertRejects(
    () => search.search(5 as never),
    TypeError,
    "FakeSearch.search(): the query must be a string, got 5",
  );
  await A.assertRejects(
    () => search.search("x", 5 as never),
    TypeError,
    "the options must be an object",
  );
  A.assertEquals(search.calls, []);
});
