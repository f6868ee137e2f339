import { assertEquals, assertThrows } from "@std/assert";
import { bound, Budget, keywordAt, LIMITS } from "../../../testing/llm/_schema_limits.ts";
import { SchemaLimitExceeded } from "../../../testing/llm/schema_limit_exceeded.ts";

Deno.test("keywordAt() names the last keyword of a path, not a property name or an index", () => {
  const cases: Array<[string, string]> = [
    ["#", "schema"],
    ["#/minLength", "minLength"],
    ["#/anyOf/2", "anyOf"],
    ["#/properties/name", "properties"],
    ["#/properties/anyOf", "properties"],
    ["#/properties/anyOf/oneOf/1", "oneOf"],
    ["#/$defs/items/items", "items"],
    ["#/patternProperties/^x-/minLength", "minLength"],
    ["#/definitions/a~1b", "definitions"],
    ["#/dependentSchemas/a/not", "not"],
    ["#/dependencies/a", "dependencies"],
    ["#/enum/49999", "enum"],
    ["#/const/0/0", "const"],
    ["#/items/not", "not"],
    ["#/$defs/anyOf", "$defs"],
    ["#/patternProperties/not", "patternProperties"],
    ["#/dependentSchemas/items", "dependentSchemas"],
    ["#/a1", "a1"],
    ["#/1a", "1a"],
    ["#/a~1b", "a/b"],
    ["#/a~0b", "a~b"],
  ];
  for (const [path, keyword] of cases) assertEquals(keywordAt(path), keyword, path);
});

Deno.test("bound() throws only above the limit, with every detail", () => {
  bound("minItems", "#", 1000, 1000, "items in one array");
  const error = assertThrows(
    () => bound("minItems", "#/items", 1001, 1000, "items in one array"),
    SchemaLimitExceeded,
  );
  assertEquals([error.keyword, error.path, error.value, error.limit, error.measure], [
    "minItems",
    "#/items",
    1001,
    1000,
    "items in one array",
  ]);
});

Deno.test("Budget counts steps and characters, and throws past the limit at the path it ran out", () => {
  const budget = new Budget();
  budget.step("#");
  budget.step("#", 9);
  assertEquals(budget.steps, 10);
  budget.step("#", LIMITS.steps - 10);
  const steps = assertThrows(() => budget.step("#/anyOf/1"), SchemaLimitExceeded);
  assertEquals([steps.keyword, steps.path, steps.value, steps.limit, steps.measure], [
    "anyOf",
    "#/anyOf/1",
    LIMITS.steps + 1,
    LIMITS.steps,
    "steps of work",
  ]);
  const chars = new Budget();
  chars.characters("#", LIMITS.characters);
  const error = assertThrows(() => chars.characters("#/items", 1), SchemaLimitExceeded);
  assertEquals([error.keyword, error.value, error.limit, error.measure], [
    "items",
    LIMITS.characters + 1,
    LIMITS.characters,
    "characters of output",
  ]);
});

Deno.test("LIMITS are the documented ones", () => {
  assertEquals(LIMITS, {
    stringLength: 10_000,
    items: 1_000,
    properties: 1_000,
    depth: 100,
    nesting: 500,
    schemaNodes: 50_000,
    steps: 100_000,
    characters: 1_000_000,
    tries: 12,
  });
});
