// SPEC §22 on the server side, through the SDK's Client (1.32.2) as a real
// agent's MCP client sees it: raw tool results with every block type,
// resource templates, subscriptions, logging, completions, and the
// server-to-client requests a tool makes during a call.
import { z } from "zod";
import { assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import {
  FakeMcpServer,
  InvalidScript,
  type McpClientCapabilityMissing,
  type McpClientRequestFailed,
} from "@agentkit/testing/testing";
import { Client } from "../../_mcp_sdk.ts";

const INFO = { name: "agent", version: "1.0.0" };
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

async function connect(
  server: FakeMcpServer,
  capabilities: Record<string, unknown> = {},
): Promise<Client> {
  const client = new Client(INFO, { capabilities });
  await client.connect(server.transport());
  return client;
}

Deno.test("raw results: every block type, from a value, a script step and a function, sent as given", async () => {
  const mixed = {
    content: [
      { type: "text", text: "Screenshot:" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "test://r", mimeType: "text/plain", text: "body" } },
      { type: "resource_link", uri: "test://l", name: "link" },
    ],
  };
  await using server = new FakeMcpServer({
    tools: [
      { name: "value", result: mixed },
      {
        name: "scripted",
        result: FakeMcpServer.script([{ latencyMs: 10, result: { ...mixed, isError: true } }]),
      },
      {
        name: "fn",
        result: () => ({ content: [{ type: "text", text: "{}" }], structuredContent: { a: 1 } }),
      },
    ],
  });
  const client = await connect(server);
  assertEquals(await client.callTool({ name: "value", arguments: {} }), mixed);
  const scripted = client.callTool({ name: "scripted", arguments: {} });
  await new Promise((r) => setTimeout(r, 0));
  await server.clock.sleep(10);
  assertEquals(await scripted, { ...mixed, isError: true });
  assertEquals(await client.callTool({ name: "fn", arguments: {} }), {
    content: [{ type: "text", text: "{}" }],
    structuredContent: { a: 1 },
  });
  await client.close();
});

Deno.test("raw results: a malformed block is an InvalidScript where it is declared, or from verify()", async () => {
  assertThrows(
    () =>
      new FakeMcpServer({
        tools: [{ name: "t", result: { content: [{ type: "image", data: PNG }] } }],
      }),
    InvalidScript,
    'content[0] (type "image") needs mimeType as a string',
  );
  assertThrows(
    () => FakeMcpServer.script([{ content: [{ type: "resource", resource: { uri: "x" } }] }]),
    InvalidScript,
    "resource: { uri, text | blob, mimeType? }",
  );
  const server = new FakeMcpServer({
    tools: [{ name: "t", result: () => ({ content: [{ type: "text" }] }) }],
  });
  const client = await connect(server);
  const e = await assertRejects(() => client.callTool({ name: "t", arguments: {} }));
  assertStringIncludes((e as Error).message, "-32603");
  await client.close();
  await server.close();
  assertThrows(() => server.verify(), InvalidScript, "needs text as a string");
});

Deno.test("raw results: a block of a type the schema does not know is sent as given", async () => {
  const raw = { content: [{ type: "video", uri: "test://v" }] };
  await using server = new FakeMcpServer({ tools: [{ name: "t", result: raw }] });
  const t = server.transport();
  const seen: unknown[] = [];
  t.onmessage = (m) => seen.push(m);
  await t.start();
  await t.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } });
  assertEquals(seen, [{ jsonrpc: "2.0", id: 1, result: raw }]);
  await t.close();
});

Deno.test("resource templates: listed, read with their variables, and an error for no match", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    resources: [
      { uri: "test://static", text: "static" },
      {
        uriTemplate: "test://users/{id}/profile",
        name: "profile",
        mimeType: "application/json",
        read: (_uri, { id }) => JSON.stringify({ id }),
      },
      {
        uriTemplate: "file:///{+path}",
        name: "file",
        read: (_uri, { path }) => ({ blob: btoa(path) }),
      },
    ],
  });
  const client = await connect(server);
  assertEquals((await client.listResourceTemplates()).resourceTemplates, [
    { uriTemplate: "test://users/{id}/profile", name: "profile", mimeType: "application/json" },
    { uriTemplate: "file:///{+path}", name: "file" },
  ]);
  assertEquals((await client.readResource({ uri: "test://users/a%20b/profile" })).contents, [
    { uri: "test://users/a%20b/profile", mimeType: "application/json", text: '{"id":"a b"}' },
  ]);
  assertEquals((await client.readResource({ uri: "file:///etc/hosts" })).contents, [
    { uri: "file:///etc/hosts", blob: btoa("etc/hosts") },
  ]);
  const e = await assertRejects(() => client.readResource({ uri: "test://users/a/b/profile" }));
  assertStringIncludes((e as Error).message, "Resource not found");
  await client.close();
});

Deno.test("resource templates: malformed entries are TypeErrors naming them", () => {
  assertThrows(
    () =>
      new FakeMcpServer({
        tools: [],
        resources: [{ uriTemplate: "x://{id}", name: "n" } as never],
      }),
    TypeError,
    'resources[0]: option "read" is required',
  );
  assertThrows(
    () =>
      new FakeMcpServer({
        tools: [],
        resources: [{ uriTemplate: "x://fixed", name: "n", read: () => "" }],
      }),
    TypeError,
    "has no {variable}",
  );
});

