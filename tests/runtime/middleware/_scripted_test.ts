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

Deno.test("markScripted(): the mark is the registered symbol, a sealed error stays unmarked, and only a string counts", () => {
  const e = markScripted(new Error("x"), "the fake's");
  assertEquals(
    (e as unknown as Record<symbol, unknown>)[Symbol.for("agentkit.scriptedFailure")],
    "the fake's",
  );
  const sealed = Object.seal(new Error("y"));
  assertEquals([markScripted(sealed, "f"), scriptedBy(sealed)], [sealed, undefined]);
  const odd = new Error("z");
  Object.defineProperty(odd, Symbol.for("agentkit.scriptedFailure"), { value: 5 });
  assertEquals(scriptedBy(odd), undefined);
  assertEquals([scriptedBy(undefined), scriptedBy(5), markScripted(null, "f")], [
    undefined,
    undefined,
    null,
  ]);
  // An object that is not an Error is marked too: a double may throw anything.
  const plain = markScripted({ message: "p" }, "f");
  assertEquals(scriptedBy(plain), "f");
});
