import { assert, assertEquals, assertThrows } from "@std/assert";
import { z } from "zod";
import {
  formatIssues,
  isParseSchema,
  prepareTool,
  ToolArgsInvalid,
} from "@agentkit/testing/runtime";
import type { ParseSchema, ToolPort } from "@agentkit/testing/ports";

const call = () => Promise.resolve("ok");

Deno.test("isParseSchema() knows a schema by its safeParse(), and is safe on anything", () => {
  assert(isParseSchema(z.object({})));
  assert(isParseSchema({ safeParse: () => ({ success: true, data: {} }) }));
  for (const v of [null, undefined, 0, "x", { type: "object" }, { safeParse: true }]) {
    assert(!isParseSchema(v), String(v));
  }
});

Deno.test("formatIssues() lists each issue as path: message", () => {
  const r = z.object({ host: z.string(), ports: z.array(z.number()) }).safeParse({
    host: 1,
    ports: [80, "x"],
  });
  assertEquals(
    formatIssues(r.error),
    "host: Invalid input: expected string, received number; " +
      "ports.1: Invalid input: expected number, received string",
  );
  assertEquals(
    formatIssues({ issues: [{ message: "no path" }, { path: [], message: "empty path" }] }),
    "(root): no path; (root): empty path",
  );
});

Deno.test("formatIssues() falls back to the message, or the value, without issues", () => {
  assertEquals(formatIssues(new Error("plain")), "plain");
  assertEquals(formatIssues("a string"), "a string");
  assertEquals(formatIssues(null), "null");
  assertEquals(formatIssues(undefined), "undefined");
  assertEquals(formatIssues({ issues: "not a list", message: "m" }), "m");
});

Deno.test("prepareTool() turns a zod schema into the model's JSON Schema and a validator", () => {
  const tool = {
    name: "lookup",
    description: "Find a host",
    call,
    parameters: z.object({ host: z.string() }),
  };
  const prepared = prepareTool(tool as ToolPort);
  assertEquals(prepared.tool, tool);
  assertEquals(prepared.spec.name, "lookup");
  assertEquals(prepared.spec.description, "Find a host");
  assertEquals(prepared.spec.parameters.type, "object");
  assertEquals(prepared.spec.parameters.properties, { host: { type: "string" } });
  assertEquals(prepared.spec.parameters.required, ["host"]);
  assertEquals(prepared.parse({ host: "a" }), { host: "a" });
  const e = assertThrows(() => prepared.parse({ host: 1 }), ToolArgsInvalid);
  assertEquals(e.tool, "lookup");
  assert(e.message.includes("host: Invalid input"), e.message);
});

Deno.test("prepareTool() with a schema zod cannot write tells the model an object", () => {
  const schema: ParseSchema = {
    safeParse: (v: unknown) =>
      typeof v === "object" && v !== null && "q" in v
        ? { success: true, data: v }
        : { success: false, error: { issues: [{ path: ["q"], message: "required" }] } },
  } as ParseSchema;
  const prepared = prepareTool({ name: "search", call, parameters: schema } as never);
  assertEquals(prepared.spec.parameters, { type: "object" });
  assertEquals(prepared.spec.description, "");
  assertEquals(prepared.parse({ q: "x" }), { q: "x" });
  assertThrows(() => prepared.parse({}), ToolArgsInvalid, "q: required");
});

Deno.test("prepareTool() takes a JSON Schema as given, or an open object without one", () => {
  const json = {
    type: "object",
    properties: { n: { type: "integer" } },
    required: ["n"],
  } as const;
  const declared = prepareTool({ name: "count", call, parameters: json } as never);
  assertEquals(declared.spec.parameters, json);
  assertEquals(declared.parse({ n: 2 }), { n: 2 });
  assertThrows(() => declared.parse({ n: "2" }), ToolArgsInvalid, "n:");

  const open = prepareTool({ name: "ping", call } as never);
  assertEquals(open.spec.parameters, { type: "object" });
  assertEquals(open.parse({ any: 1 }), { any: 1 });
  assertThrows(() => open.parse("not an object"), ToolArgsInvalid);
});

Deno.test("prepareTool() refuses a JSON Schema it cannot read, naming the tool", () => {
  assertThrows(
    () => prepareTool({ name: "odd", call, parameters: { type: "nonsense" } } as never),
    TypeError,
    'Cannot use the parameters of tool "odd" as a JSON Schema: Unsupported type: nonsense',
  );
});

Deno.test("prepareTool() refuses what is not a tool", async (t) => {
  const refused = (tool: unknown, shown: string) =>
    assertThrows(
      () => prepareTool(tool as ToolPort),
      TypeError,
      `Cannot use ${shown} as a tool: a tool needs a name and a call(args, ctx) method`,
    );
  await t.step("nothing", () => refused(null, "null"));
  await t.step("a name that is not text", () => refused({ name: 7, call }, "7"));
  await t.step("an empty name", () => refused({ name: "", call }, ""));
  await t.step("no call()", () => refused({ name: "lookup" }, "lookup"));
  await t.step("a call that is not a function", () => refused({ name: "x", call: "no" }, "x"));
  await t.step("no name", () => refused({ call }, "[object Object]"));
});

Deno.test("prepareTool() converts a schema once per schema object, and again when a JSON Schema's text changed", () => {
  const tool = (parameters: ToolPort["parameters"]): ToolPort => ({
    name: "t",
    description: "",
    parameters,
    call: () => Promise.resolve(1),
  });
  const zod = z.object({ q: z.string() });
  const a = prepareTool(tool(zod));
  const b = prepareTool(tool(zod));
  assert(a.spec.parameters === b.spec.parameters, "one JSON Schema for one zod schema");
  const json: Record<string, unknown> = { type: "object", properties: { q: { type: "string" } } };
  assertEquals(prepareTool(tool(json)).parse({}), {});
  json.required = ["q"]; // the same object, another schema
  assertThrows(() => prepareTool(tool(json)).parse({}), ToolArgsInvalid, "q");
  assertEquals(prepareTool(tool(json)).parse({ q: "x" }), { q: "x" });
});
