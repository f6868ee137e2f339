import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { z } from "zod";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { FakeLLM, FakeTool, InvalidScript, makeTestCtx } from "@agentkit/testing/testing";
import { type JsonSchema, type Message, toolCall } from "@agentkit/testing/ports";

function tools() {
  const cert = new FakeTool({
    name: "lookup_cert",
    parameters: z.object({
      host: z.string().min(3),
      port: z.number().int().min(1).max(65535),
      proto: z.enum(["https", "smtps"]),
      opts: z.object({ sni: z.boolean(), tags: z.array(z.string()).min(2) }),
      note: z.string().optional(),
    }),
    responder: { expired: true },
  });
  const dns = new FakeTool({
    name: "dns",
    parameters: {
      type: "object",
      properties: { name: { type: "string", format: "hostname" } },
      required: ["name"],
    },
    responder: "192.0.2.1",
  });
  return { cert, dns };
}

function agentWith(...t: FakeTool[]) {
  return new Agent("sre", { model: "fake-model", cognition: new ReActCognition({ tools: t }) });
}

Deno.test("FakeLLM.auto() calls every offered tool with schema-valid args, then summarises the results", async () => {
  const { cert, dns } = tools();
  const llm = FakeLLM.auto();
  const result = await agentWith(cert, dns).run("why?", makeTestCtx({ llm }));
  assertEquals(cert.calls, [{
    host: "aaa",
    port: 1,
    proto: "https",
    opts: { sni: false, tags: ["a", "b"] },
  }]);
  assertEquals(dns.calls, [{ name: "example.com" }]);
  assertEquals(JSON.parse(result.output), { lookup_cert: { expired: true }, dns: "192.0.2.1" });
  assertEquals(llm.calls, 2);
  assertEquals(llm.requests[0].tools.map((t) => t.name), ["lookup_cert", "dns"]);
});

Deno.test("FakeLLM.auto() is deterministic: the same args on every run", async () => {
  const a = tools();
  const b = tools();
  await agentWith(a.cert).run("x", makeTestCtx({ llm: FakeLLM.auto() }));
  await agentWith(b.cert).run("y", makeTestCtx({ llm: FakeLLM.auto() }));
  assertEquals(a.cert.calls, b.cert.calls);
});

Deno.test("FakeLLM.auto({ tools }) calls only the named tools; { answer } is the final answer", async () => {
  const { cert, dns } = tools();
  const llm = FakeLLM.auto({ tools: ["dns"], answer: "It is DNS." });
  const result = await agentWith(cert, dns).run("why?", makeTestCtx({ llm }));
  assertEquals([cert.calls.length, dns.calls.length, result.output], [0, 1, "It is DNS."]);
});

Deno.test("FakeLLM.auto() answers at once when no tools are offered, and each new user turn calls tools again", async () => {
  const plain = await new Agent("a", { model: "fake-model" }).run(
    "hi",
    makeTestCtx({ llm: FakeLLM.auto() }),
  );
  assertEquals(plain.output, "success (no tool calls)");
  const { dns } = tools();
  const ctx = makeTestCtx({ llm: FakeLLM.auto() });
  const first = await agentWith(dns).run("one", ctx);
  await agentWith(dns).run("two", ctx, { context: first.messages });
  assertEquals(dns.calls.length, 2);
});

Deno.test("FakeLLM.auto() answers schema-valid JSON when the request asks for JSON", async () => {
  const schema = z.object({
    cause: z.enum(["cert", "dns"]),
    confidence: z.number().min(0.5).max(1),
  });
  const llm = FakeLLM.auto();
  const response = await llm.chat({
    model: "m",
    messages: [{ role: "user", content: "why?" }],
    settings: { jsonSchema: z.toJSONSchema(schema) },
  });
  assertEquals(schema.parse(JSON.parse(response.content)), { cause: "cert", confidence: 0.5 });
});

Deno.test("FakeLLM.auto() names the tool and the schema path it cannot satisfy", async () => {
  const bad = new FakeTool({
    name: "book_room",
    parameters: {
      type: "object",
      properties: { guests: { type: "integer", minimum: 5, maximum: 2 } },
      required: ["guests"],
    },
    responder: "ok",
  });
  await assertRejects(
    () => agentWith(bad).run("book", makeTestCtx({ llm: FakeLLM.auto() })),
    InvalidScript,
    'FakeLLM.auto cannot generate arguments for tool "book_room": its parameters schema, at #/properties/guests: no integer is >= 5 and <= 2',
  );
  const llm = FakeLLM.auto();
  await assertRejects(
    () =>
      llm.chat({
        model: "m",
        messages: [{ role: "user", content: "x" }],
        settings: { jsonSchema: { type: "string", minLength: 3, maxLength: 1 } },
      }),
    InvalidScript,
    "cannot answer with JSON for the output schema: at #: minLength 3 is above maxLength 1",
  );
});

