// The shape checker on shapes made here (the catalogue's data is held
// against the wires in shapes_test.ts): paths through keys, arrays, filtered
// arrays and nested kinds; JSON types and their alternatives; a missing
// field, a missing or null parent, declared or not; one sentence per problem.
import { assertEquals } from "@std/assert";
import { type Shape, shapeProblems } from "../../../testing/http/_shape_check.ts";

type Row = [path: string, type: string, always: boolean];

function shape(rows: Row[], kind = "k"): Shape {
  return {
    api: "messages",
    kind,
    when: "test",
    fields: rows.map(([path, type, always]) => ({ path, type, always, source: "here" })),
  };
}

const none = (): Shape => {
  throw new Error("no nested kind in this shape");
};

const check = (value: unknown, rows: Row[]) => shapeProblems(value, shape(rows), none);

Deno.test("shape check: an always-present field missing is named; an optional one is not", () => {
  assertEquals(check({}, [["id", "string", true], ["note", "string", false]]), ["id: missing"]);
  assertEquals(check({ id: "x" }, [["id", "string", true], ["note", "string", false]]), []);
  // An inherited property is not the answer's own.
  assertEquals(check(Object.create({ id: "x" }), [["id", "string", true]]), ["id: missing"]);
});

Deno.test("shape check: JSON types, integers among numbers, alternatives", () => {
  const rows: Row[] = [
    ["s", "string", true],
    ["i", "integer", true],
    ["n", "number", true],
    ["b", "boolean", true],
    ["o", "object", true],
    ["a", "array", true],
    ["z", "string|null", true],
  ];
  const good = { s: "x", i: 3, n: 3.5, b: false, o: {}, a: [], z: null };
  assertEquals(check(good, rows), []);
  assertEquals(check({ ...good, n: 4, z: "y" }, rows), []);
  assertEquals(
    check({ s: 1, i: 3.5, n: "4", b: 0, o: [], a: {}, z: 2 }, rows),
    [
      "s: integer, not string",
      "i: number, not integer",
      "n: string, not number",
      "b: integer, not boolean",
      "o: array, not object",
      "a: object, not array",
      "z: integer, not string|null",
    ],
  );
  assertEquals(check({ ...good, s: null }, rows), ["s: null, not string"]);
});

Deno.test("shape check: below a missing, null or non-object parent", () => {
  const deep: Row[] = [["u.in", "integer", true], ["u.out", "integer", false]];
  assertEquals(check({}, deep), ["u: missing (so u.in is)"]);
  assertEquals(check({ u: null }, deep), ["u: missing (so u.in is)"]);
  assertEquals(check({ u: 5 }, deep), ["u: missing (so u.in is)"]);
  assertEquals(check({ u: {} }, deep), ["u.in: missing"]);
  assertEquals(check({ u: { in: 1, out: "x" } }, deep), ["u.out: string, not integer"]);
  // A parent the shape lists answers for itself: optional, or nullable and null.
  assertEquals(check({}, [["u", "object", false], ...deep]), []);
  assertEquals(check({ u: null }, [["u", "object|null", true], ...deep]), []);
  assertEquals(check({}, [["u", "object", true], ...deep]), ["u: missing"]);
  // Two levels down, the first missing step is named.
  assertEquals(check({ a: {} }, [["a.b.c", "string", true]]), [
    "a.b: missing (so a.b.c is)",
  ]);
  assertEquals(check({ a: { b: { c: "x" } } }, [["a.b.c", "string", true]]), []);
});

Deno.test("shape check: every element of an array, and of a filtered one", () => {
  const rows: Row[] = [["items[].id", "string", true], ["items[type=t].v", "integer", true]];
  assertEquals(check({ items: [] }, rows), []);
  assertEquals(
    check({ items: [{ id: "a", type: "t", v: 1 }, { id: "b", type: "u" }, { type: "t" }] }, rows),
    ["items[2].id: missing", "items[2].v: missing"],
  );
  assertEquals(check({ items: [{ id: 1 }] }, rows), ["items[0].id: integer, not string"]);
  // Not an array where one is expected.
  assertEquals(check({ items: {} }, rows), [
    "items: missing (so items[].id is)",
    "items: missing (so items[type=t].v is)",
  ]);
  assertEquals(check({ items: {} }, [["items", "array", false], ...rows]), [
    "items: object, not array",
  ]);
  // A filter on a null element skips it.
  assertEquals(check({ items: [null] }, [["items[type=t].v", "integer", true]]), []);
});

Deno.test("shape check: arrays of values, and of arrays", () => {
  assertEquals(check({ tags: ["a", 1] }, [["tags[]", "string", true]]), [
    "tags[1]: integer, not string",
  ]);
  assertEquals(check({ tags: [1, null] }, [["tags[].x", "string", true]]), [
    "tags[0]: missing (so tags[].x is)",
    "tags[1]: missing (so tags[].x is)",
  ]);
  assertEquals(check({ tags: [1] }, [["tags[]", "object", false], ["tags[].x", "string", true]]), [
    "tags[0]: integer, not object",
  ]);
  assertEquals(check({ grid: [[1, "x"], [2]] }, [["grid[][]", "integer", true]]), [
    "grid[0][1]: string, not integer",
  ]);
});

Deno.test("shape check: a nested kind is held against its own shape, its problems under its path", () => {
  const inner = shape([["id", "string", true], ["n", "integer", false]], "inner");
  const outer = shape([["m", "@inner", true], ["list[]", "@inner", false]], "outer");
  const kindOf = (api: string, kind: string): Shape => {
    assertEquals([api, kind], ["messages", "inner"]);
    return inner;
  };
  assertEquals(shapeProblems({ m: { id: "x" } }, outer, kindOf), []);
  assertEquals(
    shapeProblems({ m: { n: "1" }, list: [{ id: "y" }, 3] }, outer, kindOf),
    [
      "m.id: missing",
      "m.n: string, not integer",
      "list[1].(the answer): integer, not an object",
    ],
  );
  assertEquals(shapeProblems({}, outer, kindOf), ["m: missing"]);
});

Deno.test("shape check: an answer that is not an object, and one sentence per problem", () => {
  const rows: Row[] = [["id", "string", true]];
  assertEquals(check("text", rows), ["(the answer): string, not an object"]);
  assertEquals(check(null, rows), ["(the answer): null, not an object"]);
  assertEquals(check(7, rows), ["(the answer): integer, not an object"]);
  assertEquals(check({}, [["id", "string", true], ["id", "string", true]]), ["id: missing"]);
});
