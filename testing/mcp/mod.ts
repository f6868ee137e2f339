/**
 * The MCP server double: `FakeMcpServer` serves scripted tools, resources
 * and prompts over the Model Context Protocol, in memory
 * (`server.transport()`), as Streamable HTTP in process (`server.fetch`)
 * and on 127.0.0.1 (`server.listen()`), so an agent's MCP client talks to a
 * script with faults on a virtual clock.
 *
 * @example A tool call over Streamable HTTP, in process
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client";
 * import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
 * import { FakeMcpServer } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * await using server = new FakeMcpServer({ tools: [{ name: "weather", result: "Sunny, 21°C" }] });
 * const client = new Client({ name: "agent", version: "1.0.0" });
 * await client.connect(
 *   new StreamableHTTPClientTransport(new URL("http://fake-mcp/mcp"), { fetch: server.fetch }),
 * );
 * const result = await client.callTool({ name: "weather", arguments: {} });
 * assertEquals(result.content, [{ type: "text", text: "Sunny, 21°C" }]);
 * await client.close();
 * ```
 *
 * @module
 */
export * from "./fake_mcp_server.ts";
