import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import fc from "fast-check";
import { z } from "zod";
import { sample, SchemaUnsatisfiable } from "../../../testing/llm/_schema_sample.ts";
import { LIMITS } from "../../../testing/llm/_schema_limits.ts";
import { SchemaLimitExceeded } from "../../../testing/llm/schema_limit_exceeded.ts";

function valid(schema: z.ZodType): unknown {
  const json = z.toJSONSchema(schema, { unrepresentable: "any" });
  const value = sample(json);
  const r = schema.safeParse(value);
  assert(r.success, `${JSON.stringify(value)} fails ${JSON.stringify(json)}: ${r.error?.message}`);
  // And the JSON Schema itself accepts it, as a provider-side validator would.
  assert(z.fromJSONSchema(json as never).safeParse(value).success);
  return value;
}

Deno.test("sample() fills required properties and leaves optional ones out", () => {
  assertEquals(
    valid(z.object({ host: z.string(), port: z.number().int(), tls: z.boolean().optional() })),
    { host: "a", port: 0 },
  );
});

Deno.test("sample() honours enums, consts, formats, lengths and bounds", async (t) => {
  const cases: Array<[string, z.ZodType, unknown]> = [
    ["enum: the first value", z.enum(["celsius", "fahrenheit"]), "celsius"],
    ["literal", z.literal("v1"), "v1"],
    ["email", z.email(), "user@example.com"],
    ["url", z.url(), "https://example.com/"],
    ["uuid", z.uuid(), "00000000-0000-4000-8000-000000000000"],
    ["iso date", z.iso.date(), "2024-01-01"],
    ["iso datetime", z.iso.datetime(), "2024-01-01T00:00:00Z"],
    ["ipv4", z.ipv4(), "192.0.2.1"],
    ["minLength", z.string().min(5), "aaaaa"],
    ["maxLength 0", z.string().max(0), ""],
    ["minimum above zero", z.number().min(10).max(20), 10],
    ["exclusive minimum", z.number().int().gt(3), 4],
    ["maximum below zero", z.number().int().max(-5), -5],
    ["multipleOf", z.number().int().multipleOf(7).min(20), 21],
    ["decimal step", z.number().multipleOf(0.25).min(0.3), 0.5],
    ["pattern", z.string().regex(/^[A-Z]{3}-\d{2}$/), "AAA-00"],
    ["nullable picks the value", z.string().nullable(), "a"],
    ["union picks a branch", z.union([z.number().min(5), z.string()]), 5],
  ];
  for (const [name, schema, expected] of cases) {
    await t.step(name, () => assertEquals(valid(schema), expected));
  }
});

Deno.test("sample() builds nested objects and arrays, distinct items where unique", () => {
  const schema = z.object({
    user: z.object({ name: z.string().min(2), tags: z.array(z.enum(["a", "b", "c"])).min(2) }),
    points: z.array(z.object({ x: z.number(), y: z.number() })).min(1).max(3),
  });
  assertEquals(valid(schema), {
    user: { name: "aa", tags: ["a", "b"] },
    points: [{ x: 0, y: 0 }],
  });
  assertEquals(
    sample({ type: "array", items: { type: "integer" }, minItems: 3, uniqueItems: true }),
    [0, 1, 2],
  );
});

Deno.test("sample() follows local $refs, recursion included", () => {
  interface Tree {
    name: string;
    children: Tree[];
  }
  const tree: z.ZodType<Tree> = z.object({
    name: z.string(),
    get children() {
      return z.array(tree).max(0);
    },
  });
  assertEquals(valid(z.object({ root: tree })), { root: { name: "a", children: [] } });
});

Deno.test("sample() names the path of what cannot be satisfied", async (t) => {
  const cases: Array<[string, unknown, string]> = [
    [
      "bounds",
      {
        type: "object",
        properties: { port: { type: "integer", minimum: 10, maximum: 5 } },
        required: ["port"],
      },
      "at #/properties/port: no integer is >= 10 and <= 5",
    ],
    [
      "lengths",
      { type: "array", items: { type: "string", minLength: 4, maxLength: 2 } },
      "at #/items: minLength 4 is above maxLength 2",
    ],
    ["empty enum", { enum: [] }, "at #: enum is empty"],
    ["false", { type: "object", properties: { a: false }, required: ["a"] }, '"a" is required'],
    ["remote ref", { $ref: "https://example.com/s.json" }, "only local $refs"],
    ["pattern", { type: "string", pattern: "^(a|b)+c{2,}$", maxLength: 1 }, "pattern"],
    [
      "items",
      { type: "array", items: { type: "boolean" }, minItems: 3, uniqueItems: true },
      "3 distinct items",
    ],
  ];
  for (const [name, schema, message] of cases) {
    await t.step(name, () => {
      assertThrows(() => sample(schema), SchemaUnsatisfiable, message);
    });
  }
});

// Random zod schemas, built from the kinds a tool's parameters use.
const leaf: fc.Arbitrary<z.ZodType> = fc.oneof(
  fc.constant(z.string()),
  fc.tuple(fc.nat(8), fc.nat(8)).map(([a, b]) => z.string().min(a).max(a + b)),
  fc.constantFrom(z.email(), z.url(), z.uuid(), z.iso.date(), z.iso.datetime(), z.ipv4()),
  fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 })
    .map((values) => z.enum(values as [string, ...string[]])),
  fc.boolean().map(() => z.boolean()),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.nat(100), fc.boolean()).map(
    ([lo, span, int]) => (int ? z.number().int() : z.number()).min(lo).max(lo + span),
  ),
  fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 9 })).map(([lo, step]) =>
    z.number().int().multipleOf(step).gt(lo)
  ),
  fc.constant(z.null()),
  fc.string({ minLength: 1, maxLength: 5 }).map((s) => z.literal(s)),
);

