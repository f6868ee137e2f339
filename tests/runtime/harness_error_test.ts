import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { HarnessError, isHarnessError, rethrowIfFatal } from "@agentkit/testing/runtime";

class ScriptRanOut extends HarnessError {}

Deno.test("HarnessError: named after its class, with a cause", () => {
  const cause = new Error("root");
  const e = new ScriptRanOut("the script ran out", { cause });
  assertEquals([e.name, e.message, e.cause], ["ScriptRanOut", "the script ran out", cause]);
  assertEquals(new HarnessError("x").name, "HarnessError");
});

Deno.test("isHarnessError() knows the family", () => {
  assert(isHarnessError(new ScriptRanOut("x")));
  assert(isHarnessError(new HarnessError("x")));
  for (const v of [new Error("x"), "x", undefined, null]) assert(!isHarnessError(v));
});

Deno.test("rethrowIfFatal() absorbs an ordinary failure of a live run", () => {
  rethrowIfFatal(new Error("a tool failed"));
  rethrowIfFatal(new Error("a tool failed"), new AbortController().signal);
});

Deno.test("rethrowIfFatal() rethrows harness errors, and anything once the run is cancelled", () => {
  const harness = new ScriptRanOut("x");
  assertStrictEquals(assertThrows(() => rethrowIfFatal(harness)), harness);
  const ordinary = new Error("a tool failed");
  assertStrictEquals(
    assertThrows(() => rethrowIfFatal(ordinary, AbortSignal.abort("user left"))),
    ordinary,
  );
});
