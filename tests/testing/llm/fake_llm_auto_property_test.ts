// Random schemas, built from fragments with every keyword FakeLLM.auto
// reads: each gives a value a validator of the test's own accepts, or the
// clear error (unsatisfiable, or over a limit, with the path), never
// anything else, and within the budget.
import { assert, assertEquals, assertGreater } from "@std/assert";
import fc from "fast-check";
import { Validator } from "@cfworker/json-schema";
import { sample, SchemaUnsatisfiable } from "../../../testing/llm/_schema_sample.ts";
import { Budget, LIMITS } from "../../../testing/llm/_schema_limits.ts";
import { SchemaLimitExceeded } from "../../../testing/llm/schema_limit_exceeded.ts";

type Json = unknown;

const small = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom("a", "b", "x_1"),
  fc.boolean(),
);
const name = fc.constantFrom("a", "b", "x_1", "x_2", "n");

const leaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(true, false, {}),
  fc.constantFrom("string", "integer", "number", "boolean", "null", "object", "array").map((
    type,
  ) => ({
    type,
  })),
  small.map((c) => ({ const: c })),
  fc.uniqueArray(small, { minLength: 1, maxLength: 4 }).map((e) => ({ enum: e })),
  fc.record({
    type: fc.constant("string"),
    minLength: fc.nat(4),
    maxLength: fc.nat(6),
    pattern: fc.constantFrom("^a", "b", "^[a-z]+$", "^x_\\d$", "\\d"),
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constantFrom("integer", "number"),
    minimum: fc.integer({ min: -5, max: 5 }),
    maximum: fc.integer({ min: -5, max: 5 }),
    exclusiveMinimum: fc.integer({ min: -5, max: 5 }),
    multipleOf: fc.constantFrom(1, 2, 0.5),
  }, { requiredKeys: ["type"] }),
  fc.constantFrom("#/$defs/A", "#/$defs/B", "#anchorB", "#").map(($ref) => ({ $ref })),
);

const { node } = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    tie("node").map((not) => ({ not })),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((allOf) => ({ allOf })),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })),
    fc.record({ if: tie("node"), then: tie("node"), else: tie("node") }, { requiredKeys: ["if"] }),
    fc.record({
      type: fc.constant("object"),
      properties: fc.dictionary(name, tie("node"), { maxKeys: 3 }),
      required: fc.uniqueArray(name, { maxLength: 3 }),
      additionalProperties: fc.oneof(fc.boolean(), tie("node")),
      patternProperties: fc.dictionary(fc.constantFrom("^x_", "^n$"), tie("node"), { maxKeys: 2 }),
      propertyNames: fc.constantFrom<Json>({ pattern: "^[a-z_0-9]+$" }, { maxLength: 3 }, {
        enum: ["a", "b", "x_1"],
      }),
      dependentRequired: fc.dictionary(name, fc.uniqueArray(name, { maxLength: 2 }), {
        maxKeys: 2,
      }),
      dependentSchemas: fc.dictionary(name, tie("node"), { maxKeys: 1 }),
      minProperties: fc.nat(3),
      maxProperties: fc.nat(4),
    }, { requiredKeys: ["type"] }),
    fc.record({
      type: fc.constant("array"),
      items: tie("node"),
      prefixItems: fc.array(tie("node"), { maxLength: 2 }),
      contains: tie("node"),
      minContains: fc.nat(2),
      maxContains: fc.nat(3),
      minItems: fc.nat(3),
      maxItems: fc.nat(4),
      uniqueItems: fc.boolean(),
    }, { requiredKeys: ["type"] }),
  ),
}));

// A root with two definitions to $ref, one by its $anchor.
const schemas = fc.tuple(node, node, node).map(([root, a, b]) => ({
  $defs: {
    A: a,
    B: typeof b === "object" && b !== null ? { ...b, $anchor: "anchorB" } : { $anchor: "anchorB" },
  },
  ...(typeof root === "object" && root !== null ? root : { allOf: [root] }),
}));

Deno.test("FakeLLM.auto gives random schemas a valid value or the clear error, within the budget (property)", () => {
  const outcomes = { valid: 0, unsatisfiable: 0, limit: 0 };
  fc.assert(
    fc.property(schemas, (schema) => {
      const budget = new Budget();
      let value: unknown;
      try {
        value = sample(schema, budget);
      } catch (error) {
        if (error instanceof SchemaLimitExceeded) outcomes.limit++;
        else if (error instanceof SchemaUnsatisfiable) outcomes.unsatisfiable++;
        else throw error;
        assert(error.message.startsWith("at #"), error.message);
        return;
      }
      const result = new Validator(structuredClone(schema) as never, "2020-12").validate(value);
      assert(
        result.valid,
        `${JSON.stringify(value)} fails ${JSON.stringify(schema)}: ${
          JSON.stringify(result.errors)
        }`,
      );
      assert(budget.steps <= LIMITS.steps);
      // Deterministic: the same schema, the same value.
      assertEquals(sample(schema), value);
      outcomes.valid++;
    }),
    { numRuns: 300, seed: 20261202 },
  );
  // Not vacuous: most random schemas get a value.
  assertGreater(outcomes.valid, outcomes.unsatisfiable + outcomes.limit, JSON.stringify(outcomes));
});
