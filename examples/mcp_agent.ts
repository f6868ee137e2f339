/**
 * An agent whose tools come from an MCP server, tested offline: the AI SDK's
 * MCP client connects to a scripted FakeMcpServer, and a FakeLLM script
 * drives the model, so the tool loop, the MCP wire and the fault handling
 * run for real with no server process and no network.
 *
 * Run it: `deno run --allow-read --allow-env --allow-sys=hostname examples/mcp_agent.ts`
 */
import { createMCPClient } from "@ai-sdk/mcp";
import { generateText, stepCountIs } from "ai";
import { toolCall } from "@agentkit/testing/ports";
import { aiSdkModel, FakeLLM, FakeMcpServer } from "@agentkit/testing/testing";
import { assertEquals, assertStringIncludes } from "@std/assert";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

// The server's tool answers once with a tool-level error, then with the data.
await using server = new FakeMcpServer({
  tools: [{
    name: "lookup_cert",
    description: "Looks up a host's TLS certificate",
    inputSchema: { type: "object", properties: { host: { type: "string" } }, required: ["host"] },
    result: FakeMcpServer.script([
      { isError: true, text: "upstream timed out" },
      { host: "example.com", expires: "2026-08-01" },
    ]),
  }],
});

// The model retries the tool after the error, then answers.
const llm = FakeLLM.script([
  { toolCalls: [toolCall("c1", "lookup_cert", { host: "example.com" })] },
  { toolCalls: [toolCall("c2", "lookup_cert", { host: "example.com" })] },
  "The cert for example.com expires on 2026-08-01.",
]);

const mcp = await createMCPClient({ transport: server.transport() });
const result = await generateText({
  model: aiSdkModel(llm),
  tools: await mcp.tools(),
  stopWhen: stepCountIs(5),
  prompt: "When does the cert of example.com expire?",
});
await mcp.close();

console.log("answer:", result.text); // answer: The cert for example.com expires on 2026-08-01.
assertEquals(result.text, "The cert for example.com expires on 2026-08-01.");

const toolCalls = server.calls.filter((c) => c.method === "tools/call");
console.log("tool calls:", toolCalls.length); // tool calls: 2
assertEquals(toolCalls.length, 2);

// What the model saw after the first call: the server's error text.
const firstResult = llm.requests[1].messages.find((m) => m.role === "tool");
console.log("first tool result:", firstResult?.content); // first tool result: upstream timed out
assertStringIncludes(String(firstResult?.content), "upstream timed out");

llm.verify(); // every scripted turn was used; `await using` verifies the server's script
