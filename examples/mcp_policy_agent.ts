/**
 * The package's own agent on MCP tools under a policy, tested offline: a
 * ReActCognition runs on a ToolPolicy over a McpToolProvider, whose client is
 * the official SDK's Client connected to a scripted FakeMcpServer. The policy
 * hides one tool and asks a (fake) human before another runs.
 *
 * Run it: `deno run --allow-read --allow-env --allow-sys=hostname examples/mcp_policy_agent.ts`
 */
import { Client } from "@modelcontextprotocol/sdk/client";
import { Agent, McpToolProvider, ReActCognition, ToolPolicy } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeAsker, FakeLLM, FakeMcpServer, makeTestCtx } from "@agentkit/testing/testing";
import { assertEquals } from "@std/assert";
import { z } from "zod";

// The server's lookup fails once with a tool-level error, then answers.
await using server = new FakeMcpServer({
  tools: [
    {
      name: "lookup_cert",
      inputSchema: { host: z.string() },
      result: FakeMcpServer.script([
        { isError: true, text: "upstream timed out" },
        { host: "example.com", notAfter: "2026-08-01" },
      ]),
    },
    { name: "renew_cert", inputSchema: { host: z.string() }, result: "renewed until 2027-08-01" },
    { name: "revoke_cert", inputSchema: { host: z.string() }, result: "revoked" },
  ],
});
const client = new Client({ name: "cert-agent", version: "1.0.0" });
await client.connect(server.transport());

const host = { host: "example.com" };
const llm = FakeLLM.script([
  { toolCalls: [toolCall("c1", "lookup_cert", host)] },
  { toolCalls: [toolCall("c2", "lookup_cert", host)] },
  { toolCalls: [toolCall("c3", "renew_cert", host)] },
  { content: "Renewed example.com until 2027-08-01." },
]);
using asker = new FakeAsker(["yes"]);
const provider = new ToolPolicy(new McpToolProvider(client), {
  deny: ["revoke_cert"],
  approve: ["renew_cert"],
});
const agent = new Agent("certs", { model: "m", cognition: new ReActCognition({ provider }) });
const result = await agent.run(
  "Renew example.com's cert if it expires soon.",
  makeTestCtx({ llm, asker }),
);
await client.close();

console.log("answer:", result.output); // answer: Renewed example.com until 2027-08-01.
assertEquals(result.output, "Renewed example.com until 2027-08-01.");

const offered = llm.requests[0].tools.map((t) => t.name);
console.log("offered:", offered.join(", ")); // offered: lookup_cert, renew_cert
assertEquals(offered, ["lookup_cert", "renew_cert"]);

console.log("asked:", asker.questions.length); // asked: 1
assertEquals(asker.questions.length, 1);

const results = result.messages.filter((m) => m.role === "tool").map((m) => m.content);
console.log("first tool result:", results[0]); // first tool result: Error: upstream timed out
assertEquals(results, [
  "Error: upstream timed out",
  '{"host":"example.com","notAfter":"2026-08-01"}',
  "renewed until 2027-08-01",
]);

llm.verify(); // every scripted turn was used; `await using` verifies the server's script
