// FakeMcpServer.fetch's Streamable HTTP edges a hostile or careless client
// reaches (issue 37's mutation pass of _mcp_http.ts found them unpinned):
// a 2025-03-26 batch answered over SSE or cut short by a cancel, a body split
// inside a UTF-8 character, bodies that are absent or declared at the limit,
// the GET stream's refusals, and what ending a session does to its streams
// and calls.
import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";

const URL_ = "http://fake-mcp/mcp";
const BOTH = "application/json, text/event-stream";
const MAX_BODY = 4 * 1024 * 1024;

function init(version: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } },
  });
}

async function open(server: FakeMcpServer, version = "2025-11-25") {
  const r = await server.fetch(URL_, {
    method: "POST",
    headers: { accept: BOTH, "content-type": "application/json" },
    body: init(version),
  });
  await r.body?.cancel();
  const session = r.headers.get("mcp-session-id")!;
  const headers = {
    accept: BOTH,
    "content-type": "application/json",
    "mcp-session-id": session,
    "mcp-protocol-version": version,
  };
  return {
    session,
    headers,
    send: (body: unknown) =>
      server.fetch(URL_, { method: "POST", headers, body: JSON.stringify(body) }),
  };
}

const call = (id: number, name: string, meta?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: meta ? { name, arguments: {}, _meta: meta } : { name, arguments: {} },
});

const events = (text: string) =>
  text.split("\n\n").filter(Boolean).map((e) => JSON.parse(e.slice(e.indexOf("data: ") + 6)));

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("a batch whose call sends progress first is answered over SSE: every answer and the progress, then the stream ends", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "build", result: { progress: [1], result: "built" } }],
  });
  const { send } = await open(server, "2025-03-26");
  const r = await send([
    { jsonrpc: "2.0", id: 1, method: "ping" },
    call(2, "build", { progressToken: "p" }),
    7,
  ]);
  assertEquals(r.headers.get("content-type"), "text/event-stream");
  const got = events(await r.text());
  assertEquals(got.length, 4);
  assertEquals(got.find((m) => m.id === 1)?.result, {});
  assertEquals(got.find((m) => m.method === "notifications/progress")?.params.progress, 1);
  assertEquals(got.at(-1), {
    jsonrpc: "2.0",
    id: 2,
    result: { content: [{ type: "text", text: "built" }] },
  });
  assertEquals(got.filter((m) => m.error?.code === -32600).length, 1);
});

Deno.test("a batch answered as JSON carries the JSON content type and the session id", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const { send, session } = await open(server, "2025-03-26");
  const r = await send([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  assertEquals(
    [r.status, r.headers.get("content-type"), r.headers.get("mcp-session-id")],
    [200, "application/json", session],
  );
  assertEquals(await r.json(), [{ jsonrpc: "2.0", id: 1, result: {} }]);
});

Deno.test("a batch with a cancelled call: the others' answers come as JSON at the cancel; all cancelled ends it empty", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "held", result: { gate: new Promise(() => {}) } }],
  });
  const { send } = await open(server, "2025-03-26");
  const cancel = (requestId: number) =>
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } });
  const pending = send([call(1, "held"), { jsonrpc: "2.0", id: 2, method: "ping" }]);
  await tick();
  assertEquals((await cancel(1)).status, 202);
  const r = await pending;
  assertEquals(r.headers.get("content-type"), "application/json");
  assertEquals(await r.json(), [{ jsonrpc: "2.0", id: 2, result: {} }]);

  const both = send([call(3, "held"), call(4, "held")]);
  await tick();
  await cancel(3);
  await cancel(4);
  assertEquals(await (await both).text(), "");
});