const schemaArb: fc.Arbitrary<z.ZodType> = fc.letrec<{ node: z.ZodType }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.dictionary(
      // Not Object.prototype's names: zod reads `{}.toString` as a present key.
      fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in Object.prototype)),
      fc.tuple(tie("node"), fc.boolean()),
      { maxKeys: 4 },
    ).map((shape) =>
      z.object(
        Object.fromEntries(
          Object.entries(shape).map(([k, [s, optional]]) => [k, optional ? s.optional() : s]),
        ),
      )
    ),
    fc.tuple(tie("node"), fc.nat(3), fc.nat(3)).map(([s, min, extra]) =>
      z.array(s).min(min).max(min + extra)
    ),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => z.union([a, b])),
    tie("node").map((s) => s.nullable()),
  ),
})).node;

Deno.test("sample() output validates against random schemas (property)", () => {
  fc.assert(
    fc.property(schemaArb, (schema) => {
      valid(schema);
    }),
    { numRuns: 300, seed: 20261130 },
  );
});

Deno.test("sample() is deterministic", () => {
  fc.assert(
    fc.property(schemaArb, (schema) => {
      const json = z.toJSONSchema(schema, { unrepresentable: "any" });
      assertEquals(sample(json), sample(json));
    }),
    { numRuns: 100, seed: 7 },
  );
});

// The cases below are JSON Schemas as a tool may declare them by hand, with
// the keywords zod never writes (boolean schemas, allOf, draft-4 exclusive
// bounds, prefixItems, minProperties, escaped $ref names).

function unsatisfiable(schema: unknown): SchemaUnsatisfiable {
  return assertThrows(() => sample(schema), SchemaUnsatisfiable);
}

Deno.test("SchemaUnsatisfiable names itself and keeps the path and the reason apart", () => {
  const error = unsatisfiable({ type: "string", minLength: 3, maxLength: 1 });
  assertEquals(error.name, "SchemaUnsatisfiable");
  assertEquals(error.path, "#");
  assertEquals(error.reason, "minLength 3 is above maxLength 1");
  assertEquals(error.message, "at #: minLength 3 is above maxLength 1");
});

Deno.test("sample() reads boolean and missing schemas as JSON Schema does", async (t) => {
  await t.step("true and a missing schema admit anything: a string will do", () => {
    assertEquals(sample(true), "a");
    assertEquals(sample(undefined), "a");
    assertEquals(sample({}), "a");
    assertEquals(sample({ type: "object", properties: { a: true }, required: ["a"] }), { a: "a" });
  });
  await t.step("false admits nothing", () => {
    assertEquals(unsatisfiable(false).reason, "the schema is false (nothing is valid)");
    assertEquals(unsatisfiable({ type: "array", items: false, minItems: 1 }).path, "#");
  });
  await t.step("what is not a schema is refused", () => {
    for (const bad of [null, 5, "string", [{ type: "string" }]]) {
      assertEquals(
        unsatisfiable(bad).reason,
        `a schema must be an object, got ${JSON.stringify(bad)}`,
      );
    }
  });
  await t.step("a false branch of anyOf or oneOf is not taken", () => {
    // A real bug: the branch was spread into its siblings, and `...false`
    // is nothing, so `false` admitted anything ("a" for an integer field).
    assertEquals(sample({ anyOf: [false, { type: "integer", minimum: 3 }] }), 3);
    assertEquals(sample({ oneOf: [true] }), "a");
    assertEquals(sample({ type: "integer", anyOf: [true] }), 0);
    const error = unsatisfiable({ oneOf: [false, null] });
    assertEquals(
      error.reason,
      "no branch of oneOf can be satisfied (at #/oneOf/0: the schema is false (nothing is valid); " +
        "at #/oneOf/1: a schema must be an object, got null)",
    );
  });
  await t.step("a false part of allOf makes the whole unsatisfiable", () => {
    const falsePart = unsatisfiable({ allOf: [{ type: "integer" }, false] });
    assertEquals([falsePart.path, falsePart.reason], [
      "#/allOf/1",
      "the schema is false (nothing is valid)",
    ]);
    const nullPart = unsatisfiable({ allOf: [null] });
    assertEquals([nullPart.path, nullPart.reason], [
      "#/allOf/0",
      "a schema must be an object, got null",
    ]);
    assertEquals(sample({ allOf: [true, { type: "integer", minimum: 2 }] }), 2);
  });
});

Deno.test("sample() follows a schema 100 levels deep, ends the recursions it can and names the others", () => {
  const nest = (depth: number): unknown =>
    depth === 0
      ? { type: "integer", minimum: 7 }
      : { type: "object", properties: { n: nest(depth - 1) }, required: ["n"] };
  let value = sample(nest(LIMITS.depth));
  for (let i = 0; i < LIMITS.depth; i++) value = (value as { n: unknown }).n;
  assertEquals(value, 7);
  const deeper = assertThrows(() => sample(nest(LIMITS.depth + 1)), SchemaLimitExceeded);
  assertEquals([deeper.keyword, deeper.value, deeper.limit], ["properties", 101, 100]);
  // A recursion that can end does: a recursive $ref builds only what is required.
  assertEquals(sample({ type: "array", items: { $ref: "#" } }), [[]]);
  assertEquals(sample({ type: "array", prefixItems: [{ $ref: "#" }] }), [[]]);
  // Each way down that cannot end counts: properties, additionalProperties, anyOf, allOf.
  for (
    const schema of [
      { type: "object", properties: { a: { $ref: "#" } }, required: ["a"] },
      { type: "object", minProperties: 1, additionalProperties: { $ref: "#" } },
      { anyOf: [{ $ref: "#" }] },
      { anyOf: [{ $ref: "#" }, { $ref: "#" }] },
      { allOf: [{ $ref: "#" }] },
    ]
  ) {
    assertStringIncludes(unsatisfiable(schema).message, "the schema recurses without an end");
  }
});

