// What a hostile client does on FakeMcpServer's surfaces (issue 37, item 5):
// an id reused while its request is in flight, a cancellation of a tool
// whose function ignores call.signal, and JSON-RPC batches, which only a
// session on protocol 2025-03-26 may send. Over server.fetch (Streamable
// HTTP in process) and the in-memory transport.
import { assertEquals, assertStringIncludes } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

async function open(server: FakeMcpServer, version = "2025-11-25"): Promise<
  (body: unknown) => Promise<Response>
> {
  const r = await server.fetch("http://fake/mcp", {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    }),
  });
  await r.body?.cancel();
  const session = r.headers.get("mcp-session-id")!;
  return (body) =>
    server.fetch("http://fake/mcp", {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": version },
      body: JSON.stringify(body),
    });
}

const call = (id: number | string, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

Deno.test("an id reused while its request is in flight: the reuse is refused, the first is still answered", async () => {
  const { promise: gate, resolve } = Promise.withResolvers<void>();
  await using server = new FakeMcpServer({
    tools: [{ name: "slow", result: { gate, result: "first" } }, {
      name: "fast",
      result: "second",
    }],
  });
  const send = await open(server);
  const first = send(call(1, "slow"));
  const reuse = await send(call(1, "fast"));
  assertEquals(reuse.status, 400);
  assertStringIncludes(await reuse.text(), "belongs to a request still in flight");
  resolve();
  const answered = await first;
  assertEquals(await answered.json(), {
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: "first" }] },
  });
  // Once answered, the id is free again.
  assertEquals((await (await send(call(1, "fast"))).json()).result.content[0].text, "second");
});

Deno.test("an id reused in memory: an error answer for the reuse, the first answered", async () => {
  const { promise: gate, resolve } = Promise.withResolvers<void>();
  await using server = new FakeMcpServer({
    tools: [{ name: "slow", result: { gate, result: "ok" } }],
  });
  const t = server.transport();
  const seen: { id?: unknown; error?: { code: number }; result?: unknown }[] = [];
  t.onmessage = (m) => seen.push(m as never);
  await t.start();
  await t.send(call("a", "slow"));
  await t.send(call("a", "slow"));
  assertEquals(seen.map((m) => [m.id, m.error?.code]), [["a", -32600]]);
  resolve();
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(seen.length, 2);
  assertEquals(seen[1].result, { content: [{ type: "text", text: "ok" }] });
  await t.close();
});

Deno.test("a cancelled call of a function that ignores call.signal: the HTTP answer ends at once, unanswered", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "stuck", result: () => new Promise(() => {}) }],
  });
  const send = await open(server);
  const pending = send(call(7, "stuck"));
  const cancelled = await send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 7, reason: "user left" },
  });
  assertEquals(cancelled.status, 202);
  const answer = await pending;
  assertEquals(await answer.text(), "");
  assertEquals(server.calls.at(-1), {
    method: "tools/call",
    tool: "stuck",
    args: {},
    cancelled: true,
  });
});

Deno.test("batches: answered as an array on a 2025-03-26 session, refused on a later one", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "t", result: "ok" }] });
  const old = await open(server, "2025-03-26");
  const r = await old([
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    call(2, "t"),
    7,
  ]);
  assertEquals(r.status, 200);
  const body = await r.json() as { id?: number; result?: unknown; error?: { code: number } }[];
  assertEquals(body.length, 3);
  assertEquals(body.find((m) => m.id === 1)?.result, {});
  assertEquals(body.find((m) => m.id === 2)?.result, { content: [{ type: "text", text: "ok" }] });
  assertEquals(body.find((m) => m.id === undefined)?.error?.code, -32600);
  const notes = await old([{ jsonrpc: "2.0", method: "notifications/initialized" }]);
  assertEquals(notes.status, 202);

  const current = await open(server);
  const refused = await current([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  assertEquals(refused.status, 400);
  assertStringIncludes(await refused.text(), "supported only on protocol 2025-03-26");
});

