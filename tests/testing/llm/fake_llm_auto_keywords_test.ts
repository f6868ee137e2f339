// Each keyword the audit found generated invalid (not, contains,
// propertyNames, if/then/else, dependentRequired, overlapping oneOf) or
// called unsatisfiable when it is not (patternProperties, $anchor, deep
// schemas), and the rest of what FakeLLM.auto reads: the value served
// validates against the schema, judged by a validator of the test's own,
// and is the same value on every run.
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { Validator } from "@cfworker/json-schema";
import type { JsonSchema } from "@agentkit/testing/ports";
import { FakeLLM, InvalidScript } from "@agentkit/testing/testing";
import { sample, SchemaUnsatisfiable } from "../../../testing/llm/_schema_sample.ts";

// The value, after a fresh validator (one that never saw the sampler's copy) accepts it.
function served(schema: unknown): unknown {
  const value = sample(schema);
  const result = new Validator(structuredClone(schema) as never, "2020-12").validate(value);
  assert(
    result.valid,
    `${JSON.stringify(value)} fails ${JSON.stringify(schema)}: ${JSON.stringify(result.errors)}`,
  );
  return value;
}

function unsatisfiable(schema: unknown): SchemaUnsatisfiable {
  return assertThrows(() => sample(schema), SchemaUnsatisfiable);
}

Deno.test("FakeLLM.auto serves valid values for not", () => {
  assertEquals(served({ type: "string", not: { const: "a" } }), "b");
  assertEquals(served({ not: { type: "string" } }), 0);
  assertEquals(served({ type: "integer", not: { enum: [0, 1, 2] } }), 3);
  assertEquals(
    served({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      not: { properties: { a: { const: "a" } } },
    }),
    { a: "c" },
  );
});

Deno.test("FakeLLM.auto serves valid values for contains, minContains and maxContains", () => {
  assertEquals(served({ type: "array", items: { type: "integer" }, contains: { minimum: 5 } }), [
    5,
  ]);
  assertEquals(
    served({
      type: "array",
      items: { type: "integer", maximum: 1 },
      contains: { const: 1 },
      minContains: 2,
      maxContains: 3,
      minItems: 5,
    }),
    [1, 1, 0, 0, 0],
  );
  // Where items is false, the prefix holds what contains counts.
  assertEquals(
    served({
      prefixItems: [{ type: "string" }, { type: "integer" }],
      items: false,
      contains: { type: "integer" },
    }),
    ["a", 1],
  );
});

Deno.test("FakeLLM.auto serves valid values for propertyNames", () => {
  assertEquals(
    served({ type: "object", propertyNames: { pattern: "^x_" }, minProperties: 2 }),
    { x_: "a", x_b: "a" },
  );
  assertEquals(
    served({ type: "object", propertyNames: { enum: ["alpha", "beta"] }, minProperties: 2 }),
    { alpha: "a", beta: "a" },
  );
  const named = unsatisfiable({
    type: "object",
    required: ["Bad"],
    propertyNames: { pattern: "^[a-z]+$" },
  });
  assertStringIncludes(named.reason, "fails #/propertyNames");
});

Deno.test("FakeLLM.auto serves valid values for if, then and else", () => {
  assertEquals(
    served({
      type: "object",
      properties: { kind: { enum: ["a", "b"] }, n: { type: "integer" } },
      required: ["kind"],
      if: { properties: { kind: { const: "a" } } },
      then: { required: ["n"], properties: { n: { minimum: 10 } } },
    }),
    { kind: "a", n: 10 },
  );
  // then cannot hold with if: the value takes else, and fails if.
  assertEquals(
    served({ type: "integer", if: { minimum: 0 }, then: { const: -1 }, else: { maximum: -5 } }),
    -5,
  );
  assertStringIncludes(
    unsatisfiable({ if: { type: "integer" }, then: false, else: false }).reason,
    "no branch of if/then/else can be satisfied (at #/then: the schema is false",
  );
});

