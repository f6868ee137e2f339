import { assert, assertEquals } from "@std/assert";
import { preview, tail } from "../../runtime/_preview.ts";

Deno.test("preview() renders each kind of value for a message", () => {
  assertEquals(preview(undefined), "undefined");
  assertEquals(preview(null), "null");
  assertEquals(preview('a"b'), '"a\\"b"');
  assertEquals(preview(""), '""');
  assertEquals(preview(42), "42");
  // JSON would print these as null, hiding what was given.
  assertEquals(preview(NaN), "NaN");
  assertEquals(preview(-Infinity), "-Infinity");
  assertEquals(preview(true), "true");
  assertEquals(preview(12n), "12n");
  assertEquals(preview(Symbol("tag")), "Symbol(tag)");
  assertEquals(preview(function named() {}), "[function named]");
  assertEquals(preview(() => {}), "[function anonymous]");
  assertEquals(preview({ a: 1, b: [2] }), '{"a":1,"b":[2]}');
});

Deno.test("preview() renders what JSON leaves out inside objects", () => {
  assertEquals(
    preview({ e: new RangeError("too big"), n: 3n, u: undefined }),
    '{"e":"[RangeError: too big]","n":"3n","u":"[undefined]"}',
  );
  assertEquals(preview([undefined]), '["[undefined]"]');
  assertEquals(preview(new TypeError("bad")), '"[TypeError: bad]"');
});

Deno.test("preview() never throws: cycles and values JSON cannot write", () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assertEquals(preview(cycle), "[object Object]");
  const throwing = {
    toJSON() {
      throw new Error("no");
    },
  };
  assertEquals(preview(throwing), "[object Object]");
});

Deno.test("preview() cuts a long rendering at 200 characters", () => {
  assertEquals(preview("x".repeat(198)), `"${"x".repeat(198)}"`);
  const long = preview("y".repeat(300));
  assertEquals(long, `"${"y".repeat(199)}...`);
  assertEquals(long.length, 203);
});

Deno.test("tail() keeps the trimmed end of a long text", () => {
  assertEquals(tail("  short\n"), "short");
  const text = "a".repeat(100) + "b".repeat(300);
  assertEquals(tail(`${text}\n`), `...${"b".repeat(300)}`);
  assertEquals(tail("c".repeat(300)), "c".repeat(300));
  assert(!tail("  \n").length);
});
