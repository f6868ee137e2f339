// A FakeMcpServer tool's declaration checks, one rule each: the step
// vocabulary, the schema forms (zod, a raw shape, JSON Schema and its
// dialect), the problems a call is told, and the CallToolResult a value
// becomes.
import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { z } from "zod";
import { InvalidScript } from "@agentkit/testing/testing";
import {
  checkStep,
  declareTool,
  FakeMcpScript,
  isRawResult,
  isStep,
  takeStep,
  toolResult,
} from "../../../testing/mcp/_mcp_tools.ts";

const W = "new FakeMcpServer(): tools[0]";

Deno.test("isStep: only a plain object with a fault key is a step", () => {
  for (const v of [null, undefined, "latencyMs", 5, [{ latencyMs: 1 }], { result: 1 }]) {
    assertEquals(isStep(v), false, String(v));
  }
  assertEquals(isStep({ latencyMs: 1 }), true);
  assertEquals(isStep({ disconnect: true }), true);
});

Deno.test("checkStep names an unknown key, the nearest one and the whole vocabulary", () => {
  assertThrows(
    () => checkStep({ latncyMs: 5 }, "step 1"),
    InvalidScript,
    'unknown key "latncyMs" in step 1; did you mean "latencyMs"? (a step\'s keys are isError, text, rpcError, latencyMs, gate, disconnect, progress, progressIntervalMs, result)',
  );
  const far = assertThrows(() => checkStep({ zzzzzzzz: 1 }, "step 1"), InvalidScript);
  assertEquals(
    far.message,
    'unknown key "zzzzzzzz" in step 1 (a step\'s keys are isError, text, rpcError, latencyMs, gate, disconnect, progress, progressIntervalMs, result)',
  );
});

Deno.test("checkStep rpcError: an integer code and a string message; data only when given", () => {
  for (
    const bad of [null, "oops", { code: 1.5, message: "m" }, { code: 1 }, { message: "m" }, {
      code: 1,
      message: 2,
    }]
  ) {
    assertThrows(
      () => checkStep({ rpcError: bad }, "s"),
      InvalidScript,
      "s: rpcError must be { code: an integer, message: a string }",
    );
  }
  assertEquals(checkStep({ rpcError: { code: -32000, message: "m" } }, "s").rpcError, {
    code: -32000,
    message: "m",
  });
  assertEquals(
    Object.keys(checkStep({ rpcError: { code: 1, message: "m" } }, "s").rpcError!),
    ["code", "message"],
  );
  assertEquals(checkStep({ rpcError: { code: 1, message: "m", data: { why: 1 } } }, "s").rpcError, {
    code: 1,
    message: "m",
    data: { why: 1 },
  });
});

Deno.test("checkStep gate: anything without then, null included, is refused as InvalidScript", () => {
  for (const bad of [null, 5, {}]) {
    assertThrows(() => checkStep({ gate: bad }, "s"), InvalidScript, "s: gate must be a promise");
  }
});

Deno.test("checkStep progress: each entry a finite number or { progress, total?, message? }, strictly increasing", () => {
  for (
    const bad of [[null], ["1"], [{ progress: "1" }], [{ progress: NaN }], [{}], [{
      progress: 1,
      total: "10",
    }], [{ progress: 1, message: 2 }]]
  ) {
    assertThrows(
      () => checkStep({ progress: bad }, "s"),
      InvalidScript,
      "s: progress[0] must be a finite number",
    );
  }
  assertThrows(
    () => checkStep({ progress: [1, 1] }, "s"),
    InvalidScript,
    "s: progress[1] is 1, not above 1; MCP requires each progress value to increase",
  );
  assertEquals(checkStep({ progress: [1, { progress: 2, total: 2, message: "done" }] }, "s"), {
    progress: [{ progress: 1 }, { progress: 2, total: 2, message: "done" }],
  });
});

Deno.test("FakeMcpScript: a bad step is named by its 1-based number; a function step is kept as is", () => {
  assertThrows(
    () => new FakeMcpScript(["ok", { latencyMs: -1 }], false),
    InvalidScript,
    "FakeMcpServer.script step 2",
  );
  const fn = () => "computed";
  const script = new FakeMcpScript([fn], false);
  assertStrictEquals(takeStep(script), fn);
  assertEquals(takeStep(script), { exhausted: 2 });
});

