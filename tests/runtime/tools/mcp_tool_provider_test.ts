import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "@std/assert";
import { z } from "zod";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  type ListToolsRequest,
  ListToolsRequestSchema,
  McpError,
} from "./_sdk.ts";
import {
  Agent,
  CollectingObserver,
  type McpClient,
  McpToolProvider,
  McpToolsUnavailable,
  NullCtx,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
import { counting, link, McpServer, Server } from "./_sdk.ts";

const CERT_ARGS = { host: z.string().describe("The host name") };

function certServer(seen: unknown[] = []): McpServer {
  const server = new McpServer({ name: "certs", version: "1.0.0" });
  server.registerTool("lookup_cert", {
    description: "Look up a host's TLS certificate",
    inputSchema: CERT_ARGS,
  }, ({ host }: { host: string }) => {
    seen.push(host);
    return { content: [{ type: "text", text: `${host}: notAfter 2026-08-01` }] };
  });
  return server;
}

Deno.test("McpToolProvider runs a ReAct tool loop on the SDK Client and McpServer over InMemoryTransport", async () => {
  const seen: unknown[] = [];
  await using linked = await link(certServer(seen));
  const provider = new McpToolProvider(linked.client);
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup_cert", { host: "example.com" })] },
    { content: "The certificate expired on 2026-08-01." },
  ]);
  const agent = new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ provider }),
  });
  const result = await agent.run("Why did the deploy fail?", makeTestCtx({ llm }));
  assertEquals(result.output, "The certificate expired on 2026-08-01.");
  assertEquals(seen, ["example.com"]);
  assertEquals(result.messages[2], {
    role: "tool",
    content: "example.com: notAfter 2026-08-01",
    toolCallId: "c1",
  });
  const [spec] = llm.requests[0].tools;
  assertEquals(spec.name, "lookup_cert");
  assertEquals(spec.description, "Look up a host's TLS certificate");
  // The server's JSON schema, as the SDK's McpServer lists it.
  assertEquals(spec.parameters.type, "object");
  assertEquals(
    (spec.parameters.properties as Record<string, { type: string }>).host.type,
    "string",
  );
  assertEquals(spec.parameters.required, ["host"]);
  assertEquals(llm.requests[1].tools.map((t) => t.name), ["lookup_cert"]);
});

Deno.test("McpToolProvider gives an isError result as a tool error the model sees", async (t) => {
  const server = new McpServer({ name: "disk", version: "1.0.0" });
  server.registerTool("write", { inputSchema: { path: z.string() } }, () => ({
    isError: true,
    content: [{ type: "text", text: "disk full" }],
  }));
  server.registerTool("crash", { inputSchema: { path: z.string() } }, () => {
    throw new Error("the handler crashed");
  });
  await using linked = await link(server);
  const provider = new McpToolProvider(linked.client);

  await t.step("a tool's own isError result", async () => {
    const observer = new CollectingObserver();
    const llm = FakeLLM.script([
      { toolCalls: [toolCall("c1", "write", { path: "a" })] },
      { content: "The disk is full." },
    ]);
    const agent = new Agent("a", { model: "m", cognition: new ReActCognition({ provider }) });
    const result = await agent.run("save", makeTestCtx({ llm, observer }));
    assertEquals(result.messages[2].content, "Error: disk full");
    assertEquals(
      observer.items.filter((o) => o.kind === "tool_error").map((o) => o.payload),
      [{ tool: "write", callId: "c1" }],
    );
  });

  await t.step("a handler that throws (McpServer answers isError)", async () => {
    const [r] = await provider.executeToolCalls(
      [{ id: "c2", name: "crash", args: { path: "a" } }],
      new NullCtx(),
    );
    assertEquals(r.isError, true);
    assertMatch(r.content, /the handler crashed/);
  });

  await t.step("arguments the server's schema refuses", async () => {
    const [r] = await provider.executeToolCalls(
      [{ id: "c3", name: "write", args: { path: 7 } }],
      new NullCtx(),
    );
    assertEquals(r.isError, true);
    assertMatch(r.content, /path/);
  });

  await t.step("a tool the server does not have", async () => {
    const [r] = await provider.executeToolCalls(
      [{ id: "c4", name: "format_disk", args: {} }],
      new NullCtx(),
    );
    assertEquals(r.isError, true);
    assertMatch(r.content, /format_disk/);
  });
});