Deno.test("FakeLLM.auto serves valid values for dependentRequired, dependentSchemas and dependencies", () => {
  const properties = { a: { type: "string" }, b: { type: "string" } };
  assertEquals(
    served({ type: "object", properties, required: ["a"], dependentRequired: { a: ["b"] } }),
    { a: "a", b: "a" },
  );
  assertEquals(
    served({
      type: "object",
      properties,
      required: ["a"],
      dependentSchemas: { a: { properties: { c: { const: 3 } }, required: ["c"] } },
    }),
    { a: "a", c: 3 },
  );
  // draft 7's dependencies: a list of names, or a schema.
  assertEquals(
    served({
      type: "object",
      properties,
      required: ["a"],
      dependencies: { a: ["b"], b: { required: ["d"] } },
    }),
    { a: "a", b: "a", d: "a" },
  );
});

Deno.test("FakeLLM.auto serves oneOf values that match exactly one branch", () => {
  assertEquals(served({ oneOf: [{ type: "number" }, { type: "integer" }] }), 1.5);
  assertEquals(served({ oneOf: [{ type: "string" }, { type: "string", pattern: "^a" }] }), "b");
  assertEquals(
    served({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      oneOf: [{ required: ["a"] }, { required: ["b"] }],
    }),
    { a: "a" },
  );
  const never = unsatisfiable({ oneOf: [{ type: "integer" }, { type: "number", multipleOf: 1 }] });
  assertStringIncludes(
    never.reason,
    "fails #/oneOf: Instance does not match exactly one subschema",
  );
});

Deno.test("FakeLLM.auto serves valid values for patternProperties, additionalProperties false included", () => {
  assertEquals(
    served({
      type: "object",
      patternProperties: { "^x-": { type: "integer" } },
      additionalProperties: false,
      required: ["x-id"],
    }),
    { "x-id": 0 },
  );
  assertEquals(
    served({
      type: "object",
      patternProperties: { "^S_": { type: "string" }, "^I_": { type: "integer" } },
      additionalProperties: false,
      minProperties: 3,
    }),
    { S_: "b", I_: 2, S_b: "d" },
  );
  // A property that a pattern also matches holds both schemas.
  assertEquals(
    served({
      properties: { n: { type: "integer" } },
      patternProperties: { "^n$": { minimum: 5 } },
      required: ["n"],
    }),
    { n: 5 },
  );
});

Deno.test("FakeLLM.auto follows $anchor, $id, $defs and definitions, and a $ref's siblings hold too", () => {
  assertEquals(
    served({
      $defs: { pos: { $anchor: "positive", type: "integer", minimum: 1 } },
      type: "object",
      properties: { n: { $ref: "#positive" } },
      required: ["n"],
    }),
    { n: 1 },
  );
  assertEquals(
    served({
      $id: "https://example.com/root.json",
      $defs: { item: { $id: "item.json", type: "integer", minimum: 3 } },
      $ref: "item.json",
    }),
    3,
  );
  assertEquals(
    served({ definitions: { s: { type: "string", minLength: 2 } }, $ref: "#/definitions/s" }),
    "aa",
  );
  // A real bug: the sibling's bound replaced the target's, and 2 was served.
  assertEquals(
    served({ $defs: { n: { type: "integer", minimum: 5 } }, $ref: "#/$defs/n", minimum: 2 }),
    5,
  );
});

Deno.test("FakeLLM.auto ends recursive $refs where only what is required is left", () => {
  assertEquals(
    served({
      $defs: {
        node: {
          type: "object",
          properties: {
            v: { type: "integer" },
            kids: { type: "array", items: { $ref: "#/$defs/node" } },
          },
          required: ["v", "kids"],
        },
      },
      $ref: "#/$defs/node",
    }),
    { v: 0, kids: [{ v: 0, kids: [] }] },
  );
  assertEquals(
    served({
      $defs: {
        link: {
          type: "object",
          properties: { next: { anyOf: [{ $ref: "#/$defs/link" }, { type: "null" }] } },
          required: ["next"],
        },
      },
      $ref: "#/$defs/link",
    }),
    { next: { next: null } },
  );
});