Deno.test("subscriptions: subscribe, updateResource notifies, unsubscribe stops it; only subscribable resources", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    resources: [
      { uri: "test://watched", text: "v1", subscribe: true },
      { uri: "test://plain", text: "p" },
    ],
  });
  const client = await connect(server);
  assertEquals(client.getServerCapabilities()?.resources, { subscribe: true });
  const updated: unknown[] = [];
  client.fallbackNotificationHandler = (n) => Promise.resolve(void updated.push(n));
  await client.subscribeResource({ uri: "test://watched" });
  server.updateResource("test://watched", "v2");
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(updated, [{
    jsonrpc: "2.0",
    method: "notifications/resources/updated",
    params: { uri: "test://watched" },
  }]);
  assertEquals((await client.readResource({ uri: "test://watched" })).contents, [
    { uri: "test://watched", text: "v2" },
  ]);
  await client.unsubscribeResource({ uri: "test://watched" });
  server.updateResource("test://watched", { blob: "AAAA", mimeType: "application/octet-stream" });
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(updated.length, 1);
  const e = await assertRejects(() => client.subscribeResource({ uri: "test://plain" }));
  assertStringIncludes((e as Error).message, "does not accept subscriptions");
  // Several contents, as resources/read answers them; then one again.
  server.updateResource("test://watched", [{ text: "a" }, {
    uri: "test://watched#2",
    blob: "AA==",
  }]);
  assertEquals((await client.readResource({ uri: "test://watched" })).contents, [
    { uri: "test://watched", text: "a" },
    { uri: "test://watched#2", blob: "AA==" },
  ]);
  server.updateResource("test://watched", { contents: ["b"] });
  assertEquals((await client.readResource({ uri: "test://watched" })).contents, [
    { uri: "test://watched", text: "b" },
  ]);
  server.updateResource("test://watched", { text: "c", mimeType: "text/plain" });
  assertEquals((await client.readResource({ uri: "test://watched" })).contents, [
    { uri: "test://watched", mimeType: "text/plain", text: "c" },
  ]);
  assertThrows(() => server.updateResource("test://watched", []), TypeError, "non-empty array");
  assertThrows(
    () => server.updateResource("test://watched", [{ txt: "x" }] as never),
    TypeError,
    'contents[0]: unknown option "txt"; did you mean "text"?',
  );
  assertThrows(
    () => server.updateResource("test://watched", 7 as never),
    TypeError,
    "must be a string or",
  );
  assertThrows(
    () => server.updateResource("test://nope", "x"),
    TypeError,
    "no resource has the uri",
  );
  assertThrows(
    () => server.updateResource("test://watched", { text: "a", blob: "b" }),
    TypeError,
    "exactly one of text and blob",
  );
  await client.close();
});

Deno.test("logging: declared by logging: true, setLevel honoured, call.log sends notifications/message during the call", async () => {
  await using server = new FakeMcpServer({
    logging: true,
    tools: [{
      name: "work",
      result: (_args, call) => {
        call.log("debug", "noise");
        call.log("warning", { disk: "90%" }, "disk");
        return "done";
      },
    }],
  });
  const client = await connect(server);
  assertEquals(client.getServerCapabilities()?.logging, {});
  const logs: unknown[] = [];
  client.fallbackNotificationHandler = (n) => Promise.resolve(void logs.push(n.params));
  await client.callTool({ name: "work", arguments: {} });
  assertEquals(logs, [
    { level: "debug", data: "noise" },
    { level: "warning", data: { disk: "90%" }, logger: "disk" },
  ]);
  await client.setLoggingLevel("info");
  logs.length = 0;
  await client.callTool({ name: "work", arguments: {} });
  assertEquals(logs, [{ level: "warning", data: { disk: "90%" }, logger: "disk" }]);
  const bad = await assertRejects(() =>
    client.request({ method: "logging/setLevel", params: { level: "loud" } }, z.object({}))
  );
  assertStringIncludes((bad as Error).message, "level must be one of debug, info");
  await client.close();
});

Deno.test("logging: call.log without logging: true is an InvalidScript; without it setLevel is -32601", async () => {
  const server = new FakeMcpServer({
    tools: [{ name: "t", result: (_a, call) => (call.log("info", "x"), "ok") }],
  });
  const client = await connect(server);
  const e = await assertRejects(() => client.setLoggingLevel("info"));
  assertStringIncludes((e as Error).message, "-32601");
  await assertRejects(() => client.callTool({ name: "t", arguments: {} }));
  await client.close();
  await server.close();
  assertThrows(() => server.verify(), InvalidScript, "logging: true");
});

