// listen()'s DNS rebinding guard (MCP basic/transports, "Security Warning";
// the conformance suite's dns-rebinding-protection scenario): the Host and
// Origin headers are sent as an attacker's page would, over a raw socket,
// since fetch() sets Host itself.
import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";

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

// One POST of initialize with the given headers; the status line and body.
async function post(
  port: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [
    "POST /mcp HTTP/1.1",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `Content-Length: ${new TextEncoder().encode(INIT).length}`,
    "Connection: close",
    "",
    INIT,
  ];
  await conn.write(new TextEncoder().encode(lines.join("\r\n")));
  let text = "";
  const buf = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  conn.close();
  return { status: Number(text.split(" ")[1]), body: text.slice(text.indexOf("\r\n\r\n") + 4) };
}

Deno.test("listen(): a foreign Host or Origin gets 403 and is recorded, never served", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  await using http = await server.listen();
  const p = http.port;
  const evil = await post(p, { Host: "evil.example.com", Origin: "http://evil.example.com" });
  assertEquals(evil.status, 403);
  assertStringIncludes(evil.body, "Invalid Host header: evil.example.com");
  const origin = await post(p, { Host: `127.0.0.1:${p}`, Origin: "http://evil.example.com" });
  assertEquals(origin.status, 403);
  assertStringIncludes(origin.body, "Invalid Origin header: http://evil.example.com");
  const port = await post(p, { Host: `127.0.0.1:${p + 1}` });
  assertEquals(port.status, 403);
  assertEquals(server.calls, []);
  assertEquals(server.refusedRequests, [
    {
      method: "POST",
      host: "evil.example.com",
      origin: "http://evil.example.com",
      reason: "Invalid Host header: evil.example.com",
    },
    {
      method: "POST",
      host: `127.0.0.1:${p}`,
      origin: "http://evil.example.com",
      reason: "Invalid Origin header: http://evil.example.com",
    },
    {
      method: "POST",
      host: `127.0.0.1:${p + 1}`,
      origin: null,
      reason: `Invalid Host header: 127.0.0.1:${p + 1}`,
    },
  ]);
});

Deno.test("listen(): its own loopback host and origin are served, and allowedOrigins adds origins", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  await using http = await server.listen({ allowedOrigins: ["https://app.example.com"] });
  const p = http.port;
  for (
    const headers of <Record<string, string>[]> [
      { Host: `127.0.0.1:${p}` },
      { Host: `localhost:${p}`, Origin: `http://localhost:${p}` },
      { Host: `[::1]:${p}`, Origin: `http://127.0.0.1:${p}` },
      { Host: `localhost:${p}`, Origin: "https://app.example.com" },
    ]
  ) {
    const r = await post(p, headers);
    assertEquals(r.status, 200, JSON.stringify(headers));
  }
  assertEquals(server.refusedRequests, []);
  assertEquals(server.calls.length, 4);
  await assertRejects(
    () => server.listen({ allowedOrigins: ["app.example.com"] }),
    TypeError,
    'option "allowedOrigins" must be an array of origins',
  );
  await assertRejects(
    () => server.listen({ allowedOrigin: [] } as never),
    TypeError,
    'did you mean "allowedOrigins"?',
  );
});

Deno.test("server.fetch stays open to any origin: it is in process", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const r = await server.fetch("http://evil.example.com/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      origin: "http://evil.example.com",
    },
    body: INIT,
  });
  assertEquals(r.status, 200);
  await r.body?.cancel();
  assertEquals(server.refusedRequests, []);
});

Deno.test("listen(): the refusal is the SDK's JSON-RPC error body, and a request with no Host is refused too", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  await using http = await server.listen();
  const p = http.port;
  const evil = await post(p, { Host: "evil.example.com" });
  assertEquals(JSON.parse(evil.body), {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message:
        "Invalid Host header: evil.example.com (refused: DNS rebinding protection; a page on another origin goes in listen({ allowedOrigins }))",
    },
    id: null,
  });
  const none = await post(p, {});
  assertEquals(none.status, 403);
  assertStringIncludes(none.body, "Invalid Host header: null");
  assertEquals(server.refusedRequests.map((r) => r.host), ["evil.example.com", null]);
  assertEquals(server.calls, []);
});

Deno.test("listen({ allowedOrigins }): each entry must be an origin exactly, a path, a non-URL or a non-string is refused", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  for (
    const bad of [
      ["https://app.example.com/path"],
      ["https://app.example.com", "not a url"],
      ["https://app.example.com", 7],
      "https://app.example.com",
    ]
  ) {
    await assertRejects(
      () => server.listen({ allowedOrigins: bad as never }),
      TypeError,
      'FakeMcpServer.listen(): option "allowedOrigins" must be an array of origins',
    );
  }
});

Deno.test("close() ends the listener: its port no longer answers", async () => {
  const server = new FakeMcpServer({ tools: [] });
  const http = await server.listen();
  assertEquals((await post(http.port, { Host: `127.0.0.1:${http.port}` })).status, 200);
  await server.close();
  await assertRejects(() => Deno.connect({ hostname: "127.0.0.1", port: http.port }));
});

Deno.test("a listener disposed before its server stops answering at the end of its own scope", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  let port: number;
  {
    await using http = await server.listen();
    port = http.port;
    assertEquals((await post(port, { Host: `127.0.0.1:${port}` })).status, 200);
  }
  await assertRejects(() => Deno.connect({ hostname: "127.0.0.1", port }));
});
