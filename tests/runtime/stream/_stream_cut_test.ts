import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import { isCut, markCut } from "../../../runtime/stream/_stream_cut.ts";

Deno.test("markCut() marks an error as a cut connection, once, without changing its shape", () => {
  const error = new Error("socket hang up");
  assert(!isCut(error));
  assertStrictEquals(markCut(error), error);
  assert(isCut(error));
  assertStrictEquals(markCut(error), error, "marking again is harmless");
  assert(isCut(error));
  assertEquals(Object.keys(error), []);
  assertEquals(JSON.stringify(error), "{}");
});

Deno.test("markCut() leaves a frozen error unmarked", () => {
  const frozen = Object.freeze(new Error("frozen"));
  assertStrictEquals(markCut(frozen), frozen);
  assert(!isCut(frozen));
});

Deno.test("isCut() is false for anything not marked, primitives included", () => {
  for (const v of [undefined, null, "cut", 0, {}, new Error("x")]) assert(!isCut(v), String(v));
});
