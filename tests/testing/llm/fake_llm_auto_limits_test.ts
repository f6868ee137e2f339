// The audit's bombs: schemas that ran out of memory, went quadratic or
// exponential inside FakeLLM.auto, synchronously, where no test timeout
// fires. Each now throws at once an error naming the keyword, the path,
// the value and the limit. Nothing here is timed: that it returns at all
// is the point, and the budget bounds the work.
import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import { FakeLLM, InvalidScript, SchemaLimitExceeded } from "@agentkit/testing/testing";
import type { JsonSchema } from "@agentkit/testing/ports";
import { HarnessError } from "@agentkit/testing/runtime";
import { sample } from "../../../testing/llm/_schema_sample.ts";
import { Budget, LIMITS } from "../../../testing/llm/_schema_limits.ts";

function limit(schema: unknown): SchemaLimitExceeded {
  return assertThrows(() => sample(schema), SchemaLimitExceeded);
}

function ask(llm: FakeLLM, parameters: JsonSchema) {
  return llm.chat({
    model: "m",
    messages: [{ role: "user", content: "go" }],
    tools: [{ name: "search", description: "", parameters }],
  });
}

Deno.test("FakeLLM.auto refuses a string, an array or an object too large to build, at once", async (t) => {
  const cases: Array<[string, unknown, string, string, number, number]> = [
    ["minLength 1e9", { type: "string", minLength: 1e9 }, "minLength", "#", 1e9, 10_000],
    ["minItems 1e8", { type: "array", minItems: 1e8 }, "minItems", "#", 1e8, 1_000],
    [
      "minProperties 1e8",
      { type: "object", minProperties: 1e8 },
      "minProperties",
      "#",
      1e8,
      1_000,
    ],
    [
      "a pattern's counted repeat",
      { type: "string", pattern: "^\\d{1000000000}$" },
      "pattern",
      "#",
      1e9,
      10_000,
    ],
    [
      "minContains",
      { type: "array", contains: { type: "integer" }, minContains: 5000 },
      "minContains",
      "#",
      5000,
      1_000,
    ],
    [
      "deep inside",
      {
        type: "object",
        properties: { q: { type: "array", items: { type: "string", minLength: 2e9 } } },
        required: ["q"],
      },
      "minLength",
      "#/properties/q/items",
      2e9,
      10_000,
    ],
  ];
  for (const [name, schema, keyword, path, value, max] of cases) {
    await t.step(name, () => {
      const error = limit(schema);
      assertEquals([error.keyword, error.path, error.value, error.limit], [
        keyword,
        path,
        value,
        max,
      ]);
    });
  }
});

Deno.test("FakeLLM.auto names the tool, and the output schema, over a limit", async () => {
  const error = await assertRejects(
    () =>
      ask(FakeLLM.auto(), {
        type: "object",
        properties: { query: { type: "string", minLength: 1e9 } },
        required: ["query"],
      }),
    SchemaLimitExceeded,
  );
  assertEquals(
    error.message,
    'FakeLLM.auto cannot generate arguments for tool "search": at #/properties/query, "minLength" ' +
      "needs at least 1000000000 characters in one string, above FakeLLM.auto's limit of 10000; " +
      "lower it in the schema, or script this call with FakeLLM.script",
  );
  // The test itself is wrong: it escapes every catch, as InvalidScript does.
  assertInstanceOf(error, InvalidScript);
  assertInstanceOf(error, HarnessError);
  assertInstanceOf(error.cause, SchemaLimitExceeded);
  const answer = await assertRejects(
    () =>
      FakeLLM.auto().chat({
        model: "m",
        messages: [{ role: "user", content: "go" }],
        settings: { jsonSchema: { type: "array", minItems: 1e8 } },
      }),
    SchemaLimitExceeded,
    'FakeLLM.auto cannot generate JSON for the output schema: at #, "minItems" needs at least 100000000',
  );
  assertEquals(answer.name, "SchemaLimitExceeded");
});

