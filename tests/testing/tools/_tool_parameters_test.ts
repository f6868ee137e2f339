import { assertEquals } from "@std/assert";
import { z } from "zod";
import { objectParameters, toolParameters } from "../../../testing/tools/_tool_parameters.ts";

Deno.test("toolParameters: a zod schema or a JSON-Schema object is accepted", () => {
  for (
    const ok of [
      z.object({ a: z.string() }),
      {},
      { type: "object" },
      { type: ["object", "null"] },
      { type: "object", properties: { a: { type: "string" }, b: true }, required: ["a"] },
      { type: "array", items: { type: "integer" } },
      { anyOf: [{ type: "string" }] },
    ]
  ) {
    assertEquals(toolParameters.test(ok, "parameters"), undefined, JSON.stringify(ok));
  }
});

Deno.test("toolParameters: what is not a JSON Schema is a TypeError naming the part", () => {
  const cases: [unknown, string | undefined][] = [
    ["x", undefined],
    [5, undefined],
    [[], undefined],
    [null, undefined],
    [new Map(), undefined],
    [{ type: "bogus" }, 'parameters.type is "bogus", not a JSON-schema type; the types are array'],
    [{ type: [] }, "parameters.type is an array ([]), not a JSON-schema type"],
    [{ type: 5 }, "parameters.type is 5"],
    [{ properties: 5 }, "parameters.properties must be an object of property schemas, got 5"],
    [
      { properties: { a: "string" } },
      'parameters.properties.a must be a schema (an object), got "string"',
    ],
    [{ properties: { a: { type: "str" } } }, 'parameters.properties.a.type is "str"'],
    [{ required: "a" }, 'parameters.required must be an array of property names, got "a"'],
    [{ required: [1] }, "parameters.required must be an array of property names"],
    [{ items: 5 }, "parameters.items must be a schema (an object), got 5"],
    [{ items: { type: "nope" } }, 'parameters.items.type is "nope"'],
  ];
  for (const [value, message] of cases) {
    const f = toolParameters.test(value, "parameters");
    assertEquals(f?.kind, "type", String(value));
    assertEquals(f?.message, message === undefined ? undefined : f?.message, String(value));
    if (message) assertEquals(f?.message?.startsWith(message), true, f?.message);
  }
  assertEquals(toolParameters.accepts.includes("a zod schema or a JSON Schema object"), true);
});

// A tool's arguments are one JSON object (OpenAI function `parameters`,
// Anthropic `input_schema`, MCP `Tool.inputSchema`): the root must be one.
Deno.test("objectParameters: a schema whose root is an object, or says no type, is accepted", () => {
  for (
    const ok of [
      z.object({ a: z.string() }),
      {},
      { properties: { a: { type: "string" } } },
      { type: "object" },
      { type: ["object", "null"] },
      { type: ["null", "object"] },
    ]
  ) {
    assertEquals(objectParameters.test(ok, "parameters"), undefined, JSON.stringify(ok));
  }
  assertEquals(objectParameters.accepts, toolParameters.accepts);
});

Deno.test("objectParameters: another root type is a TypeError naming the type and the fix", () => {
  const json = 'give it type "object" and the arguments as properties: ' +
    '{ type: "object", properties: { ... } }';
  const cases: [unknown, string][] = [
    [
      { type: "string" },
      `parameters has type "string", but a tool's arguments are one object: ${json}`,
    ],
    [
      { type: "array", items: { type: "integer" } },
      `parameters has type "array", but a tool's arguments are one object: ${json}`,
    ],
    [
      { type: ["string", "null"] },
      `parameters has type an array (["string","null"]), but a tool's arguments are one object: ${json}`,
    ],
    [
      z.string(),
      `parameters has type "string", but a tool's arguments are one object: use z.object({ ... })`,
    ],
    [
      z.array(z.number()),
      `parameters has type "array", but a tool's arguments are one object: use z.object({ ... })`,
    ],
  ];
  for (const [value, message] of cases) {
    assertEquals(objectParameters.test(value, "parameters"), { kind: "type", message }, message);
  }
});

Deno.test("objectParameters: what toolParameters refuses is refused first, as it says", () => {
  for (const bad of ["x", [], null, { type: "bogus" }, { properties: 5 }]) {
    assertEquals(
      objectParameters.test(bad, "tool.parameters"),
      toolParameters.test(bad, "tool.parameters"),
      JSON.stringify(bad),
    );
    assertEquals(objectParameters.test(bad, "tool.parameters")?.kind, "type");
  }
});
