// The cases of mcp_tools.bench.ts: the 2-step ReAct loop of react.bench.ts
// (a tool call, then the answer), its tool in process and behind
// McpToolProvider. Deno only (they need the MCP SDK, a test-only
// dependency), so they are not in _cases.ts, which the Node harness bundles.
import {
  Agent,
  Budget,
  McpToolProvider,
  meter,
  ReActCognition,
  retry,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import { z } from "zod";
// The SDK's wildcard export has no `.js.d.ts` types: each import names its own.
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { BenchCase } from "./_cases.ts";

export type { BenchCase };

const LOOKUP = toolCall("c1", "lookup_cert", { host: "example.com" });
const ANSWER = { notAfter: "2026-08-01" };
const ANSWER_TEXT = JSON.stringify(ANSWER);

// The same tool, three ways: in process, behind a client object that answers
// at once (the provider's own cost), and on the SDK's McpServer behind the
// SDK's Client over its InMemoryTransport (the whole MCP path).
function plainTool(): FakeTool {
  return new FakeTool({
    name: "lookup_cert",
    parameters: z.object({ host: z.string() }),
    responder: ANSWER,
  });
}

const inProcessClient = {
  listTools: () =>
    Promise.resolve({
      tools: [{
        name: "lookup_cert",
        description: "Look up a host's TLS certificate",
        inputSchema: {
          type: "object" as const,
          properties: { host: { type: "string" } },
          required: ["host"],
        },
      }],
    }),
  callTool: () => Promise.resolve({ content: [{ type: "text", text: ANSWER_TEXT }] }),
};

const server = new McpServer({ name: "certs", version: "1.0.0" });
server.registerTool("lookup_cert", {
  description: "Look up a host's TLS certificate",
  inputSchema: { host: z.string() },
}, () => ({ content: [{ type: "text", text: ANSWER_TEXT }] }));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const sdkClient = new Client({ name: "bench", version: "1.0.0" });
await sdkClient.connect(clientSide);

function loop(id: string, title: string, cognition: ReActCognition): BenchCase {
  const agent = new Agent("bench", { model: "fake-model", cognition });
  return {
    id,
    title,
    uses: 1,
    steps: 2,
    prepare() {
      const ctx = makeTestCtx({
        llm: FakeLLM.script([{ toolCalls: [LOOKUP] }, { content: "expired" }]),
        chatMiddleware: [retry(), meter()],
        budget: new Budget({ maxCostUsd: "10" }),
      });
      return async () => {
        const r = await agent.run("why?", ctx);
        if (r.output !== "expired" || r.messages[2].content !== ANSWER_TEXT) {
          throw new Error(`bench case is broken: ${id}`);
        }
        return r;
      };
    },
  };
}

// The plain tool's agent is rebuilt now and then, as in _cases.ts: its
// FakeTool records every call.
let plainLeft = 0;
let plain: BenchCase | undefined;
const plainCase: BenchCase = {
  id: "react_2_steps_tools",
  title: "2-step ReAct loop, tools: [...]",
  uses: 1,
  steps: 2,
  prepare() {
    if (plainLeft-- <= 0 || !plain) {
      plain = loop("react_2_steps_tools", "", new ReActCognition({ tools: [plainTool()] }));
      plainLeft = 1_000;
    }
    return plain.prepare();
  },
};

/** Every case: the plain tool first, the baseline. */
export function mcpCases(): BenchCase[] {
  return [
    plainCase,
    loop(
      "react_2_steps_mcp_provider",
      "McpToolProvider over a client that answers at once (tools/list every run)",
      new ReActCognition({ provider: new McpToolProvider(inProcessClient) }),
    ),
    loop(
      "react_2_steps_mcp_provider_cached",
      "McpToolProvider over a client that answers at once, cacheToolsList",
      new ReActCognition({
        provider: new McpToolProvider(inProcessClient, { cacheToolsList: true }),
      }),
    ),
    loop(
      "react_2_steps_mcp_sdk",
      "McpToolProvider over the SDK Client and McpServer (InMemoryTransport), tools/list every run",
      new ReActCognition({ provider: new McpToolProvider(sdkClient) }),
    ),
    loop(
      "react_2_steps_mcp_sdk_cached",
      "McpToolProvider over the SDK Client and McpServer (InMemoryTransport), cacheToolsList",
      new ReActCognition({ provider: new McpToolProvider(sdkClient, { cacheToolsList: true }) }),
    ),
  ];
}
