// FakeMcpServer's edges, frame by frame over its in-memory transport: what
// each method answers when its params are wrong or absent, what the server
// ignores, and how a harness error behind the wire reaches verify().
import { assert, assertEquals, assertThrows } from "@std/assert";
import {
  FakeClock,
  FakeMcpServer,
  InvalidScript,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

type Message = Record<string, unknown> & {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

// A raw session: send frames, read what came back.
async function session(server: FakeMcpServer) {
  const t = server.transport();
  const seen: Message[] = [];
  t.onmessage = (m) => seen.push(m as Message);
  await t.start();
  let id = 0;
  return {
    seen,
    transport: t,
    async ask(method: string, params?: unknown): Promise<Message> {
      const mine = ++id;
      await t.send(
        params === undefined ? { jsonrpc: "2.0", id: mine, method } : {
          jsonrpc: "2.0",
          id: mine,
          method,
          params,
        },
      );
      await settle();
      const answer = seen.find((m) => m.id === mine);
      if (!answer) throw new Error(`no answer to ${method}`);
      return answer;
    },
  };
}

const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "c", version: "1" },
};

Deno.test("FakeMcpServer initialize: serverInfo, capabilities by what is declared, and -32602 for bad params", async () => {
  await using plain = new FakeMcpServer({ tools: [] });
  const a = await session(plain);
  assertEquals((await a.ask("initialize", INIT)).result, {
    protocolVersion: "2025-06-18",
    capabilities: { tools: { listChanged: true } },
    serverInfo: { name: "fake-mcp-server", version: "1.0.0" },
  });
  const bad = await a.ask("initialize", { protocolVersion: 2025 });
  assertEquals(bad.error?.code, -32602);
  assert(bad.error?.message.startsWith("Invalid params: "), bad.error?.message);
  await a.transport.close();

  await using full = new FakeMcpServer({
    tools: [],
    resources: [{ uri: "a", text: "x" }],
    prompts: [{ name: "p", messages: ["hi"] }],
  });
  const b = await session(full);
  assertEquals((await b.ask("initialize", INIT)).result?.capabilities, {
    tools: { listChanged: true },
    resources: {},
    prompts: {},
  });
  await b.transport.close();
});

Deno.test("FakeMcpServer lists: one page, so any cursor is -32602; templates are empty; optional fields are left out", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "t", result: 1 }],
    resources: [{ uri: "file:///a", text: "x" }],
    prompts: [{ name: "p", messages: [{ role: "assistant", content: "hello" }] }],
  });
  const s = await session(server);
  assertEquals((await s.ask("tools/list", { cursor: "next" })).error, {
    code: -32602,
    message: "Invalid cursor: next",
  });
  assertEquals((await s.ask("tools/list", { cursor: 5 })).error?.code, -32602);
  assertEquals((await s.ask("resources/list")).result, {
    resources: [{ uri: "file:///a", name: "file:///a" }],
  });
  assertEquals((await s.ask("resources/templates/list")).result, { resourceTemplates: [] });
  assertEquals((await s.ask("resources/read", { uri: "file:///a" })).result, {
    contents: [{ uri: "file:///a", text: "x" }],
  });
  assertEquals((await s.ask("resources/read", {})).error?.code, -32602);
  assertEquals((await s.ask("prompts/list")).result, { prompts: [{ name: "p" }] });
  assertEquals((await s.ask("prompts/get", { name: "p" })).result, {
    messages: [{ role: "assistant", content: { type: "text", text: "hello" } }],
  });
  assertEquals((await s.ask("prompts/get", {})).error?.code, -32602);
  assertEquals((await s.ask("prompts/get", { name: "q" })).error, {
    code: -32602,
    message: "Prompt q not found",
  });
  assertEquals((await s.ask("ping")).result, {});
  assertEquals((await s.ask("tools/call", { name: 5 })).error?.code, -32602);
  await s.transport.close();
});

