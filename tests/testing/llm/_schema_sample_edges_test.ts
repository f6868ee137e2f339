// The edges of the sampler that its values alone do not show: what a
// generation costs, which choice comes next, where an error points.
import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { sample, SchemaUnsatisfiable } from "../../../testing/llm/_schema_sample.ts";
import { Budget, LIMITS } from "../../../testing/llm/_schema_limits.ts";
import { SchemaLimitExceeded } from "../../../testing/llm/schema_limit_exceeded.ts";

function unsatisfiable(schema: unknown): SchemaUnsatisfiable {
  return assertThrows(() => sample(schema), SchemaUnsatisfiable);
}

function steps(schema: unknown): number {
  const budget = new Budget();
  try {
    sample(schema, budget);
  } catch (error) {
    if (!(error instanceof SchemaUnsatisfiable)) throw error;
  }
  return budget.steps;
}

Deno.test("sample() pays a step per part and candidate, a value's size per check, ten per failed branch", () => {
  // The value, its candidates, and the root's check of one value.
  assertEquals(steps({ type: "string" }), 3);
  // A property with no keyword the building approximates is not checked on its own.
  assertEquals(
    steps({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }),
    6,
  );
  // A refused candidate is checked, a repeated one is not.
  assertEquals(steps({ type: "integer", not: { const: 0 } }), 4);
  assertEquals(steps({ oneOf: [{ const: 1 }, { const: 1 }] }), 5);
  assertEquals(steps({ anyOf: [false, { type: "integer" }] }), 14);
});

Deno.test("sample() tries 12 candidates, then reports the validator's first error", () => {
  assertEquals(
    unsatisfiable({ type: "integer", not: { minimum: -1000 } }).reason,
    'no value FakeLLM.auto built satisfies the schema (12 tried); the validator\'s first error: the value fails #/not: Instance matched "not" schema.',
  );
  // Out of branches after the check refused them: the refusal is reported.
  assertStringIncludes(
    unsatisfiable({ oneOf: [{ const: 1 }, { const: 1 }] }).reason,
    "(1 tried); the validator's first error: the value fails #/oneOf",
  );
});

Deno.test("sample() tries the types in order when none is named: string, number, boolean, null, object, array", () => {
  const not = (...type: string[]) => sample({ not: { type } });
  assertEquals(
    [not("string"), not("string", "number"), not("string", "number", "boolean")],
    [0, false, null],
  );
  assertEquals(not("string", "number", "boolean", "null"), {});
  assertEquals(not("string", "number", "boolean", "null", "object"), ["a"]);
  assertEquals(sample({ contains: { const: 1 } }), [1]);
});

Deno.test("sample() reads a list of types: each in turn, null last, and the first's error when none works", () => {
  assertEquals(sample({ type: ["string", "null"], minLength: 3, maxLength: 1 }), null);
  assertEquals(
    unsatisfiable({ type: ["string"], minLength: 3, maxLength: 1 }).reason,
    "minLength 3 is above maxLength 1",
  );
  // A limit is no failure of a type: it ends the generation.
  assertThrows(() => sample({ type: ["string", "null"], minLength: 1e9 }), SchemaLimitExceeded);
  // In a recursion null comes first, and ends it.
  assertEquals(
    sample({
      $defs: {
        x: { type: ["object", "null"], properties: { a: { $ref: "#/$defs/x" } }, required: ["a"] },
      },
      type: "object",
      properties: { a: { $ref: "#/$defs/x" } },
      required: ["a"],
    }),
    { a: { a: null } },
  );
});

Deno.test("sample() takes a const or an enum value only of the type asked for, whatever the type", () => {
  for (
    const [type, value] of [["string", 1], ["number", "1"], ["boolean", 0], ["null", 0], [
      "date",
      1,
    ]] as const
  ) {
    assertEquals(
      unsatisfiable({ type, enum: [value] }).reason,
      `no enum value is of type ${JSON.stringify(type)}`,
    );
  }
  assertEquals(unsatisfiable({ type: "date", const: 1 }).reason, 'const 1 is not of type "date"');
});

Deno.test("sample() names the key it cannot build, and leaves out an optional property that is false", () => {
  assertEquals(
    unsatisfiable({
      type: "object",
      required: ["z"],
      additionalProperties: { type: "string", minLength: 3, maxLength: 1 },
    }).path,
    "#/properties/z",
  );
  assertEquals(
    sample({ type: "object", properties: { a: false, b: { type: "integer" } }, minProperties: 1 }),
    { b: 0 },
  );
});

