// FakeMcpServer against the official SDK's Client (test-only, pinned in
// deno.json), in memory and over Streamable HTTP in process: every answer
// form, every fault step, the closed world, the records, and bad input.
import {
  Client,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  StreamableHTTPClientTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  ToolListChangedNotificationSchema,
} from "../../_mcp_sdk.ts";
import { z } from "zod";
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  FakeClock,
  FakeMcpServer,
  type FakeMcpTool,
  InvalidScript,
  ScriptExhausted,
  UnknownMcpToolCall,
  UnusedTurns,
} from "@agentkit/testing/testing";

const INFO = { name: "agent", version: "1.0.0" };

async function connect(server: FakeMcpServer): Promise<Client> {
  const client = new Client(INFO);
  await client.connect(server.transport());
  return client;
}

function httpClient(server: FakeMcpServer, token?: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL("http://fake-mcp/mcp"), {
    fetch: server.fetch,
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
}

// The SDK client's answer to one tool call, or the code of its error.
async function outcome(client: Client, name: string, args: Record<string, unknown> = {}) {
  try {
    return await client.callTool({ name, arguments: args });
  } catch (error) {
    if (error instanceof McpError) return { code: error.code, message: error.message };
    throw error;
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("FakeMcpServer speaks the SDK's versions: the latest, an older one echoed, an unknown one answered with the latest", async (t) => {
  assertEquals(LATEST_PROTOCOL_VERSION, "2025-11-25");
  await using server = new FakeMcpServer({ tools: [], name: "certs" });
  await t.step("the SDK client negotiates 2025-11-25 and reads serverInfo", async () => {
    const client = await connect(server);
    assertEquals(client.getServerVersion(), { name: "certs", version: "1.0.0" });
    assertEquals(client.getServerCapabilities(), { tools: { listChanged: true } });
    await client.close();
  });
  for (const asked of [...SUPPORTED_PROTOCOL_VERSIONS, "1999-01-01"]) {
    await t.step(`initialize with ${asked}`, async () => {
      const tr = server.transport();
      const seen: unknown[] = [];
      tr.onmessage = (m) => seen.push(m);
      await tr.start();
      await tr.send({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: asked, capabilities: {}, clientInfo: INFO },
      });
      const expected = SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : "2025-11-25";
      assertEquals(
        (seen[0] as { result: { protocolVersion: string } }).result.protocolVersion,
        expected,
      );
      await tr.close();
    });
  }
});

Deno.test("FakeMcpServer lists its tools with their schemas, zod and JSON Schema alike", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "plain", result: "x" },
      {
        name: "zod",
        title: "Zod tool",
        description: "A zod schema",
        inputSchema: z.object({ host: z.string() }),
        result: "x",
      },
      { name: "shape", inputSchema: { n: z.number() }, result: "x" },
      {
        name: "json",
        inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
        outputSchema: { type: "object", properties: { a: { type: "number" } } },
        result: { a: 1 },
      },
    ],
  });
  const client = await connect(server);
  const { tools } = await client.listTools();
  assertEquals(tools.map((t) => t.name), ["plain", "zod", "shape", "json"]);
  assertEquals(tools[0].inputSchema, { type: "object", properties: {} });
  assertEquals(tools[1].title, "Zod tool");
  assertEquals(tools[1].inputSchema.properties, { host: { type: "string" } });
  assertEquals(tools[1].inputSchema.required, ["host"]);
  assertEquals(tools[2].inputSchema.required, ["n"]);
  assertEquals(tools[3].outputSchema, { type: "object", properties: { a: { type: "number" } } });
  await client.close();
});

