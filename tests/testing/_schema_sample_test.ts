import { assert, assertEquals, assertThrows } from "@std/assert";
import fc from "fast-check";
import { z } from "zod";
import { sample, SchemaUnsatisfiable } from "../../testing/_schema_sample.ts";

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