Deno.test("sample() makes up distinct names for minProperties, or says where it cannot", () => {
  assertEquals(sample({ type: "object", propertyNames: true, minProperties: 2 }), {
    key1: "a",
    key2: "a",
  });
  const one = unsatisfiable({ type: "object", propertyNames: { const: "k" }, minProperties: 2 });
  assertEquals([one.path, one.reason], [
    "#/propertyNames",
    "cannot make 2 distinct property names",
  ]);
  const pattern = unsatisfiable({
    type: "object",
    patternProperties: { "^k$": {} },
    additionalProperties: false,
    minProperties: 2,
  });
  assertEquals([pattern.path, pattern.reason], [
    "#/patternProperties",
    "cannot make 2 distinct property names",
  ]);
  // Each pattern in turn; a pattern whose schema is false makes no names.
  assertEquals(
    sample({
      type: "object",
      patternProperties: {
        "^a_": {},
        "^b_": { type: "integer" },
        "^c_": false,
        "^d_": { const: 1 },
      },
      additionalProperties: false,
      minProperties: 4,
    }),
    // ("a_b" is among the plain strings, and a second "a_b" is skipped.)
    { a_b: "b", b_: 2, d_: 1, b_b: 5 },
  );
  // unevaluatedProperties false closes the object where additionalProperties says nothing.
  assertEquals(
    sample({
      type: "object",
      patternProperties: { "^p": { type: "integer" } },
      unevaluatedProperties: false,
      minProperties: 1,
    }),
    { p: 1 },
  );
});

Deno.test("sample() holds contains, minContains and maxContains, or says why it cannot", () => {
  assertEquals(
    unsatisfiable({ type: "array", contains: {}, minContains: 3, maxContains: 1 }).reason,
    "minContains 3 is above maxContains 1",
  );
  assertEquals(
    unsatisfiable({ type: "array", contains: {}, minContains: 2, maxItems: 1 }).reason,
    "contains needs 2 items, above maxItems 1",
  );
  // maxContains means nothing without contains.
  assertEquals(sample({ type: "array", maxContains: 0 }), ["a"]);
  assertEquals(
    sample({
      type: "array",
      items: { enum: [1, 2] },
      contains: { const: 1 },
      maxContains: 1,
      minItems: 3,
    }),
    [1, 2, 2],
  );
  assertEquals(
    sample({
      prefixItems: [{ type: "string" }],
      items: { type: "integer" },
      contains: { type: "integer" },
      minItems: 2,
    }),
    ["a", 1],
  );
  const some = unsatisfiable({
    type: "array",
    prefixItems: [{ const: 1 }, { const: 2 }],
    items: false,
    contains: { const: 1 },
    minContains: 2,
  });
  assertEquals([some.path, some.reason], [
    "#/contains",
    "2 items must satisfy contains, and only 1 can",
  ]);
  const none = unsatisfiable({
    type: "array",
    items: { type: "integer" },
    contains: { type: "string" },
  });
  assertEquals([none.path, none.reason], [
    "#/contains/allOf/1",
    'allOf asks for type "integer" and "string"',
  ]);
  // A recursion builds only what minItems asks for, and that can be endless.
  assertStringIncludes(
    unsatisfiable({ type: "array", minItems: 1, items: { $ref: "#" } }).message,
    "the schema recurses without an end",
  );
});

Deno.test("sample() folds a second anyOf in once the first is chosen", () => {
  assertEquals(
    sample({ allOf: [{ anyOf: [{ type: "integer" }] }, { anyOf: [{ minimum: 50 }] }] }),
    50,
  );
  assertEquals(
    sample({
      allOf: [
        { anyOf: [{ type: "integer" }] },
        { anyOf: [{ minimum: 50 }] },
        { oneOf: [{ maximum: 60 }] },
      ],
    }),
    50,
  );
});

Deno.test("sample() meets if with then, else when not, and names where each failed", () => {
  assertEquals(sample({ type: "integer", if: { minimum: 5 } }), 5);
  assertEquals(sample({ type: "integer", if: { minimum: 5 }, then: false }), 0);
  assertEquals(
    unsatisfiable({ type: "integer", if: { type: "string" }, else: false }).reason,
    'no branch of if/then/else can be satisfied (at #/if: allOf asks for type "integer" and "string"; at #/else: the schema is false (nothing is valid))',
  );
  assertEquals(
    unsatisfiable({ if: { type: "string" }, then: { minLength: 3, maxLength: 1 }, else: false })
      .reason,
    "no branch of if/then/else can be satisfied (at #/then: minLength 3 is above maxLength 1; at #/else: the schema is false (nothing is valid))",
  );
});

