// SPEC §22 on the client side: McpToolProvider's waits bounded by the run's
// signal and timeoutMs on ctx.clock (a server that never answers cannot
// hang a run), what a block of an unknown type becomes, the image result of
// a FakeMcpServer as the model sees it, and mcpClientHandlers answering a
// server's elicitation through an AskerPort and sampling through an LLMPort.
import { assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import {
  Agent,
  mcpClientHandlers,
  McpRequestRefused,
  type McpRequestTimeout,
  McpToolProvider,
  McpToolsUnavailable,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  FakeAsker,
  FakeClock,
  FakeLLM,
  FakeMcpServer,
  makeTestCtx,
  type McpClientRequestFailed,
} from "@agentkit/testing/testing";
import { Client } from "../../_mcp_sdk.ts";

const INFO = { name: "agent", version: "1.0.0" };
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

// A client whose server never answers, recording the signals it was given.
function silent(signals: (AbortSignal | undefined)[] = []) {
  const never = (_p: unknown, _s?: unknown, o?: { signal?: AbortSignal }) => {
    signals.push(o?.signal);
    return new Promise<never>((_r, reject) => {
      o?.signal?.addEventListener("abort", () => reject(o.signal!.reason), { once: true });
    });
  };
  return {
    listTools: (p?: unknown, o?: { signal?: AbortSignal }) => never(p, undefined, o),
    callTool: never,
  };
}

Deno.test("timeoutMs on ctx.clock ends a tools/call wait with McpRequestTimeout, as an isError result", async () => {
  const signals: (AbortSignal | undefined)[] = [];
  const provider = new McpToolProvider(silent(signals), { timeoutMs: 5_000 });
  const clock = new FakeClock();
  const [r] = await provider.executeToolCalls(
    [{ id: "c1", name: "deploy", args: {} }],
    makeTestCtx({ clock }),
  );
  assertEquals(r.isError, true);
  assertStringIncludes(r.content, 'failed the call of tool "deploy"');
  assertStringIncludes(
    r.content,
    ": McpRequestTimeout: the MCP server did not answer tools/call within 5000 ms",
  );
  assertEquals(clock.now(), 5_000);
  assertEquals(signals[0]?.aborted, true, "the request was told to stop");
});

Deno.test("timeoutMs ends a tools/list wait: listTools(ctx) rejects with McpToolsUnavailable caused by McpRequestTimeout", async () => {
  const provider = new McpToolProvider(silent(), { timeoutMs: 1_000 });
  const e = await assertRejects(
    () => Promise.resolve(provider.listTools(makeTestCtx())),
    McpToolsUnavailable,
    "McpRequestTimeout: the MCP server did not answer tools/list within 1000 ms",
  );
  assertEquals((e.cause as Error).name, "McpRequestTimeout");
  assertEquals((e.cause as McpRequestTimeout).timeoutMs, 1_000);
});

Deno.test("the run's signal ends a listing that never comes: the agent's run fails instead of hanging", async () => {
  const controller = new AbortController();
  const provider = new McpToolProvider(silent());
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ provider }),
  });
  const llm = FakeLLM.script(["never reached"]);
  const running = agent.run("go", makeTestCtx({ llm, signal: controller.signal }));
  setTimeout(() => controller.abort(new Error("stop")), 0);
  await assertRejects(() => running, McpToolsUnavailable, "stop");
  assertEquals(llm.requests.length, 0);
});

Deno.test("a cached listing under way is bounded per caller too", async () => {
  const provider = new McpToolProvider(silent(), { cacheToolsList: true, timeoutMs: 10 });
  const first = Promise.resolve(provider.listTools()); // no ctx: unbounded
  first.catch(() => {});
  await assertRejects(
    () => Promise.resolve(provider.listTools(makeTestCtx())),
    McpToolsUnavailable,
    "within 10 ms",
  );
});

Deno.test("new McpToolProvider() checks timeoutMs", () => {
  assertThrows(() => new McpToolProvider(silent(), { timeoutMs: 0 }), RangeError, "timeoutMs");
  assertThrows(
    () => new McpToolProvider(silent(), { timeoutMS: 5 } as never),
    TypeError,
    'did you mean "timeoutMs"?',
  );
});

Deno.test("through the SDK Client: an image result is described to the model, an unknown block is its JSON", async () => {
  await using server = new FakeMcpServer({
    tools: [
      {
        name: "screenshot",
        result: {
          content: [
            { type: "text", text: "The page:" },
            { type: "image", data: PNG, mimeType: "image/png" },
          ],
        },
      },
      { name: "video", result: { content: [{ type: "video", uri: "test://v" }] } },
    ],
  });
  const client = new Client(INFO);
  await client.connect(server.transport());
  const provider = new McpToolProvider(client);
  const results = await provider.executeToolCalls([
    { id: "c1", name: "screenshot", args: {} },
    { id: "c2", name: "video", args: {} },
  ], makeTestCtx());
  assertEquals(results, [
    { callId: "c1", isError: false, content: "The page:\n[image: image/png, 70 bytes]" },
    { callId: "c2", isError: false, content: '{"type":"video","uri":"test://v"}' },
  ]);
  await client.close();
});