Deno.test("takeStep: repeatLast repeats the last step, but an empty script is exhausted at once", () => {
  const empty = new FakeMcpScript([], true);
  assertEquals(takeStep(empty), { exhausted: 1 });
  const once = new FakeMcpScript(["a", "b"], true);
  assertEquals([takeStep(once), takeStep(once), takeStep(once)], [{ value: "a" }, { value: "b" }, {
    value: "b",
  }]);
  assertEquals(once.used, 3);
});

const problem = (inputSchema: unknown, args: Record<string, unknown>) =>
  declareTool({ name: "t", inputSchema, result: 1 }, W).inputProblem(args);

Deno.test("declareTool JSON Schema problems: every leaf error with its location, wrapper errors left out", () => {
  const schema = { type: "object", properties: { a: { type: "string" }, b: { type: "number" } } };
  assertEquals(
    problem(schema, { a: 1, b: "x" }),
    'Instance type "number" is invalid. Expected "string". at #/a\n' +
      'Instance type "string" is invalid. Expected "number". at #/b',
  );
  assertEquals(
    problem({ type: "object", required: ["a"] }, {}),
    'Instance does not have required property "a".',
  );
  assertEquals(problem(schema, { a: "x", b: 1 }), undefined);
});

Deno.test("declareTool JSON Schema dialect: $schema draft-07 ignores a $ref's siblings, the 2020-12 default applies them", () => {
  // JSON Schema draft-07 §8.3: "All other properties in a "$ref" object MUST
  // be ignored"; 2019-09 and later apply them. MCP 2025-11-25 (SEP-1613)
  // takes a schema without $schema as 2020-12.
  const ref = {
    type: "object",
    properties: { a: { $ref: "#/definitions/s", maxLength: 2 } },
    definitions: { s: { type: "string" } },
  };
  assertEquals(
    problem({ $schema: "http://json-schema.org/draft-07/schema#", ...ref }, { a: "long" }),
    undefined,
  );
  assertEquals(problem(ref, { a: "long" }), "String is too long (4 > 2). at #/a");
  assertEquals(
    problem({ $schema: "https://json-schema.org/draft/2020-12/schema", ...ref }, { a: "long" }),
    "String is too long (4 > 2). at #/a",
  );
});

Deno.test("declareTool zod problems: the SDK's wording, a path joined by dots, one line each", () => {
  assertEquals(
    problem(z.object({ a: z.object({ b: z.string() }), c: z.number() }), { a: { b: 1 }, c: "x" }),
    "Invalid input: expected string, received number at a.b\n" +
      "Invalid input: expected number, received string at c",
  );
  assertEquals(problem({ a: z.string() }, { a: "x" }), undefined);
});

Deno.test("declareTool schemas: a raw shape needs zod fields only; an array, null or {} is not a schema", () => {
  const typeObject = `${W} ("t"): inputSchema must be a JSON Schema with type "object"`;
  assertThrows(() => problem({}, {}), TypeError, typeObject);
  assertThrows(() => problem({ a: z.string(), b: "x" }, {}), TypeError, typeObject);
  assertThrows(() => problem(null, {}), TypeError, `${W} ("t"): inputSchema must be a zod schema`);
  assertThrows(
    () => problem([z.string()], {}),
    TypeError,
    `${W} ("t"): inputSchema must be a zod schema`,
  );
});

Deno.test("declareTool zod schemas: one JSON Schema cannot carry, or one not of an object, is refused by name", () => {
  assertThrows(
    () => problem(z.object({ when: z.date() }), {}),
    TypeError,
    `${W} ("t"): inputSchema cannot be sent as JSON Schema (Date cannot be represented in JSON Schema)`,
  );
  assertThrows(
    () => declareTool({ name: "t", outputSchema: z.string(), result: 1 }, W),
    TypeError,
    `${W} ("t"): outputSchema must describe an object (MCP sends arguments and structured content as objects), got a zod string`,
  );
  assertThrows(() => problem(z.any(), {}), TypeError, "got a zod schema");
});

