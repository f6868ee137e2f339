import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { InMemoryVector } from "@agentkit/testing/runtime";
import { type EmbedderPort, Scope } from "@agentkit/testing/ports";
import { FakeEmbedder } from "@agentkit/testing/testing";

const s = new Scope({ orgId: 1 });

Deno.test("InMemoryVector.query() ranks a tenant's texts by cosine similarity, best first", async () => {
  const vector = new InMemoryVector({ embedder: new FakeEmbedder() });
  await vector.upsert(s, "certs", "rotate TLS certificates every 90 days");
  await vector.upsert(s, "lunch", "the cafeteria opens at noon");
  await vector.upsert(s, "keys", "rotate API keys every 30 days");
  const hits = await vector.query(s, "how often do we rotate TLS certificates", { k: 3 });
  assertEquals(hits.map((h) => h.id), ["certs", "keys", "lunch"]);
  assertEquals(hits[2].score, 0);
  assertEquals(hits[0].text, "rotate TLS certificates every 90 days");
});

Deno.test("InMemoryVector computes the cosine of the embedder's vectors exactly", async () => {
  const table: Record<string, number[]> = { a: [1, 0], b: [1, 1], c: [0, 2], q: [3, 0] };
  const embedder: EmbedderPort = { embed: (texts) => Promise.resolve(texts.map((t) => table[t])) };
  const vector = new InMemoryVector({ embedder });
  for (const id of ["a", "b", "c"]) await vector.upsert(s, id, id);
  const hits = await vector.query(s, "q", { k: 3 });
  assertEquals(hits.map((h) => [h.id, Math.round(h.score * 1e6) / 1e6]), [
    ["a", 1],
    ["b", 0.707107],
    ["c", 0],
  ]);
});

Deno.test("InMemoryVector embeds each text once, on upsert", async () => {
  const embedder = new FakeEmbedder();
  const vector = new InMemoryVector({ embedder });
  await vector.upsert(s, "a", "alpha");
  await vector.query(s, "alpha");
  await vector.query(s, "alpha");
  assertEquals(embedder.calls, [["alpha"], ["alpha"], ["alpha"]]); // one upsert, two queries
});

Deno.test("InMemoryVector.query() defaults k to defaultK", async () => {
  const vector = new InMemoryVector({ embedder: new FakeEmbedder(), defaultK: 2 });
  for (const id of ["a", "b", "c"]) await vector.upsert(s, id, `text ${id}`);
  assertEquals((await vector.query(s, "text")).length, 2);
  assertEquals(await vector.query(s, "text", { k: 0 }), []);
  await assertRejects(() => vector.query(s, "text", { k: -1 }), RangeError, "k must be");
});

Deno.test("InMemoryVector keeps tenants apart, and counts every tenant in size", async () => {
  const vector = new InMemoryVector({ embedder: new FakeEmbedder() });
  const org7 = new Scope({ orgId: 7 });
  const org8 = new Scope({ orgId: 8 });
  await vector.upsert(org7, "doc", "org7 private runbook", { owner: 7 });
  assertEquals(await vector.query(org8, "org7 private runbook"), []);
  assertEquals(await vector.delete(org8, "doc"), false);
  await vector.upsert(org8, "doc", "org8 runbook", { owner: 8 });
  assertEquals((await vector.query(org7, "runbook"))[0].payload, { owner: 7 });
  assertEquals(vector.size, 2);
});

Deno.test("InMemoryVector rejects an embedder whose dimension changes or that returns nothing", async () => {
  let dims = 2;
  const vector = new InMemoryVector({
    embedder: { embed: (t) => Promise.resolve(t.map(() => new Array(dims).fill(1))) },
  });
  await vector.upsert(s, "a", "a");
  dims = 3;
  await assertRejects(
    () => vector.upsert(s, "b", "b"),
    TypeError,
    "3 dimensions after earlier ones of 2",
  );
  const empty = new InMemoryVector({ embedder: { embed: () => Promise.resolve([]) } });
  await assertRejects(() => empty.upsert(s, "a", "a"), TypeError, "no vector");
});

Deno.test("InMemoryVector validates its options when built", () => {
  assertThrows(() => new InMemoryVector({} as never), TypeError, "without an embedder");
  assertThrows(
    () => new InMemoryVector({ embedder: new FakeEmbedder(), defaultK: 0 }),
    RangeError,
    "defaultK",
  );
});

/** An embedder with a fixed vector per text (a zero vector for anything else). */
function table(vectors: Record<string, number[]>): EmbedderPort & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    embed: (texts) => {
      asked.push(...texts);
      return Promise.resolve(texts.map((t) => vectors[t] ?? [0, 0]));
    },
  };
}

Deno.test("InMemoryVector scores a zero vector 0 against anything, either side", async () => {
  const vector = new InMemoryVector({ embedder: table({ x: [1, 0], y: [0, 1] }) });
  await vector.upsert(s, "zero", "nothing");
  await vector.upsert(s, "x", "x");
  assertEquals((await vector.query(s, "x")).map((h) => [h.id, h.score]), [["x", 1], ["zero", 0]]);
  assertEquals((await vector.query(s, "nothing")).map((h) => h.score), [0, 0]);
});

Deno.test("InMemoryVector.query() embeds nothing when there is nothing to find", async () => {
  const embedder = table({ x: [1, 0] });
  const vector = new InMemoryVector({ embedder });
  await vector.upsert(s, "x", "x");
  assertEquals(await vector.query(s, "x", { k: 0 }), []);
  await vector.delete(s, "x");
  assertEquals(await vector.query(s, "x"), []);
  assertEquals(await vector.query(new Scope({ orgId: 9 }), "x"), []);
  assertEquals(embedder.asked, ["x"], "only the upsert was embedded");
});

Deno.test("InMemoryVector: a hit carries a payload only when one was stored", async () => {
  const vector = new InMemoryVector({ embedder: table({ a: [1, 0], b: [1, 1] }) });
  await vector.upsert(s, "a", "a");
  await vector.upsert(s, "b", "b", { page: 2 });
  const hits = await vector.query(s, "a", { k: 2 });
  assertEquals(hits.map((h) => "payload" in h), [false, true]);
  assertEquals(hits[1].payload, { page: 2 });
});

Deno.test("InMemoryVector refuses an empty vector, quoting the start of the text", async () => {
  const vector = new InMemoryVector({
    embedder: { embed: (t) => Promise.resolve(t.map(() => [])) },
  });
  const text = `${"a".repeat(40)}bbbb`;
  const e = await assertRejects(() => vector.upsert(s, "a", text), TypeError, "no vector");
  assertEquals(e.message.includes(`"${"a".repeat(40)}";`), true, e.message);
});

Deno.test("new InMemoryVector() needs options with an embedder that embeds", () => {
  for (const bad of [undefined, null]) {
    assertThrows(() => new InMemoryVector(bad as never), TypeError, "without an embedder");
  }
  for (const notOptions of [[], "embedder", 7]) {
    assertThrows(
      () => new InMemoryVector(notOptions as never),
      TypeError,
      "takes an options object",
    );
  }
  assertThrows(
    () => new InMemoryVector({ embedder: {} as never }),
    TypeError,
    "new InMemoryVector(): embedder must be an EmbedderPort",
  );
  assertThrows(
    () => new InMemoryVector({ embedder: new FakeEmbedder(), defaultK: 1.5 }),
    RangeError,
    "defaultK",
  );
});
