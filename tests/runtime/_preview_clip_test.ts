// clip(): a long text in an error message is cut with a count of what was
// left out, at a space when one is near, so no credential is cut in half.
import {
  assert,
  assertEquals,
  assertFalse,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import fc from "fast-check";
import { OpenAIChatLLM } from "@agentkit/testing/runtime";
import { clip } from "../../runtime/_preview.ts";

Deno.test("clip() keeps a short text whole and cuts a long one, counting the rest", () => {
  assertEquals(clip("short"), "short");
  assertEquals(clip("x".repeat(2_000)), "x".repeat(2_000));
  assertEquals(clip("x".repeat(2_010)), `${"x".repeat(2_000)} ... (10 more characters left out)`);
  assertEquals(clip("abc def", 5), "abc ... (4 more characters left out)");
});

Deno.test("clip() cuts at the last space before the limit, or at the limit itself", () => {
  // The limit falls on a space: cut there, not at an earlier one.
  assertEquals(clip("ab cd ef", 5), "ab cd ... (3 more characters left out)");
  // Inside a word: back to the last space of several, not the first.
  assertEquals(clip("aa bb cc dd", 10), "aa bb cc ... (3 more characters left out)");
  assertEquals(clip("aa bb cc dddd", 11), "aa bb cc ... (5 more characters left out)");
  // One long word: cut at the limit.
  assertEquals(clip("abcdefgh", 4), "abcd ... (4 more characters left out)");
});

Deno.test("clip() looks back 200 characters for a space, no further", () => {
  const a = (n: number) => "a".repeat(n);
  const b = (n: number) => "b".repeat(n);
  // A space inside the window: the cut is there.
  assertEquals(clip(`${a(1_900)} ${b(500)}`), `${a(1_900)} ... (501 more characters left out)`);
  // A space 201 characters back is out of the window: cut at the limit.
  assertEquals(
    clip(`${a(1_799)} ${b(700)}`),
    `${a(1_799)} ${b(200)} ... (500 more characters left out)`,
  );
  // A space just at the window's edge would leave the window empty: cut at the limit.
  assertEquals(
    clip(`${a(1_800)} ${b(500)}`),
    `${a(1_800)} ${b(199)} ... (301 more characters left out)`,
  );
  // The window is measured back from the limit a caller gives.
  assertEquals(clip(`${a(250)} ${b(100)}`, 300), `${a(250)} ... (101 more characters left out)`);
  assertEquals(
    clip(`${a(50)} ${b(400)}`, 300),
    `${a(50)} ${b(249)} ... (151 more characters left out)`,
  );
});

Deno.test("clip() never ends inside a word when a space is near the limit (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[a-z0-9]{1,30}$/), { minLength: 1, maxLength: 300 }),
      (words) => {
        const text = words.join(" ");
        const cut = clip(text, 100);
        if (text.length <= 100) return assertEquals(cut, text);
        const [kept, rest] = cut.split(" ... (");
        assert(text.startsWith(kept));
        // What was kept ends where a word ends.
        assert(text[kept.length] === " " || kept.length === 100, cut);
        assertEquals(rest, `${text.length - kept.length} more characters left out)`);
      },
    ),
  );
});

Deno.test("a 5 MB provider error message is cut with a count, and keeps no half of a key", async () => {
  const key = "tok-" + "k".repeat(40);
  const message = `${"word ".repeat(399)}${key} ${"more ".repeat(1_000_000)}`;
  const llm = new OpenAIChatLLM({
    apiKey: "sk-test",
    fetch: () => Promise.resolve(Response.json({ error: { message } }, { status: 400 })),
  });
  const error = await assertRejects(() =>
    llm.chat({ model: "m", messages: [{ role: "user", content: "hi" }] })
  ) as Error;
  assert(error.message.length < 2_200, `${error.message.length} characters`);
  assertStringIncludes(error.message, "more characters left out)");
  assertFalse(error.message.includes("tok-k"), "a credential is kept whole or not at all");
});