Deno.test("FakeMcpServer answers values: a string is text, an object structured content and its JSON, other JSON its text", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "text", result: "Sunny" },
      { name: "object", result: { temp: 21, sky: "clear" } },
      { name: "number", result: 42 },
      { name: "list", result: [1, 2] },
    ],
  });
  const client = await connect(server);
  assertEquals(await client.callTool({ name: "text", arguments: {} }), {
    content: [{ type: "text", text: "Sunny" }],
  });
  assertEquals(await client.callTool({ name: "object", arguments: {} }), {
    content: [{ type: "text", text: '{"temp":21,"sky":"clear"}' }],
    structuredContent: { temp: 21, sky: "clear" },
  });
  assertEquals((await client.callTool({ name: "number", arguments: {} })).content, [
    { type: "text", text: "42" },
  ]);
  assertEquals((await client.callTool({ name: "list", arguments: {} })).content, [
    { type: "text", text: "[1,2]" },
  ]);
  await client.close();
});

Deno.test("FakeMcpServer tool functions get the arguments and the call, and may return steps; a throw is an isError result", async () => {
  const seen: unknown[] = [];
  await using server = new FakeMcpServer({
    tools: [
      {
        name: "lookup",
        result: (args, call) => {
          seen.push([args, call.tool, call.number, call.signal.aborted]);
          return call.number === 1 ? `cert for ${args.host}` : { isError: true, text: "gone" };
        },
      },
      {
        name: "boom",
        result: () => {
          throw new Error("disk full");
        },
      },
    ],
  });
  const client = await connect(server);
  assertEquals(await outcome(client, "lookup", { host: "a" }), {
    content: [{ type: "text", text: "cert for a" }],
  });
  assertEquals(await outcome(client, "lookup", { host: "b" }), {
    content: [{ type: "text", text: "gone" }],
    isError: true,
  });
  assertEquals(await outcome(client, "boom"), {
    content: [{ type: "text", text: "disk full" }],
    isError: true,
  });
  assertEquals(seen, [[{ host: "a" }, "lookup", 1, false], [{ host: "b" }, "lookup", 2, false]]);
  await client.close();
});

Deno.test("FakeMcpServer.script() answers one step per call; one more is ScriptExhausted, from verify()", async () => {
  const server = new FakeMcpServer({
    tools: [{ name: "deploy", result: FakeMcpServer.script(["one", { n: 2 }]) }],
  });
  const client = await connect(server);
  assertEquals(await outcome(client, "deploy"), { content: [{ type: "text", text: "one" }] });
  assertEquals((await client.callTool({ name: "deploy", arguments: {} })).structuredContent, {
    n: 2,
  });
  const third = await outcome(client, "deploy");
  assertEquals((third as { code: number }).code, ErrorCode.InternalError);
  assertStringIncludes((third as { message: string }).message, "has 2 step(s)");
  const e = assertThrows(() => server.verify(), ScriptExhausted);
  assertEquals([e.scripted, e.requested], [2, 3]);
  await client.close();
  await server.close();
});

Deno.test("FakeMcpServer.script() with repeatLast answers the last step forever; verify() reports unused steps", async () => {
  const server = new FakeMcpServer({
    tools: [
      { name: "a", result: FakeMcpServer.script(["x", "y"], { repeatLast: true }) },
      { name: "b", result: FakeMcpServer.script(["p", "q", "r"]) },
    ],
  });
  const client = await connect(server);
  for (let i = 0; i < 4; i++) await client.callTool({ name: "a", arguments: {} });
  await client.callTool({ name: "b", arguments: {} });
  assertThrows(
    () => server.verify(),
    UnusedTurns,
    'script of tool "b" has 3 step(s), but the run used only 1',
  );
  await client.close();
  await server.close();
});

Deno.test("FakeMcpServer steps: isError and rpcError reach the client as MCP says", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "soft", result: { isError: true, text: "quota exceeded" } },
      { name: "hard", result: { rpcError: { code: -32000, message: "backend down" } } },
    ],
  });
  const client = await connect(server);
  assertEquals(await outcome(client, "soft"), {
    content: [{ type: "text", text: "quota exceeded" }],
    isError: true,
  });
  assertEquals(await outcome(client, "hard"), {
    code: -32000,
    message: "MCP error -32000: backend down",
  });
  assertEquals(server.calls.at(-1)?.error, { code: -32000, message: "backend down" });
  await client.close();
});

