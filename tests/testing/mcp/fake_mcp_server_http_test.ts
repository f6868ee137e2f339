// FakeMcpServer.fetch frame by frame, in process: the Streamable HTTP rules
// of MCP 2025-11-25 (basic/transports) with the status codes, headers and
// error texts of the SDK's server transport (1.32.2,
// src/server/webStandardStreamableHttp.ts) and bearer auth as its
// requireBearerAuth answers (src/server/auth/middleware/bearerAuth.ts).
import { assert, assertEquals, assertRejects } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";

const URL_ = "http://fake-mcp/mcp";
const BOTH = "application/json, text/event-stream";
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "c", version: "1" },
  },
});

function post(server: FakeMcpServer, body: string, headers: Record<string, string> = {}) {
  return server.fetch(URL_, {
    method: "POST",
    headers: { accept: BOTH, "content-type": "application/json", ...headers },
    body,
  });
}

async function open(server: FakeMcpServer, headers: Record<string, string> = {}) {
  const res = await post(server, INIT, headers);
  assertEquals(res.status, 200);
  await res.body?.cancel();
  return res.headers.get("mcp-session-id")!;
}

const call = (id: number, name: string, meta?: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: meta ? { name, arguments: {}, _meta: meta } : { name, arguments: {} },
  });

async function error(res: Response) {
  assertEquals(res.headers.get("content-type"), "application/json");
  return [res.status, (await res.json()).error];
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("FakeMcpServer.fetch: another path is 404 naming the endpoint; another method 405 with Allow", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const missing = await server.fetch("http://fake-mcp/v1/mcp", { method: "POST" });
  assertEquals([missing.status, missing.headers.get("content-type"), await missing.text()], [
    404,
    "text/plain",
    "Not Found: the FakeMcpServer's endpoint is /mcp",
  ]);
  const put = await server.fetch(URL_, { method: "PUT" });
  assertEquals(put.headers.get("allow"), "GET, POST, DELETE");
  assertEquals(await error(put), [405, { code: -32000, message: "Method not allowed." }]);
});

Deno.test("FakeMcpServer.fetch auth: each way a bearer header is wrong is 401 with the SDK's description; the scheme is case-blind", async () => {
  await using server = new FakeMcpServer({ tools: [], auth: { token: "tok-1" } });
  for (
    const [header, problem] of [
      [undefined, "Missing Authorization header"],
      ["Basic tok-1", "Invalid Authorization header format, expected 'Bearer TOKEN'"],
      ["Bearer", "Invalid Authorization header format, expected 'Bearer TOKEN'"],
      ["Bearer tok-2", "Invalid token"],
    ] as const
  ) {
    const res = await post(server, INIT, header ? { authorization: header } : {});
    assertEquals(res.status, 401, header);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(
      res.headers.get("www-authenticate"),
      `Bearer error="invalid_token", error_description="${problem}"`,
    );
    assertEquals(await res.json(), { error: "invalid_token", error_description: problem });
  }
  const id = await open(server, { authorization: "bearer tok-1" });
  // GET and DELETE are behind the same check.
  const get = await server.fetch(URL_, {
    headers: { accept: "text/event-stream", "mcp-session-id": id },
  });
  assertEquals(get.status, 401);
  await get.body?.cancel();
  const del = await server.fetch(URL_, {
    method: "DELETE",
    headers: { authorization: "Bearer tok-1", "mcp-session-id": id },
  });
  assertEquals(del.status, 200);
});

Deno.test("FakeMcpServer.fetch POST: Accept needs both types; Content-Type is application/json with any parameters", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const notAcceptable = [406, {
    code: -32000,
    message: "Not Acceptable: Client must accept both application/json and text/event-stream",
  }];
  assertEquals(
    await error(await post(server, INIT, { accept: "text/event-stream" })),
    notAcceptable,
  );
  assertEquals(
    await error(await post(server, INIT, { accept: "application/json" })),
    notAcceptable,
  );
  assertEquals(await error(await post(server, INIT, { "content-type": "text/plain" })), [415, {
    code: -32000,
    message: "Unsupported Media Type: Content-Type must be application/json",
  }]);
  const res = await post(server, INIT, { "content-type": "Application/JSON; charset=utf-8" });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json");
  assert(/^[0-9a-f-]{36}$/.test(res.headers.get("mcp-session-id") ?? ""));
  assertEquals((await res.json()).id, 1);
  const garbage = await post(server, "{");
  assertEquals([garbage.status, garbage.headers.get("content-type")], [400, "application/json"]);
  assertEquals((await garbage.json()).error.code, -32700);
});