Deno.test("FakeLLM.auto serves const, enum and allOf values that meet the rest of the schema", () => {
  assertEquals(served({ enum: [1, 5, "x"], minimum: 3 }), 5);
  assertEquals(served({ allOf: [{ enum: [1, 2, 3] }, { enum: [3, 4] }] }), 3);
  assertEquals(served({ allOf: [{ type: "string" }, { not: { enum: ["a", "b"] } }] }), "c");
  assertStringIncludes(
    unsatisfiable({ const: 5, minimum: 10 }).reason,
    "the value fails #/minimum: 5 is less than 10.",
  );
  assertEquals(
    unsatisfiable({ allOf: [{ const: 1 }, { const: 2 }] }).reason,
    "allOf asks for const 1 and 2",
  );
});

Deno.test("FakeLLM.auto serves the formats it knows, deep nesting, tuples and distinct objects", () => {
  for (
    const [format, expected] of [
      ["email", "user@example.com"],
      ["date", "2024-01-01"],
      ["date-time", "2024-01-01T00:00:00Z"],
      ["uuid", "00000000-0000-4000-8000-000000000000"],
      ["ipv4", "192.0.2.1"],
      ["ipv6", "2001:db8::1"],
      ["hostname", "example.com"],
      ["uri", "https://example.com/"],
    ]
  ) {
    assertEquals(served({ type: "string", format }), expected, format);
  }
  let deep: unknown = { type: "boolean" };
  for (let i = 0; i < 60; i++) deep = { type: "array", items: deep, minItems: 1 };
  let value = served(deep);
  for (let i = 0; i < 60; i++) value = (value as unknown[])[0];
  assertEquals(value, false);
  assertEquals(served({ items: [{ const: 1 }, { type: "string" }], additionalItems: false }), [
    1,
    "b",
  ]);
  assertEquals(
    served({
      type: "array",
      items: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      minItems: 3,
      uniqueItems: true,
    }),
    [{ a: "a" }, { a: "b" }, { a: "c" }],
  );
});

// One chat request offering `tools`, as a loop would send it.
function ask(tools: Record<string, JsonSchema>) {
  return FakeLLM.auto().chat({
    model: "m",
    messages: [{ role: "user", content: "go" }],
    tools: Object.entries(tools).map(([name, parameters]) => ({
      name,
      description: "",
      parameters,
    })),
  });
}

Deno.test("FakeLLM.auto calls a tool with arguments the validator accepts, or names the tool and the error", async () => {
  const parameters = {
    type: "object",
    properties: {
      mode: { oneOf: [{ type: "number" }, { type: "integer" }] },
      tags: { type: "array", contains: { const: "urgent" }, items: { type: "string" } },
      headers: {
        type: "object",
        patternProperties: { "^x-": { type: "string" } },
        additionalProperties: false,
        required: ["x-trace"],
      },
      query: { type: "string", not: { const: "a" } },
    },
    required: ["mode", "tags", "headers", "query"],
    dependentRequired: { query: ["limit"] },
  };
  const response = await ask({ search: parameters });
  const args = response.toolCalls?.[0].args;
  assertEquals(args, {
    mode: 1.5,
    tags: ["urgent"],
    headers: { "x-trace": "a" },
    query: "b",
    limit: "a",
  });
  assert(new Validator(structuredClone(parameters) as never, "2020-12").validate(args).valid);
  await assertRejects(
    () => ask({ never: { type: "object", not: { type: "object" } } }),
    InvalidScript,
    'FakeLLM.auto cannot generate arguments for tool "never": its parameters schema, at #: no value ' +
      "FakeLLM.auto built satisfies the schema (1 tried); the validator's first error: the value " +
      'fails #/not: Instance matched "not" schema.',
  );
});