Deno.test("FakeMcpServer latencyMs and progress run on the clock; progress reaches a client that asked for it", async () => {
  const clock = new FakeClock();
  await using server = new FakeMcpServer({
    clock,
    progressIntervalMs: 250,
    tools: [{
      name: "build",
      result: FakeMcpServer.script([
        { progress: [0.5, 1], latencyMs: 1_000, result: "built" },
        { progress: [{ progress: 1, total: 2, message: "half" }, 2] },
      ]),
    }],
  });
  const client = await connect(server);
  const progress: unknown[] = [];
  const r = await client.callTool({ name: "build", arguments: {} }, undefined, {
    onprogress: (p) => progress.push(p),
  });
  assertEquals(r.content, [{ type: "text", text: "built" }]);
  assertEquals(progress, [{ progress: 0.5 }, { progress: 1 }]);
  assertEquals(clock.sleeps, [250, 1_000]);
  // No progress token: no notifications, the same waits.
  await client.callTool({ name: "build", arguments: {} });
  assertEquals(clock.now(), 1_500);
  await client.close();
});

Deno.test("FakeMcpServer progress: a step's progressIntervalMs overrides the server's, and the notifications carry total and message", async () => {
  const clock = new FakeClock();
  await using server = new FakeMcpServer({
    clock,
    tools: [{
      name: "t",
      result: { progress: [{ progress: 1, total: 2, message: "half" }, 2], progressIntervalMs: 40 },
    }],
  });
  const client = await connect(server);
  const progress: unknown[] = [];
  await client.callTool({ name: "t", arguments: {} }, undefined, {
    onprogress: (p) => progress.push(p),
  });
  assertEquals(progress, [{ progress: 1, total: 2, message: "half" }, { progress: 2 }]);
  assertEquals(clock.sleeps, [40]);
  await client.close();
});

Deno.test("FakeMcpServer gate holds the answer until released; a rejected gate is an isError result", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  await using server = new FakeMcpServer({
    tools: [
      { name: "held", result: { gate, result: "released" } },
      { name: "refused", result: { gate: Promise.reject(new Error("permission denied")) } },
    ],
  });
  const client = await connect(server);
  let answered = false;
  const call = client.callTool({ name: "held", arguments: {} }).then((r) => {
    answered = true;
    return r;
  });
  await tick();
  assertEquals([answered, server.calls.at(-1)?.result], [false, undefined]);
  release();
  assertEquals((await call).content, [{ type: "text", text: "released" }]);
  assertEquals(await outcome(client, "refused"), {
    content: [{ type: "text", text: "permission denied" }],
    isError: true,
  });
  await client.close();
});

Deno.test("FakeMcpServer notifications/cancelled ends the tool's wait, is recorded, and gets no answer", async () => {
  let toolSignal: AbortSignal | undefined;
  await using server = new FakeMcpServer({
    tools: [
      { name: "slow", result: { gate: new Promise(() => {}) } },
      {
        name: "watching",
        result: (_args, call) => {
          toolSignal = call.signal;
          return new Promise(() => {});
        },
      },
    ],
  });
  const client = await connect(server);
  for (const name of ["slow", "watching"]) {
    const controller = new AbortController();
    const call = client.callTool({ name, arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await tick();
    controller.abort("the user stopped it");
    await assertRejects(() => call, McpError, "the user stopped it");
    await tick();
    assertEquals(server.calls.at(-1), {
      method: "tools/call",
      tool: name,
      args: {},
      cancelled: true,
    });
  }
  assertEquals(toolSignal?.aborted, true);
  await client.close();
});

Deno.test("FakeMcpServer { disconnect: true } closes the in-memory transport mid-call", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "crash", result: { disconnect: true } }],
  });
  const client = await connect(server);
  let closed = false;
  client.onclose = () => closed = true;
  await assertRejects(
    () => client.callTool({ name: "crash", arguments: {} }),
    McpError,
    "Connection closed",
  );
  assert(closed);
  await assertRejects(() => client.listTools(), Error, "Not connected");
});