Deno.test("FakeMcpServer.fetch sessions: the id is required and must be known; a known protocol version is served", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const id = await open(server);
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
  assertEquals(await error(await post(server, ping)), [400, {
    code: -32000,
    message: "Bad Request: Mcp-Session-Id header is required",
  }]);
  assertEquals(await error(await post(server, ping, { "mcp-session-id": "nope" })), [404, {
    code: -32001,
    message: "Session not found",
  }]);
  const [status, body] = await error(
    await post(server, ping, { "mcp-session-id": id, "mcp-protocol-version": "1999-01-01" }),
  );
  assertEquals(status, 400);
  assert(
    body.message.startsWith(
      "Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: 2025-11-25, ",
    ),
    body.message,
  );
  const ok = await post(server, ping, {
    "mcp-session-id": id,
    "mcp-protocol-version": "2025-06-18",
  });
  assertEquals([ok.status, await ok.json()], [200, { jsonrpc: "2.0", id: 2, result: {} }]);
  // Two sessions are kept apart: ending one leaves the other served.
  const other = await open(server);
  assert(other !== id);
  const del = await server.fetch(URL_, { method: "DELETE", headers: { "mcp-session-id": id } });
  assertEquals([del.status, await del.text()], [200, ""]);
  assertEquals((await post(server, ping, { "mcp-session-id": id })).status, 404);
  const still = await post(server, ping, { "mcp-session-id": other });
  assertEquals([still.status, (await still.json()).result], [200, {}]);
  assertEquals(
    await error(await server.fetch(URL_, { method: "DELETE" })),
    [400, { code: -32000, message: "Bad Request: Mcp-Session-Id header is required" }],
  );
});

Deno.test("FakeMcpServer.fetch GET: the server's own SSE stream, one per session, free again once cancelled", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const id = await open(server);
  assertEquals(await error(await server.fetch(URL_, { headers: { "mcp-session-id": id } })), [406, {
    code: -32000,
    message: "Not Acceptable: Client must accept text/event-stream",
  }]);
  const get = () =>
    server.fetch(URL_, { headers: { accept: "text/event-stream", "mcp-session-id": id } });
  const stream = await get();
  assertEquals(stream.status, 200);
  assertEquals(
    ["content-type", "cache-control", "connection", "mcp-session-id"].map((h) =>
      stream.headers.get(h)
    ),
    ["text/event-stream", "no-cache, no-transform", "keep-alive", id],
  );
  assertEquals(await error(await get()), [409, {
    code: -32000,
    message: "Conflict: Only one SSE stream is allowed per session",
  }]);
  const reader = stream.body!.getReader();
  server.setTools([{ name: "late", result: "x" }]);
  const { value } = await reader.read();
  assertEquals(
    new TextDecoder().decode(value),
    'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n',
  );
  await reader.cancel();
  const again = await get();
  assertEquals(again.status, 200);
  // Closing the server ends the stream it holds.
  const rest = again.body!.getReader();
  await server.close();
  assertEquals((await rest.read()).done, true);
});

Deno.test("FakeMcpServer.fetch answers: SSE when a notification comes first, closed after the answer", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "build", result: { progress: [1], result: "built" } }],
  });
  const id = await open(server);
  const res = await post(server, call(2, "build", { progressToken: "p" }), {
    "mcp-session-id": id,
  });
  assertEquals([res.status, res.headers.get("content-type"), res.headers.get("mcp-session-id")], [
    200,
    "text/event-stream",
    id,
  ]);
  const events = (await res.text()).split("\n\n").filter(Boolean).map((e) => {
    assert(e.startsWith("event: message\ndata: "), e);
    return JSON.parse(e.slice("event: message\ndata: ".length));
  });
  assertEquals(events, [
    {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "p", progress: 1 },
    },
    { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "built" }] } },
  ]);
});

Deno.test("FakeMcpServer.fetch: a scripted disconnect errors the call's stream and ends the session", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "crash", result: { disconnect: true } }],
  });
  const id = await open(server);
  const res = await post(server, call(2, "crash"), { "mcp-session-id": id });
  assertEquals([res.status, res.headers.get("content-type")], [200, "text/event-stream"]);
  await assertRejects(
    () => res.text(),
    TypeError,
    "The FakeMcpServer cut the connection (a scripted { disconnect: true })",
  );
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" });
  const after = await post(server, ping, { "mcp-session-id": id });
  assertEquals(after.status, 404);
  await after.body?.cancel();
});

Deno.test("FakeMcpServer.fetch: a cancelled call's stream ends empty; a call held at close ends too", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "held", result: { gate: new Promise(() => {}) } }],
  });
  const id = await open(server);
  const pending = post(server, call(2, "held"), { "mcp-session-id": id });
  await tick();
  const cancel = await post(
    server,
    JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "stop" },
    }),
    { "mcp-session-id": id },
  );
  assertEquals(cancel.status, 202);
  const cancelled = await pending;
  assertEquals([cancelled.headers.get("content-type"), await cancelled.text()], [
    "text/event-stream",
    "",
  ]);
  const held = post(server, call(3, "held"), { "mcp-session-id": id });
  await tick();
  await server.close();
  const ended = await held;
  assertEquals([ended.status, await ended.text()], [200, ""]);
});