Deno.test("completions: lists filtered by prefix, functions, templates, and -32602 for an unknown ref", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    prompts: [{ name: "trip", arguments: [{ name: "city" }], messages: ["go"] }],
    resources: [{ uriTemplate: "test://u/{id}", name: "u", read: () => "x" }],
    completions: {
      trip: { city: ["paris", "park", "rome"] },
      "test://u/{id}": { id: (v) => [`${v}1`, `${v}2`] },
    },
  });
  const client = await connect(server);
  const complete = (ref: Record<string, string>, name: string, value: string) =>
    client.complete({ ref: ref as never, argument: { name, value } });
  assertEquals((await complete({ type: "ref/prompt", name: "trip" }, "city", "par")).completion, {
    values: ["paris", "park"],
    total: 2,
    hasMore: false,
  });
  assertEquals(
    (await complete({ type: "ref/resource", uri: "test://u/{id}" }, "id", "a")).completion.values,
    ["a1", "a2"],
  );
  assertEquals(
    (await complete({ type: "ref/prompt", name: "trip" }, "other", "")).completion.values,
    [],
  );
  const e = await assertRejects(() => complete({ type: "ref/prompt", name: "nope" }, "a", ""));
  assertStringIncludes((e as Error).message, "Prompt nope not found");
  await client.close();
  assertThrows(
    () => new FakeMcpServer({ tools: [], completions: { p: { a: [1] } } as never }),
    TypeError,
    'completions["p"]["a"] must be an array of strings or a function',
  );
});

Deno.test("call.sample and call.elicit: the client's answers, and the named error when it lacks the capability", async () => {
  await using server = new FakeMcpServer({
    tools: [
      {
        name: "ask_model",
        result: async (_a, call) => {
          const r = await call.sample({
            messages: [{ role: "user", content: { type: "text", text: "2+2?" } }],
            maxTokens: 10,
          });
          return `model said ${(r.content as { text: string }).text}`;
        },
      },
      {
        name: "ask_user",
        result: async (_a, call) => {
          const r = await call.elicit({
            message: "Your name?",
            requestedSchema: {
              type: "object",
              properties: {
                name: { type: "string", default: "Ada" },
                seats: { type: "array", items: { anyOf: [{ const: "a", title: "Aisle" }] } },
              },
              required: ["name"],
            },
          });
          return JSON.stringify(r);
        },
      },
      {
        name: "caught",
        result: async (_a, call) => {
          try {
            await call.sample({ messages: [], maxTokens: 1 });
            return "no error";
          } catch (error) {
            return `${(error as Error).name} ${(error as McpClientCapabilityMissing).code}`;
          }
        },
      },
    ],
  });
  const able = await connect(server, { sampling: {}, elicitation: {} });
  const { CreateMessageRequestSchema, ElicitRequestSchema } = await import(
    "@modelcontextprotocol/sdk/types.js"
  );
  able.setRequestHandler(CreateMessageRequestSchema, (req) => ({
    role: "assistant",
    content: { type: "text", text: `4 (${req.params.maxTokens})` },
    model: "m",
  }));
  able.setRequestHandler(
    ElicitRequestSchema,
    () => ({ action: "accept", content: { name: "Bo" } }),
  );
  assertEquals((await able.callTool({ name: "ask_model", arguments: {} })).content, [
    { type: "text", text: "model said 4 (10)" },
  ]);
  assertEquals((await able.callTool({ name: "ask_user", arguments: {} })).content, [
    { type: "text", text: '{"action":"accept","content":{"name":"Bo"}}' },
  ]);
  assertEquals(
    server.calls.filter((c) => c.method === "tools/call").map((c) => c.result !== undefined),
    [true, true],
  );
  await able.close();

  const unable = await connect(server);
  const r = await unable.callTool({ name: "ask_model", arguments: {} });
  assertEquals(r.isError, true);
  assertStringIncludes(
    JSON.stringify(r.content),
    "Client does not support sampling (required for sampling/createMessage)",
  );
  assertEquals((await unable.callTool({ name: "caught", arguments: {} })).content, [
    { type: "text", text: "McpClientCapabilityMissing -32601" },
  ]);
  await unable.close();
});

Deno.test("call.elicit: a form the 2025-11-25 schema does not allow is an InvalidScript; an answer that breaks the form is McpClientRequestFailed", async () => {
  let failure: unknown;
  const server = new FakeMcpServer({
    tools: [
      {
        name: "nested",
        result: (_a, call) =>
          call.elicit({
            message: "m",
            requestedSchema: { type: "object", properties: { o: { type: "object" } } },
          }),
      },
      {
        name: "checked",
        result: async (_a, call) => {
          try {
            await call.elicit({
              message: "m",
              requestedSchema: {
                type: "object",
                properties: { age: { type: "integer", minimum: 0 } },
                required: ["age"],
              },
            });
          } catch (error) {
            failure = error;
          }
          return "ok";
        },
      },
    ],
  });
  const client = await connect(server, { elicitation: {} });
  const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: {} }));
  await client.callTool({ name: "checked", arguments: {} });
  assertEquals((failure as McpClientRequestFailed).name, "McpClientRequestFailed");
  assertStringIncludes(String(failure), "does not match requested schema");
  await assertRejects(() => client.callTool({ name: "nested", arguments: {} }));
  await client.close();
  await server.close();
  assertThrows(() => server.verify(), InvalidScript, "ElicitRequestFormParams");
});
