// A trajectory diff stays readable however long the run: the differences
// with a little context, long matched runs counted, and the differences past
// the first ones counted too.
import { assert, assertEquals, assertFalse, assertStringIncludes, assertThrows } from "@std/assert";
import { type Message, toolCall } from "@agentkit/testing/ports";
import { AssertionError, assertTrajectory } from "@agentkit/testing/testing";
import { compact } from "../../../testing/assert/_trajectory.ts";

function calls(n: number): Message[] {
  const messages: Message[] = [{ role: "user", content: "go" }];
  for (let i = 0; i < n; i++) {
    messages.push({ role: "assistant", content: "", toolCalls: [toolCall(`c${i}`, "t", { i })] });
  }
  return messages;
}

Deno.test("assertTrajectory() of one wrong argument among 5,000 calls shows it in a few lines", () => {
  const expected = Array.from({ length: 5_000 }, (_, i) => ({
    name: "t",
    args: { i: i === 2_500 ? -1 : i },
  }));
  const e = assertThrows(() => assertTrajectory(calls(5_000), expected), AssertionError);
  assert(e.message.length < 1_000, `${e.message.length} characters`);
  assertStringIncludes(
    e.message,
    [
      "  ... (2498 matched calls)",
      '  t {"i":2498}',
      '  t {"i":2499}',
      '- t {"i":-1}',
      '+ t {"i":2500}',
      '  t {"i":2501}',
      '  t {"i":2502}',
      "  ... (2497 matched calls)",
    ].join("\n"),
  );
  assertStringIncludes(e.message, "the arguments do not");
});

Deno.test("assertTrajectory() shows the first 20 differences and counts the rest", () => {
  const expected = Array.from({ length: 200 }, (_, i) => ({ name: "t", args: { i: -i - 1 } }));
  const e = assertThrows(() => assertTrajectory(calls(200), expected), AssertionError);
  const shown = e.message.split("\n").filter((l: string) => /^[-+] /.test(l));
  assertEquals(shown.length, 20);
  assertStringIncludes(
    e.message,
    "... and 380 more differing line(s) in the 380 line(s) not shown",
  );
  assertStringIncludes(e.message, "(400 in all)");
});

Deno.test("compact() leaves a short diff as it is", () => {
  const lines = ["  a", "- b", "+ c", "  d"];
  assertEquals(compact(lines), lines.join("\n"));
  const same = Array.from({ length: 50 }, (_, i) => `  t ${i}`);
  assertEquals(compact(same), same.join("\n"));
});

const same = (i: number) => `  t ${i}`;
const gone = (i: number) => `- t ${i}`;

Deno.test("compact() shows two matched calls either side of a difference and counts the rest", () => {
  const lines = Array.from({ length: 30 }, (_, i) => i === 15 ? gone(i) : same(i));
  assertEquals(
    compact(lines),
    [
      "  ... (13 matched calls)",
      same(13),
      same(14),
      gone(15),
      same(16),
      same(17),
      "  ... (12 matched calls)",
    ].join("\n"),
  );
  const early = Array.from({ length: 26 }, (_, i) => i === 3 ? gone(i) : same(i));
  assertEquals(
    compact(early),
    [
      "  ... (1 matched call)",
      same(1),
      same(2),
      gone(3),
      same(4),
      same(5),
      "  ... (20 matched calls)",
    ].join("\n"),
  );
  // A difference on the first or last line has context on one side only.
  const ends = Array.from({ length: 30 }, (_, i) => i === 0 || i === 29 ? gone(i) : same(i));
  assertEquals(
    compact(ends),
    [gone(0), same(1), same(2), "  ... (24 matched calls)", same(27), same(28), gone(29)].join(
      "\n",
    ),
  );
});

Deno.test("compact() leaves a diff of 24 lines whole and cuts one of 25", () => {
  const at = (n: number) => Array.from({ length: n }, (_, i) => i === 12 ? gone(i) : same(i));
  assertEquals(compact(at(24)), at(24).join("\n"));
  assertEquals(
    compact(at(25)),
    [
      "  ... (10 matched calls)",
      same(10),
      same(11),
      gone(12),
      same(13),
      same(14),
      "  ... (10 matched calls)",
    ].join("\n"),
  );
});

Deno.test("compact() stops at the 20th difference and says how many lines and differences it left out", () => {
  // Lines 10 to 34 all differ: "+ " lines count as much as "- " ones.
  const lines = Array.from(
    { length: 40 },
    (_, i) => i < 10 || i >= 35 ? same(i) : i % 2 ? `+ t ${i}` : gone(i),
  );
  const shown = lines.slice(10, 30);
  assertEquals(
    compact(lines),
    [
      "  ... (8 matched calls)",
      same(8),
      same(9),
      ...shown,
      "... and 5 more differing line(s) in the 10 line(s) not shown (40 in all)",
    ].join("\n"),
  );
});