Deno.test("FakeMcpServer closed world: an undeclared tool is -32602 naming it, recorded, and thrown by a strict verify()", async (t) => {
  await t.step("the spec's protocol error by default", async () => {
    const server = new FakeMcpServer({ tools: [{ name: "ls", result: "." }], strict: true });
    const client = await connect(server);
    assertEquals(await outcome(client, "rm", { path: "/" }), {
      code: -32602,
      message: "MCP error -32602: Unknown tool: rm",
    });
    assertEquals(server.unknownToolCalls, [{ tool: "rm", args: { path: "/" } }]);
    const e = assertThrows(() => server.verify(), UnknownMcpToolCall, '"rm"');
    assertStringIncludes(e.message, 'declares "ls"');
    await client.close();
    await server.close();
  });
  await t.step(
    'the SDK McpServer\'s isError result with unknownTool: "result"; lenient verify()',
    async () => {
      await using server = new FakeMcpServer({ tools: [], unknownTool: "result" });
      const client = await connect(server);
      assertEquals(await outcome(client, "rm"), {
        content: [{ type: "text", text: "MCP error -32602: Tool rm not found" }],
        isError: true,
      });
      assertEquals(server.unknownToolCalls.length, 1);
      server.verify();
      await client.close();
    },
  );
});

Deno.test("FakeMcpServer checks arguments against inputSchema as the SDK's McpServer does: an isError result naming the tool", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "zod", inputSchema: z.object({ host: z.string() }), result: "ok" },
      {
        name: "json",
        inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
        result: "ok",
      },
    ],
  });
  const client = await connect(server);
  const bad = await outcome(client, "zod", { host: 1 }) as {
    isError: boolean;
    content: { text: string }[];
  };
  assertEquals(bad.isError, true);
  assertStringIncludes(
    bad.content[0].text,
    "MCP error -32602: Input validation error: Invalid arguments for tool zod: ",
  );
  assertStringIncludes(bad.content[0].text, "at host");
  const missing = await outcome(client, "json", {}) as {
    isError: boolean;
    content: { text: string }[];
  };
  assertEquals(missing.isError, true);
  assertStringIncludes(missing.content[0].text, "Invalid arguments for tool json");
  assertStringIncludes(missing.content[0].text, '"n"');
  assertEquals(await outcome(client, "json", { n: 3 }), {
    content: [{ type: "text", text: "ok" }],
  });
  await client.close();
});

Deno.test("FakeMcpServer checks structured results against outputSchema as the SDK's McpServer does", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "wrong", outputSchema: z.object({ n: z.number() }), result: { n: "one" } },
      { name: "none", outputSchema: { type: "object", properties: {} }, result: "text only" },
    ],
  });
  const client = await connect(server);
  const wrong = await outcome(client, "wrong") as { content: { text: string }[] };
  assertStringIncludes(
    wrong.content[0].text,
    "Output validation error: Invalid structured content for tool wrong",
  );
  const none = await outcome(client, "none") as { content: { text: string }[] };
  assertStringIncludes(
    none.content[0].text,
    "has an output schema but no structured content was provided",
  );
  await client.close();
});

