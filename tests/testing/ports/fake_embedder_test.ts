import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import { assert, assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import { FakeEmbedder } from "@agentkit/testing/testing";

Deno.test("FakeEmbedder.embed() is deterministic: the same text, the same vector, across instances", async () => {
  const [a] = await new FakeEmbedder().embed(["Rotate the certs"]);
  const [b] = await new FakeEmbedder().embed(["Rotate the certs"]);
  assertEquals(a, b);
  assertEquals(a.length, 512);
  assertAlmostEquals(Math.hypot(...a), 1, 1e-12);
});

Deno.test("FakeEmbedder.embed() ignores case and punctuation and scores overlap of words", async () => {
  const e = new FakeEmbedder();
  assertEquals(
    await e.similarity("What is the capital of France?", "what is the capital of france"),
    1,
  );
  assertAlmostEquals(
    await e.similarity("What is the capital of France?", "Please, what is the capital of France"),
    6 / Math.sqrt(6 * 7),
    1e-9,
  );
  assertEquals(await e.similarity("capital of France", "lunch menu today"), 0);
  assert(
    await e.similarity("capital of France", "capital of Peru") <
      await e.similarity("capital of France", "the capital of France"),
  );
});

Deno.test("FakeEmbedder.embed() gives one vector per text, the zero vector for a text with no words", async () => {
  const e = new FakeEmbedder({ dimensions: 8 });
  const vectors = await e.embed(["a b", "", "?!"]);
  assertEquals(vectors.length, 3);
  assertEquals(vectors[1], new Array(8).fill(0));
  assertEquals(vectors[2], new Array(8).fill(0));
  assertEquals(e.calls, [["a b", "", "?!"]]);
});

Deno.test("FakeEmbedder validates dimensions when built", () => {
  assertThrows(
    () => new FakeEmbedder({ dimensions: 0 }),
    RangeError,
    'new FakeEmbedder(): option "dimensions"',
  );
  assertThrows(() => new FakeEmbedder({ dimensions: 1.5 }), RangeError, "dimensions");
});

Deno.test("FakeEmbedder gives the same vectors on every machine: pinned values", async () => {
  // A change to the hash, its sign or the case folding changes these.
  const [vector] = await new FakeEmbedder({ dimensions: 8 }).embed([
    "Agents test deterministic VECTORS",
  ]);
  assertEquals(vector, [
    0,
    0,
    0,
    0.4082482904638631,
    0,
    -0.8164965809277261,
    0,
    -0.4082482904638631,
  ]);
  // One dimension: every word lands in it, with its sign.
  const one = new FakeEmbedder({ dimensions: 1 });
  assertEquals(await one.embed(["hello", "agents", "cat", "dog"]), [[1], [-1], [1], [-1]]);
  assertEquals(await one.similarity("hello", "agents"), -1);
});

Deno.test("FakeEmbedder: at most 65536 dimensions; embed() takes an array of strings", async () => {
  A.assertThrows(
    () => new K.FakeEmbedder({ dimensions: 1e9 }),
    RangeError,
    "an integer from 1 to 65536, got 1000000000",
  );
  A.assertEquals(new K.FakeEmbedder({ dimensions: 65_536 }).dimensions, 65_536);
  const e = new K.FakeEmbedder({ dimensions: 8 });
  await A.assertRejects(
    () => e.embed("abc" as never),
    TypeError,
    'FakeEmbedder.embed(): the texts must be an array of strings, got "abc"',
  );
  await A.assertRejects(
    () => e.embed([5] as never),
    TypeError,
    "the texts[0] must be a string, got 5",
  );
  await A.assertRejects(
    () => e.similarity(5 as never, "x"),
    TypeError,
    "the texts[0] must be a string",
  );
  A.assertEquals(e.calls, []);
});
