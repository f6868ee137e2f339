// A trajectory diff stays readable however long the run: the differences
// with a little context, long matched runs counted, and the differences past
// the first ones counted too.
import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
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