Deno.test("a body streamed in chunks that split a UTF-8 character arrives whole", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "echo", result: (args) => args }] });
  const { headers } = await open(server);
  const bytes = new TextEncoder().encode(JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "echo", arguments: { city: "Zürich 🚀" } },
  }));
  const cut = bytes.indexOf(0xc3) + 1; // inside "ü"
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      c.enqueue(bytes.slice(0, cut));
      c.enqueue(bytes.slice(cut, cut + 30));
      c.enqueue(bytes.slice(cut + 30));
      c.close();
    },
  });
  const r = await server.fetch(new Request(URL_, { method: "POST", headers, body }));
  assertEquals((await r.json()).result.structuredContent, { city: "Zürich 🚀" });
});

Deno.test("no body is a parse error; a declared Content-Length over 4 MiB with no body is 413; one at 4 MiB is read", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const { headers } = await open(server);
  const none = await server.fetch(URL_, { method: "POST", headers });
  assertEquals([none.status, (await none.json()).error.code], [400, -32700]);
  const declared = await server.fetch(URL_, {
    method: "POST",
    headers: { ...headers, "content-length": String(MAX_BODY + 1) },
  });
  assertEquals(declared.status, 413);
  await declared.body?.cancel();
  const atLimit = await server.fetch(URL_, {
    method: "POST",
    headers: { ...headers, "content-length": String(MAX_BODY) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  assertEquals(await atLimit.json(), { jsonrpc: "2.0", id: 1, result: {} });
});

Deno.test("Content-Type is compared without case; a batch with no session gets the batch refusal", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const { headers } = await open(server);
  const r = await server.fetch(URL_, {
    method: "POST",
    headers: { ...headers, "content-type": "Application/JSON; charset=utf-8" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  assertEquals(await r.json(), { jsonrpc: "2.0", id: 1, result: {} });
  const batch = await server.fetch(URL_, {
    method: "POST",
    headers: { accept: BOTH, "content-type": "application/json" },
    body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }]),
  });
  assertEquals(batch.status, 400);
  assertStringIncludes(await batch.text(), "supported only on protocol 2025-03-26");
});

Deno.test("GET: an Accept without text/event-stream is 406, an unknown session 404", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const { session } = await open(server);
  const json = await server.fetch(URL_, {
    headers: { accept: "application/json", "mcp-session-id": session },
  });
  assertEquals(json.status, 406);
  await json.body?.cancel();
  const unknown = await server.fetch(URL_, {
    headers: { accept: "text/event-stream", "mcp-session-id": "nope" },
  });
  assertEquals([unknown.status, (await unknown.json()).error.message], [404, "Session not found"]);
});

Deno.test("DELETE ends the session's GET stream and aborts its calls in flight", async () => {
  let aborted: unknown;
  await using server = new FakeMcpServer({
    tools: [{
      name: "wait",
      result: (_args, call) =>
        new Promise((resolve) =>
          call.signal.addEventListener("abort", () => resolve(aborted = call.signal.reason))
        ),
    }],
  });
  const { session, send } = await open(server);
  const stream = await server.fetch(URL_, {
    headers: { accept: "text/event-stream", "mcp-session-id": session },
  });
  const reader = stream.body!.getReader();
  const pending = send(call(1, "wait"));
  await tick();
  const del = await server.fetch(URL_, {
    method: "DELETE",
    headers: { "mcp-session-id": session },
  });
  assertEquals(del.status, 200);
  assertEquals((await reader.read()).done, true);
  assertEquals(await (await pending).text(), "");
  assertStringIncludes(String(aborted), "The MCP session closed");
});

Deno.test("a scripted disconnect errors the session's GET stream too", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "crash", result: { disconnect: true } }],
  });
  const { session, send } = await open(server);
  const stream = await server.fetch(URL_, {
    headers: { accept: "text/event-stream", "mcp-session-id": session },
  });
  const reader = stream.body!.getReader();
  const r = await send(call(1, "crash"));
  await assertRejects(() => r.text(), TypeError, "cut the connection");
  await assertRejects(() => reader.read(), TypeError, "cut the connection");
});
