import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import {
  checkElicitParams,
  checkElicitResult,
  checkSampleParams,
  checkSampleResult,
  McpClientCapabilityMissing,
  McpClientRequestFailed,
} from "../../../testing/mcp/_mcp_client_requests.ts";
import { InvalidScript } from "../../../testing/errors.ts";

const form = (properties: Record<string, unknown>, required?: string[]) => ({
  message: "m",
  requestedSchema: { type: "object", properties, ...(required ? { required } : {}) },
});

Deno.test("checkElicitParams: every primitive and enum form of 2025-11-25, with defaults", () => {
  const ok = form({
    s: { type: "string", minLength: 1, maxLength: 9, format: "email", default: "a@b.c" },
    n: { type: "number", minimum: 0, maximum: 1, default: 0.5 },
    i: { type: "integer", default: 3 },
    b: { type: "boolean", default: true },
    e: { type: "string", enum: ["a", "b"], default: "a" },
    legacy: { type: "string", enum: ["a"], enumNames: ["A"] },
    titled: { type: "string", oneOf: [{ const: "a", title: "A" }] },
    multi: {
      type: "array",
      minItems: 1,
      maxItems: 2,
      items: { type: "string", enum: ["a"] },
      default: ["a"],
    },
    titledMulti: { type: "array", items: { anyOf: [{ const: "a", title: "A" }] } },
  }, ["s"]);
  assertEquals(checkElicitParams(ok, "w"), "form");
  assertEquals(
    checkElicitParams({
      mode: "url",
      message: "m",
      elicitationId: "e1",
      url: "https://x.example/a",
    }, "w"),
    "url",
  );
});

Deno.test("checkElicitParams: what the schema does not allow is an InvalidScript naming the call", () => {
  const bad = [
    form({ o: { type: "object" } }),
    form({ s: { type: "string", default: 1 } }),
    form({ e: { type: "string", enum: [] } }),
    form({ s: { type: "string", format: "phone" } }),
    form({ a: { type: "array", items: { type: "number" } } }),
    { requestedSchema: { type: "object", properties: {} } },
    { message: "m", requestedSchema: { type: "array", properties: {} } },
    { message: "m", requestedSchema: { type: "object", properties: {} }, extra: 1 },
    { mode: "url", message: "m", url: "https://x" },
    { mode: "url", message: "m", elicitationId: "e", url: "not a url" },
  ];
  for (const params of bad) {
    assertThrows(
      () => checkElicitParams(params, "call.elicit()"),
      InvalidScript,
      "call.elicit(): the params are not",
      JSON.stringify(params),
    );
  }
  assertThrows(
    () => checkElicitParams(form({ a: { type: "string" } }, ["b"]), "w"),
    InvalidScript,
    'required names "b"',
  );
});

Deno.test("checkElicitResult: the answer's shape, and accepted content against the requested schema", () => {
  const params = form({ age: { type: "integer", minimum: 0 } }, ["age"]);
  assertEquals(checkElicitResult({ action: "accept", content: { age: 3 } }, params, "m"), {
    action: "accept",
    content: { age: 3 },
  });
  assertEquals(checkElicitResult({ action: "decline" }, params, "m"), { action: "decline" });
  assertEquals(
    checkElicitResult({ action: "cancel", content: { age: -1 } }, params, "m").action,
    "cancel",
  );
  for (
    const [answer, text] of [
      [{ action: "accept", content: { age: -1 } }, "does not match requested schema"],
      [{ action: "accept" }, "does not match requested schema"],
      [{ action: "maybe" }, "is not an ElicitResult"],
      [{ action: "accept", content: { age: { n: 1 } } }, "is not an ElicitResult"],
      [null, "is not an ElicitResult"],
    ] as const
  ) {
    const e = assertThrows(
      () => checkElicitResult(answer, params, "elicitation/create"),
      McpClientRequestFailed,
    );
    assertStringIncludes(e.message, text);
    assertEquals([e.code, e.method], [-32602, "elicitation/create"]);
  }
});

