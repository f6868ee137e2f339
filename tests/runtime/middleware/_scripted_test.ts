import { assertEquals } from "@std/assert";
import { markScripted, scriptedBy } from "../../../runtime/internal.ts";

Deno.test("markScripted() marks an error once, invisibly, and scriptedBy() reads it", () => {
  const e = markScripted(new Error("x"), "the FakeLLM's scripted failure");
  assertEquals(scriptedBy(e), "the FakeLLM's scripted failure");
  markScripted(e, "something else");
  assertEquals(scriptedBy(e), "the FakeLLM's scripted failure", "the first mark stays");
  assertEquals([Object.keys(e), JSON.stringify(e)], [[], "{}"]);
});

Deno.test("markScripted() leaves a frozen error and a non-object alone", () => {
  const frozen = Object.freeze(new Error("x"));
  assertEquals([markScripted(frozen, "f"), scriptedBy(frozen)], [frozen, undefined]);
  assertEquals(
    [markScripted("s", "f"), scriptedBy("s"), scriptedBy(null), scriptedBy(new Error())],
    [
      "s",
      undefined,
      undefined,
      undefined,
    ],
  );
});