Deno.test("declareTool: the declaration itself, its keys, name, title, description and result", () => {
  for (const bad of [null, "t", [{ name: "t" }]]) {
    assertThrows(
      () => declareTool(bad, W),
      TypeError,
      `${W} must be a tool ({ name, result, ... })`,
    );
  }
  assertThrows(
    () => declareTool({ name: "t", reslt: 1 }, W),
    TypeError,
    `${W}: unknown key "reslt"; did you mean "result"? (a tool's keys are name, title, description, inputSchema, outputSchema, result)`,
  );
  const far = assertThrows(() => declareTool({ name: "t", zzzzzzzz: 1 }, W), TypeError);
  assertEquals(
    far.message,
    `${W}: unknown key "zzzzzzzz" (a tool's keys are name, title, description, inputSchema, outputSchema, result)`,
  );
  assertThrows(() => declareTool({ name: "", result: 1 }, W), TypeError, `${W}.name`);
  for (const key of ["title", "description"]) {
    assertThrows(
      () => declareTool({ name: "t", [key]: 5, result: 1 }, W),
      TypeError,
      `${W} ("t").${key} must be a string, got`,
    );
  }
  assertThrows(
    () => declareTool({ name: "t", result: undefined }, W),
    TypeError,
    `${W} ("t") needs a result`,
  );
  assertThrows(
    () => declareTool({ name: "t", result: { latencyMs: -1 } }, W),
    InvalidScript,
    `${W} ("t").result`,
  );
});

Deno.test("declareTool listing: title and description only when declared; an empty object schema by default", () => {
  assertEquals(declareTool({ name: "t", result: 1 }, W).listing, {
    name: "t",
    inputSchema: { type: "object", properties: {} },
  });
  assertEquals(declareTool({ name: "t", title: "T", description: "d", result: 1 }, W).listing, {
    name: "t",
    title: "T",
    description: "d",
    inputSchema: { type: "object", properties: {} },
  });
});

Deno.test("declareTool outputProblem: none without an outputSchema; with one, a result must carry structured content", () => {
  assertEquals(declareTool({ name: "t", result: 1 }, W).outputProblem(undefined), undefined);
  const tool = declareTool({ name: "t", outputSchema: { type: "object" }, result: 1 }, W);
  assertEquals(tool.outputProblem(undefined), "no structured content");
  assertEquals(tool.outputProblem({}), undefined);
});

Deno.test("toolResult: null and arrays are text only; what JSON cannot hold is its String()", () => {
  assertEquals(toolResult(null), { content: [{ type: "text", text: "null" }] });
  assertEquals(toolResult([1]), { content: [{ type: "text", text: "[1]" }] });
  assertEquals(toolResult(Symbol.for("s")), { content: [{ type: "text", text: "Symbol(s)" }] });
  assertEquals(toolResult({ a: 1 }), {
    content: [{ type: "text", text: '{"a":1}' }],
    structuredContent: { a: 1 },
  });
  assertEquals(toolResult(undefined), { content: [] });
});

Deno.test("isStep: a near miss of a fault key alone makes a step (case, _ and - aside, one edit), a short or far key does not", () => {
  // docs/mcp.md's own example: a mistyped latency is InvalidScript, never a
  // structured result the test would silently answer with.
  const near = [
    "latencyMS",
    "is_error",
    "rpc-error",
    "progres_s_",
    "latncyMs",
    "gste",
    "Disconect",
  ];
  for (const key of near) assertEquals(isStep({ [key]: 1 }), true, key);
  // Too far (two edits), or too short to tell from a field of a result.
  for (const key of ["latency", "gat", "isErr"]) assertEquals(isStep({ [key]: 1 }), false, key);
  assertThrows(
    () => new FakeMcpScript([{ latencyMS: 5000 }], false),
    InvalidScript,
    'unknown key "latencyMS" in FakeMcpServer.script step 1; did you mean "latencyMs"?',
  );
});

