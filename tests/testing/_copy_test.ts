import { assertEquals, assertNotStrictEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { copyValue } from "../../testing/_copy.ts";

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
