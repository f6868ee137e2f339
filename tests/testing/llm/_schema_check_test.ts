import { assertEquals, assertThrows } from "@std/assert";
import { Checker } from "../../../testing/llm/_schema_check.ts";
import { prepare } from "../../../testing/llm/_schema_copy.ts";
import { Budget, LIMITS } from "../../../testing/llm/_schema_limits.ts";
import { SchemaLimitExceeded } from "../../../testing/llm/schema_limit_exceeded.ts";

function checker(schema: unknown, budget = new Budget()) {
  const { root, lookup } = prepare(schema);
  return { root, check: new Checker(lookup, budget), budget };
}

Deno.test("Checker.problem() is undefined for a valid value, else the innermost error with both paths", () => {
  const { root, check } = checker({
    type: "object",
    properties: { port: { type: "integer", maximum: 10 } },
  });
  assertEquals(check.problem({ port: 3 }, root, "#"), undefined);
  assertEquals(
    check.problem({ port: 30 }, root, "#"),
    "the value at #/port fails #/properties/port/maximum: 30 is greater than 10.",
  );
  // A part checked on its own is named by its place in the whole schema.
  assertEquals(
    check.problem("x", { type: "integer" }, "#/properties/port"),
    'the value fails #/properties/port/type: Instance type "string" is invalid. Expected "integer".',
  );
});

Deno.test("Checker.problem() pays for the value's size and each $ref from the budget", () => {
  const { root, check, budget } = checker({
    $defs: { n: { type: "integer" } },
    type: "array",
    items: { $ref: "#/$defs/n" },
  });
  assertEquals(check.problem([1, 2, 3], root, "#"), undefined);
  // 4 values, and a $ref looked up for each of the 3 items.
  assertEquals(budget.steps, 7);
  const poor = new Budget();
  poor.step("#", LIMITS.steps - 2);
  const { root: again, check: tight } = checker(
    { $defs: { n: {} }, items: { $ref: "#/$defs/n" } },
    poor,
  );
  const error = assertThrows(() => tight.problem([1], again, "#/x"), SchemaLimitExceeded);
  assertEquals([error.keyword, error.path], ["$ref", "#/x/$ref"]);
});

Deno.test("Checker.problem() reads a merge's unstamped $ref against the root", () => {
  const { check } = checker({ $defs: { n: { type: "integer" } } });
  assertEquals(check.problem(1, { allOf: [{ $ref: "#/$defs/n" }] }, "#"), undefined);
  assertEquals(
    check.problem("a", { allOf: [{ $ref: "#/$defs/n" }] }, "#"),
    'the value fails #/allOf/0/$ref/type: Instance type "string" is invalid. Expected "integer".',
  );
});

Deno.test("Checker.problem() says so when a $ref cycle keeps the validator from finishing", () => {
  const { root, check } = checker({ not: { $ref: "#" } });
  const problem = check.problem(1, root, "#") ?? "";
  assertEquals(
    problem.replace(/\(.*\)/, "(…)"),
    "the validator cannot finish (…): a cycle of $refs returns to the same value without a keyword that steps into it; break the cycle",
  );
});