Deno.test("FakeLLM.auto bounds nested anyOf: a lazy search, its work on one budget", async (t) => {
  await t.step("40 levels of two bare $refs each, none satisfiable: each $ref fails once", () => {
    const defs: Record<string, unknown> = { a40: false };
    for (let i = 0; i < 40; i++) {
      defs[`a${i}`] = { anyOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] };
    }
    const budget = new Budget();
    assertThrows(
      () => sample({ $defs: defs, $ref: "#/$defs/a0" }, budget),
      Error,
      "no branch of anyOf can be satisfied",
    );
    assert(budget.steps < 2_000, String(budget.steps));
  });
  await t.step("the same with constraints beside each $ref runs into the budget", () => {
    const defs: Record<string, unknown> = { a40: false };
    for (let i = 0; i < 40; i++) {
      const next = `#/$defs/a${i + 1}`;
      defs[`a${i}`] = { anyOf: [{ $ref: next, minimum: 0 }, { $ref: next, minimum: 1 }] };
    }
    const error = limit({ $defs: defs, $ref: "#/$defs/a0" });
    assertEquals([error.keyword, error.limit, error.measure], ["anyOf", 100_000, "steps of work"]);
    assert(error.path.startsWith("#/anyOf/0/anyOf/0"), error.path);
  });
  await t.step("30 anyOf in one allOf are chosen one after another, not as 2^30 pairs", () => {
    const parts = Array.from({ length: 30 }, (_, i) => ({
      anyOf: [{ type: "integer", maximum: 100 }, { minimum: i }],
    }));
    const budget = new Budget();
    assertEquals(sample({ allOf: parts }, budget), 0);
    assert(budget.steps < 1_000, String(budget.steps));
  });
  await t.step("the same 30 with a part none of their branches meets fail at once", () => {
    const parts: unknown[] = Array.from({ length: 30 }, () => ({
      anyOf: [{ type: "string" }, { type: "integer" }],
    }));
    assertThrows(
      () => sample({ allOf: [...parts, { type: "boolean" }] }),
      Error,
      'allOf asks for type "boolean" and "string"',
    );
  });
  await t.step("a recursion through two branches ends as one without an end", () => {
    assertThrows(
      () => sample({ anyOf: [{ $ref: "#" }, { $ref: "#" }] }),
      Error,
      "the schema recurses without an end",
    );
  });
});

Deno.test("FakeLLM.auto bounds the total: output characters and steps across a whole value", () => {
  const chars = limit({
    type: "array",
    items: { type: "string", minLength: LIMITS.stringLength },
    minItems: LIMITS.items,
  });
  assertEquals([chars.keyword, chars.path, chars.measure, chars.limit], [
    "items",
    "#/items",
    "characters of output",
    1_000_000,
  ]);
  const steps = limit({
    type: "array",
    items: { type: "object", minProperties: LIMITS.properties },
    minItems: LIMITS.items,
  });
  assertEquals([steps.keyword, steps.measure], ["items", "steps of work"]);
  // Just under the limits, it builds.
  const big = sample({
    type: "array",
    items: { type: "integer" },
    minItems: LIMITS.items,
    uniqueItems: true,
  }) as number[];
  assertEquals([big.length, new Set(big).size, big[999]], [1000, 1000, 999]);
});

Deno.test("FakeLLM.auto refuses a schema document too large or too deep to read", () => {
  const huge = limit({ enum: Array.from({ length: LIMITS.schemaNodes }, (_, i) => i) });
  assertEquals([huge.keyword, huge.limit, huge.measure], [
    "enum",
    50_000,
    "values in the schema",
  ]);
  let deep: unknown = 1;
  for (let i = 0; i < LIMITS.nesting + 10; i++) deep = [deep];
  const nested = limit({ const: deep });
  assertEquals([nested.keyword, nested.limit], ["const", 500]);
  // A DAG of shared objects is as large as it reads: 2^30 paths are refused, not walked.
  let shared: unknown = { type: "string" };
  for (let i = 0; i < 30; i++) shared = { anyOf: [shared, shared] };
  assertEquals(limit(shared).measure, "values in the schema");
});

Deno.test("FakeLLM.auto refuses an object cycle, a dangling $ref or a bad pattern with the path", () => {
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic.properties = { self: cyclic };
  const cycle = assertThrows(() => sample(cyclic), Error);
  assertEquals(
    cycle.message,
    "at #/properties/self: the schema contains itself (an object cycle); write the recursion as a $ref",
  );
  // Found before any branch is chosen, so a broken part never hides behind a good one.
  assertThrows(
    () => sample({ anyOf: [{ type: "integer" }, { $ref: "#/$defs/gone" }] }),
    Error,
    "at #/anyOf/1: $ref #/$defs/gone points at nothing",
  );
  assertThrows(
    () => sample({ type: "object", patternProperties: { "[": { type: "string" } } }),
    Error,
    'at #/patternProperties/[: "[" is not a valid regular expression in unicode mode',
  );
});