Deno.test("sample() merges allOf, its $refs included", () => {
  assertEquals(
    sample({
      $defs: { named: { properties: { name: { type: "string" } }, required: ["name"] } },
      type: "object",
      properties: { id: { type: "integer", minimum: 1 } },
      required: ["id"],
      allOf: [
        { $ref: "#/$defs/named" },
        { properties: { tags: { type: "array", items: { const: "t" } } }, required: ["tags"] },
      ],
    }),
    { id: 1, name: "a", tags: ["t"] },
  );
  // Parts without a type merge into what their keywords say, not an object.
  assertEquals(sample({ allOf: [{ minimum: 3 }, { multipleOf: 2 }] }), 4);
  assertEquals(sample({ allOf: [{ type: "string" }, { minLength: 2 }] }), "aa");
  assertEquals(sample({ allOf: [{ type: "object" }, { required: ["a"] }] }), { a: "a" });
  assertEquals(
    sample({ allOf: [{ required: ["a"], properties: { a: { const: 1 } } }, { type: "object" }] }),
    { a: 1 },
  );
});

Deno.test("sample() prefers a real value over null in anyOf and oneOf", () => {
  assertEquals(sample({ anyOf: [{ type: "null" }, { type: "integer", minimum: 4 }] }), 4);
  assertEquals(sample({ oneOf: [{ type: "string" }, { type: "null" }] }), "a");
  assertEquals(sample({ anyOf: [{ type: "null" }, { type: "null" }] }), null);
  assertEquals(sample({ type: ["null", "integer"], minimum: 2 }), 2);
  assertEquals(sample({ type: ["null"] }), null);
  // A branch that fails to sample is skipped for the next; a null branch too.
  assertEquals(
    sample({ anyOf: [{ type: "string", minLength: 2, maxLength: 1 }, { type: "null" }] }),
    null,
  );
  // Only unsatisfiable branches are skipped: another failure is not hidden.
  const broken = {
    get minLength(): number {
      throw new Error("schema read failed");
    },
  };
  assertThrows(() => sample({ anyOf: [broken, { type: "string" }] }), Error, "schema read failed");
});

Deno.test("sample() names a type it does not know", () => {
  assertEquals(unsatisfiable({ type: "date" }).reason, 'unknown type "date"');
  assertEquals(unsatisfiable({ type: [] }).reason, 'unknown type "never"');
});

Deno.test("sample() infers the type from the keywords when none is given", () => {
  const cases: Array<[unknown, unknown]> = [
    [{ properties: { a: { type: "integer" } }, required: ["a"] }, { a: 0 }],
    [{ properties: { a: { type: "integer" } } }, {}],
    [{ required: ["a"] }, { a: "a" }],
    [{ additionalProperties: false }, {}],
    [{ additionalProperties: { type: "integer" }, minProperties: 1 }, { key1: 1 }],
    [{ items: { type: "integer" } }, [0]],
    [{ prefixItems: [{ const: 1 }, { const: 2 }] }, [1, 2]],
    [{ minItems: 2 }, ["a", "a"]],
    [{ minimum: 5 }, 5],
    [{ maximum: -3 }, -3],
    [{ multipleOf: 3, exclusiveMinimum: 0 }, 3],
    [{ multipleOf: 3 }, 0],
    [{ maxLength: 3 }, "a"],
  ];
  for (const [schema, expected] of cases) {
    assertEquals(sample(schema), expected, JSON.stringify(schema));
  }
});

Deno.test("sample() follows $refs with escaped names and refuses dangling ones", () => {
  assertEquals(
    sample({
      $defs: { "a/b": { const: 1 }, "c~d": { const: 2 }, "e f": { const: 3 } },
      type: "object",
      properties: {
        x: { $ref: "#/$defs/a~1b" },
        y: { $ref: "#/$defs/c~0d" },
        z: { $ref: "#/$defs/e%20f" },
      },
      required: ["x", "y", "z"],
    }),
    { x: 1, y: 2, z: 3 },
  );
  assertEquals(
    unsatisfiable({ $ref: "#/$defs/missing" }).reason,
    "$ref #/$defs/missing points at nothing",
  );
  assertEquals(
    unsatisfiable({ $defs: { n: null }, $ref: "#/$defs/n/x" }).reason,
    "$ref #/$defs/n/x points at nothing",
  );
  // A $ref beside $defs at the root resolves into them.
  assertEquals(sample({ $defs: { id: { type: "integer", minimum: 9 } }, $ref: "#/$defs/id" }), 9);
});

Deno.test("sample() fills objects up to minProperties and within maxProperties", () => {
  const properties = { a: { type: "string" }, b: { type: "integer" }, c: { type: "boolean" } };
  assertEquals(sample({ type: "object", properties, minProperties: 1 }), { a: "a" });
  assertEquals(sample({ type: "object", properties, required: ["a"], minProperties: 2 }), {
    a: "a",
    b: 0,
  });
  assertEquals(sample({ type: "object", properties, required: ["c"], minProperties: 2 }), {
    c: false,
    a: "a",
  });
  assertEquals(sample({ type: "object", minProperties: 2 }), { key1: "a", key2: "a" });
  assertEquals(
    sample({ type: "object", minProperties: 2, additionalProperties: { type: "integer" } }),
    { key1: 1, key2: 2 },
  );
  assertEquals(sample({ type: "object", required: ["z"] }), { z: "a" });
  assertEquals(sample({ type: "object", required: ["z"], additionalProperties: { const: 1 } }), {
    z: 1,
  });
  assertEquals(sample({ type: "object", properties, required: ["a"], maxProperties: 1 }), {
    a: "a",
  });

  const noRoom = unsatisfiable({ type: "object", required: ["z"], additionalProperties: false });
  assertEquals([noRoom.path, noRoom.reason], [
    "#/required",
    '"z" is required but no property schema allows it',
  ]);
  assertEquals(
    unsatisfiable({ type: "object", minProperties: 1, additionalProperties: false }).reason,
    "minProperties 1 needs more properties than it allows",
  );
  assertEquals(
    unsatisfiable({ type: "object", properties, required: ["a", "b"], maxProperties: 1 }).reason,
    "maxProperties 1 is below the 2 required properties",
  );
  assertEquals(
    unsatisfiable({
      type: "object",
      minProperties: 1,
      additionalProperties: { type: "string", minLength: 2, maxLength: 1 },
    }).path,
    "#/additionalProperties",
  );
});

