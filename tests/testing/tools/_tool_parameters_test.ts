import { assertEquals } from "@std/assert";
import { z } from "zod";
import { toolParameters } from "../../../testing/tools/_tool_parameters.ts";

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
