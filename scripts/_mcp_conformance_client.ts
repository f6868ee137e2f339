// The client side of the official MCP conformance suite: the command its
// client scenarios start (`conformance client --command "..."`), given the
// scenario's server URL as its last argument and the scenario's name in
// MCP_CONFORMANCE_SCENARIO. It is an agent on McpToolProvider: the SDK's
// Client over Streamable HTTP with mcpClientHandlers installed (elicitation
// through a FakeAsker that leaves every field empty, so each takes its
// default; sampling through a FakeLLM), a FakeLLM model that calls every
// tool the server lists once, with arguments made from each input schema.
import { Client } from "@modelcontextprotocol/sdk/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toolCall } from "../ports/mod.ts";
import {
  Agent,
  mcpClientHandlers,
  McpToolProvider,
  ReActCognition,
  SystemClock,
} from "../runtime/mod.ts";
import { FakeAsker, FakeLLM, makeTestCtx } from "../testing/mod.ts";

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[] };

// A value of the schema's type for each required property.
function argsFor(schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const p = schema.properties?.[name] ?? {};
    out[name] = p.type === "number" || p.type === "integer"
      ? 1
      : p.type === "boolean"
      ? true
      : p.type === "object"
      ? argsFor(p)
      : p.type === "array"
      ? []
      : "x";
  }
  return out;
}

// The suite's CLI waits for this process to exit before it judges the next
// scenario: a handle left open (an SSE stream the server keeps) must not
// hang the test task, so the process ends itself, and a run that never
// finishes ends with a failure after a minute.
const watchdog = setTimeout(() => {
  console.error("the conformance client did not finish within 60 s");
  Deno.exit(1);
}, 60_000);

const url = Deno.args.at(-1);
if (!url) throw new Error("usage: _mcp_conformance_client.ts <server url>");
const client = new Client(
  { name: "agentkit-conformance-client", version: "1.0.0" },
  { capabilities: { elicitation: {}, sampling: {} } },
);
const handlers = mcpClientHandlers({
  asker: new FakeAsker([""], { repeatLast: true, allowUnused: true }),
  llm: FakeLLM.script(["A sampled answer."], { repeatLast: true }),
});
for (const h of handlers) client.setRequestHandler(h.schema as never, h.handler as never);
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const provider = new McpToolProvider(client, { timeoutMs: 30_000 });
const tools = await provider.listTools();
const llm = FakeLLM.script([
  ...(tools.length
    ? [{
      toolCalls: tools.map((t, i) => toolCall(`c${i}`, t.name, argsFor(t.parameters as Schema))),
    }]
    : []),
  "Done.",
]);
const agent = new Agent("conformance", {
  model: "fake-model",
  cognition: new ReActCognition({ provider }),
});
// The real clock: the server answers over a socket, in real time, and a
// FakeClock would jump to timeoutMs before it does.
const result = await agent.run(
  "Use every tool once.",
  makeTestCtx({ llm, clock: new SystemClock() }),
);
console.log(JSON.stringify(result.messages.filter((m) => m.role === "tool")));
await client.close();
clearTimeout(watchdog);
Deno.exit(0);