Deno.test("checkSampleParams and checkSampleResult", () => {
  checkSampleParams({
    messages: [{ role: "user", content: { type: "text", text: "x" } }],
    maxTokens: 5,
  }, "w");
  checkSampleParams({
    messages: [{ role: "assistant", content: [{ type: "text", text: "x" }] }],
    maxTokens: 5,
    systemPrompt: "s",
    includeContext: "none",
  }, "w");
  for (
    const bad of [
      { messages: [], maxTokens: 1.5 },
      { messages: [{ role: "tool", content: {} }], maxTokens: 1 },
      { maxTokens: 1 },
      { messages: [], maxTokens: 1, includeContext: "all" },
    ]
  ) {
    assertThrows(
      () => checkSampleParams(bad, "call.sample()"),
      InvalidScript,
      "call.sample(): the params are not CreateMessageRequestParams",
    );
  }
  const r = {
    role: "assistant",
    content: { type: "text", text: "4" },
    model: "m",
    stopReason: "endTurn",
  };
  assertEquals(checkSampleResult(r, "s"), r);
  const e = assertThrows(
    () =>
      checkSampleResult({ role: "assistant", content: { type: "text" } }, "sampling/createMessage"),
    McpClientRequestFailed,
  );
  assertStringIncludes(
    e.message,
    "The client answered sampling/createMessage with error -32602: the result is not a CreateMessageResult",
  );
});

Deno.test("the errors: names, codes and what the message tells", () => {
  const missing = new McpClientCapabilityMissing("sampling", "sampling/createMessage");
  assertEquals([missing.name, missing.code, missing.method], [
    "McpClientCapabilityMissing",
    -32601,
    "sampling/createMessage",
  ]);
  assertStringIncludes(
    missing.message,
    "Client does not support sampling (required for sampling/createMessage)",
  );
  assertStringIncludes(missing.message, "capabilities: { sampling: {} }");
  assertStringIncludes(
    new McpClientCapabilityMissing("URL elicitation", "elicitation/create").message,
    "elicitation: { url: {} }",
  );
  const failed = new McpClientRequestFailed("m", 7, "boom", { x: 1 });
  assertEquals([failed.name, failed.code, failed.data], ["McpClientRequestFailed", 7, { x: 1 }]);
  assertEquals(failed.message, "The client answered m with error 7: boom");
});

Deno.test("the schemas accept every listed value and form, and refuse what is not listed", () => {
  for (const format of ["email", "uri", "date", "date-time"]) {
    checkElicitParams(form({ s: { type: "string", format, title: "T", description: "D" } }), "w");
  }
  const two = [{ const: "a", title: "A" }, { const: "b", title: "B" }];
  checkElicitParams({ mode: "form", ...form({ t: { type: "string", oneOf: two } }) }, "w");
  checkElicitParams(form({ m: { type: "array", items: { anyOf: two } } }), "w");
  checkElicitParams(
    form({ m: { type: "array", items: { type: "string", enum: ["a", "b"] } } }),
    "w",
  );
  assertThrows(
    () => checkElicitParams(form({ t: { type: "string", oneOf: [] } }), "w"),
    InvalidScript,
  );
  assertThrows(() => checkElicitParams({ mode: "other", ...form({}) }, "w"), InvalidScript);
  assertThrows(() => checkElicitParams(null, "w"), InvalidScript, "ElicitRequestFormParams");
  assertThrows(
    () => checkElicitParams({ mode: "url", message: "m" }, "w"),
    InvalidScript,
    'ElicitRequestURLParams ({ mode: "url", message, elicitationId, url })',
  );
  for (const includeContext of ["none", "thisServer", "allServers"]) {
    checkSampleParams({ messages: [], maxTokens: 1, includeContext }, "w");
  }
  assertThrows(
    () =>
      checkSampleParams({
        messages: [{ role: "user", content: { text: "no type" } }],
        maxTokens: 1,
      }, "w"),
    InvalidScript,
  );
  const user = { role: "user", content: [{ type: "text", text: "x" }], model: "m" };
  assertEquals(checkSampleResult(user, "s"), user);
});
