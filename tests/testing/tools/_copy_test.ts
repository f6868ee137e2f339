import { assertEquals, assertNotStrictEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { copyValue } from "../../../testing/tools/_copy.ts";

Deno.test("copyValue() equals structuredClone for JSON-like values and shares nothing", () => {
  const value = { host: "a", n: 1, ok: true, none: null, gone: undefined, list: [1, { x: [2] }] };
  const copy = copyValue(value);
  assertEquals(copy, structuredClone(value));
  assertNotStrictEquals(copy, value);
  assertNotStrictEquals(copy.list, value.list);
  assertNotStrictEquals(copy.list[1], value.list[1]);
  value.list.push(3);
  (value.list[1] as { x: number[] }).x.push(4);
  assertEquals(copy.list, [1, { x: [2] }]);
});

Deno.test("copyValue() falls back to structuredClone for what is not plain", async (t) => {
  await t.step("a Date, a Map and a null-prototype object copy as structuredClone does", () => {
    const bare = Object.assign(Object.create(null), { a: 1 });
    const value = { when: new Date(0), map: new Map([["k", 1]]), bare };
    const copy = copyValue(value);
    assertEquals(copy, structuredClone(value));
    assertStrictEquals(copy.when instanceof Date, true);
    assertNotStrictEquals(copy.when, value.when);
  });
  await t.step("a cycle is kept, not followed forever", () => {
    const a: Record<string, unknown> = { name: "a" };
    a.self = a;
    const copy = copyValue(a);
    assertStrictEquals(copy.self, copy);
  });
  await t.step("a sparse array keeps its holes", () => {
    const sparse = [1, , 3];
    assertEquals(copyValue(sparse), structuredClone(sparse));
    assertEquals(1 in copyValue(sparse), false);
  });
  await t.step("a function throws as structuredClone does", () => {
    assertThrows(() => copyValue({ f: () => 1 }), DOMException);
  });
});

// How many times `fn` reaches the global structuredClone (the slow path).
function clones(fn: () => void): number {
  const original = globalThis.structuredClone;
  let calls = 0;
  globalThis.structuredClone = ((value: unknown, options?: StructuredSerializeOptions) => {
    calls++;
    return original(value, options);
  }) as typeof structuredClone;
  try {
    fn();
  } finally {
    globalThis.structuredClone = original;
  }
  return calls;
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

Deno.test("copyValue() copies JSON-like values itself, without structuredClone", () => {
  const values: unknown[] = [
    { host: "a", n: -0, big: 10n, ok: false, none: null, gone: undefined, list: [] },
    [1, "two", [3, [4, { five: 5 }]], null, undefined],
    Object.assign(Object.create(null), { bare: [{ x: 1 }] }),
    {},
    "text",
    42,
    null,
    undefined,
    nested(63),
  ];
  for (const value of values) {
    let copy: unknown;
    assertEquals(clones(() => copy = copyValue(value)), 0, Deno.inspect(value, { depth: 2 }));
    assertEquals(copy, structuredClone(value));
  }
});

Deno.test("copyValue() hands what is not plain to structuredClone, once, with the same result", () => {
  class Point {
    constructor(readonly x: number) {}
  }
  const cyclic: unknown[] = [1];
  cyclic.push(cyclic);
  const labelled = Object.assign([1, 2], { label: "x" });
  const holeAndLabel = Object.assign([1, , 3], { label: "x" });
  const values: unknown[] = [
    new Date(0),
    { at: new Date(0) },
    [new Date(0)],
    new Point(1),
    { p: new Point(2) },
    [1, , 3],
    labelled,
    holeAndLabel,
    cyclic,
    nested(64),
  ];
  for (const value of values) {
    let copy: unknown;
    assertEquals(clones(() => copy = copyValue(value)), 1, Deno.inspect(value, { depth: 1 }));
    assertEquals(copy, structuredClone(value));
  }
  // What structuredClone keeps that a plain copy would lose.
  assertEquals((copyValue(labelled) as unknown as { label: string }).label, "x");
  const holes = copyValue(holeAndLabel);
  assertEquals([1 in holes, (holes as unknown as { label: string }).label], [false, "x"]);
  const copied = copyValue(cyclic);
  assertStrictEquals(copied[1], copied);
  assertStrictEquals(copyValue(new Point(3)) instanceof Point, false);
});

Deno.test("copyValue() fails on a symbol or a function as structuredClone does", () => {
  for (const value of [Symbol("s"), { s: Symbol("s") }, [() => 1], { f: () => 1 }]) {
    assertThrows(() => copyValue(value), DOMException);
  }
});
