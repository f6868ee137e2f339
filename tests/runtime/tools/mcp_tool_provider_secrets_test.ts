// McpToolProvider and the credentials its server holds: the `secrets` option
// and an SDK transport's headers are registered, so a server that echoes them
// shows `[REDACTED]` in the tool result the model reads and in the errors.
// Each test takes fresh values: the registry never forgets, so a value an
// earlier run registered would hide a registration that is missing.
import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { McpToolProvider, McpToolsUnavailable } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { makeTestCtx } from "@agentkit/testing/testing";

const fresh = (word: string) => `${word}${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

function echoing(text: () => string, transport?: unknown) {
  return {
    listTools: () =>
      Promise.resolve({ tools: [{ name: "whoami", inputSchema: { type: "object" as const } }] }),
    callTool: () => Promise.resolve({ content: [{ type: "text", text: text() }], isError: true }),
    transport,
  };
}

Deno.test("McpToolProvider: its secrets are masked in a tool result from the moment it is built", async () => {
  const secret = fresh("plain");
  const mcp = new McpToolProvider(echoing(() => `you sent ${secret}.`), { secrets: [secret] });
  const [r] = await mcp.executeToolCalls([toolCall("c1", "whoami", {})], makeTestCtx());
  // Only the content changes: the rest of the result is the server's.
  assertEquals(r, { callId: "c1", isError: true, content: "you sent [REDACTED]." });
});

Deno.test("McpToolProvider: a transport connected after it was built gives its headers at the listing", async () => {
  const key = fresh("hdr");
  const client = echoing(() => `key ${key}`) as ReturnType<typeof echoing>;
  const mcp = new McpToolProvider(client);
  // Connected now: the SDK's transports keep their requestInit as _requestInit.
  client.transport = { _requestInit: { headers: { "x-api-key": key } } };
  await mcp.listTools(makeTestCtx());
  const [r] = await mcp.executeToolCalls([toolCall("c1", "whoami", {})], makeTestCtx());
  assertEquals(r.content.includes(key), false, r.content);
  assertEquals(r.content.includes("key [REDACTED]"), true, r.content);
});

Deno.test("McpToolsUnavailable masks a registered secret its problem quotes", async () => {
  const secret = fresh("tok");
  const failing = new McpToolProvider({
    listTools: () => Promise.reject(new Error(`401 for ${secret}`)),
    callTool: () => Promise.resolve({ content: [] }),
  }, { secrets: [secret] });
  const e = await assertRejects(() => Promise.resolve(failing.listTools()), McpToolsUnavailable);
  assertEquals(e.message.includes(secret), false, e.message);
  assertEquals(
    new McpToolsUnavailable("srv", `the server said ${secret}`).message,
    'Cannot list the tools of MCP server "srv": the server said [REDACTED]; check that the client is connected (await client.connect(transport)) and that the server answers tools/list',
  );
});

Deno.test("McpToolProvider: secrets must be a list of strings", () => {
  const client = echoing(() => "");
  assertThrows(
    () => new McpToolProvider(client, { secrets: "one" } as never),
    TypeError,
    'new McpToolProvider(): option "secrets" must be an array of string, got "one"',
  );
  assertThrows(
    () => new McpToolProvider(client, { secrets: ["a", 5] } as never),
    TypeError,
    "new McpToolProvider(): secrets[1] must be a string, got 5",
  );
});
