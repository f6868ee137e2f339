import { assertEquals } from "@std/assert";
import { isPlainJson, jsonProblem } from "../../testing/_json_value.ts";

Deno.test("jsonProblem(): plain data, undefined fields and toJSON values are JSON", () => {
  for (
    const ok of [
      "x",
      0,
      -1.5,
      true,
      null,
      undefined,
      [],
      {},
      { a: [1, { b: "c" }], skipped: undefined },
      [undefined],
      new Date(0),
      Object.create(null),
    ]
  ) {
    assertEquals(jsonProblem(ok, "the answer"), undefined);
  }
  // toJSON decides what JSON writes: what it would have replaced is not walked.
  assertEquals(jsonProblem({ toJSON: () => "x", n: 1n }, "the answer"), undefined);
  // A value met twice without a cycle is fine: JSON writes it twice.
  const shared = { n: 1 };
  assertEquals(jsonProblem({ a: shared, b: [shared] }, "the answer"), undefined);
});

Deno.test("jsonProblem(): names the path and what JSON would do to it", () => {
  const cyc: Record<string, unknown> = { a: 1 };
  cyc.self = cyc;
  const cases: [unknown, string][] = [
    [1n, "the answer is a BigInt (1n), which JSON cannot hold"],
    [{ rows: [{ id: 7n }] }, "the answer.rows[0].id is a BigInt (7n)"],
    [cyc, "the answer.self refers back to a value that contains it (a cycle)"],
    [[NaN], "the answer[0] is NaN (JSON would make it null)"],
    [{ x: Infinity }, "the answer.x is Infinity"],
    [{ f: () => 1 }, "the answer.f is a function (JSON would drop it)"],
    [Symbol("s"), "the answer is a symbol"],
    [new Map(), "the answer is a Map (JSON would make it {})"],
    [{ s: new Set([1]) }, "the answer.s is a Set"],
    [new Error("x"), "the answer is an Error"],
    [/x/, "the answer is a RegExp"],
    [new WeakMap(), "the answer is a WeakMap"],
    [new WeakSet(), "the answer is a WeakSet"],
    [[1, "ok", 2n], "the answer[2] is a BigInt (2n)"],
    [{ a: 1, b: { c: [true, { d: Symbol() }] } }, "the answer.b.c[1].d is a symbol"],
    [Promise.resolve(1), "the answer is a Promise"],
  ];
  for (const [value, message] of cases) {
    const problem = jsonProblem(value, "the answer");
    assertEquals(problem?.startsWith(message), true, `${problem} / ${message}`);
  }
});

Deno.test("jsonProblem(): nesting past 256 levels is refused, not walked into a stack overflow", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assertEquals(jsonProblem(deep, "v")?.endsWith("is nested more than 256 levels deep"), true);
  // 256 nested arrays (or objects) are walked; the 257th is one too many.
  const nest = (n: number, wrap: (v: unknown) => unknown) => {
    let v: unknown = 1;
    for (let i = 0; i < n; i++) v = wrap(v);
    return v;
  };
  for (const wrap of [(v: unknown) => [v], (v: unknown) => ({ a: v })]) {
    assertEquals(jsonProblem(nest(256, wrap), "v"), undefined);
    assertEquals(
      jsonProblem(nest(257, wrap), "v")?.endsWith("nested more than 256 levels deep"),
      true,
    );
  }
});

Deno.test("isPlainJson(): true for plain JSON, false for what jsonProblem() must explain or a class instance", () => {
  const shared = { k: 1 };
  let deep: unknown = "leaf";
  for (let i = 0; i < 256; i++) deep = [deep];
  const plain = [
    "x",
    0,
    -1.5,
    true,
    false,
    null,
    undefined,
    [],
    {},
    { a: [1, { b: "c" }], skipped: undefined },
    [undefined, null],
    new Date(0),
    Object.create(null),
    // The same object twice is not a cycle.
    { left: shared, right: [shared, shared] },
    deep,
  ];
  for (const [i, v] of plain.entries()) {
    assertEquals(isPlainJson(v, [], 0), true, `plain value ${i}`);
    assertEquals(jsonProblem(v, "v"), undefined);
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = { back: cyclic };
  class Point {
    x = 1;
  }
  const notPlain = [
    NaN,
    Infinity,
    10n,
    Symbol("s"),
    () => 1,
    new Map(),
    new Point(),
    cyclic,
    [deep],
    { a: { b: [1, NaN] } },
    [1, "two", 3n],
    { ok: 1, bad: () => 2 },
  ];
  for (const [i, v] of notPlain.entries()) {
    assertEquals(isPlainJson(v, [], 0), false, `value ${i} is not plain`);
  }
  // A class instance is left to walk(), which finds it JSON (its own fields).
  assertEquals(jsonProblem(new Point(), "p"), undefined);
  assertEquals(
    jsonProblem([deep], "v"),
    "v[0]" + "[0]".repeat(255) + " is nested more than 256 levels deep",
  );
});