Deno.test("FakeMcpServer serves resources and prompts; what it lacks is -32601, what is missing the spec's errors", async () => {
  await using server = new FakeMcpServer({
    tools: [],
    resources: [
      { uri: "file:///notes.md", text: "# Notes", mimeType: "text/markdown" },
      { uri: "file:///logo.png", name: "logo", blob: "iVBORw0=", mimeType: "image/png" },
    ],
    prompts: [
      { name: "hello", messages: ["Say hello"] },
      {
        name: "review",
        description: "Reviews code",
        arguments: [{ name: "lang", required: true }],
        messages: (args) => [{ role: "user", content: `Review this ${args.lang}` }],
      },
    ],
  });
  const client = await connect(server);
  assertEquals((await client.listResources()).resources, [
    { uri: "file:///notes.md", name: "file:///notes.md", mimeType: "text/markdown" },
    { uri: "file:///logo.png", name: "logo", mimeType: "image/png" },
  ]);
  assertEquals((await client.readResource({ uri: "file:///notes.md" })).contents, [
    { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" },
  ]);
  assertEquals(
    (await client.readResource({ uri: "file:///logo.png" })).contents[0],
    { uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0=" },
  );
  const missing = await assertRejects(() => client.readResource({ uri: "file:///nope" }), McpError);
  assertEquals([missing.code, missing.data], [-32002, { uri: "file:///nope" }]);
  assertEquals((await client.listPrompts()).prompts.map((p) => p.name), ["hello", "review"]);
  assertEquals(await client.getPrompt({ name: "review", arguments: { lang: "Go" } }), {
    description: "Reviews code",
    messages: [{ role: "user", content: { type: "text", text: "Review this Go" } }],
  });
  const noArg = await assertRejects(() => client.getPrompt({ name: "review" }), McpError);
  assertEquals(noArg.code, -32602);
  await assertRejects(() => client.getPrompt({ name: "nope" }), McpError, "Prompt nope not found");
  await client.close();

  await using bare = new FakeMcpServer({ tools: [] });
  const c2 = await connect(bare);
  const e = await assertRejects(() => c2.request({ method: "resources/list" }, z.any()), McpError);
  assertEquals(e.code, ErrorCode.MethodNotFound);
  await c2.close();
});

Deno.test("FakeMcpServer.setTools() sends notifications/tools/list_changed and serves the new tools", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "a", result: "a" }] });
  const client = await connect(server);
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
  server.setTools([{ name: "b", result: "b" }]);
  await tick();
  assertEquals(changed, 1);
  assertEquals((await client.listTools()).tools.map((t) => t.name), ["b"]);
  await client.close();
});

Deno.test("FakeMcpServer.calls records each request in order, with what it answered", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "echo", result: (a) => String(a.text) }],
  });
  const client = await connect(server);
  await client.listTools();
  await client.callTool({ name: "echo", arguments: { text: "hi" } });
  await client.ping();
  assertEquals(server.calls.map((c) => c.method), [
    "initialize",
    "tools/list",
    "tools/call",
    "ping",
  ]);
  assertEquals(server.calls[2], {
    method: "tools/call",
    tool: "echo",
    args: { text: "hi" },
    result: { content: [{ type: "text", text: "hi" }] },
  });
  await client.close();
});

Deno.test("FakeMcpServer answers garbage frames as JSON-RPC says, and keeps serving", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "t", result: "ok" }] });
  const tr = server.transport();
  const seen: unknown[] = [];
  tr.onmessage = (m) => seen.push(m);
  await tr.start();
  const frames: unknown[] = [
    "{nope",
    42,
    [{ jsonrpc: "2.0", id: 1, method: "ping" }],
    { jsonrpc: "1.0", id: 2, method: "ping" },
    { jsonrpc: "2.0", id: null, method: "ping" },
    { jsonrpc: "2.0", id: 3, method: "ping", extra: true },
    { jsonrpc: "2.0", id: 4, method: "no/such" },
    { jsonrpc: "2.0", id: 5, method: "tools/call", params: { arguments: {} } },
    { jsonrpc: "2.0", id: 6, method: "ping", params: [1] },
    '{"jsonrpc":"2.0","id":7,"method":"ping"}',
  ];
  for (const f of frames) await tr.send(f);
  await tick();
  const codes = seen.map((m) => (m as { error?: { code: number } }).error?.code ?? "ok");
  assertEquals(codes, [
    -32700,
    -32600,
    -32600,
    -32600,
    -32600,
    -32600,
    -32601,
    -32602,
    -32600,
    "ok",
  ]);
  assertEquals((seen[3] as { id?: number }).id, 2);
  assert(!("id" in (seen[4] as object)), "an unknown id is left out, as MCP's schema allows");
  await tr.close();
  await assertRejects(
    () => tr.send({ jsonrpc: "2.0", id: 8, method: "ping" }),
    Error,
    "Not connected",
  );
  await assertRejects(() => tr.start(), Error, "already started");
});

