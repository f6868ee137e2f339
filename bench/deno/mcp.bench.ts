// One MCP tool call through the official SDK's Client, against the SDK's
// own McpServer over its InMemoryTransport (the baseline), and against a
// FakeMcpServer over server.transport(): the double must cost no more than
// the real server (issue 27's bar: >= 1x). The same tool on both sides: a
// zod input schema, a text answer.
import { z } from "zod";
import { FakeMcpServer } from "@agentkit/testing/testing";
import { Client, InMemoryTransport, McpServer } from "../../tests/_mcp_sdk.ts";

const INFO = { name: "bench", version: "1.0.0" };
const CALL = { name: "lookup_cert", arguments: { host: "example.com" } };
const TEXT = "expires 2026-08-01";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

const real = new McpServer({ name: "real", version: "1.0.0" });
real.registerTool(
  "lookup_cert",
  { inputSchema: { host: z.string() } },
  () => ({ content: [{ type: "text", text: TEXT }] }),
);
const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
await real.connect(serverEnd);
const realClient = new Client(INFO);
await realClient.connect(clientEnd);

function fake(): FakeMcpServer {
  return new FakeMcpServer({
    tools: [{ name: "lookup_cert", inputSchema: { host: z.string() }, result: TEXT }],
  });
}
let server = fake();
let fakeClient = new Client(INFO);
await fakeClient.connect(server.transport());
let calls = 0;

Deno.bench({
  name: "Client.callTool over the SDK's McpServer (InMemoryTransport)",
  group: "mcp_tool_call",
  baseline: true,
  async fn() {
    const r = await realClient.callTool(CALL);
    check((r.content as { text: string }[])[0].text === TEXT, "real text");
  },
});

Deno.bench({
  name: "Client.callTool over FakeMcpServer.transport()",
  group: "mcp_tool_call",
  async fn() {
    // The fake records every request: a fresh server every 10,000 calls.
    if (++calls % 10_000 === 0) {
      await fakeClient.close();
      server = fake();
      fakeClient = new Client(INFO);
      await fakeClient.connect(server.transport());
    }
    const r = await fakeClient.callTool(CALL);
    check((r.content as { text: string }[])[0].text === TEXT, "fake text");
  },
});
