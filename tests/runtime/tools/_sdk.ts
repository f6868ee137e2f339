// The official MCP SDK's own client and servers, linked in memory, for the
// tests of McpToolProvider (test-only: the package never imports the SDK).
// The client, McpServer and transport come typed from ../../_mcp_sdk.ts; the
// low-level Server and the request schemas only these tests use.
//
// The SDK's wildcard export maps `x.js` to the types `x.js.d.ts`, which it
// does not ship, so Deno would type these imports as `any`: each names its
// `.d.ts` (through the package's `x` entry) to be type-checked for real.
import { Client, InMemoryTransport, McpServer } from "../../_mcp_sdk.ts";
// @ts-types="@modelcontextprotocol/sdk/server"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";

export { ErrorCode, McpError } from "../../_mcp_sdk.ts";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  type CallToolRequest,
  CallToolRequestSchema,
  type ListToolsRequest,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

export { Client, InMemoryTransport, McpServer, Server };

/** A connected SDK client and its server; `await using` closes both. */
export interface Linked extends AsyncDisposable {
  readonly client: Client;
  readonly clientTransport: InMemoryTransport;
  readonly serverTransport: InMemoryTransport;
}

/** Connects a new SDK `Client` to `server` over the SDK's `InMemoryTransport`. */
export async function link(server: McpServer | Server): Promise<Linked> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "agentkit-test", version: "1.0.0" });
  await client.connect(clientTransport);
  return {
    client,
    clientTransport,
    serverTransport,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

/** An SDK client with every `tools/list` it sends counted. */
export function counting(client: Client): { client: Client; lists: () => number } {
  let lists = 0;
  const listTools = client.listTools.bind(client);
  client.listTools = (...args: Parameters<Client["listTools"]>) => {
    lists++;
    return listTools(...args);
  };
  return { client, lists: () => lists };
}
