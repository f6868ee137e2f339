import {
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import { inSpan, spanError } from "../../runtime/_span.ts";
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

Deno.test("inSpan() ends the span with the value, after settled() saw it", async () => {
  const s = span();
  const seen: unknown[] = [];
  const value = await inSpan(s, () => Promise.resolve(42), (v) => seen.push(v, s.ended));
  assertEquals([value, seen, s.ended, s.events], [42, [42, false], true, []]);
  // A ready value comes back as is, the span already ended.
  const sync = span();
  const ready: unknown[] = [];
  assertEquals(inSpan(sync, () => "ready", (v) => ready.push(v, sync.ended)), "ready");
  assertEquals([ready, sync.ended], [["ready", false], true]);
});

Deno.test("inSpan() records a failure and ends the span, however the work failed", async (t) => {
  const boom = new Error("boom");
  // A ready failure is thrown as it happened; a later one rejects.
  const cases: [string, boolean, () => unknown, ((v: unknown) => void)?][] = [
    ["a rejected promise", false, () => Promise.reject(boom)],
    ["a synchronous throw", true, () => {
      throw boom;
    }],
    ["settled() throwing on a ready value", true, () => "ok", () => {
      throw boom;
    }],
    ["settled() throwing on a later value", false, () => Promise.resolve("ok"), () => {
      throw boom;
    }],
  ];
  for (const [name, ready, work, settled] of cases) {
    await t.step(name, async () => {
      const s = span();
      const e = ready
        ? assertThrows(() => inSpan(s, work, settled))
        : await assertRejects(async () => {
          const pending = inSpan(s, work, settled);
          assertInstanceOf(pending, Promise);
          await pending;
        });
      assertStrictEquals(e, boom);
      assertEquals(s.ended, true);
      assertEquals(s.events.map((ev) => [ev.name, ev.attrs.message]), [["error", "boom"]]);
    });
  }
});
