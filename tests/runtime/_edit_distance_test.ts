import { assertEquals } from "@std/assert";
import { editDistance } from "../../runtime/internal.ts";

Deno.test("editDistance() counts insertions, deletions and substitutions", () => {
  assertEquals(editDistance("kitten", "sitting"), 3);
  assertEquals(editDistance("", "abc"), 3);
  assertEquals(editDistance("abc", ""), 3);
  assertEquals(editDistance("toolCalls", "tool_calls"), 2);
  assertEquals(editDistance("same", "same"), 0);
});