// The order hint re-pairs every call with every other: past 250,000 pairs the
// message goes without it, so a failure never costs more than the check.
function reversed(n: number, wrong = -1): Message[] {
  const messages: Message[] = [];
  for (let i = n - 1; i >= 0; i--) {
    messages.push({
      role: "assistant",
      content: "",
      toolCalls: [toolCall(`c${i}`, "t", { i: i === wrong ? -1 : i })],
    });
  }
  return messages;
}
const inOrder = (n: number) => Array.from({ length: n }, (_, i) => ({ name: "t", args: { i } }));

Deno.test("the order hint is given up to 500 × 500 calls, and not past it", () => {
  const small = assertThrows(() => assertTrajectory(reversed(500), inOrder(500)), AssertionError);
  assertStringIncludes(small.message, "but the same calls were made in another order.");
  const large = assertThrows(() => assertTrajectory(reversed(501), inOrder(501)), AssertionError);
  assertFalse(large.message.includes("another order"));
  // Strict still says the names match: that check is linear in the calls.
  assertStringIncludes(
    large.message,
    'but 500 expected calls were not made and 500 calls were not expected (the names match; the arguments do not, under args "exact").',
  );
});

Deno.test("the names-match hint of an unordered failure is given up to 500 × 500 calls, and not past it", () => {
  const unordered = { order: "unordered" } as const;
  const small = assertThrows(
    () => assertTrajectory(reversed(500, 7), inOrder(500), unordered),
    AssertionError,
  );
  assertStringIncludes(
    small.message,
    'but 1 expected call was not made and 1 call was not expected (the names match; the arguments do not, under args "exact").',
  );
  const large = assertThrows(
    () => assertTrajectory(reversed(501, 7), inOrder(501), unordered),
    AssertionError,
  );
  assertStringIncludes(
    large.message,
    "but 1 expected call was not made and 1 call was not expected.",
  );
});

Deno.test("a strict diff pairs the common head and tail and aligns only the middle", () => {
  const run = (...ids: string[]): Message[] =>
    ids.map((id, i) => ({
      role: "assistant",
      content: "",
      toolCalls: [toolCall(`c${i}`, id, {})],
    }));
  const want = (...ids: string[]) => ids.map((name) => ({ name, args: {} }));
  const diff = (actual: Message[], expected: { name: string }[]) =>
    assertThrows(() => assertTrajectory(actual, expected), AssertionError).message.split("\n")
      .filter((l: string) => /^[-+ ] /.test(l));
  assertEquals(diff(run("a", "b", "c"), want("a", "b")), ["  a {}", "  b {}", "+ c {}"]);
  assertEquals(diff(run("a", "b"), want("a", "b", "c")), ["  a {}", "  b {}", "- c {}"]);
  assertEquals(diff(run("c", "a", "b"), want("a", "b")), ["+ c {}", "  a {}", "  b {}"]);
  assertEquals(diff(run("a", "a", "a"), want("a", "a")), ["  a {}", "  a {}", "+ a {}"]);
  assertEquals(diff(run("a", "a"), want("a", "a", "a")), ["  a {}", "  a {}", "- a {}"]);
  assertEquals(
    diff(run("h", "x", "y", "t"), want("h", "y", "z", "t")),
    ["  h {}", "+ x {}", "  y {}", "- z {}", "  t {}"],
  );
  assertEquals(
    diff(run("h", "i", "x", "t", "u"), want("h", "i", "z", "t", "u")),
    ["  h {}", "  i {}", "- z {}", "+ x {}", "  t {}", "  u {}"],
  );
});

Deno.test("a strict comparison of 2,000 calls with one wrong argument compares each call about once", () => {
  let compared = 0;
  // A matcher that counts how often the comparison asks it.
  const is = (i: number) => ({
    asymmetricMatch: (v: unknown) => {
      compared++;
      return v === i;
    },
  });
  const expected = Array.from({ length: 2_000 }, (_, i) => ({
    name: "t",
    args: { i: is(i === 1_000 ? -1 : i) },
  }));
  const e = assertThrows(() => assertTrajectory(calls(2_000), expected), AssertionError);
  assertStringIncludes(e.message, "1 expected call was not made and 1 call was not expected");
  // The common head and tail pair in one pass each; only the one call between them is aligned.
  assert(compared < 5_000, `${compared} comparisons`);
});