Deno.test("FakeLLM.auto({ tools }) naming a tool the request does not offer is an error", async () => {
  const { dns } = tools();
  await assertRejects(
    () => agentWith(dns).run("x", makeTestCtx({ llm: FakeLLM.auto({ tools: ["dsn"] }) })),
    InvalidScript,
    'told to call tool "dsn", but the request offers "dns"',
  );
});

Deno.test("FakeLLM.auto() checks its options", () => {
  assertThrows(
    () => FakeLLM.auto({ answer: 1 as never }),
    TypeError,
    'option "answer" must be a string, got 1',
  );
  assertThrows(
    () => FakeLLM.auto({ tools: "dns" as never }),
    TypeError,
    "an array of non-empty string",
  );
  assertThrows(
    () => FakeLLM.auto({ anwser: "x" } as never),
    TypeError,
    'did you mean "answer"',
  );
});

// One chat request to a FakeLLM.auto(), as a loop would send it.
function ask(
  llm: FakeLLM,
  messages: Message[],
  tools: { name: string; description: string; parameters: JsonSchema }[] = [],
  jsonSchema?: JsonSchema,
) {
  return llm.chat({ model: "m", messages, tools, settings: jsonSchema ? { jsonSchema } : {} });
}

const spec = (name: string, parameters: JsonSchema = { type: "object" }) => ({
  name,
  description: "",
  parameters,
});

Deno.test("FakeLLM.auto() calls tools after a user turn even if the assistant spoke since", async () => {
  const llm = FakeLLM.auto();
  const response = await ask(llm, [
    { role: "user", content: "q" },
    { role: "assistant", content: "let me look" },
  ], [spec("a"), spec("b")]);
  assertEquals(response.toolCalls?.map((c) => [c.id, c.name, c.args]), [
    ["auto_1", "a", {}],
    ["auto_2", "b", {}],
  ]);
});

Deno.test("FakeLLM.auto() sums up results by tool name, failures and unnamed results too", async () => {
  const response = await ask(FakeLLM.auto(), [
    { role: "user", content: "q" },
    {
      role: "assistant",
      content: "",
      toolCalls: [toolCall("c1", "a", {}), toolCall("c2", "b", {})],
    },
    { role: "tool", content: '{"n":1}', toolCallId: "c1" },
    { role: "tool", content: "no such host", toolCallId: "c2", isError: true },
    { role: "tool", content: "orphan", toolCallId: "c9" },
    { role: "tool", content: "anonymous" },
  ], [spec("a")]);
  assertEquals(JSON.parse(response.content), {
    a: { n: 1 },
    b: { error: "no such host" },
    c9: "orphan",
    tool: "anonymous",
  });
});

Deno.test("FakeLLM.auto() gives a tool without parameters empty args", async () => {
  const response = await ask(FakeLLM.auto(), [{ role: "user", content: "q" }], [
    { name: "ping", description: "" } as never,
  ]);
  assertEquals(response.toolCalls?.map((c) => c.args), [{}]);
});

Deno.test("FakeLLM.auto() refuses a parameters schema that is not an object of arguments", async () => {
  for (
    const [schema, got] of [
      [{ type: "string" }, '"a"'],
      [{ type: "null" }, "null"],
      [{ type: "array" }, '["a"]'],
      [{ type: "integer" }, "0"],
    ] as const
  ) {
    await assertRejects(
      () => ask(FakeLLM.auto(), [{ role: "user", content: "q" }], [spec("t", schema)]),
      InvalidScript,
      `FakeLLM.auto cannot call tool "t": its parameters schema describes ${got}, not an object of arguments`,
    );
  }
});

Deno.test("FakeLLM.auto() keeps the schema's own error as the cause, and lets other errors through", async () => {
  const error = await assertRejects(
    () =>
      ask(FakeLLM.auto(), [{ role: "user", content: "q" }], [
        spec("t", {
          type: "object",
          properties: { n: { type: "integer", minimum: 2, maximum: 1 } },
          required: ["n"],
        }),
      ]),
    InvalidScript,
  );
  assert(error.cause instanceof Error, String(error.cause));
  assertEquals(error.cause.message.includes("at #/properties/n"), true, error.cause.message);
  // A schema that cannot even be read is not a schema problem to explain.
  const unreadable = {
    get type(): string {
      throw new RangeError("unreadable schema");
    },
  } as unknown as JsonSchema;
  await assertRejects(
    () => ask(FakeLLM.auto(), [{ role: "user", content: "q" }], [spec("t", unreadable)]),
    RangeError,
    "unreadable schema",
  );
});

Deno.test("FakeLLM.auto({ tools }) lists what the request offers when a tool is missing", async () => {
  await assertRejects(
    () =>
      ask(FakeLLM.auto({ tools: ["c"] }), [{ role: "user", content: "q" }], [spec("a"), spec("b")]),
    InvalidScript,
    'told to call tool "c", but the request offers "a", "b"; give the agent that tool',
  );
  await assertRejects(
    () => ask(FakeLLM.auto({ tools: ["c"] }), [{ role: "user", content: "q" }]),
    InvalidScript,
    'told to call tool "c", but the request offers no tools;',
  );
});