Deno.test("checkStep: a null rpcError, a null progress entry and a malformed raw result are InvalidScript, not a TypeError", () => {
  assertThrows(
    () => checkStep({ rpcError: null }, "step 1"),
    InvalidScript,
    "rpcError must be { code: an integer, message: a string }, got null",
  );
  assertThrows(() => checkStep({ progress: [null] }, "step 1"), InvalidScript, "progress");
  assertThrows(
    () =>
      checkStep({ latencyMs: 5, result: { content: [{ type: "image", data: "AA==" }] } }, "step 1"),
    InvalidScript,
    'step 1: result: content[0] (type "image") needs mimeType as a string, got undefined',
  );
});

Deno.test("isRawResult: a content array with only the CallToolResult keys, _meta among them; any other key makes it structured content", () => {
  const raw = { content: [{ type: "text", text: "x" }], _meta: { trace: "1" } };
  assertEquals(isRawResult(raw), true);
  assertEquals(toolResult(raw), raw);
  const structured = { content: [], note: "a field of the tool's own data" };
  assertEquals(isRawResult(structured), false);
  assertEquals(toolResult(structured).structuredContent, structured);
});

Deno.test("declareTool raw results: every malformed block, resource, structuredContent and isError is InvalidScript naming where", () => {
  const at = `${W} ("t").result`;
  const cases: [unknown, string][] = [
    [{ content: [null] }, "content[0] must be a content block ({ type, ... }), got null"],
    [{ content: [[{ type: "text" }]] }, "content[0] must be a content block ({ type, ... }), got"],
    [{ content: ["hello"] }, 'content[0] must be a content block ({ type, ... }), got "hello"'],
    [{ content: [{ text: "no type" }] }, "content[0] must be a content block"],
    [
      { content: [{ type: "text", text: "ok" }, { type: "text" }] },
      'content[1] (type "text") needs text',
    ],
    [{ content: [{ type: "audio", data: "AA==" }] }, 'content[0] (type "audio") needs mimeType'],
    [
      { content: [{ type: "resource_link", uri: "file:///a" }] },
      'content[0] (type "resource_link") needs name',
    ],
    [
      { content: [{ type: "resource", resource: null }] },
      'content[0] (type "resource") needs resource: { uri, text | blob, mimeType? }, got null',
    ],
    [
      { content: [{ type: "resource", resource: "file:///a" }] },
      'content[0] (type "resource") needs resource',
    ],
    [
      { content: [{ type: "resource", resource: { text: "x" } }] },
      'content[0] (type "resource") needs resource',
    ],
    [
      { content: [{ type: "resource", resource: { uri: "file:///a" } }] },
      'content[0] (type "resource") needs resource',
    ],
    [{ content: [], structuredContent: null }, "structuredContent must be a JSON object, got null"],
    [{ content: [], structuredContent: [1] }, "structuredContent must be a JSON object, got"],
    [{ content: [], structuredContent: "x" }, "structuredContent must be a JSON object, got"],
    [{ content: [], isError: "yes" }, 'isError must be true or false, got "yes"'],
  ];
  for (const [result, message] of cases) {
    const e = assertThrows(() => declareTool({ name: "t", result }, W), InvalidScript);
    assertEquals(e.message.startsWith(`${at}: ${message}`), true, `${e.message} / ${message}`);
  }
  // Each well-formed form is accepted, and sent as given.
  for (
    const block of [
      { type: "resource", resource: { uri: "file:///a", blob: "AA==" } },
      { type: "resource", resource: { uri: "file:///a", text: "x" } },
      { type: "audio", data: "AA==", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a", name: "a" },
      { type: "a_later_block", anything: 1 },
    ]
  ) {
    const result = { content: [block], structuredContent: { ok: true }, isError: false };
    assertEquals(declareTool({ name: "t", result }, W).answer, { value: result });
  }
});

Deno.test("declareTool JSON Schema problems: a $ref's failure is told once, as its leaf", () => {
  const schema = {
    type: "object",
    properties: { a: { $ref: "#/$defs/s" } },
    $defs: { s: { type: "string" } },
  };
  assertEquals(
    problem(schema, { a: 5 }),
    'Instance type "number" is invalid. Expected "string". at #/a',
  );
});