Deno.test("McpToolProvider gives structured content as its JSON text", async () => {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.registerTool("forecast", {
    inputSchema: { city: z.string() },
    outputSchema: { tempC: z.number(), sky: z.string() },
  }, ({ city }: { city: string }) => {
    const structuredContent = { tempC: city === "Oslo" ? 4 : 20, sky: "clear" };
    return {
      structuredContent,
      content: [{ type: "text", text: JSON.stringify(structuredContent) }],
    };
  });
  await using linked = await link(server);
  const provider = new McpToolProvider(linked.client);
  await provider.listTools(); // the SDK Client validates structured content against listed schemas
  const [r] = await provider.executeToolCalls(
    [{ id: "c1", name: "forecast", args: { city: "Oslo" } }],
    new NullCtx(),
  );
  assertEquals(r, { callId: "c1", isError: false, content: '{"tempC":4,"sky":"clear"}' });
});

Deno.test("McpToolProvider maps image, audio and resource blocks to text", async () => {
  const server = new McpServer({ name: "media", version: "1.0.0" });
  server.registerTool("snapshot", { inputSchema: {} }, () => ({
    content: [
      { type: "text", text: "Here it is:" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///a.txt", text: "hello" } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AAEC", mimeType: "x/y" } },
      { type: "resource_link", uri: "file:///c.md", name: "c.md" },
    ],
  }));
  await using linked = await link(server);
  const [r] = await new McpToolProvider(linked.client).executeToolCalls(
    [{ id: "c1", name: "snapshot", args: {} }],
    new NullCtx(),
  );
  assertEquals(
    r.content,
    [
      "Here it is:",
      "[image: image/png, 8 bytes]", // the PNG signature
      "[audio: audio/wav, 4 bytes]",
      "[resource: file:///a.txt]\nhello",
      "[resource: file:///b.bin, x/y, 3 bytes]",
      "[resource link: c.md <file:///c.md>]",
    ].join("\n"),
  );
});

// A low-level SDK Server whose tools/list answers in pages of `size`.
function pagedServer(names: string[], size: number, cursors: (string | undefined)[] = []): Server {
  const server = new Server({ name: "paged", version: "1.0.0" }, {
    capabilities: { tools: { listChanged: true } },
  });
  server.setRequestHandler(ListToolsRequestSchema, (request: ListToolsRequest) => {
    const cursor = request.params?.cursor;
    cursors.push(cursor);
    const from = cursor === undefined ? 0 : Number(cursor.slice("page-".length));
    const next = from + size;
    return {
      tools: names.slice(from, next).map((name) => ({
        name,
        description: `tool ${name}`,
        inputSchema: { type: "object" as const },
      })),
      ...(next < names.length ? { nextCursor: `page-${next}` } : {}),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, (request: CallToolRequest) => {
    if (!names.includes(request.params.name)) {
      // What the MCP specification prescribes for an unknown tool.
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    return {
      content: [{
        type: "text",
        text: `${request.params.name}(${JSON.stringify(request.params.arguments)})`,
      }],
    };
  });
  return server;
}

Deno.test("McpToolProvider follows nextCursor through every page of tools/list", async () => {
  const names = ["a", "b", "c", "d", "e"];
  const cursors: (string | undefined)[] = [];
  await using linked = await link(pagedServer(names, 2, cursors));
  const specs = await new McpToolProvider(linked.client).listTools();
  assertEquals(specs.map((s) => s.name), names);
  assertEquals(specs[0], { name: "a", description: "tool a", parameters: { type: "object" } });
  assertEquals(cursors, [undefined, "page-2", "page-4"]);
});

Deno.test("McpToolProvider answers a JSON-RPC error as an isError result", async () => {
  await using linked = await link(pagedServer(["a"], 10));
  const [r] = await new McpToolProvider(linked.client).executeToolCalls(
    [{ id: "c1", name: "zzz", args: {} }],
    new NullCtx(),
  );
  assertEquals(r.isError, true);
  // The SDK's own text: its server puts "MCP error <code>: " before an
  // McpError's message, and its client puts it before the answer's again.
  assertMatch(
    r.content,
    /^The MCP server "paged" failed the call of tool "zzz": MCP error -32602: (MCP error -32602: )?Unknown tool: zzz$/,
  );
});

Deno.test("McpToolProvider with a prefix names the tools with it and takes it off to call", async () => {
  await using linked = await link(pagedServer(["search", "fetch"], 10));
  const provider = new McpToolProvider(linked.client, { prefix: "web_" });
  assertEquals((await provider.listTools()).map((s) => s.name), ["web_search", "web_fetch"]);
  const results = await provider.executeToolCalls([
    { id: "c1", name: "web_search", args: { q: "mcp" } },
    { id: "c2", name: "search", args: {} },
    { id: "c3", name: "web_", args: {} },
  ], new NullCtx());
  assertEquals(results[0], { callId: "c1", isError: false, content: 'search({"q":"mcp"})' });
  assertEquals(results[1].isError, true);
  assertEquals(
    results[1].content,
    'Unknown tool "search": the tools of MCP server "paged" are named "web_<name>"',
  );
  assertEquals(results[2].isError, true);
});

Deno.test("McpToolProvider asks tools/list on every listTools() unless cacheToolsList", async (t) => {
  await t.step("by default, every listing asks the server", async () => {
    await using linked = await link(pagedServer(["a"], 10));
    const { client, lists } = counting(linked.client);
    const provider = new McpToolProvider(client);
    const first = provider.listTools();
    assert(first instanceof Promise);
    await first;
    await provider.listTools();
    assertEquals(lists(), 2);
  });

  await t.step("with cacheToolsList, once; later listings answer at once", async () => {
    await using linked = await link(pagedServer(["a", "b", "c"], 2));
    const { client, lists } = counting(linked.client);
    const provider = new McpToolProvider(client, { cacheToolsList: true });
    const [one, two] = await Promise.all([provider.listTools(), provider.listTools()]);
    assertEquals(one, two);
    assertEquals(lists(), 2); // one listing (two pages), shared by both callers
    const again = provider.listTools();
    assert(Array.isArray(again), "a cached list is given without a promise");
    assertEquals((again as readonly { name: string }[]).map((s) => s.name), ["a", "b", "c"]);
    provider.invalidateToolsCache();
    await provider.listTools();
    assertEquals(lists(), 4);
  });

  await t.step("a failed listing is not cached", async () => {
    let fail = true;
    const client: McpClient = {
      listTools: () =>
        fail
          ? Promise.reject(new Error("Connection closed"))
          : Promise.resolve({ tools: [{ name: "a", inputSchema: { type: "object" } }] }),
      callTool: () => Promise.resolve({ content: [] }),
    };
    const provider = new McpToolProvider(client, { cacheToolsList: true });
    await assertRejects(() => Promise.resolve(provider.listTools()), McpToolsUnavailable);
    fail = false;
    assertEquals((await provider.listTools()).map((s) => s.name), ["a"]);
  });

  await t.step("a listing under way when the cache is dropped does not refill it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => release = r);
    let n = 0;
    const client: McpClient = {
      listTools: async () => {
        const mine = ++n;
        if (mine === 1) await gate;
        return { tools: [{ name: `v${mine}`, inputSchema: { type: "object" } }] };
      },
      callTool: () => Promise.resolve({ content: [] }),
    };
    const provider = new McpToolProvider(client, { cacheToolsList: true });
    const stale = provider.listTools();
    provider.invalidateToolsCache();
    release();
    assertEquals((await stale).map((s) => s.name), ["v1"]);
    assertEquals((await provider.listTools()).map((s) => s.name), ["v2"]);
    assert(Array.isArray(provider.listTools()));
  });
});

Deno.test("McpToolProvider drops its cached list on notifications/tools/list_changed", async () => {
  const server = certServer();
  await using linked = await link(server);
  const { client, lists } = counting(linked.client);
  const provider = new McpToolProvider(client, { cacheToolsList: true });
  assertEquals((await provider.listTools()).map((s) => s.name), ["lookup_cert"]);
  // Registering a tool on a connected McpServer sends tools/list_changed.
  server.registerTool("revoke_cert", { inputSchema: CERT_ARGS }, () => ({ content: [] }));
  await client.ping(); // a round trip after the notification: it has been handled
  const listed = provider.listTools();
  assert(listed instanceof Promise, "the list is asked for again");
  assertEquals((await listed).map((s) => s.name), ["lookup_cert", "revoke_cert"]);
  assertEquals(lists(), 2);
});

Deno.test("McpToolProvider passes the run's signal to callTool, and a cancelled call is a result", async () => {
  const server = new McpServer({ name: "slow", version: "1.0.0" });
  let serverSignal: AbortSignal | undefined;
  let started!: () => void;
  const running = new Promise<void>((r) => started = r);
  server.registerTool(
    "wait",
    { inputSchema: {} },
    (_args: unknown, extra: { signal: AbortSignal }) => {
      serverSignal = extra.signal;
      started();
      return new Promise((resolve) => {
        extra.signal.addEventListener("abort", () => resolve({ content: [] }), { once: true });
      });
    },
  );
  await using linked = await link(server);
  const provider = new McpToolProvider(linked.client);
  const controller = new AbortController();
  const ctx = makeTestCtx({ signal: controller.signal });
  const pending = provider.executeToolCalls([{ id: "c1", name: "wait", args: {} }], ctx);
  await running;
  controller.abort(new Error("user pressed stop"));
  const [r] = await pending;
  assertEquals(r, { callId: "c1", isError: true, content: "Cancelled: user pressed stop" });
  await linked.client.ping(); // the SDK's notifications/cancelled has reached the server
  assert(serverSignal?.aborted, "the server saw the cancellation");

  // Already cancelled: nothing is sent.
  const [again] = await provider.executeToolCalls([{ id: "c2", name: "wait", args: {} }], ctx);
  assertEquals(again.content, "Cancelled: user pressed stop");
});

Deno.test("McpToolProvider answers a closed transport as an isError result", async () => {
  await using linked = await link(pagedServer(["a"], 10));
  const provider = new McpToolProvider(linked.client);
  await linked.serverTransport.close();
  const [r] = await provider.executeToolCalls([{ id: "c1", name: "a", args: {} }], new NullCtx());
  assertEquals(r.isError, true);
  assertMatch(r.content, /failed the call of tool "a": .*(Not connected|Connection closed)/);
  await assertRejects(
    () => Promise.resolve(provider.listTools()),
    McpToolsUnavailable,
    'Cannot list the tools of MCP server "paged"',
  );
});

Deno.test("McpToolProvider: a run whose provider cannot list fails before the model is called", async () => {
  await using linked = await link(pagedServer(["a"], 10));
  await linked.serverTransport.close();
  const llm = new FakeLLM("never");
  const agent = new Agent("a", {
    model: "m",
    cognition: new ReActCognition({ provider: new McpToolProvider(linked.client) }),
  });
  await assertRejects(() => agent.run("go", makeTestCtx({ llm })), McpToolsUnavailable);
  assertEquals(llm.calls, 0);
});

// A structural client whose tools/list answers `pages` in turn.
function scripted(pages: unknown[], callTool?: McpClient["callTool"]): McpClient {
  let i = 0;
  return {
    listTools: () => Promise.resolve(pages[Math.min(i++, pages.length - 1)] as never),
    callTool: callTool ?? (() => Promise.resolve({ content: [] })),
  };
}

Deno.test("McpToolProvider refuses a malformed listing with McpToolsUnavailable", async (t) => {
  const OBJ = { type: "object" };
  const cases: [string, unknown[], RegExp][] = [
    ["no tools array", [{ tool: [] }], /not \{ tools: \[\.\.\.\] \}/],
    ["an answer that is not an object", [null], /tools\/list answered null/],
    ["a tool without a name", [{ tools: [{ inputSchema: OBJ }] }], /tool 0 of page 1 has no name/],
    ["a tool with an empty name", [{ tools: [{ name: "", inputSchema: OBJ }] }], /has no name/],
    [
      "a tool without inputSchema",
      [{ tools: [{ name: "a" }] }],
      /tool "a" has no inputSchema object/,
    ],
    [
      "an array inputSchema",
      [{ tools: [{ name: "a", inputSchema: [] }] }],
      /no inputSchema object/,
    ],
    [
      "two tools of one name",
      [{ tools: [{ name: "a", inputSchema: OBJ }], nextCursor: "2" }, {
        tools: [{ name: "a", inputSchema: OBJ }],
      }],
      /two tools named "a"/,
    ],
    ["a cursor that is not a string", [{ tools: [], nextCursor: 7 }], /nextCursor 7, not a string/],
    ["a cursor that repeats", [{ tools: [], nextCursor: "x" }], /the cursor "x" twice/],
  ];
  for (const [name, pages, message] of cases) {
    await t.step(name, async () => {
      const error = await assertRejects(
        () => Promise.resolve(new McpToolProvider(scripted(pages)).listTools()),
        McpToolsUnavailable,
      );
      assertMatch(error.message, message);
      assertMatch(error.message, /await client\.connect\(transport\)/);
    });
  }

  await t.step("a server whose cursors never end stops at 1000 pages", async () => {
    let n = 0;
    const client: McpClient = {
      listTools: () => Promise.resolve({ tools: [], nextCursor: `c${n++}` }),
      callTool: () => Promise.resolve({ content: [] }),
    };
    await assertRejects(
      () => Promise.resolve(new McpToolProvider(client).listTools()),
      McpToolsUnavailable,
      "still had more after 1000 pages",
    );
    assertEquals(n, 1000);
  });

  await t.step("a title stands in for a missing description; null ends the pages", async () => {
    const specs = await new McpToolProvider(
      scripted([{
        tools: [{ name: "a", title: "The A tool", inputSchema: OBJ }],
        nextCursor: null,
      }]),
    ).listTools();
    assertEquals(specs, [{ name: "a", description: "The A tool", parameters: OBJ }]);
  });

  await t.step("a tool with neither has an empty description", async () => {
    const [spec] = await new McpToolProvider(
      scripted([{ tools: [{ name: "a", inputSchema: OBJ }] }]),
    )
      .listTools();
    assertEquals(spec.description, "");
  });
});

Deno.test("McpToolProvider names the server in its errors when the client knows it", async () => {
  const client: McpClient = {
    listTools: () => Promise.reject(new Error("boom")),
    callTool: () => Promise.reject(new Error("boom")),
    getServerVersion: () => ({ name: "github" }),
  };
  const provider = new McpToolProvider(client);
  assertEquals(provider.name, "github");
  const error = await assertRejects(
    () => Promise.resolve(provider.listTools()),
    McpToolsUnavailable,
  );
  assertEquals(error.server, "github");
  assertEquals(error.name, "McpToolsUnavailable");
  assertMatch(error.message, /^Cannot list the tools of MCP server "github": boom;/);
  assertEquals((error.cause as Error).message, "boom");
  const [r] = await provider.executeToolCalls([{ id: "c1", name: "t", args: {} }], new NullCtx());
  assertEquals(r.content, 'The MCP server "github" failed the call of tool "t": boom');

  const throwing = new McpToolProvider({
    ...client,
    getServerVersion: () => {
      throw new Error("not connected");
    },
  });
  assertEquals(throwing.name, "mcp");
  const unnamed = await assertRejects(
    () => Promise.resolve(throwing.listTools()),
    McpToolsUnavailable,
  );
  assertEquals(unnamed.server, undefined);
  assertMatch(unnamed.message, /^Cannot list the tools of MCP server: boom;/);
  assertEquals(
    new McpToolProvider({ ...client, getServerVersion: () => ({ name: "" }) }).name,
    "mcp",
  );
});

Deno.test("McpToolProvider masks credentials in a transport's error", async () => {
  const provider = new McpToolProvider(
    scripted([{ tools: [] }], () =>
      Promise.reject(
        new Error("POST failed: Authorization: Bearer sk-live-abcdefghijklmnopqrstuvwx"),
      )),
  );
  const [r] = await provider.executeToolCalls([{ id: "c1", name: "t", args: {} }], new NullCtx());
  assert(!r.content.includes("sk-live-abcdefghijklmnopqrstuvwx"), r.content);
  assertMatch(r.content, /\[REDACTED\]/);
});

Deno.test("McpToolProvider sends the call's arguments, parsing rawArgs, and refuses bad ones", async () => {
  const sent: unknown[] = [];
  const provider = new McpToolProvider(scripted([{ tools: [] }], (params) => {
    sent.push(params);
    return Promise.resolve({ content: [{ type: "text", text: "ok" }] });
  }));
  const results = await provider.executeToolCalls([
    { id: "c1", name: "t", args: { a: 1 } },
    { id: "c2", name: "t", args: {}, rawArgs: '{"b": 2}' },
    { id: "c3", name: "t", args: {}, rawArgs: '{"b": ' },
    { id: "c4", name: "t", args: {}, rawArgs: "[1]" },
  ], new NullCtx());
  assertEquals(sent, [{ name: "t", arguments: { a: 1 } }, { name: "t", arguments: { b: 2 } }]);
  assertEquals(results.map((r) => r.isError), [false, false, true, true]);
  assertMatch(results[2].content, /^The arguments of tool "t" are not valid JSON \(.+\): \{"b": $/);
  assertEquals(results[3].content, 'The arguments of tool "t" must be a JSON object, got: [1]');
});

Deno.test("McpToolProvider lets a harness error through a call and a listing", async () => {
  const { HarnessError } = await import("@agentkit/testing/runtime");
  const provider = new McpToolProvider({
    listTools: () => Promise.reject(new HarnessError("script ran out")),
    callTool: () => Promise.reject(new HarnessError("script ran out")),
  });
  await assertRejects(() => Promise.resolve(provider.listTools()), HarnessError, "script ran out");
  await assertRejects(
    () => provider.executeToolCalls([{ id: "c1", name: "t", args: {} }], new NullCtx()),
    HarnessError,
  );
});

Deno.test("new McpToolProvider() checks its client and options", () => {
  const client = scripted([{ tools: [] }]);
  assertThrows(
    () => new McpToolProvider({ listTools: () => Promise.resolve({ tools: [] }) } as never),
    TypeError,
    "new McpToolProvider(): the client must be an MCP client, got an object with listTools without callTool()",
  );
  assertThrows(
    () => new McpToolProvider(undefined as never),
    TypeError,
    "the client must be an MCP client",
  );
  assertThrows(
    () => new McpToolProvider(client, { prefx: "a_" } as never),
    TypeError,
    'unknown option "prefx"; did you mean "prefix"?',
  );
  assertThrows(
    () => new McpToolProvider(client, { cacheToolList: true } as never),
    TypeError,
    'did you mean "cacheToolsList"?',
  );
  assertThrows(
    () => new McpToolProvider(client, { prefix: 1 } as never),
    TypeError,
    'option "prefix" must be a non-empty string, got 1',
  );
  assertThrows(() => new McpToolProvider(client, { prefix: "" }), RangeError, 'option "prefix"');
  assertThrows(
    () => new McpToolProvider(client, { cacheToolsList: "yes" } as never),
    TypeError,
    'option "cacheToolsList" must be true or false, got "yes"',
  );
  assertThrows(
    () => new McpToolProvider(client, "web_" as never),
    TypeError,
    "takes an options object",
  );
});

Deno.test("McpToolProvider subscribes to list changes only when it caches", () => {
  const methods: string[] = [];
  const client = {
    ...scripted([{ tools: [] }]),
    setNotificationHandler(schema: object) {
      methods.push((schema as z.ZodObject<{ method: z.ZodLiteral<string> }>).shape.method.value);
    },
  };
  new McpToolProvider(client);
  assertEquals(methods, []);
  new McpToolProvider(client, { cacheToolsList: true });
  assertEquals(methods, ["notifications/tools/list_changed"]);
});

Deno.test("McpToolProvider: the edges of a call and a listing", async (t) => {
  await t.step("the first page is asked for without params, the next with the cursor", async () => {
    const params: unknown[] = [];
    const client: McpClient = {
      listTools: (p) => {
        params.push(p);
        return Promise.resolve(
          p === undefined
            ? { tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "2" }
            : { tools: [{ name: "b", inputSchema: { type: "object" } }] },
        );
      },
      callTool: () => Promise.resolve({ content: [] }),
    };
    assertEquals((await new McpToolProvider(client).listTools()).map((s) => s.name), ["a", "b"]);
    assertEquals(params, [undefined, { cursor: "2" }]);
  });

  await t.step(
    "a malformed listing's error has no cause; a client's failure is the cause",
    async () => {
      const error = await assertRejects(
        () => Promise.resolve(new McpToolProvider(scripted([{ tools: 1 }])).listTools()),
        McpToolsUnavailable,
      );
      assertEquals("cause" in error, false);
    },
  );

  await t.step(
    "a call named just the prefix, or cancelled before it is sent, never reaches the server",
    async () => {
      let calls = 0;
      const provider = new McpToolProvider(
        scripted([{ tools: [] }], () => (calls++, Promise.resolve({ content: [] }))),
        { prefix: "web_" },
      );
      const [bare] = await provider.executeToolCalls(
        [{ id: "c1", name: "web_", args: {} }],
        new NullCtx(),
      );
      assertEquals(
        bare.content,
        'Unknown tool "web_": the tools of MCP server "mcp" are named "web_<name>"',
      );
      const controller = new AbortController();
      controller.abort(new Error("stop"));
      const [cancelled] = await provider.executeToolCalls(
        [{ id: "c2", name: "web_search", args: {} }],
        makeTestCtx({ signal: controller.signal }),
      );
      assertEquals(cancelled.content, "Cancelled: stop");
      assertEquals(calls, 0);
    },
  );

  await t.step("raw arguments that are JSON but not an object", async () => {
    const provider = new McpToolProvider(scripted([{ tools: [] }]));
    for (const rawArgs of ["null", "5", '"text"']) {
      const [r] = await provider.executeToolCalls(
        [{ id: "c1", name: "t", args: {}, rawArgs }],
        new NullCtx(),
      );
      assertEquals(r.content, `The arguments of tool "t" must be a JSON object, got: ${rawArgs}`);
    }
  });

  await t.step('a server name the client does not have yet, or not as text, is "mcp"', () => {
    const base = scripted([{ tools: [] }]);
    assertEquals(new McpToolProvider({ ...base, getServerVersion: () => undefined }).name, "mcp");
    assertEquals(
      new McpToolProvider({ ...base, getServerVersion: () => ({ name: 5 as never }) }).name,
      "mcp",
    );
  });
});