Deno.test("sample() builds arrays from prefixItems, items and their bounds", () => {
  assertEquals(sample({ type: "array", prefixItems: [{ type: "integer" }, { type: "string" }] }), [
    0,
    "b",
  ]);
  assertEquals(sample({ type: "array", prefixItems: [{ const: 1 }], items: false }), [1]);
  assertEquals(sample({ type: "array", items: false }), []);
  assertEquals(sample({ type: "array" }), ["a"]);
  assertEquals(sample({ type: "array", items: { type: "boolean" }, minItems: 2 }), [false, true]);
  assertEquals(sample({ type: "array", items: { type: "string" }, minItems: 3 }), ["a", "b", "c"]);
  assertEquals(sample({ type: "array", items: { type: "string" }, maxItems: 0 }), []);
  assertEquals(
    unsatisfiable({ type: "array", prefixItems: [{ const: 1 }], items: false, minItems: 2 }).reason,
    "minItems 2 but items is false",
  );
  assertEquals(
    unsatisfiable({ type: "array", minItems: 3, maxItems: 2 }).reason,
    "minItems 3 is above maxItems 2",
  );
  assertEquals(
    unsatisfiable({ type: "array", prefixItems: [{ type: "string", minLength: 2, maxLength: 0 }] })
      .path,
    "#/prefixItems/0",
  );
  const notDistinct = unsatisfiable({
    type: "array",
    items: { const: "x" },
    minItems: 2,
    uniqueItems: true,
  });
  assertEquals([notDistinct.path, notDistinct.reason], ["#/items", "cannot make 2 distinct items"]);
});

Deno.test("sample() escapes property names in the path it reports", () => {
  const bad = { type: "string", minLength: 2, maxLength: 1 };
  assertEquals(
    unsatisfiable({ type: "object", properties: { "a/b": bad }, required: ["a/b"] }).path,
    "#/properties/a~1b",
  );
  assertEquals(
    unsatisfiable({ type: "object", properties: { "a~b": bad }, required: ["a~b"] }).path,
    "#/properties/a~0b",
  );
});

Deno.test("sample() picks strings that fit formats, lengths and patterns", async (t) => {
  await t.step("a format's candidates are held to the length too", () => {
    assertEquals(sample({ type: "string", format: "uri", maxLength: 19 }), "https://example.com");
    assertEquals(
      unsatisfiable({ type: "string", format: "email", minLength: 20 }).reason,
      'no "email" string fits length 20..Infinity',
    );
    assertEquals(
      unsatisfiable({ type: "string", format: "email", maxLength: 5 }).reason,
      'no "email" string fits length 0..5',
    );
    assertEquals(sample({ type: "string", format: "color" }), "a");
  });
  await t.step("keywords of the wrong type are ignored", () => {
    assertEquals(sample({ type: "string", format: ["email"], pattern: 5 }), "a");
  });
  await t.step("the plain candidates cover common shapes before a pattern is parsed", () => {
    // Each pattern has a group or a dot, which the pattern parser does not
    // handle, so the candidate list alone must supply the string.
    const cases: Array<[string, string]> = [
      ["^(a)$", "a"],
      ["^ex.mple$", "example"],
      ["^[A-Z].?$", "A"],
      ["^\\d.?$", "0"],
      ["^[a-z]\\d.?$", "a1"],
      ["^(aa)+$", "aa"],
      ["^a.b$", "a-b"],
      ["^a[_.]b$", "a_b"],
      ["^a\\.b.?$", "a.b"],
      ["^[^a-zA-Z0-9]*$", ""],
    ];
    for (const [pattern, expected] of cases) {
      // The second item, whose own letter ("b") fits none of them.
      assertEquals(
        sample({ type: "array", items: { type: "string", pattern }, minItems: 2 }),
        [expected, expected],
        pattern,
      );
    }
  });
  await t.step("a candidate is cut to maxLength to fit a pattern", () => {
    assertEquals(sample({ type: "string", pattern: "^ex", maxLength: 3 }), "exa");
    assertEquals(sample({ type: "string", pattern: "^ex", minLength: 8 }), "examplea");
  });
  await t.step("simple patterns are parsed when no candidate fits", () => {
    const cases: Array<[string, string]> = [
      ["^[e-z]+a", "example"],
      ["^[b-z]+\\d*$", "b"],
      ["x\\d\\d", "x00"],
      ["^\\d\\$", "0$"],
      ["^x\\dz", "x0z"],
      // A real bug: an escaped backslash before the end anchor read as an escaped `$`.
      ["^C:\\\\$", "C:\\"],
      ["^\\w\\s\\d$", "a 0"],
      ["^\\d\\.\\d\\d$", "0.00"],
      ["^\\][0-9]{2}$", "]00"],
      ["^[\\dA-F]{4}$", "0000"],
      ["^[\\w-]{5}$", "wwwww"],
      ["^[A-Z]+\\d$", "A0"],
      ["^x\\d*y$", "xy"],
      ["^x\\d?y$", "xy"],
      ["^x\\d{10}$", "x0000000000"],
      ["^x\\d{2,10}$", "x00"],
      ["^x\\d{2,}$", "x00"],
      ["^\\p{L}+$", "a"],
    ];
    for (const [pattern, expected] of cases) {
      assertEquals(sample({ type: "string", pattern }), expected, pattern);
    }
  });
  await t.step("a pattern beyond the simple subset is refused, not guessed", () => {
    for (
      const pattern of ["^\\D{5,}\\d$", "^[^a-z]{3}$", "^\\d.\\d{3}$", "^a{,3}$", "^(ab)$"]
    ) {
      const error = unsatisfiable({ type: "string", pattern });
      assertEquals(
        error.reason,
        `cannot generate a string matching pattern ${
          JSON.stringify(pattern)
        } within length 0..Infinity; give the tool a simpler schema or script the call`,
      );
    }
    assertStringIncludes(
      unsatisfiable({ type: "string", format: "email", pattern: "^x\\d.$" }).reason,
      'matching pattern "^x\\\\d.$" with format "email" within length 0..Infinity',
    );
  });
  await t.step("an invalid regular expression is named at its path", () => {
    const error = unsatisfiable({ type: "string", pattern: "((" });
    assertEquals([error.path, error.reason], [
      "#/pattern",
      '"((" is not a valid regular expression',
    ]);
  });
});