Deno.test("mcpClientHandlers: an agent answers an elicitation through a FakeAsker, defaults and titles included", async () => {
  let answer: unknown;
  await using server = new FakeMcpServer({
    tools: [{
      name: "book",
      result: async (_a, call) => {
        answer = await call.elicit({
          message: "Booking",
          requestedSchema: {
            type: "object",
            properties: {
              name: { type: "string", default: "Ada" },
              nights: { type: "integer", title: "Nights" },
              breakfast: { type: "boolean" },
              room: {
                type: "string",
                oneOf: [{ const: "d", title: "Double" }, { const: "s", title: "Single" }],
              },
              extras: { type: "array", items: { type: "string", enum: ["wifi", "parking"] } },
              note: { type: "string" },
            },
            required: ["nights"],
          },
        });
        return "booked";
      },
    }],
  });
  const asker = new FakeAsker(["", "3", "yes", "Double", "wifi, parking", ""]);
  const client = new Client(INFO, { capabilities: { elicitation: {} } });
  for (const h of mcpClientHandlers({ asker })) {
    client.setRequestHandler(h.schema as never, h.handler as never);
  }
  await client.connect(server.transport());
  const provider = new McpToolProvider(client);
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "book", {})] }, "Booked."]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ provider }),
  });
  assertEquals((await agent.run("book", makeTestCtx({ llm }))).output, "Booked.");
  assertEquals(answer, {
    action: "accept",
    content: { name: "Ada", nights: 3, breakfast: true, room: "d", extras: ["wifi", "parking"] },
  });
  assertEquals(asker.questions[1], "Booking\nNights [integer]");
  assertEquals(
    asker.questions[3],
    "Booking\nroom [one of d (Double), s (Single); optional; empty leaves it out]",
  );
  await client.close();
});

Deno.test("mcpClientHandlers: an answer that does not fit is McpRequestRefused, which the server sees as the client's error", async () => {
  let failure: unknown;
  await using server = new FakeMcpServer({
    tools: [{
      name: "t",
      result: async (_a, call) => {
        try {
          await call.elicit({
            message: "Age?",
            requestedSchema: { type: "object", properties: { age: { type: "integer" } } },
          });
        } catch (error) {
          failure = error;
        }
        return "ok";
      },
    }],
  });
  const client = new Client(INFO, { capabilities: { elicitation: {} } });
  for (const h of mcpClientHandlers({ asker: new FakeAsker(["old"]) })) {
    client.setRequestHandler(h.schema as never, h.handler as never);
  }
  await client.connect(server.transport());
  await client.callTool({ name: "t", arguments: {} });
  assertEquals((failure as McpClientRequestFailed).code, -32602);
  assertStringIncludes(String(failure), 'field "age": "old" is not an integer');
  assertEquals(new McpRequestRefused("m", "p").name, "McpRequestRefused");
  await client.close();
});

Deno.test("mcpClientHandlers: sampling through an LLMPort; without a port, the protocol's -32601", async () => {
  await using server = new FakeMcpServer({
    tools: [{
      name: "summarise",
      result: async (_a, call) => {
        const r = await call.sample({
          systemPrompt: "Be brief.",
          messages: [{ role: "user", content: { type: "text", text: "Summarise: a b c" } }],
          maxTokens: 20,
          modelPreferences: { hints: [{ name: "small-model" }] },
        });
        return JSON.stringify(r);
      },
    }],
  });
  const llm = FakeLLM.script(["abc"]);
  const client = new Client(INFO, { capabilities: { sampling: {}, elicitation: {} } });
  const handlers = mcpClientHandlers({ llm });
  assertEquals(handlers.map((h) => h.method), ["sampling/createMessage"]);
  for (const h of handlers) client.setRequestHandler(h.schema as never, h.handler as never);
  await client.connect(server.transport());
  const r = await client.callTool({ name: "summarise", arguments: {} });
  assertEquals(JSON.parse((r.content as { text: string }[])[0].text), {
    role: "assistant",
    content: { type: "text", text: "abc" },
    model: "small-model",
    stopReason: "endTurn",
  });
  assertEquals(llm.requests[0].messages.map((m) => [m.role, m.content]), [
    ["system", "Be brief."],
    ["user", "Summarise: a b c"],
  ]);
  assertEquals(llm.requests[0].settings?.maxTokens, 20);
  await client.close();
  assertThrows(() => mcpClientHandlers({ askr: 1 } as never), TypeError, 'did you mean "asker"?');
  assertThrows(() => mcpClientHandlers({ llm: {} as never }), TypeError, "LLMPort");
});

Deno.test("a call answered in time leaves no timer on the clock, and is the server's answer", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const client = {
    listTools: () => Promise.resolve({ tools: [] }),
    callTool: () => Promise.resolve({ content: [{ type: "text", text: "done" }] }),
  };
  const provider = new McpToolProvider(client, { timeoutMs: 5_000 });
  const [r] = await provider.executeToolCalls(
    [{ id: "c1", name: "t", args: {} }],
    makeTestCtx({ clock }),
  );
  assertEquals(r, { callId: "c1", isError: false, content: "done" });
  assertEquals(clock.pending, 0);
  assertEquals(await provider.listTools(makeTestCtx({ clock })), []);
  assertEquals(clock.pending, 0);
});