Deno.test("FakeMcpServer without resources or prompts answers their methods -32601", async () => {
  await using server = new FakeMcpServer({ tools: [] });
  const s = await session(server);
  for (
    const m of [
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "prompts/list",
      "prompts/get",
    ]
  ) {
    assertEquals((await s.ask(m, { uri: "a", name: "p" })).error, {
      code: -32601,
      message: "Method not found",
    });
  }
  await s.transport.close();
});

Deno.test("FakeMcpServer ignores responses, unknown notifications and cancellations of nothing", async () => {
  await using server = new FakeMcpServer({ tools: [{ name: "t", result: "ok" }] });
  const s = await session(server);
  await s.transport.send({ jsonrpc: "2.0", id: 99, result: {} });
  await s.transport.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
  await s.transport.send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 42 },
  });
  await s.transport.send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: {} },
  });
  await s.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} });
  await settle();
  assertEquals(s.seen, []);
  assertEquals(server.calls, []);
  assertEquals((await s.ask("tools/call", { name: "t" })).result, {
    content: [{ type: "text", text: "ok" }],
  });
  await s.transport.close();
});

Deno.test("FakeMcpServer cancels a latency wait on the clock, and answers a later call as usual", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  await using server = new FakeMcpServer({
    clock,
    tools: [{ name: "slow", result: { latencyMs: 60_000, result: "late" } }],
  });
  const s = await session(server);
  await s.transport.send({
    jsonrpc: "2.0",
    id: "a",
    method: "tools/call",
    params: { name: "slow" },
  });
  await settle();
  await s.transport.send({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: "a", reason: "stop" },
  });
  await settle();
  clock.advance(60_000);
  await settle();
  assertEquals(s.seen, [], "a cancelled request is never answered");
  assertEquals(server.calls[0].cancelled, true);
  assertEquals(clock.pending, 0, "the wait was cleared");
  await s.transport.close();
});

Deno.test("FakeMcpServer: a function that returns a function or a bad step is a harness error, and verify() throws it", async (t) => {
  for (
    const [name, returned, text] of [
      ["a function", () => () => 1, "returned a function"],
      ["a bad step", () => ({ latencyMs: 5, bogus: 1 }), 'unknown key "bogus"'],
    ] as const
  ) {
    await t.step(name, async () => {
      const server = new FakeMcpServer({ tools: [{ name: "t", result: returned }] });
      const s = await session(server);
      const answer = await s.ask("tools/call", { name: "t" });
      assertEquals(answer.error?.code, -32603);
      assert(answer.error?.message.startsWith("Internal error: "), answer.error?.message);
      assertThrows(() => server.verify(), InvalidScript, text);
      await s.transport.close();
    });
  }
});

Deno.test("FakeMcpServer: a harness error a tool function throws is a -32603 answer and is thrown by verify()", async () => {
  const server = new FakeMcpServer({
    tools: [{
      name: "t",
      result: () => {
        throw new ScriptExhausted("my double", 1, 2);
      },
    }],
  });
  const s = await session(server);
  assertEquals((await s.ask("tools/call", { name: "t" })).error?.code, -32603);
  assertThrows(() => server.verify(), ScriptExhausted, "my double");
  await s.transport.close();
});