Deno.test("sample() picks numbers within every kind of bound", () => {
  const cases: Array<[Record<string, unknown>, number]> = [
    // An exclusive bound below the inclusive one does not loosen it.
    [{ type: "number", minimum: 5, exclusiveMinimum: 3 }, 5],
    [{ type: "integer", minimum: 3, exclusiveMinimum: 3 }, 4],
    [{ type: "integer", minimum: 0, exclusiveMinimum: true }, 1], // draft 4
    [{ type: "integer", maximum: -5, exclusiveMaximum: -3 }, -5],
    [{ type: "integer", maximum: -3, exclusiveMaximum: -3 }, -4],
    [{ type: "integer", maximum: 0, exclusiveMaximum: true }, -1], // draft 4
    [{ type: "integer", minimum: 2, maximum: 5, exclusiveMaximum: true }, 2],
    [{ type: "integer", exclusiveMaximum: -2 }, -3],
    [{ type: "number", exclusiveMinimum: -1, exclusiveMaximum: -0.5 }, -0.75],
    [{ type: "number", minimum: -1, exclusiveMaximum: -0.5 }, -1],
    [{ type: "number", exclusiveMinimum: 0, maximum: 1 }, 0.5],
    [{ type: "number", exclusiveMinimum: 1, maximum: 2 }, 1.5],
    [{ type: "number", minimum: 1.2345 }, 1.2345],
    [{ type: "number", exclusiveMinimum: 0, maximum: 0.001 }, 0.0005],
    // multipleOf: the nearest multiple inside the bounds, without float noise.
    [{ type: "number", multipleOf: 5, exclusiveMinimum: 10 }, 15],
    [{ type: "integer", multipleOf: 5, maximum: -3 }, -5],
    [{ type: "integer", multipleOf: 5, exclusiveMaximum: -5 }, -10],
    [{ type: "integer", multipleOf: 0.5, minimum: 0.2 }, 1],
    [{ type: "number", multipleOf: 0.1, minimum: 0.25 }, 0.3],
    [{ type: "number", multipleOf: 0.0001, minimum: 0.00025 }, 0.0003],
    // A multipleOf that is not a positive number is ignored.
    [{ type: "integer", multipleOf: -3, minimum: 1 }, 1],
    [{ type: "integer", multipleOf: "5", minimum: 1 }, 1],
    [{ type: "integer", multipleOf: 0, minimum: 1 }, 1],
  ];
  for (const [schema, expected] of cases) {
    assertEquals(sample(schema), expected, JSON.stringify(schema));
  }
  // The items of an array vary (0, 1, 2, …) where the bounds allow, else
  // fall back to zero before the edges.
  assertEquals(sample({ type: "array", items: { type: "integer" }, minItems: 3 }), [0, 1, 2]);
  assertEquals(
    sample({ type: "array", items: { type: "number", minimum: -10, maximum: 0.5 }, minItems: 2 }),
    [0, 0],
  );
});

Deno.test("sample() says which numbers it could not find", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ type: "integer", minimum: 10, maximum: 5 }, "no integer is >= 10 and <= 5"],
    [{ type: "number", exclusiveMinimum: 5, exclusiveMaximum: 5 }, "no number is > 5 and < 5"],
    [
      { type: "integer", multipleOf: 7, minimum: 1, maximum: 6 },
      "no integer is >= 1 and <= 6 and a multiple of 7",
    ],
    [{ type: "integer", minimum: 0.2, maximum: 0.8 }, "no integer is >= 0.2 and <= 0.8"],
  ];
  for (const [schema, reason] of cases) assertEquals(unsatisfiable(schema).reason, reason);
});

Deno.test("sample() gives a valid value for every string format it knows", async (t) => {
  // The first candidate, checked by zod's own validator for the format.
  const validators: Array<[string, z.ZodType]> = [
    ["email", z.email()],
    ["idn-email", z.email()],
    ["uri", z.url()],
    ["url", z.url()],
    ["uri-reference", z.url()],
    ["iri", z.url()],
    ["hostname", z.hostname()],
    ["idn-hostname", z.hostname()],
    ["date", z.iso.date()],
    ["date-time", z.iso.datetime()],
    ["time", z.iso.time()],
    ["duration", z.iso.duration()],
    ["uuid", z.uuid()],
    ["guid", z.guid()],
    ["ipv4", z.ipv4()],
    ["ipv6", z.ipv6()],
    ["cidrv4", z.cidrv4()],
    ["cidrv6", z.cidrv6()],
    ["base64", z.base64().min(1)],
    ["base64url", z.base64url().min(1)],
    ["json-pointer", z.string().regex(/^(\/([^~/]|~[01])*)*$/).min(1)],
    ["regex", z.string().min(1).refine((s) => new RegExp(s) instanceof RegExp)],
    ["emoji", z.emoji()],
    ["nanoid", z.nanoid()],
    ["cuid", z.cuid()],
    ["cuid2", z.cuid2()],
    ["ulid", z.ulid()],
    ["e164", z.e164()],
    ["jwt", z.jwt()],
  ];
  for (const [format, validator] of validators) {
    await t.step(format, () => {
      const value = sample({ type: "string", format });
      const r = validator.safeParse(value);
      assert(r.success, `${format}: ${JSON.stringify(value)}: ${r.error?.message}`);
    });
  }
  await t.step("the next candidate where the length rules the first out", () => {
    const cases: Array<[string, Record<string, number>, string]> = [
      ["email", { maxLength: 13 }, "a@example.com"],
      ["url", { maxLength: 19 }, "https://example.com"],
      ["uri-reference", { maxLength: 2 }, "/a"],
      ["date-time", { minLength: 21 }, "2024-01-01T00:00:00.000Z"],
      ["date-time", { maxLength: 19 }, "2024-01-01T00:00:00"],
      ["time", { minLength: 9 }, "00:00:00Z"],
      ["time", { maxLength: 5 }, "00:00"],
      ["duration", { minLength: 4 }, "PT1S"],
      ["base64", { maxLength: 0 }, ""],
      ["base64url", { maxLength: 0 }, ""],
      ["json-pointer", { maxLength: 0 }, ""],
      ["regex", { minLength: 2 }, ".*"],
    ];
    for (const [format, length, expected] of cases) {
      assertEquals(sample({ type: "string", format, ...length }), expected, format);
    }
    assert(z.iso.datetime({ local: true }).safeParse("2024-01-01T00:00:00").success);
    assert(z.iso.time().safeParse("00:00").success);
    assert(z.iso.datetime().safeParse("2024-01-01T00:00:00.000Z").success);
  });
});

