// The same tools, declared once as the SDK's own McpServer (over its
// InMemoryTransport) and once as a FakeMcpServer: the SDK Client must see
// the same tools/list, the same results and the same errors from both.
// Where the MCP specification and the SDK's McpServer differ (an unknown
// tool: a -32602 protocol error in the spec, an isError result in
// McpServer), FakeMcpServer follows the spec by default and McpServer with
// unknownTool: "result"; both are checked.
import { z } from "zod";
import { assertEquals } from "@std/assert";
import { FakeMcpServer } from "@agentkit/testing/testing";
import { Client, InMemoryTransport, type McpError, McpServer } from "../_mcp_sdk.ts";

const INFO = { name: "agent", version: "1.0.0" };

async function real(): Promise<{ client: Client; close(): Promise<void> }> {
  const server = new McpServer({ name: "real", version: "1.0.0" });
  server.registerTool("weather", {
    description: "The weather in a city",
    inputSchema: { city: z.string() },
  }, ({ city }) => ({ content: [{ type: "text", text: `Sunny in ${city}` }] }));
  server.registerTool("forecast", {
    title: "Forecast",
    inputSchema: { days: z.number().int().min(1) },
    outputSchema: { temp: z.number() },
  }, () => ({ content: [{ type: "text", text: '{"temp":21}' }], structuredContent: { temp: 21 } }));
  server.registerTool("fails", {}, () => ({
    content: [{ type: "text", text: "quota exceeded" }],
    isError: true,
  }));
  server.registerTool("throws", {}, () => {
    throw new Error("disk full");
  });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client(INFO);
  await client.connect(clientEnd);
  return { client, close: async () => (await client.close(), await server.close()) };
}

function fake(unknownTool: "error" | "result"): FakeMcpServer {
  return new FakeMcpServer({
    unknownTool,
    tools: [
      {
        name: "weather",
        description: "The weather in a city",
        inputSchema: { city: z.string() },
        result: (args) => `Sunny in ${args.city}`,
      },
      {
        name: "forecast",
        title: "Forecast",
        inputSchema: { days: z.number().int().min(1) },
        outputSchema: { temp: z.number() },
        result: { temp: 21 },
      },
      { name: "fails", result: { isError: true, text: "quota exceeded" } },
      {
        name: "throws",
        result: () => {
          throw new Error("disk full");
        },
      },
    ],
  });
}

// What a client sees of a server: the listing and the outcome of each call.
async function seen(client: Client): Promise<unknown> {
  const { tools } = await client.listTools();
  const listing = tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
  }));
  const calls: [string, Record<string, unknown>][] = [
    ["weather", { city: "Oslo" }],
    ["weather", { city: 7 }],
    ["weather", {}],
    ["forecast", { days: 2 }],
    ["forecast", { days: 0 }],
    ["fails", {}],
    ["throws", {}],
    ["nope", {}],
  ];
  const outcomes = [];
  for (const [name, args] of calls) {
    try {
      outcomes.push(await client.callTool({ name, arguments: args }));
    } catch (error) {
      outcomes.push({ code: (error as McpError).code, message: (error as McpError).message });
    }
  }
  return { listing, outcomes };
}

Deno.test('FakeMcpServer conformance: the SDK Client sees what the SDK\'s McpServer shows it (unknownTool: "result")', async () => {
  const r = await real();
  const expected = await seen(r.client);
  await r.close();
  await using server = fake("result");
  const client = new Client(INFO);
  await client.connect(server.transport());
  assertEquals(await seen(client), expected);
  await client.close();
});

Deno.test("FakeMcpServer conformance: by default only the unknown tool differs, as the spec's -32602", async () => {
  const r = await real();
  const expected = await seen(r.client) as { outcomes: unknown[] };
  await r.close();
  await using server = fake("error");
  const client = new Client(INFO);
  await client.connect(server.transport());
  const got = await seen(client) as { outcomes: unknown[] };
  assertEquals(got.outcomes.slice(0, -1), expected.outcomes.slice(0, -1));
  assertEquals(got.outcomes.at(-1), {
    code: -32602,
    message: "MCP error -32602: Unknown tool: nope",
  });
  assertEquals(expected.outcomes.at(-1), {
    content: [{ type: "text", text: "MCP error -32602: Tool nope not found" }],
    isError: true,
  });
  await client.close();
});
