// The runtime's MCP tools against the testing kit's MCP server: ReAct runs a
// ToolPolicy over a McpToolProvider whose client is the official SDK's
// Client, connected to a FakeMcpServer in memory. Each fault comes from the
// server's script, so what the model reads is what a real server's answer
// would give it.
import { assertEquals, assertMatch } from "@std/assert";
import { Agent, McpToolProvider, ReActCognition, ToolPolicy } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  FakeAsker,
  FakeClock,
  FakeLLM,
  FakeMcpServer,
  makeTestCtx,
} from "@agentkit/testing/testing";
import { z } from "zod";
import { Client } from "../../_mcp_sdk.ts";

const TOOLS = [
  {
    name: "lookup_cert",
    description: "Look up a host's TLS certificate",
    inputSchema: { host: z.string() },
    result: (args: Record<string, unknown>) => ({ host: args.host, notAfter: "2026-08-01" }),
  },
  { name: "renew_cert", inputSchema: { host: z.string() }, result: "renewed" },
  { name: "revoke_cert", inputSchema: { host: z.string() }, result: "revoked" },
];

async function connect(server: FakeMcpServer): Promise<Client> {
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(server.transport());
  return client;
}

const toolCalls = (server: FakeMcpServer) =>
  server.calls.filter((c) => c.method === "tools/call").map((c) => [c.tool, c.args]);

Deno.test("ReAct runs MCP tools under a policy: a two-step loop on the SDK Client and a FakeMcpServer", async () => {
  await using server = new FakeMcpServer({ tools: TOOLS });
  const client = await connect(server);
  try {
    const llm = FakeLLM.script([
      { toolCalls: [toolCall("c1", "certs_lookup_cert", { host: "example.com" })] },
      { content: "It expires on 2026-08-01." },
    ]);
    const provider = new ToolPolicy(
      new McpToolProvider(client, { prefix: "certs_", cacheToolsList: true }),
      { deny: "certs_revoke_cert", approve: "certs_renew_cert" },
    );
    const agent = new Agent("certs", {
      model: "fake-model",
      cognition: new ReActCognition({ provider }),
    });
    const result = await agent.run("When does example.com's cert expire?", makeTestCtx({ llm }));

    assertEquals(result.output, "It expires on 2026-08-01.");
    assertEquals(result.messages[2].content, '{"host":"example.com","notAfter":"2026-08-01"}');
    // The model is offered the server's tools, prefixed, with the JSON Schema
    // the server sent; the denied one is not among them.
    const offered = llm.requests[0].tools;
    assertEquals(offered.map((t) => t.name), ["certs_lookup_cert", "certs_renew_cert"]);
    assertEquals(offered[0].description, "Look up a host's TLS certificate");
    assertEquals((offered[0].parameters as { required?: string[] }).required, ["host"]);
    assertEquals(llm.requests[1].tools.map((t) => t.name), [
      "certs_lookup_cert",
      "certs_renew_cert",
    ]);
    assertEquals(toolCalls(server), [["lookup_cert", { host: "example.com" }]]);
    // cacheToolsList: one tools/list for both steps.
    assertEquals(server.calls.filter((c) => c.method === "tools/list").length, 1);
  } finally {
    await client.close();
  }
});

Deno.test("ReAct reads a server's isError, JSON-RPC error and slow answer as tool results and goes on", async () => {
  const clock = new FakeClock();
  await using server = new FakeMcpServer({
    clock,
    tools: [{
      name: "lookup_cert",
      inputSchema: { host: z.string() },
      result: FakeMcpServer.script([
        { isError: true, text: "DNS lookup failed for example.com" },
        { rpcError: { code: -32000, message: "certificate store offline" } },
        { latencyMs: 45_000, result: { notAfter: "2026-08-01" } },
      ]),
    }],
  });
  const client = await connect(server);
  try {
    const look = (id: string) => ({
      toolCalls: [toolCall(id, "lookup_cert", { host: "example.com" })],
    });
    const llm = FakeLLM.script([look("c1"), look("c2"), look("c3"), { content: "2026-08-01" }]);
    const provider = new ToolPolicy(new McpToolProvider(client), { allow: ["lookup_cert"] });
    const agent = new Agent("certs", {
      model: "fake-model",
      cognition: new ReActCognition({ provider, maxIterations: 6 }),
    });
    const result = await agent.run("expiry?", makeTestCtx({ llm, clock }));

    assertEquals(result.output, "2026-08-01");
    const tool = result.messages.filter((m) => m.role === "tool").map((m) => m.content);
    assertEquals(tool[0], "Error: DNS lookup failed for example.com");
    assertMatch(
      tool[1],
      /^Error: The MCP server "[^"]+" failed the call of tool "lookup_cert": .*certificate store offline/,
    );
    assertEquals(tool[2], '{"notAfter":"2026-08-01"}');
    assertEquals(clock.now(), 45_000); // the latency, in virtual time
    assertEquals(server.calls.filter((c) => c.method === "tools/call").map((c) => c.error?.code), [
      undefined,
      -32000,
      undefined,
    ]);
  } finally {
    await client.close();
  }
});

Deno.test("ToolPolicy over a FakeMcpServer: a denied call and a refused one never reach the server; an approved one does", async () => {
  await using server = new FakeMcpServer({ tools: TOOLS });
  const client = await connect(server);
  try {
    using asker = new FakeAsker(["no", "yes"]);
    const host = { host: "example.com" };
    const llm = FakeLLM.script([
      { toolCalls: [toolCall("c1", "revoke_cert", host)] },
      { toolCalls: [toolCall("c2", "renew_cert", host)] },
      { toolCalls: [toolCall("c3", "renew_cert", host)] },
      { content: "renewed" },
    ]);
    const provider = new ToolPolicy(new McpToolProvider(client), {
      deny: ["revoke_cert"],
      approve: ["renew_cert"],
    });
    const agent = new Agent("certs", {
      model: "fake-model",
      cognition: new ReActCognition({ provider, maxIterations: 6 }),
    });
    const result = await agent.run("renew it", makeTestCtx({ llm, asker }));

    assertEquals(result.output, "renewed");
    const tool = result.messages.filter((m) => m.role === "tool").map((m) => m.content);
    assertEquals(tool, [
      'Error: Refused: tool "revoke_cert" is denied by the tool policy',
      'Error: Denied: the user did not approve tool "renew_cert" (answered "no")',
      "renewed",
    ]);
    assertEquals(asker.questions.length, 2);
    assertEquals(toolCalls(server), [["renew_cert", host]]);
    assertEquals(server.unknownToolCalls, []);
  } finally {
    await client.close();
  }
});
