// Agents whose model is a FakeLLM script (behind FakeProvider) and whose
// tools come from FakeMcpServer.listen() on 127.0.0.1, for clients that take
// only a URL: LangChain's MultiServerMCPClient (@langchain/mcp-adapters
// 1.1.4), and the SDK's Client by URL with the adapters' loadMcpTools, each
// under a LangChain v1 createAgent loop. Test-only, pinned in deno.json.
import { loadMcpTools, MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { assertEquals, assertStringIncludes } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeMcpServer, FakeProvider } from "@agentkit/testing/testing";
import { Client, StreamableHTTPClientTransport } from "../_mcp_sdk.ts";

function certServer(): FakeMcpServer {
  return new FakeMcpServer({
    tools: [{
      name: "lookup_cert",
      description: "Looks up a host's TLS certificate",
      inputSchema: { type: "object", properties: { host: { type: "string" } }, required: ["host"] },
      result: (args) => `The cert for ${args.host} expires on 2026-08-01.`,
    }],
  });
}

function model(llm: FakeLLM): ChatOpenAI {
  const provider = new FakeProvider({ llm });
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    maxRetries: 0,
    configuration: { fetch: provider.fetch },
  });
}

function script(): FakeLLM {
  return FakeLLM.script([
    { toolCalls: [toolCall("call_1", "lookup_cert", { host: "example.com" })] },
    { content: "It expires on 2026-08-01." },
  ]);
}

async function ask(
  llm: FakeLLM,
  tools: Parameters<typeof createAgent>[0]["tools"],
): Promise<unknown> {
  const agent = createAgent({ model: model(llm), tools });
  const result = await agent.invoke({
    messages: [{ role: "user", content: "When does the cert of example.com expire?" }],
  });
  return result.messages.at(-1)?.content;
}

function checkRun(server: FakeMcpServer, llm: FakeLLM): void {
  assertEquals(llm.requests[0].tools?.map((t) => t.name), ["lookup_cert"]);
  assertStringIncludes(String(llm.requests[1].messages.at(-1)?.content), "2026-08-01");
  const calls = server.calls.filter((c) => c.method === "tools/call");
  assertEquals(calls.map((c) => [c.tool, c.args]), [["lookup_cert", { host: "example.com" }]]);
  llm.verify();
}

Deno.test("LangChain's MultiServerMCPClient over FakeMcpServer.listen(): a createAgent loop calls the MCP tool", async () => {
  await using server = certServer();
  await using http = await server.listen();
  const mcp = new MultiServerMCPClient({
    mcpServers: { certs: { transport: "http", url: `${http.url}/mcp` } },
  });
  try {
    const llm = script();
    assertEquals(await ask(llm, await mcp.getTools()), "It expires on 2026-08-01.");
    checkRun(server, llm);
  } finally {
    await mcp.close();
  }
});

Deno.test("the SDK Client over FakeMcpServer.listen() by URL: a createAgent loop calls the MCP tool", async () => {
  await using server = certServer();
  await using http = await server.listen();
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`)));
  try {
    const llm = script();
    const tools = await loadMcpTools("certs", client as never);
    assertEquals(await ask(llm, tools), "It expires on 2026-08-01.");
    checkRun(server, llm);
  } finally {
    await client.close();
  }
});