Deno.test("a batch's members: initialize and a nested array are refused one by one, the rest answered", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "t", result: "ok" }] });
  const old = await open(server, "2025-03-26");
  const r = await old([
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      },
    },
    [{ jsonrpc: "2.0", id: 2, method: "ping" }],
    { jsonrpc: "2.0", id: 3, method: "ping" },
  ]);
  assertEquals(r.status, 200);
  const body = await r.json() as { id?: number; result?: unknown; error?: { message: string } }[];
  assertEquals(body.length, 3);
  assertStringIncludes(
    body.find((m) => m.id === 1)?.error?.message ?? "",
    "initialize may not be part of a batch",
  );
  assertStringIncludes(
    body.find((m) => m.id === undefined)?.error?.message ?? "",
    "a batch's member must be a message, not an array",
  );
  assertEquals(body.find((m) => m.id === 3)?.result, {});
  // The refused initialize changed nothing: the session still speaks 2025-03-26.
  assertEquals((await old([{ jsonrpc: "2.0", id: 4, method: "ping" }])).status, 200);
  assertEquals(server.calls.filter((c) => c.method === "initialize").length, 1);
});

Deno.test("a batch of more than 100 messages is refused whole, as the SDK server refuses it; 100 are answered", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const old = await open(server, "2025-03-26");
  const pings = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: from + i, method: "ping" }));
  const refused = await old(pings(101, 1));
  assertEquals(refused.status, 400);
  assertEquals(await refused.json(), {
    jsonrpc: "2.0",
    error: { code: -32600, message: "Invalid Request: Batch must not exceed 100 messages" },
  });
  assertEquals(server.calls.filter((c) => c.method === "ping").length, 0);
  const answered = await old(pings(100, 1000));
  assertEquals(((await answered.json()) as unknown[]).length, 100);
});

Deno.test("in memory, a batch member that is initialize gets its own error answer", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const t = server.transport();
  const seen: { id?: unknown; error?: { code: number; message: string }; result?: unknown }[] = [];
  t.onmessage = (m) => seen.push(m as never);
  await t.start();
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-03-26",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    },
  };
  await t.send(init as never);
  await t.send([{ ...init, id: 1 }, { jsonrpc: "2.0", id: 2, method: "ping" }] as never);
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(seen.map((m) => [m.id, m.error?.code]), [[0, undefined], [1, -32600], [
    2,
    undefined,
  ]]);
  await t.close();
});

const MAX_BODY = 4 * 1024 * 1024;

Deno.test("a request body over 4 MiB is 413 with the SDK's wording; at 4 MiB it is read", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "echo", result: (a) => a }] });
  const send = await open(server);
  const sized = (bytes: number) => {
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { x: "" } },
    };
    const pad = bytes - JSON.stringify(body).length;
    body.params.arguments.x = "a".repeat(pad);
    const text = JSON.stringify(body);
    assertEquals(text.length, bytes);
    return JSON.parse(text);
  };
  const over = await send(sized(MAX_BODY + 1));
  assertEquals(over.status, 413);
  assertEquals(await over.json(), {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: `Payload Too Large: Request body must not exceed ${MAX_BODY} bytes`,
    },
    id: null,
  });
  assertEquals(server.calls.filter((c) => c.method === "tools/call").length, 0);
  const at = await send(sized(MAX_BODY));
  assertEquals(at.status, 200);
  assertEquals((await at.json()).result.structuredContent.x.length > MAX_BODY - 200, true);
});

Deno.test("a declared Content-Length over 4 MiB is refused before the body is read: a body that never ends does not hang it", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull: () => new Promise(() => {}),
    cancel: () => void (cancelled = true),
  });
  const r = await server.fetch(
    new Request("http://fake/mcp", {
      method: "POST",
      headers: { ...HEADERS, "content-length": String(MAX_BODY + 1) },
      body: endless,
    }),
  );
  assertEquals(r.status, 413);
  await r.body?.cancel();
  assertEquals(cancelled, true);
});

Deno.test("a streamed body is read only until it passes 4 MiB, then cancelled", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const chunk = new Uint8Array(1024 * 1024).fill(0x20);
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull: (c) => void (pulled++, c.enqueue(chunk)),
    cancel: () => void (cancelled = true),
  });
  const r = await server.fetch(
    new Request("http://fake/mcp", { method: "POST", headers: HEADERS, body }),
  );
  assertEquals(r.status, 413);
  await r.body?.cancel();
  assertEquals([cancelled, pulled <= 6], [true, true]);
});
