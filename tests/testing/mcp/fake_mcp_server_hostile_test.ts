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
