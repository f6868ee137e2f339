import { assertEquals, assertThrows } from "@std/assert";
import { AND, both, isObject, mergeTwo, same } from "../../../testing/llm/_schema_merge.ts";
import { LOOSE_PATTERN } from "../../../testing/llm/_schema_copy.ts";
import { SchemaUnsatisfiable } from "../../../testing/llm/_schema_unsatisfiable.ts";

const merge = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  mergeTwo(a, b, "#/allOf/1");

Deno.test("mergeTwo() takes the stricter bound of every kind, contains' counts included", () => {
  assertEquals(
    merge(
      { minimum: 1, maximum: 9, minLength: 2, maxItems: 5, minContains: 1, maxContains: 4 },
      { minimum: 3, maximum: 7, minLength: 1, maxItems: 6, minContains: 2, maxContains: 3 },
    ),
    { minimum: 3, maximum: 7, minLength: 2, maxItems: 5, minContains: 2, maxContains: 3 },
  );
});

Deno.test("mergeTwo() meets const and enum: the values both allow", () => {
  assertEquals(merge({ enum: [1, 2, { a: 1 }] }, { enum: [{ a: 1 }, 2, 3] }).enum, [2, { a: 1 }]);
  assertEquals(merge({ const: [1] }, { const: [1] }).const, [1]);
  const error = assertThrows(() => merge({ const: 1 }, { const: "1" }), SchemaUnsatisfiable);
  assertEquals([error.path, error.reason], ["#/allOf/1", 'allOf asks for const 1 and "1"']);
});

Deno.test("mergeTwo() holds both schemas of propertyNames, contains, patternProperties and dependentSchemas", () => {
  const out = merge(
    {
      propertyNames: { maxLength: 3 },
      contains: { type: "integer" },
      patternProperties: { "^a": { type: "string" } },
      dependentSchemas: { a: { required: ["b"] } },
    },
    {
      propertyNames: { pattern: "^x" },
      contains: { minimum: 2 },
      patternProperties: { "^a": { minLength: 2 }, "^b": true },
      dependentSchemas: { c: { required: ["d"] } },
    },
  );
  assertEquals(out, {
    propertyNames: { allOf: [{ maxLength: 3 }, { pattern: "^x" }] },
    contains: { allOf: [{ type: "integer" }, { minimum: 2 }] },
    patternProperties: { "^a": { allOf: [{ type: "string" }, { minLength: 2 }] }, "^b": true },
    dependentSchemas: { a: { required: ["b"] }, c: { required: ["d"] } },
  });
  assertEquals(
    merge({ dependentRequired: { a: ["b"] } }, { dependentRequired: { a: ["c"], d: ["e"] } })
      .dependentRequired,
    { a: ["b", "c"], d: ["e"] },
  );
});

Deno.test("mergeTwo() defers a second anyOf, oneOf or if, to be merged once a branch is chosen", () => {
  const out = merge(
    {
      anyOf: [{ type: "string" }],
      oneOf: [{ minLength: 1 }],
      if: { type: "string" },
      then: { minLength: 2 },
    },
    {
      anyOf: [{ type: "integer" }],
      oneOf: [{ minimum: 1 }],
      if: { type: "integer" },
      else: { const: 1 },
    },
  );
  assertEquals(
    [out.anyOf, out.oneOf, out.if, out.then, out.else],
    [[{ type: "string" }], [{ minLength: 1 }], { type: "string" }, { minLength: 2 }, undefined],
  );
  assertEquals(out[AND], [
    { anyOf: [{ type: "integer" }] },
    { oneOf: [{ minimum: 1 }] },
    { if: { type: "integer" }, else: { const: 1 } },
  ]);
  // A then without its if is dropped; one part's if keeps its own then and else.
  assertEquals(merge({ then: { const: 1 } }, { minimum: 0 }), { minimum: 0 });
  assertEquals(merge({ minimum: 0 }, { if: true, then: false }), {
    minimum: 0,
    if: true,
    then: false,
  });
  // Deferred parts of either side are kept, and an empty list is not left behind.
  assertEquals(merge({ [AND]: [{ anyOf: [true] }] }, { [AND]: [{ oneOf: [true] }] })[AND], [
    { anyOf: [true] },
    { oneOf: [true] },
  ]);
  assertEquals(AND in merge({ [AND]: [] }, {}), false);
});

Deno.test("mergeTwo() joins two patterns in lookaheads, loose when either is", () => {
  assertEquals(
    merge({ pattern: "^a" }, { pattern: "b$" }).pattern,
    "^(?=[\\s\\S]*?(?:^a))(?=[\\s\\S]*?(?:b$))",
  );
  assertEquals(merge({ pattern: "^a" }, { pattern: "^a" }).pattern, "^a");
  const loose = merge({ pattern: "^a" }, { [LOOSE_PATTERN]: "^b{,2}" });
  assertEquals([loose.pattern, loose[LOOSE_PATTERN]], [
    undefined,
    "^(?=[\\s\\S]*?(?:^a))(?=[\\s\\S]*?(?:^b{,2}))",
  ]);
});

Deno.test("both(), isObject() and same() read schemas as JSON Schema does", () => {
  assertEquals([both(true, 1), both(2, true), both(false, {}), both({}, false)], [
    1,
    2,
    false,
    false,
  ]);
  assertEquals(both({ a: 1 }, { b: 2 }), { allOf: [{ a: 1 }, { b: 2 }] });
  assertEquals([isObject({}), isObject([]), isObject(null), isObject(true)], [
    true,
    false,
    false,
    false,
  ]);
  assertEquals([same(1, 1), same({ a: [1] }, { a: [1] }), same(1, "1")], [true, true, false]);
});