Deno.test("new FakeMcpServer() rejects unknown options and malformed declarations with messages that name them", async (t) => {
  const cases: [string, () => unknown, ErrorConstructor | typeof InvalidScript, string][] = [
    [
      "unknown option",
      () => new FakeMcpServer({ tools: [], tool: [] } as never),
      TypeError,
      'did you mean "tools"?',
    ],
    ["no tools", () => new FakeMcpServer({} as never), TypeError, 'option "tools" is required'],
    [
      "auth without a token",
      () => new FakeMcpServer({ tools: [], auth: { key: "x" } } as never),
      TypeError,
      "auth",
    ],
    [
      "bad unknownTool",
      () => new FakeMcpServer({ tools: [], unknownTool: "ignore" } as never),
      TypeError,
      '"error" or "result"',
    ],
    [
      "tool without result",
      () => new FakeMcpServer({ tools: [{ name: "t" } as FakeMcpTool] }),
      TypeError,
      "needs a result",
    ],
    [
      "tool without a name",
      () => new FakeMcpServer({ tools: [{ result: "x" } as never] }),
      TypeError,
      "tools[0].name",
    ],
    [
      "misspelled tool key",
      () => new FakeMcpServer({ tools: [{ name: "t", result: "x", inputschema: {} } as never] }),
      TypeError,
      'did you mean "inputSchema"?',
    ],
    [
      "non-object input schema",
      () =>
        new FakeMcpServer({ tools: [{ name: "t", result: "x", inputSchema: { type: "string" } }] }),
      TypeError,
      'type "object"',
    ],
    [
      "bogus schema type",
      () =>
        new FakeMcpServer({ tools: [{ name: "t", result: "x", inputSchema: { type: "bogus" } }] }),
      TypeError,
      "not a JSON-schema type",
    ],
    [
      "zod string input",
      () => new FakeMcpServer({ tools: [{ name: "t", result: "x", inputSchema: z.string() }] }),
      TypeError,
      "must describe an object",
    ],
    [
      "duplicate tools",
      () => new FakeMcpServer({ tools: [{ name: "t", result: 1 }, { name: "t", result: 2 }] }),
      TypeError,
      'repeats the name "t"',
    ],
    [
      "misspelled step key",
      () => FakeMcpServer.script([{ isError: true, txt: "x" }]),
      InvalidScript,
      'did you mean "text"?',
    ],
    [
      "a near miss of a step key is a step, not structured content (docs/mcp.md's latencyMS)",
      () => FakeMcpServer.script([{ latencyMS: 5, result: "x" }]),
      InvalidScript,
      'unknown key "latencyMS" in FakeMcpServer.script step 1; did you mean "latencyMs"?',
    ],
    [
      "isError without text",
      () => FakeMcpServer.script([{ isError: true }]),
      InvalidScript,
      "needs the error's text",
    ],
    [
      "two answers",
      () => FakeMcpServer.script([{ isError: true, text: "x", result: "y" }]),
      InvalidScript,
      "answers one way",
    ],
    [
      "progress going down",
      () => FakeMcpServer.script([{ progress: [0.5, 0.2] }]),
      InvalidScript,
      "MCP requires each progress value to increase",
    ],
    [
      "negative latency",
      () => FakeMcpServer.script([{ latencyMs: -1 }]),
      InvalidScript,
      "latencyMs",
    ],
    [
      "gate not a promise",
      () => FakeMcpServer.script([{ gate: 5 }]),
      InvalidScript,
      "gate must be a promise",
    ],
    [
      "bad rpcError",
      () => FakeMcpServer.script([{ rpcError: { code: "x" } }]),
      InvalidScript,
      "rpcError must be",
    ],
    [
      "script of a script",
      () => FakeMcpServer.script([FakeMcpServer.script([])]),
      InvalidScript,
      "cannot hold a script",
    ],
    [
      "script option",
      () => FakeMcpServer.script([], { repeat: true } as never),
      TypeError,
      'did you mean "repeatLast"?',
    ],
    [
      "resource without content",
      () => new FakeMcpServer({ tools: [], resources: [{ uri: "a" }] }),
      TypeError,
      "exactly one of text and blob",
    ],
    [
      "prompt without messages",
      () => new FakeMcpServer({ tools: [], prompts: [{ name: "p" } as never] }),
      TypeError,
      '"messages" is required',
    ],
    [
      "prompt message role",
      () =>
        new FakeMcpServer({
          tools: [],
          prompts: [{ name: "p", messages: [{ role: "system", content: "x" } as never] }],
        }),
      TypeError,
      '"user" | "assistant"',
    ],
    [
      "setTools of a non-array",
      () => new FakeMcpServer({ tools: [] }).setTools("t" as never),
      TypeError,
      "an array of tools",
    ],
  ];
  for (const [name, build, type, text] of cases) {
    await t.step(name, () => void assertThrows(build, type as ErrorConstructor, text));
  }
});

