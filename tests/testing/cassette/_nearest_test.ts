// The nearest-entry search: how many leaves differ, and which entry is nearest.
import { assertEquals } from "@std/assert";
import { distance, nearestOf } from "../../../testing/cassette/_nearest.ts";

Deno.test("distance() counts the leaves that differ", async (t) => {
  const cases: Array<[unknown, unknown, number]> = [
    [{ a: 1, b: [1, "x"] }, { a: 1, b: [1, "x"] }, 0],
    ["a", "a", 0],
    [1, "1", 1],
    [null, {}, 1],
    [{}, null, 1],
    [null, null, 0],
    [{ a: 1 }, { a: null }, 1],
    [{ a: null }, { a: 1 }, 1],
    [[1], { 0: 1 }, 1],
    [{ 0: 1 }, [1], 1],
    [[1, 2, 3], [1, 2], 1],
    [[1, 2], [1, 3, 4], 2],
    [[], [1, 2, 3], 3],
    [{ a: 1, b: 2 }, { a: 1 }, 1],
    [{ a: 1 }, { a: 1, c: 3 }, 1],
    [{ a: { b: 1, c: 2 } }, { a: { b: 2, c: 3 } }, 2],
    [{ m: [{ role: "user", content: "x" }] }, { m: [{ role: "user", content: "y" }] }, 1],
  ];
  for (const [a, b, n] of cases) {
    await t.step(`${JSON.stringify(a)} / ${JSON.stringify(b)}`, () => {
      assertEquals(distance(a, b), n);
    });
  }
});

Deno.test("distance() stops counting at the cap", () => {
  const a = { a: 1, b: 2, c: 3, d: [1, 2, 3] };
  const b = { a: 0, b: 0, c: 0, d: [0, 0, 0] };
  assertEquals(distance(a, b), 6);
  assertEquals(distance(a, b, 2), 2);
  assertEquals(distance(a, b, 4), 4);
  assertEquals(distance([1, 2, 3, 4], [0, 0, 0, 0], 3), 3);
  assertEquals(distance(a, a, 0), 0);
});

Deno.test("nearestOf() picks the fewest differences, the earliest of equals, -1 of none", () => {
  assertEquals(nearestOf([], { a: 1 }), -1);
  assertEquals(nearestOf([{ a: 1 }], { a: 2 }), 0);
  assertEquals(nearestOf([{ a: 1, b: 1 }, { a: 2, b: 1 }, { a: 2, b: 2 }], { a: 2, b: 2 }), 2);
  assertEquals(nearestOf([{ a: 9, b: 9 }, { a: 2, b: 9 }, { a: 9, b: 2 }], { a: 2, b: 2 }), 1);
  assertEquals(nearestOf([{ a: 1 }, { a: 1 }], { a: 1 }), 0);
  assertEquals(nearestOf([[1, 2, 3, 4], [1, 2, 3, 0], [0, 2, 3, 0]], [1, 2, 3, 4]), 0);
});