Deno.test("sample() counts every way down against the depth limit", async (t) => {
  const deeper = (wrap: (inner: unknown) => unknown) => {
    let schema: unknown = { type: "integer" };
    for (let i = 0; i <= LIMITS.depth; i++) schema = wrap(schema);
    return schema;
  };
  const cases: Array<[string, (inner: unknown) => unknown]> = [
    ["anyOf", (s) => ({ anyOf: [s] })],
    ["if", (s) => ({ if: true, then: s })],
    ["items", (s) => ({ type: "array", items: s })],
    ["prefixItems", (s) => ({ type: "array", prefixItems: [s] })],
  ];
  for (const [name, wrap] of cases) {
    await t.step(name, () => {
      const error = assertThrows(() => sample(deeper(wrap)), SchemaLimitExceeded);
      assertEquals(error.measure, "levels of schema nesting");
    });
  }
  await t.step("$refs", () => {
    const defs: Record<string, unknown> = { [`d${LIMITS.depth + 1}`]: { type: "integer" } };
    for (let i = 0; i <= LIMITS.depth; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    assertThrows(() => sample({ $defs: defs, $ref: "#/$defs/d0" }), SchemaLimitExceeded);
    defs.d50 = { type: "integer", minimum: 3 };
    assertEquals(sample({ $defs: defs, $ref: "#/$defs/d0" }), 3);
  });
  await t.step("a recursion too long to meet a $ref five times is still one", () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++) {
      defs[`r${i}`] = {
        type: "object",
        properties: { n: { $ref: `#/$defs/r${(i + 1) % 30}` } },
        required: ["n"],
      };
    }
    assertStringIncludes(
      unsatisfiable({ $defs: defs, $ref: "#/$defs/r0" }).reason,
      "the schema recurses without an end",
    );
  });
});

Deno.test("sample() remembers a failed bare $ref, and only that", () => {
  // The same $ref fails beside {type: integer} and holds alone: nothing is
  // remembered where the branch had company.
  assertEquals(
    sample({
      $defs: { s: { type: "string" } },
      type: "object",
      properties: {
        a: { type: "integer", anyOf: [{ $ref: "#/$defs/s" }, { type: "integer" }] },
        b: { anyOf: [{ $ref: "#/$defs/s", minLength: 3, maxLength: 1 }, { type: "integer" }] },
        c: { anyOf: [{ $ref: "#/$defs/s" }] },
      },
      required: ["a", "b", "c"],
    }),
    { a: 0, b: 0, c: "a" },
  );
  // Two $refs are two problems.
  assertEquals(
    sample({
      $defs: { never: false, s: { type: "string" } },
      type: "object",
      properties: {
        a: { anyOf: [{ $ref: "#/$defs/never" }, { type: "integer" }] },
        b: { anyOf: [{ $ref: "#/$defs/s" }] },
      },
      required: ["a", "b"],
    }),
    { a: 0, b: "a" },
  );
  // Annotations beside a $ref change nothing: the 40 levels stay linear.
  const defs: Record<string, unknown> = { a40: false };
  for (let i = 0; i < 40; i++) {
    const branch = (j: number) => ({
      $ref: `#/$defs/a${i + 1}`,
      title: "t",
      description: "d",
      $comment: "c",
      examples: [1],
      default: 1,
      deprecated: false,
      readOnly: false,
      writeOnly: false,
      $defs: {},
      definitions: {},
      $anchor: `b${i}_${j}`,
    });
    defs[`a${i}`] = { anyOf: [branch(0), branch(1)] };
  }
  const budget = new Budget();
  assertThrows(() => sample({ $defs: defs, $ref: "#/$defs/a0" }, budget), SchemaUnsatisfiable);
  assertEquals(budget.steps < 2_000, true, String(budget.steps));
});

Deno.test("sample(): a schema edited between calls is read again; the same schema gives the same value", () => {
  const schema: Record<string, unknown> = { type: "string", minLength: 3 };
  const first = sample(schema);
  assertEquals(sample(schema), first);
  schema.minLength = 7;
  assertEquals((sample(schema) as string).length, 7);
  schema.type = "integer";
  delete schema.minLength;
  assertEquals(typeof sample(schema), "number");
});
