import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { spanEnded, spanError, spanFailed } from "../../runtime/_span.ts";
import { RecordingTracer } from "@agentkit/testing/testing";

const span = () => new RecordingTracer().span("work", "internal");

Deno.test("spanError() records the error's message, or the value itself", () => {
  const s = span();
  spanError(s, new TypeError("bad input"));
  spanError(s, "a string");
  spanError(s, null);
  spanError(s, { code: 7 });
  assertEquals(s.events.map((e) => [e.name, e.attrs]), [
    ["error", { message: "bad input" }],
    ["error", { message: "a string" }],
    ["error", { message: "null" }],
    ["error", { message: "[object Object]" }],
  ]);
});

Deno.test("spanEnded() ends the span and hands the value back", () => {
  const s = span();
  const value = { n: 1 };
  assertStrictEquals(spanEnded(s, value), value);
  assertEquals([s.ended, s.events], [true, []]);
});

Deno.test("spanFailed() records the failure, ends the span and throws the same error", () => {
  const s = span();
  const boom = new Error("boom");
  assertStrictEquals(assertThrows(() => spanFailed(s, boom)), boom);
  assertEquals(s.ended, true);
  assertEquals(s.events.map((ev) => [ev.name, ev.attrs.message]), [["error", "boom"]]);
});
