// One MCP tool call with an image result (SPEC §22: raw results), through
// the official SDK's Client: against the SDK's own McpServer over its
// InMemoryTransport (the baseline), and against a FakeMcpServer over
// server.transport() answering the same raw result. The bar (issue 37):
// the double costs no more than the real server (>= 1x).
import { FakeMcpServer } from "@agentkit/testing/testing";
import { Client, InMemoryTransport, McpServer } from "../../tests/_mcp_sdk.ts";

const INFO = { name: "bench", version: "1.0.0" };
const CALL = { name: "screenshot", arguments: {} };
// A 1x1 PNG, the conformance suite's TEST_IMAGE_BASE64.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const RESULT = {
  content: [
    { type: "text" as const, text: "The page:" },
    { type: "image" as const, data: PNG, mimeType: "image/png" },
  ],
};

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

const real = new McpServer({ name: "real", version: "1.0.0" });
real.registerTool("screenshot", {}, () => RESULT);
const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
await real.connect(serverEnd);
const realClient = new Client(INFO);
await realClient.connect(clientEnd);

function fake(): FakeMcpServer {
  return new FakeMcpServer({ tools: [{ name: "screenshot", result: RESULT }] });
}
let server = fake();
let fakeClient = new Client(INFO);
await fakeClient.connect(server.transport());
let calls = 0;

Deno.bench({
  name: "Client.callTool, image result, over the SDK's McpServer (InMemoryTransport)",
  group: "mcp_image_call",
  baseline: true,
  async fn() {
    const r = await realClient.callTool(CALL);
    check((r.content as { data?: string }[])[1].data === PNG, "real image");
  },
});

Deno.bench({
  name: "Client.callTool, image result, over FakeMcpServer.transport()",
  group: "mcp_image_call",
  async fn() {
    // The fake records every request: a fresh server every 10,000 calls.
    if (++calls % 10_000 === 0) {
      await fakeClient.close();
      server = fake();
      fakeClient = new Client(INFO);
      await fakeClient.connect(server.transport());
    }
    const r = await fakeClient.callTool(CALL);
    check((r.content as { data?: string }[])[1].data === PNG, "fake image");
  },
});
