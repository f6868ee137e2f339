import {
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import type { Span } from "@agentkit/testing/ports";
import { inSpan, spanEnded, spanError, spanFailed } from "../../runtime/_span.ts";
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

Deno.test("inSpan() runs the work with its arguments and ends the span through done(), ready or later", async () => {
  const add = (a: number, b: number) => a + b;
  const seen: unknown[] = [];
  const done = (s: Span, v: number) => {
    seen.push(v, (s as { ended?: boolean }).ended);
    s.end();
    return v * 10;
  };
  const ready = span();
  assertEquals(inSpan(ready, add, 1, 2, done), 30); // as is, no promise
  const later = span();
  const pending = inSpan(later, (a: number, b: number) => Promise.resolve(a * b), 3, 4, done);
  assertInstanceOf(pending, Promise);
  assertEquals(await pending, 120);
  assertEquals([seen, ready.ended, later.ended], [[3, false, 12, false], true, true]);
});

Deno.test("inSpan() records a failure and ends the span: thrown at once, rejected later, or from done()", async () => {
  const boom = new Error("boom");
  const fail = () => {
    throw boom;
  };
  const ok = (s: Span, v: unknown) => spanEnded(s, v);
  const thrown = span();
  assertStrictEquals(assertThrows(() => inSpan(thrown, fail, 0, 0, ok)), boom);
  const rejected = span();
  assertStrictEquals(
    await assertRejects(() =>
      inSpan(rejected, () => Promise.reject(boom), 0, 0, ok) as Promise<unknown>
    ),
    boom,
  );
  // done() owns the end: one that fails records it and ends the span itself.
  const late = span();
  const failing = (s: Span) => spanFailed(s, boom);
  assertStrictEquals(
    await assertRejects(() =>
      inSpan(late, () => Promise.resolve(1), 0, 0, failing) as Promise<unknown>
    ),
    boom,
  );
  for (const s of [thrown, rejected, late]) {
    assertEquals([s.ended, s.events.map((e) => e.attrs.message)], [true, ["boom"]]);
  }
});
