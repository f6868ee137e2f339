import fc from "fast-check";
import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  completionValues,
  declareCompletions,
  declareTemplate,
  isTemplate,
  matchTemplate,
} from "../../../testing/mcp/_mcp_resources.ts";
import { InvalidScript } from "../../../testing/errors.ts";

Deno.test("matchTemplate: {var} is one segment, {+var} anything, literals escaped, values decoded", () => {
  assertEquals(matchTemplate("test://t/{id}/data", "test://t/42/data"), { id: "42" });
  assertEquals(matchTemplate("test://t/{id}/data", "test://t/4/2/data"), undefined);
  assertEquals(matchTemplate("test://t/{id}/data", "test://t//data"), undefined);
  assertEquals(matchTemplate("test://t/{id}/data", "test://t/42/datax"), undefined);
  assertEquals(matchTemplate("file:///{+path}", "file:///a/b.txt"), { path: "a/b.txt" });
  assertEquals(matchTemplate("x://{a}.{b}", "x://1.2"), { a: "1", b: "2" });
  assertEquals(matchTemplate("x://{a}.{b}", "x://1x2"), undefined);
  assertEquals(matchTemplate("x://{q}", "x://a%20b"), { q: "a b" });
  assertEquals(matchTemplate("x://{q}", "x://%E0%A4%A"), { q: "%E0%A4%A" });
});

Deno.test("matchTemplate property: a segment value put into a template comes back out", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1 }).filter((s) => !s.includes("/")),
      fc.constantFrom("test://t/{id}/data", "a+b://{id}", "x://pre.{id}.post"),
      (value, template) => {
        const uri = template.replace("{id}", encodeURIComponent(value));
        assertEquals(matchTemplate(template, uri), { id: value });
      },
    ),
  );
});

Deno.test("declareTemplate: the listing, and what read() returns as contents", async () => {
  assertEquals(isTemplate({ uriTemplate: "x" }), true);
  assertEquals(isTemplate({ uri: "x" }), false);
  assertEquals(isTemplate(null), false);
  const t = declareTemplate(
    {
      uriTemplate: "x://{id}",
      name: "n",
      title: "T",
      description: "d",
      mimeType: "text/plain",
      read: (_u: string, v: Record<string, string>) => v.id,
    },
    "at",
  );
  assertEquals(t.listing, {
    uriTemplate: "x://{id}",
    name: "n",
    title: "T",
    description: "d",
    mimeType: "text/plain",
  });
  assertEquals(await t.read("x://7", { id: "7" }), {
    contents: [{ uri: "x://7", text: "7", mimeType: "text/plain" }],
  });
  const blob = declareTemplate({
    uriTemplate: "x://{id}",
    name: "n",
    read: () => ({ blob: "AA==", mimeType: "a/b" }),
  }, "at");
  assertEquals(await blob.read("x://1", {}), {
    contents: [{ uri: "x://1", blob: "AA==", mimeType: "a/b" }],
  });
  const many = declareTemplate({
    uriTemplate: "x://{id}",
    name: "n",
    read: () => ({ contents: ["a", { text: "b", uri: "x://other" }] }),
  }, "at");
  assertEquals(await many.read("x://1", {}), {
    contents: [{ uri: "x://1", text: "a" }, { uri: "x://other", text: "b" }],
  });
  const list = declareTemplate({
    uriTemplate: "x://{id}",
    name: "n",
    mimeType: "text/plain",
    read: () => ["a", { text: "b", mimeType: "text/markdown" }],
  }, "at");
  assertEquals(await list.read("x://1", {}), {
    contents: [
      { uri: "x://1", text: "a", mimeType: "text/plain" },
      { uri: "x://1", text: "b", mimeType: "text/markdown" },
    ],
  });
  const badItem = declareTemplate({
    uriTemplate: "x://{id}",
    name: "n",
    read: () => ({ contents: [7] }),
  }, "at");
  await assertRejects(() => badItem.read("x://1", {}), InvalidScript, "returned contents[0] 7");
  for (const bad of [7, { text: "a", blob: "b" }, {}, null, { blob: 1 }]) {
    const t2 = declareTemplate({ uriTemplate: "x://{id}", name: "n", read: () => bad }, "at");
    await assertRejects(
      () => t2.read("x://1", {}),
      InvalidScript,
      'the read function of resource template "x://{id}" returned',
    );
  }
  assertThrows(
    () => declareTemplate({ uriTemplate: "x://{id}", name: "n", read: 1 }, "at"),
    TypeError,
    'option "read"',
  );
  assertThrows(
    () => declareTemplate({ uriTemplate: "x://{id}", nam: "n", read: () => "" }, "at"),
    TypeError,
    'did you mean "name"?',
  );
});

Deno.test("completions: the table checked, lists filtered by prefix, functions checked", async () => {
  const table = declareCompletions(
    { p: { a: ["ab", "ac", "b"], f: (v: string) => [v + "!"] } },
    "w",
  );
  assertEquals(await completionValues(table.get("p")!.get("a")!, "a", "x"), ["ab", "ac"]);
  assertEquals(await completionValues(table.get("p")!.get("a")!, "", "x"), ["ab", "ac", "b"]);
  assertEquals(await completionValues(table.get("p")!.get("f")!, "hi", "x"), ["hi!"]);
  await assertRejects(
    () => completionValues(() => [1], "", "c"),
    InvalidScript,
    "the function of c returned",
  );
  await assertRejects(
    () => completionValues(() => "a", "", "c"),
    InvalidScript,
    "not an array of strings",
  );
  assertThrows(() => declareCompletions([], "w"), TypeError, 'option "completions" must be');
  assertThrows(() => declareCompletions(null, "w"), TypeError, 'option "completions" must be');
  assertThrows(() => declareCompletions({ p: [] }, "w"), TypeError, 'completions["p"] must be');
  assertThrows(() => declareCompletions({ p: null }, "w"), TypeError, 'completions["p"] must be');
  assertThrows(() => declareCompletions({ p: "x" }, "w"), TypeError, 'completions["p"] must be');
  assertThrows(
    () => declareCompletions({ p: { a: ["ok", 1] } }, "w"),
    TypeError,
    'completions["p"]["a"]',
  );
  assertThrows(() => declareCompletions("x", "w"), TypeError, "{ [prompt name or uriTemplate]");
  assertEquals(isTemplate("test://{x}"), false);
  assertThrows(
    () => declareTemplate({ name: "n", read: () => "" }, "at"),
    TypeError,
    'option "uriTemplate" is required',
  );
  assertThrows(
    () => declareTemplate({ uriTemplate: "x://{a}", read: () => "" }, "at"),
    TypeError,
    'option "name" is required',
  );
  assertThrows(
    () => declareCompletions({ p: { a: "x" } }, "w"),
    TypeError,
    'completions["p"]["a"]',
  );
});
