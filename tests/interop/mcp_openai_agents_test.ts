// OpenAI Agents JS's MCPServerStreamableHttp against FakeMcpServer.fetch:
// an agent whose model is a FakeLLM script (served by FakeProvider) calls
// a tool the MCP server scripts. Test-only, pinned in deno.json.
import {
  Agent,
  MCPServerStreamableHttp,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
} from "@openai/agents";
import OpenAI from "openai";
import { assertEquals, assertStringIncludes } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeMcpServer, FakeProvider } from "@agentkit/testing/testing";

setTracingDisabled(true);

Deno.test("OpenAI Agents' MCPServerStreamableHttp over FakeMcpServer.fetch: a FakeLLM agent calls the MCP tool", async () => {
  await using server = new FakeMcpServer({
    tools: [{
      name: "lookup_cert",
      description: "Looks up a host's TLS certificate",
      inputSchema: { type: "object", properties: { host: { type: "string" } }, required: ["host"] },
      result: (args) => `The cert for ${args.host} expires on 2026-08-01.`,
    }],
  });
  const mcp = new MCPServerStreamableHttp({
    name: "certs",
    url: "http://fake-mcp/mcp",
    fetch: server.fetch,
  });
  await mcp.connect();
  try {
    using llm = FakeLLM.script([
      { toolCalls: [toolCall("call_1", "lookup_cert", { host: "example.com" })] },
      { content: "It expires on 2026-08-01." },
    ]);
    const provider = new FakeProvider({ llm });
    const openai = new OpenAI({ apiKey: "sk-test", fetch: provider.fetch, maxRetries: 0 });
    const agent = new Agent({
      name: "ops",
      instructions: "Answer with the tools.",
      model: new OpenAIChatCompletionsModel(openai, "gpt-4o-mini"),
      mcpServers: [mcp],
    });
    const result = await run(agent, "When does the cert of example.com expire?");
    assertEquals(result.finalOutput, "It expires on 2026-08-01.");
    assertEquals(llm.requests[0].tools.map((t) => t.name), ["lookup_cert"]);
    assertStringIncludes(String(llm.requests[1].messages.at(-1)?.content), "2026-08-01");
    const calls = server.calls.filter((c) => c.method === "tools/call");
    assertEquals(calls.map((c) => [c.tool, c.args]), [["lookup_cert", { host: "example.com" }]]);
  } finally {
    await mcp.close();
  }
});
