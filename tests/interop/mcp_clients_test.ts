// Tool-calling agents whose model is a FakeLLM script and whose tools come
// from a FakeMcpServer, through each stack's own MCP client: the SDK's
// Client (in memory and over Streamable HTTP in process; on 127.0.0.1 in
// tests/http/) with the AI SDK's generateText, and the AI SDK's own
// createMCPClient (@ai-sdk/mcp) over both transports. All test-only, pinned.
import { createMCPClient } from "@ai-sdk/mcp";
import { generateText, jsonSchema, stepCountIs, tool, type ToolSet } from "ai";
import { assertEquals, assertStringIncludes } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { aiSdkModel, FakeLLM, FakeMcpServer } from "@agentkit/testing/testing";
import { Client, StreamableHTTPClientTransport } from "../_mcp_sdk.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

function certServer(): FakeMcpServer {
  return new FakeMcpServer({
    tools: [{
      name: "lookup_cert",
      description: "Looks up a host's TLS certificate",
      inputSchema: {
        type: "object",
        properties: { host: { type: "string" } },
        required: ["host"],
      },
      result: (args) => ({ host: args.host, expires: "2026-08-01" }),
    }],
  });
}

function script(): FakeLLM {
  return FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup_cert", { host: "example.com" })] },
    "The cert for example.com expires on 2026-08-01.",
  ]);
}

// The SDK Client's tools, as AI SDK tools: what an app wires by hand.
async function sdkTools(client: Client): Promise<ToolSet> {
  const tools: ToolSet = {};
  for (const t of (await client.listTools()).tools) {
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(t.inputSchema as never),
      execute: async (args) => {
        const r = await client.callTool({
          name: t.name,
          arguments: args as Record<string, unknown>,
        });
        return r.structuredContent ?? r.content;
      },
    });
  }
  return tools;
}

async function agent(llm: FakeLLM, tools: ToolSet): Promise<string> {
  const result = await generateText({
    model: aiSdkModel(llm),
    tools,
    stopWhen: stepCountIs(3),
    prompt: "When does the cert of example.com expire?",
  });
  return result.text;
}

function checkRun(server: FakeMcpServer, llm: FakeLLM, text: string): void {
  assertEquals(text, "The cert for example.com expires on 2026-08-01.");
  const calls = server.calls.filter((c) => c.method === "tools/call");
  assertEquals(calls.map((c) => [c.tool, c.args]), [["lookup_cert", { host: "example.com" }]]);
  assertEquals(llm.requests[0].tools?.map((t) => t.name), ["lookup_cert"]);
  const toolMessage = llm.requests[1].messages.find((m) => m.role === "tool");
  assertStringIncludes(String(toolMessage?.content), "2026-08-01");
  llm.verify();
  server.verify();
}

for (const via of ["transport()", "fetch"] as const) {
  Deno.test(`the SDK Client over FakeMcpServer ${via}: a FakeLLM agent calls the MCP tool`, async () => {
    await using server = certServer();
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(
      via === "fetch"
        ? new StreamableHTTPClientTransport(new URL("http://fake-mcp/mcp"), { fetch: server.fetch })
        : server.transport(),
    );
    const llm = script();
    checkRun(server, llm, await agent(llm, await sdkTools(client)));
    await client.close();
  });
}

for (const via of ["transport()", "fetch"] as const) {
  Deno.test(`the AI SDK's createMCPClient over FakeMcpServer ${via}: generateText calls the MCP tool`, async () => {
    await using server = certServer();
    const mcp = await createMCPClient({
      transport: via === "fetch"
        ? { type: "http", url: "http://fake-mcp/mcp", fetch: server.fetch }
        : server.transport(),
    });
    const llm = script();
    checkRun(server, llm, await agent(llm, await mcp.tools()));
    await mcp.close();
  });
}

Deno.test("the AI SDK's createMCPClient sees a scripted isError result as the tool's error output", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "deploy", result: { isError: true, text: "quota exceeded" } }],
  });
  const mcp = await createMCPClient({ transport: server.transport() });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", {})] }, "It failed."]);
  const text = await agent(llm, await mcp.tools());
  assertEquals(text, "It failed.");
  const toolMessage = llm.requests[1].messages.find((m) => m.role === "tool");
  assertStringIncludes(String(toolMessage?.content), "quota exceeded");
  await mcp.close();
});