Deno.test("sample() holds every part of allOf, not only the last", async (t) => {
  await t.step("bounds take the stricter value", () => {
    // A real bug: the later part's bound replaced the earlier one, so
    // z.intersection(z.number().min(5), z.number().min(3)) sampled 3.
    const intersection = z.intersection(z.number().min(5), z.number().min(3));
    assertEquals(valid(intersection), 5);
    const cases: Array<[unknown[], unknown]> = [
      [[{ type: "integer", minimum: 5 }, { minimum: 3 }], 5],
      [[{ type: "integer", maximum: -5 }, { maximum: -3 }], -5],
      [[{ type: "integer", exclusiveMinimum: 5 }, { exclusiveMinimum: 3 }], 6],
      [[{ type: "integer", exclusiveMaximum: -5 }, { exclusiveMaximum: -3 }], -6],
      [[{ type: "string", minLength: 3 }, { minLength: 2 }], "aaa"],
      [[{ type: "string", maxLength: 2, pattern: "^ex" }, { maxLength: 3 }], "ex"],
      [[{ type: "array", minItems: 3 }, { minItems: 2 }], ["a", "a", "a"]],
      [[{ type: "array", maxItems: 0 }, { maxItems: 2 }], []],
      [[{ type: "object", minProperties: 2 }, { minProperties: 1 }], { key1: "a", key2: "a" }],
    ];
    for (const [allOf, expected] of cases) {
      assertEquals(sample({ allOf }), expected, JSON.stringify(allOf));
    }
    const tooFew = unsatisfiable({
      allOf: [{ type: "object", required: ["a", "b"] }, { maxProperties: 1 }, { maxProperties: 3 }],
    });
    assertEquals(tooFew.reason, "maxProperties 1 is below the 2 required properties");
  });
  await t.step("multipleOf takes a multiple of both", () => {
    assertEquals(sample({ allOf: [{ multipleOf: 4 }, { multipleOf: 6 }], minimum: 1 }), 12);
    assertEquals(sample({ allOf: [{ multipleOf: 6 }, { multipleOf: 3 }], minimum: 1 }), 6);
    assertEquals(sample({ allOf: [{ multipleOf: 3 }, { multipleOf: 6 }], minimum: 1 }), 6);
    assertEquals(sample({ allOf: [{ multipleOf: 0.5 }, { multipleOf: 0.25 }], minimum: 0.3 }), 0.5);
    assertEquals(sample({ allOf: [{ multipleOf: 0.25 }, { multipleOf: 0.5 }], minimum: 0.3 }), 0.5);
    assertEquals(sample({ allOf: [{ multipleOf: 3 }, { minimum: 1 }] }), 3);
    assertEquals(
      unsatisfiable({ allOf: [{ multipleOf: 2 }, { multipleOf: 0.3 }] }).reason,
      "cannot combine multipleOf 2 and 0.3",
    );
    const error = unsatisfiable({ allOf: [{ multipleOf: 0.3 }, { multipleOf: 0.5 }], minimum: 1 });
    assertEquals([error.path, error.reason], [
      "#/allOf/1",
      "cannot combine multipleOf 0.3 and 0.5",
    ]);
  });
  await t.step("types meet in their common one", () => {
    assertEquals(sample({ allOf: [{ type: "number" }, { type: "integer", minimum: 0.5 }] }), 1);
    assertEquals(sample({ allOf: [{ type: "integer", minimum: 0.5 }, { type: "number" }] }), 1);
    assertEquals(
      sample({ allOf: [{ type: ["string", "null"] }, { type: ["null", "boolean"] }] }),
      null,
    );
    assertEquals(
      sample({ allOf: [{ type: ["integer", "string"] }, { type: ["number", "string"] }] }),
      0,
    );
    // The first common type that is not null is sampled.
    assertEquals(
      sample({ allOf: [{ type: ["null", "string"] }, { type: ["string", "null"] }] }),
      "a",
    );
    assertEquals(
      unsatisfiable({ allOf: [{ type: "integer" }, { type: "string" }] }).reason,
      'allOf asks for type "integer" and "string"',
    );
    const error = unsatisfiable({ allOf: [{ type: "string" }, { type: ["boolean", "null"] }] });
    assertEquals([error.path, error.reason], [
      "#/allOf/1",
      'allOf asks for type "string" and ["boolean","null"]',
    ]);
  });
  await t.step("a property, items or additionalProperties in both parts holds both", () => {
    const schema = {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string", minLength: 2 } },
        name: { type: "string" },
      },
      required: ["tags"],
      allOf: [
        { properties: { tags: { items: { maxLength: 3 } }, id: { const: 1 } }, required: ["id"] },
      ],
    };
    assertEquals(sample(schema), { tags: ["aa"], id: 1 });
    assertEquals(
      sample({
        allOf: [
          { type: "object", minProperties: 1, additionalProperties: { type: "integer" } },
          { additionalProperties: { minimum: 4.5 } },
        ],
      }),
      { key1: 5 },
    );
    assertEquals(
      sample({
        allOf: [{ properties: { a: true } }, { properties: { a: { const: 2 } } }],
        required: ["a"],
      }),
      { a: 2 },
    );
    assertEquals(
      sample({
        allOf: [{ properties: { a: { const: 2 } } }, { properties: { a: true } }],
        required: ["a"],
      }),
      { a: 2 },
    );
    assertEquals(
      unsatisfiable({
        allOf: [{ properties: { a: { const: 2 } } }, { properties: { a: false } }],
        required: ["a"],
      }).path,
      "#/required",
    );
    assertEquals(
      unsatisfiable({
        allOf: [{ properties: { a: false } }, { properties: { a: { const: 2 } } }],
        required: ["a"],
      }).path,
      "#/required",
    );
    assertEquals(
      sample({ type: "array", allOf: [{ items: { type: "integer" } }, { items: { minimum: 3 } }] }),
      [3],
    );
    assertEquals(
      sample({ type: "array", allOf: [{ items: false }, { items: { minimum: 3 } }] }),
      [],
    );
    assertEquals(sample({ allOf: [{ type: "array", items: { const: 1 } }, { minItems: 2 }] }), [
      1,
      1,
    ]);
  });
  await t.step("nested allOf and allOf through $refs merge all the way down", () => {
    assertEquals(
      sample({ allOf: [{ allOf: [{ type: "integer" }, { minimum: 0.5 }] }, { maximum: 9 }] }),
      1,
    );
    assertEquals(
      sample({
        $defs: { base: { allOf: [{ type: "integer" }, { minimum: 4 }] } },
        allOf: [{ $ref: "#/$defs/base", maximum: 9 }, { exclusiveMinimum: 4 }],
      }),
      5,
    );
    assertEquals(
      unsatisfiable({ $defs: { never: false }, allOf: [{ $ref: "#/$defs/never" }] }).path,
      "#/allOf/0",
    );
    assertEquals(
      sample({ $defs: { any: true }, allOf: [{ $ref: "#/$defs/any" }, { minimum: 2 }] }),
      2,
    );
    // 100 allOf inside one another still merge; the 101st is over the depth limit.
    const chain = (n: number): unknown => {
      let schema: unknown = { type: "integer", minimum: 3 };
      for (let i = 0; i < n; i++) schema = { allOf: [schema] };
      return schema;
    };
    assertEquals(sample(chain(LIMITS.depth)), 3);
    assertEquals(
      assertThrows(() => sample(chain(LIMITS.depth + 1)), SchemaLimitExceeded).keyword,
      "allOf",
    );
    assertStringIncludes(
      unsatisfiable({ allOf: [{ $ref: "#" }] }).reason,
      "the schema recurses without an end",
    );
  });
  await t.step("an anyOf branch holds with the schema around it", () => {
    assertEquals(
      sample({ type: "integer", minimum: 3, anyOf: [{ type: "string" }, { maximum: 5 }] }),
      3,
    );
    assertEquals(
      unsatisfiable({ type: "null", anyOf: [{ type: "string" }] }).reason,
      'no branch of anyOf can be satisfied (at #/anyOf/0: allOf asks for type "null" and "string")',
    );
  });
});