Deno.test("FakeMcpServer counts calls per tool, skips output checks of isError results, and waits no interval at 0", async () => {
  const clock = new FakeClock();
  const numbers: number[] = [];
  await using server = new FakeMcpServer({
    clock,
    progressIntervalMs: 0,
    tools: [
      { name: "a", result: (_args, call) => void numbers.push(call.number) },
      { name: "b", result: (_args, call) => void numbers.push(call.number) },
      {
        name: "typed",
        outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        result: FakeMcpServer.script([{ isError: true, text: "no data" }, { n: "x" }, { n: 1 }]),
      },
      { name: "p", result: { progress: [1, 2, 3] } },
    ],
  });
  const s = await session(server);
  for (const name of ["a", "a", "b", "a"]) await s.ask("tools/call", { name });
  assertEquals(numbers, [1, 2, 1, 3]);
  assertEquals((await s.ask("tools/call", { name: "a" })).result, { content: [] });
  assertEquals((await s.ask("tools/call", { name: "typed" })).result, {
    content: [{ type: "text", text: "no data" }],
    isError: true,
  });
  const wrong = (await s.ask("tools/call", { name: "typed" })).result as {
    content: { text: string }[];
    isError: boolean;
  };
  assertEquals(wrong.isError, true);
  assert(
    wrong.content[0].text.includes("Invalid structured content for tool typed: "),
    wrong.content[0].text,
  );
  assertEquals((await s.ask("tools/call", { name: "typed" })).result?.structuredContent, { n: 1 });
  await s.ask("tools/call", { name: "p", _meta: { progressToken: "tok" } });
  assertEquals(clock.sleeps, []);
  const progress = s.seen.filter((m) => m.method === "notifications/progress");
  assertEquals(progress.map((m) => m.params), [
    { progressToken: "tok", progress: 1 },
    { progressToken: "tok", progress: 2 },
    { progressToken: "tok", progress: 3 },
  ]);
  await s.transport.close();
});

Deno.test("FakeMcpServer.verify() counts the scripts of tools setTools() replaced", async () => {
  const server = new FakeMcpServer({
    tools: [{ name: "old", result: FakeMcpServer.script(["x"]) }],
  });
  server.setTools([{ name: "new", result: "y" }]);
  assertThrows(() => server.verify(), UnusedTurns, 'tool "old"');
  await server.close();
});

Deno.test("FakeMcpServer: a session the server closed sends nothing more, and a closed transport stays closed", async () => {
  const server = new FakeMcpServer({
    tools: [{ name: "held", result: { gate: new Promise(() => {}) } }],
  });
  const s = await session(server);
  let closes = 0;
  s.transport.onclose = () => void closes++;
  await s.transport.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "held" } });
  await settle();
  await server.close();
  await server.close();
  server.setTools([]);
  await s.transport.close();
  await settle();
  assertEquals([closes, s.seen], [1, []]);
});

Deno.test("FakeMcpServer.script() takes only an array; a step's result must be a value", () => {
  assertThrows(() => FakeMcpServer.script("x" as never), InvalidScript, "takes an array of steps");
  assertThrows(
    () => FakeMcpServer.script([{ latencyMs: 1, result: () => 1 }]),
    InvalidScript,
    "result must be a value",
  );
  assertThrows(
    () => FakeMcpServer.script([{ isError: false, text: "x" }]),
    InvalidScript,
    "isError must be true",
  );
  assertThrows(
    () => FakeMcpServer.script([{ latencyMs: 1, text: "x" }]),
    InvalidScript,
    "text is the error text",
  );
  assertThrows(
    () => FakeMcpServer.script([{ disconnect: 1 }]),
    InvalidScript,
    "disconnect must be true",
  );
  assertThrows(() => FakeMcpServer.script([{ progress: [] }]), InvalidScript, "non-empty array");
  assertThrows(
    () => FakeMcpServer.script([{ progress: [{ progress: 1, total: "2" }] }]),
    InvalidScript,
    "progress[0]",
  );
  assertThrows(
    () => FakeMcpServer.script([{ progress: [1], progressIntervalMs: -1 }]),
    InvalidScript,
    "progressIntervalMs",
  );
  const s = FakeMcpServer.script([{ rpcError: { code: 1, message: "m", data: { a: 1 } } }, "x"], {
    repeatLast: true,
  });
  assertEquals([s.length, s.used, s.repeatLast], [2, 0, true]);
});

Deno.test("FakeMcpServer: an object that serializes to a non-object (a Date) is a text result, not structured content", async () => {
  await using server = new FakeMcpServer({
    tools: [{ name: "when", result: new Date(Date.UTC(2026, 7, 1)) }],
  });
  const s = await session(server);
  assertEquals((await s.ask("tools/call", { name: "when" })).result, {
    content: [{ type: "text", text: '"2026-08-01T00:00:00.000Z"' }],
  });
  await s.transport.close();
});
