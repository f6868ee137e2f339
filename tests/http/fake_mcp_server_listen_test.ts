// FakeMcpServer.listen(): the same script as Streamable HTTP on 127.0.0.1,
// for clients that take only a URL; here the SDK's Client, with bearer auth.
import { assert, assertEquals, assertRejects } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";
import { Client, McpError, StreamableHTTPClientTransport } from "../_mcp_sdk.ts";

const INFO = { name: "agent", version: "1.0.0" };

Deno.test("FakeMcpServer.listen() serves the SDK client at ${url}/mcp, and closes what is open", async () => {
  await using server = new FakeMcpServer({
    tools: [
      { name: "weather", result: { temp: 21 } },
      { name: "build", result: { progress: [0.5, 1], result: "built" } },
    ],
  });
  await using http = await server.listen();
  assert(/^http:\/\/127\.0\.0\.1:\d+$/.test(http.url), http.url);
  const transport = new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`));
  const client = new Client(INFO);
  await client.connect(transport);
  assertEquals((await client.listTools()).tools.map((t) => t.name), ["weather", "build"]);
  assertEquals((await client.callTool({ name: "weather", arguments: {} })).structuredContent, {
    temp: 21,
  });
  const progress: unknown[] = [];
  await client.callTool({ name: "build", arguments: {} }, undefined, {
    onprogress: (p) => progress.push(p),
  });
  assertEquals(progress, [{ progress: 0.5 }, { progress: 1 }]);
  await transport.terminateSession();
  await client.close();
  assertEquals(server.calls.filter((c) => c.method === "tools/call").length, 2);
});

Deno.test("FakeMcpServer.listen() with auth: 401 and WWW-Authenticate without the token, served with it", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "t", result: "ok" }],
    auth: { token: "tok-1" },
  });
  await using http = await server.listen();
  const res = await fetch(`${http.url}/mcp`, { method: "POST", body: "{}" });
  assertEquals(res.status, 401);
  assertEquals(
    res.headers.get("www-authenticate"),
    'Bearer error="invalid_token", error_description="Missing Authorization header"',
  );
  await res.body?.cancel();
  const client = new Client(INFO);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), {
      requestInit: { headers: { authorization: "Bearer tok-1" } },
    }),
  );
  assertEquals((await client.callTool({ name: "t", arguments: {} })).content, [
    { type: "text", text: "ok" },
  ]);
  await client.close();
});

Deno.test("FakeMcpServer.listen(): closing the server ends a call held open, with no leaked handle", async () => {
  const server = new FakeMcpServer({
    tools: [{ name: "held", result: { gate: new Promise(() => {}) } }],
  });
  const http = await server.listen();
  const client = new Client(INFO);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`)));
  client.onerror = () => {};
  const controller = new AbortController();
  const call = client.callTool({ name: "held", arguments: {} }, undefined, {
    signal: controller.signal,
  });
  await new Promise((r) => setTimeout(r, 20));
  await http.close();
  await http.close(); // idempotent
  controller.abort("the server went away");
  await assertRejects(() => call, McpError);
  await client.close();
  await server.close();
});