Deno.test("FakeMcpServer.fetch serves the SDK client over Streamable HTTP: session id, JSON and SSE answers, the GET stream, DELETE", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "weather", result: { temp: 21 } },
      { name: "build", result: { progress: [0.5, 1], result: "built" } },
    ],
  });
  const transport = httpClient(server);
  const client = new Client(INFO);
  await client.connect(transport);
  assert(transport.sessionId && /^[0-9a-f-]{36}$/.test(transport.sessionId));
  assertEquals((await client.callTool({ name: "weather", arguments: {} })).structuredContent, {
    temp: 21,
  });
  const progress: unknown[] = [];
  const built = await client.callTool({ name: "build", arguments: {} }, undefined, {
    onprogress: (p) => progress.push(p),
  });
  assertEquals([built.content, progress], [[{ type: "text", text: "built" }], [
    { progress: 0.5 },
    { progress: 1 },
  ]]);
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
  server.setTools([{ name: "late", result: "ok" }]);
  for (let i = 0; i < 20 && changed === 0; i++) await tick();
  assertEquals(changed, 1, "list_changed arrives on the GET stream the client opened");
  await transport.terminateSession();
  assertEquals(transport.sessionId, undefined);
  await client.close();
});

Deno.test("FakeMcpServer.fetch answers bad HTTP as the SDK's server transport does", async (t) => {
  await using server = new FakeMcpServer({ tools: [] });
  const post = (body: string, headers: Record<string, string> = {}) =>
    server.fetch("http://fake-mcp/mcp", {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...headers,
      },
      body,
    });
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: INFO },
  });
  const opened = await post(init);
  const session = opened.headers.get("mcp-session-id")!;
  assertEquals((await opened.json()).result.protocolVersion, "2025-11-25");
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
  const cases: [string, () => Promise<Response>, number, number | undefined][] = [
    ["unparseable JSON", () => post("{", { "mcp-session-id": session }), 400, -32700],
    ["not JSON-RPC", () => post('{"hello":1}', { "mcp-session-id": session }), 400, -32600],
    ["no session id", () => post(ping), 400, -32000],
    ["unknown session", () => post(ping, { "mcp-session-id": "nope" }), 404, -32001],
    [
      "unsupported version",
      () => post(ping, { "mcp-session-id": session, "mcp-protocol-version": "1999-01-01" }),
      400,
      -32000,
    ],
    [
      "accept without SSE",
      () => post(ping, { accept: "application/json", "mcp-session-id": session }),
      406,
      -32000,
    ],
    [
      "text body",
      () => post(ping, { "content-type": "text/plain", "mcp-session-id": session }),
      415,
      -32000,
    ],
    ["PUT", () => server.fetch("http://fake-mcp/mcp", { method: "PUT" }), 405, -32000],
    [
      "another path",
      () => server.fetch("http://fake-mcp/v1/mcp", { method: "POST" }),
      404,
      undefined,
    ],
  ];
  for (const [name, send, status, code] of cases) {
    await t.step(name, async () => {
      const res = await send();
      assertEquals(res.status, status);
      if (code === undefined) await res.body?.cancel();
      else assertEquals((await res.json()).error.code, code);
    });
  }
  await t.step("a notification is 202 with no body", async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      { "mcp-session-id": session },
    );
    assertEquals([res.status, res.body], [202, null]);
  });
  await t.step("fetch() of a non-URL is a TypeError", async () => {
    await assertRejects(() => server.fetch(42 as never), TypeError, "takes what fetch() takes");
  });
});