Deno.test("sample() follows a $ref to a $ref, and to a boolean schema", () => {
  assertEquals(
    sample({
      $defs: { A: { $ref: "#/$defs/B" }, B: { type: "integer", minimum: 4 } },
      $ref: "#/$defs/A",
    }),
    4,
  );
  assertEquals(
    sample({
      $defs: { A: { $ref: "#/$defs/B" }, B: { type: "integer" } },
      $ref: "#/$defs/A",
      minimum: 2,
    }),
    2,
  );
  assertEquals(
    unsatisfiable({ $defs: { never: false }, $ref: "#/$defs/never" }).reason,
    "the schema is false (nothing is valid)",
  );
  assertEquals(sample({ $defs: { any: true }, $ref: "#/$defs/any", minimum: 3 }), 3);
  assertEquals(
    unsatisfiable({ $defs: { odd: 5 }, $ref: "#/$defs/odd" }).reason,
    "a schema must be an object, got 5",
  );
});

Deno.test("sample() merges allOf parts keyword by keyword", async (t) => {
  await t.step("two patterns must both match", () => {
    assertEquals(sample({ allOf: [{ type: "string", pattern: "1" }, { pattern: "^a" }] }), "a1");
    // The same pattern twice stays one the pattern parser can read.
    assertEquals(
      sample({ allOf: [{ type: "string", pattern: "^x\\d{3}$" }, { pattern: "^x\\d{3}$" }] }),
      "x000",
    );
    assertStringIncludes(
      unsatisfiable({ allOf: [{ type: "string", pattern: "^[a-z]+$" }, { pattern: "\\d" }] })
        .reason,
      "cannot generate a string matching pattern",
    );
  });
  await t.step("prefixItems meet the other part's items, position by position", () => {
    assertEquals(
      sample({
        allOf: [
          { type: "array", prefixItems: [{ type: "integer" }], items: false },
          { items: { minimum: 3 } },
        ],
      }),
      [3],
    );
    assertEquals(
      sample({
        allOf: [{ type: "array", items: { type: "string" } }, { prefixItems: [{ minLength: 2 }] }],
      }),
      ["aa"],
    );
    assertEquals(
      sample({ allOf: [{ prefixItems: [{ const: 1 }] }, { prefixItems: [true, { const: 2 }] }] }),
      [1, 2],
    );
  });
  await t.step("a property one part names is an additional property for the other", () => {
    const named = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    assertEquals(sample({ allOf: [named, { additionalProperties: { minLength: 2 } }] }), {
      a: "aa",
    });
    assertEquals(sample({ allOf: [{ additionalProperties: { minLength: 2 } }, named] }), {
      a: "aa",
    });
    assertEquals(
      unsatisfiable({ allOf: [named, { additionalProperties: false }] }).path,
      "#/required",
    );
    assertEquals(
      unsatisfiable({ allOf: [named, { properties: { a: { minLength: 3, maxLength: 1 } } }] }).path,
      "#/properties/a",
    );
    assertEquals(
      unsatisfiable({
        allOf: [named, { properties: { b: { minLength: 3, maxLength: 1 } } }],
        required: ["b"],
      })
        .path,
      "#/properties/b",
    );
  });
  await t.step("additionalProperties of one part stays when the other has none", () => {
    assertEquals(
      sample({
        allOf: [
          { type: "object", minProperties: 1, additionalProperties: { type: "integer" } },
          { maxProperties: 3 },
        ],
      }),
      { key1: 1 },
    );
  });
  await t.step("two anyOf (or oneOf) lists take the pairs that agree", () => {
    for (const key of ["anyOf", "oneOf"]) {
      const schema = {
        allOf: [
          { [key]: [{ type: "string" }, { type: "integer", maximum: 5 }] },
          {
            [key]: [
              { type: "null" },
              { type: "integer", minimum: 7 },
              { type: "integer", minimum: 4 },
            ],
          },
        ],
      };
      assertEquals(sample(schema), 4, key);
    }
  });
  await t.step("uniqueItems from either part holds", () => {
    const schema = { type: "array", items: { const: "x" }, minItems: 2, uniqueItems: true };
    assertEquals(
      unsatisfiable({ allOf: [schema, { uniqueItems: false }] }).reason,
      "cannot make 2 distinct items",
    );
  });
});

