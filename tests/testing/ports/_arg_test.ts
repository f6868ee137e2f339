import { assertEquals, assertInstanceOf } from "@std/assert";
import { is } from "../../../runtime/internal.ts";
import { argProblem } from "../../../testing/ports/_arg.ts";

Deno.test("argProblem(): the checker's error, returned rather than thrown; undefined when fine", () => {
  assertEquals(argProblem("F.m()", "the query", "q", is.string), undefined);
  const type = argProblem("F.m()", "the query", 5, is.string);
  assertInstanceOf(type, TypeError);
  assertEquals(type?.message, "F.m(): the query must be a string, got 5");
  assertInstanceOf(argProblem("F.m()", "k", -1, is.count), RangeError);
});