Deno.test("FakeMcpServer auth: HTTP without the bearer token is 401 with WWW-Authenticate; the token is never echoed", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "t", result: "ok" }],
    auth: { token: "s3cret-token" },
  });
  const res = await server.fetch("http://fake-mcp/mcp", {
    method: "POST",
    headers: { authorization: "Bearer wrong" },
    body: "{}",
  });
  assertEquals(res.status, 401);
  assertEquals(
    res.headers.get("www-authenticate"),
    'Bearer error="invalid_token", error_description="Invalid token"',
  );
  const text = await res.text();
  assert(!text.includes("s3cret"), "the expected token is not in the answer");
  const anonymous = new Client(INFO);
  const refused = await assertRejects(
    () => anonymous.connect(httpClient(server)),
    Error,
    "Missing Authorization header",
  );
  assertEquals((refused as { code?: number }).code, 401);
  const client = new Client(INFO);
  await client.connect(httpClient(server, "s3cret-token"));
  assertEquals((await client.callTool({ name: "t", arguments: {} })).content, [
    { type: "text", text: "ok" },
  ]);
  await client.close();
  // The in-memory transport has no HTTP layer, so no auth.
  const memory = await connect(server);
  await memory.close();
});

Deno.test("FakeMcpServer over HTTP: a cancelled call ends its stream; a disconnect cuts it and ends the session", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "slow", result: { gate: new Promise(() => {}) } },
      { name: "crash", result: { disconnect: true } },
    ],
  });
  const transport = httpClient(server);
  const errors: Error[] = [];
  const client = new Client(INFO);
  await client.connect(transport);
  transport.onerror = (e) => errors.push(e);
  const controller = new AbortController();
  const call = client.callTool({ name: "slow", arguments: {} }, undefined, {
    signal: controller.signal,
  });
  await tick();
  controller.abort("stop");
  await assertRejects(() => call, McpError, "stop");
  for (let i = 0; i < 10 && server.calls.at(-1)?.cancelled !== true; i++) await tick();
  assertEquals(server.calls.at(-1)?.cancelled, true);

  const crash = new AbortController();
  const crashed = client.callTool({ name: "crash", arguments: {} }, undefined, {
    signal: crash.signal,
  });
  for (let i = 0; i < 20 && !errors.some((e) => /disconnect/.test(e.message)); i++) await tick();
  assert(errors.some((e) => /SSE stream disconnected/.test(e.message)), errors.join("; "));
  crash.abort("gave up");
  await assertRejects(() => crashed, McpError);
  await client.close();
  const after = await server.fetch("http://fake-mcp/mcp", {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-session-id": transport.sessionId ?? "",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
  });
  assertEquals(after.status, 404, "the session ended with the disconnect");
  await after.body?.cancel();
});

Deno.test("FakeMcpServer with await using closes its sessions, then verifies", async () => {
  let client: Client | undefined;
  let closed = false;
  await assertRejects(async () => {
    await using server = new FakeMcpServer({
      tools: [{ name: "t", result: FakeMcpServer.script(["a"]) }],
    });
    client = await connect(server);
    client.onclose = () => closed = true;
  }, UnusedTurns);
  assert(closed, "the client saw its transport close");
  assertInstanceOf(client, Client);
});