// Hand-written JSON Schemas (no oneOf, whose exclusivity the generator does
// not attempt, and no const or enum, which it takes as they are): every
// sample validates, or the schema is reported unsatisfiable.
const jsonLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(true),
  fc.constantFrom({ type: "string" }, { type: "boolean" }, { type: "null" }),
  fc.record({ type: fc.constant("string"), minLength: fc.nat(4), maxLength: fc.nat(6) }, {
    requiredKeys: ["type"],
  }),
  fc.record({
    type: fc.constant("string"),
    pattern: fc.constantFrom("^[a-z]+$", "^\\d{3}$", "^[A-Z]{2}-\\d+$", "^a\\.b$", "\\d"),
  }),
  fc.record({
    type: fc.constantFrom("integer", "number"),
    minimum: fc.integer({ min: -20, max: 20 }),
    maximum: fc.integer({ min: -20, max: 20 }),
    exclusiveMinimum: fc.integer({ min: -20, max: 20 }),
    exclusiveMaximum: fc.integer({ min: -20, max: 20 }),
    multipleOf: fc.constantFrom(1, 2, 3, 0.5, 0.25),
  }, { requiredKeys: ["type"] }),
);
const jsonSchema: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    jsonLeaf,
    fc.record({
      type: fc.constant("object"),
      properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node"), { maxKeys: 3 }),
      required: fc.uniqueArray(fc.constantFrom("a", "b", "c"), { maxLength: 3 }),
      minProperties: fc.nat(3),
      maxProperties: fc.nat(4),
      additionalProperties: fc.oneof(fc.boolean(), tie("node")),
    }, { requiredKeys: ["type"] }),
    fc.record({
      type: fc.constant("array"),
      items: tie("node"),
      prefixItems: fc.array(tie("node"), { maxLength: 2 }),
      minItems: fc.nat(3),
      maxItems: fc.nat(4),
      uniqueItems: fc.boolean(),
    }, { requiredKeys: ["type"] }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

Deno.test("sample() output validates against random hand-written JSON Schemas (property)", () => {
  fc.assert(
    fc.property(jsonSchema, (schema) => {
      let value: unknown;
      try {
        value = sample(schema);
      } catch (error) {
        if (error instanceof SchemaUnsatisfiable) return;
        throw error;
      }
      const r = z.fromJSONSchema(schema as never).safeParse(value);
      assert(
        r.success,
        `${JSON.stringify(value)} fails ${JSON.stringify(schema)}: ${r.error?.message}`,
      );
    }),
    { numRuns: 400, seed: 20261201 },
  );
});

Deno.test("sample() takes a const or an enum value only of the type asked for", () => {
  const cases: Array<[unknown, unknown]> = [
    [{ type: "string", const: "v1" }, "v1"],
    [{ type: ["integer", "string"], enum: [1.5, "x", 2] }, "x"],
    [{ allOf: [{ type: "integer" }, { enum: ["x", 2.5, 3] }] }, 3],
    [{ type: "number", enum: ["1", 1.5] }, 1.5],
    [{ type: "boolean", enum: [0, false] }, false],
    [{ type: "null", enum: [0, "", null] }, null],
    [{ type: "array", enum: [{ a: 1 }, [1]] }, [1]],
    [{ type: "object", enum: [[1], null, { a: 1 }] }, { a: 1 }],
    [{ enum: ["x", 2] }, "x"],
  ];
  for (const [schema, expected] of cases) {
    assertEquals(sample(schema), expected, JSON.stringify(schema));
  }
  // The items of an array take the values that fit, in turn.
  assertEquals(
    sample({ type: "array", items: { type: "integer", enum: [1, "a", 2] }, minItems: 3 }),
    [1, 2, 1],
  );
  assertEquals(
    unsatisfiable({ allOf: [{ type: "integer" }, { const: "x" }] }).reason,
    'const "x" is not of type "integer"',
  );
  assertEquals(
    unsatisfiable({ type: "object", enum: [null, [1]] }).reason,
    'no enum value is of type "object"',
  );
  assertEquals(unsatisfiable({ type: "string", enum: [] }).reason, "enum is empty");
});
