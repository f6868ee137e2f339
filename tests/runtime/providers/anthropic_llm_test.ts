import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import {
  type ChatRequest,
  type ErrorEvent,
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import {
  Agent,
  AnthropicLLM,
  ModelRequestsDisallowed,
  OpenAIChatLLM,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const hi: ChatRequest = {
  model: "claude-sonnet-4-5",
  messages: [{ role: "user", content: "hi" }],
};

function port(
  llm: FakeLLM,
): { provider: FakeProvider; anthropic: AnthropicLLM } {
  const provider = new FakeProvider({ llm });
  return {
    provider,
    anthropic: new AnthropicLLM({ apiKey: "sk-ant", fetch: provider.fetch }),
  };
}

async function drain(
  events: AsyncIterable<StreamEvent>,
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function lastError(events: StreamEvent[]): ErrorEvent {
  const end = events.at(-1);
  if (end?.type !== "error") {
    throw new Error(`expected an error event last, got ${end?.type}`);
  }
  return end;
}

Deno.test("AnthropicLLM.chat() sends the Messages request with the system prompt on top", async () => {
  const { provider, anthropic } = port(FakeLLM.script([{
    content: "Bonjour.",
    usage: { inputTokens: 20, outputTokens: 4, cachedInputTokens: 100 },
  }]));
  const res = await anthropic.chat({
    model: "claude-sonnet-4-5",
    messages: [{ role: "system", content: "French only." }, {
      role: "user",
      content: "hi",
    }],
    settings: { temperature: 0.2 },
  });
  assertEquals([res.content, res.finishReason], ["Bonjour.", "stop"]);
  assertEquals(res.usage, {
    inputTokens: 20,
    outputTokens: 4,
    cachedInputTokens: 100,
  });
  const r = provider.requests[0];
  assertEquals([
    r.path,
    r.api,
    r.headers["x-api-key"],
    r.headers["anthropic-version"],
  ], [
    "/v1/messages",
    "messages",
    "***",
    "2023-06-01",
  ]);
  assertEquals(r.body, {
    model: "claude-sonnet-4-5",
    max_tokens: 4096,
    messages: [{ role: "user", content: "hi" }],
    system: "French only.",
    temperature: 0.2,
  });
});

Deno.test("AnthropicLLM maps tools, tool_use and grouped tool_result blocks both ways", async () => {
  const llm = FakeLLM.script([
    {
      content: "Checking both.",
      toolCalls: [
        toolCall("toolu_1", "lookup", { host: "a" }),
        toolCall("toolu_2", "lookup", {
          host: "b",
        }),
      ],
    },
    { content: "Both up." },
  ]);
  const { provider, anthropic } = port(llm);
  const tool = new FakeTool({
    name: "lookup",
    description: "Looks a host up",
    parameters: { type: "object", properties: { host: { type: "string" } } },
    responder: (args: Record<string, unknown>) => `${args.host} up`,
  });
  const agent = new Agent("a", {
    model: "claude-sonnet-4-5",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  assertEquals(
    (await agent.run("check", makeTestCtx({ llm: anthropic }))).output,
    "Both up.",
  );
  const body = provider.requests[1].body as {
    messages: unknown[];
    tools: unknown[];
  };
  assertEquals(body.tools, [{
    name: "lookup",
    description: "Looks a host up",
    input_schema: { type: "object", properties: { host: { type: "string" } } },
  }]);
  assertEquals(body.messages.slice(1), [
    {
      role: "assistant",
      content: [
        { type: "text", text: "Checking both." },
        {
          type: "tool_use",
          id: "toolu_1",
          name: "lookup",
          input: { host: "a" },
        },
        {
          type: "tool_use",
          id: "toolu_2",
          name: "lookup",
          input: { host: "b" },
        },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "a up" },
        { type: "tool_result", tool_use_id: "toolu_2", content: "b up" },
      ],
    },
  ]);
  // The fake on the other side of the wire read them back as ours.
  const seen = llm.requests[1].messages;
  assertEquals(seen.filter((m) => m.role === "tool").map((m) => m.toolCallId), [
    "toolu_1",
    "toolu_2",
  ]);
});

Deno.test("AnthropicLLM.stream() assembles text and tool_use blocks, with the usage at the end", async () => {
  const { anthropic } = port(FakeLLM.script([{
    chunks: ["Let me ", "look."],
    toolCalls: [toolCall("toolu_9", "lookup", { host: "a", deep: { n: 1 } })],
    usage: { inputTokens: 50, outputTokens: 12, cachedInputTokens: 8 },
  }]));
  const events = await drain(anthropic.stream(hi));
  const id = events[0].messageId;
  assertEquals(events, [
    { type: "message_start", messageId: id },
    { type: "text_delta", messageId: id, content: "Let me " },
    { type: "text_delta", messageId: id, content: "look." },
    {
      type: "tool_call",
      messageId: id,
      call: {
        id: "toolu_9",
        name: "lookup",
        args: { host: "a", deep: { n: 1 } },
      },
    },
    {
      type: "message_end",
      messageId: id,
      finishReason: "tool_calls",
      usage: { inputTokens: 50, outputTokens: 12, cachedInputTokens: 8 },
    },
  ]);
});

Deno.test("AnthropicLLM sends settings.jsonSchema as output_config.format and maxTokens as max_tokens", async () => {
  const { provider, anthropic } = port(new FakeLLM("{}"));
  const schema = { type: "object", properties: {} };
  await anthropic.chat({
    ...hi,
    settings: { jsonSchema: schema, maxTokens: 99 },
  });
  const body = provider.requests[0].body as Record<string, unknown>;
  assertEquals([body.output_config, body.max_tokens], [
    { format: { type: "json_schema", schema } },
    99,
  ]);
  assertEquals(
    (provider.llm as FakeLLM).requests[0].settings?.jsonSchema,
    schema,
  );
});

Deno.test("AnthropicLLM maps stop reasons", async (t) => {
  for (
    const reason of ["stop", "length", "tool_calls", "content_filter"] as const
  ) {
    await t.step(reason, async () => {
      const turn = { content: "x", finishReason: reason };
      const { anthropic } = port(FakeLLM.script([turn, turn]));
      assertEquals((await anthropic.chat(hi)).finishReason, reason);
      const end = (await drain(anthropic.stream(hi))).at(-1);
      assertEquals(end?.type === "message_end" && end.finishReason, reason);
    });
  }
});

Deno.test("AnthropicLLM classifies failures", async (t) => {
  await t.step("429 with retry-after is a RateLimitError", async () => {
    const { anthropic } = port(FakeLLM.script([{
      error: new RateLimitError(
        "Number of requests has exceeded your rate limit",
        {
          retryAfterMs: 3000,
        },
      ),
    }]));
    const e = await assertRejects(() => anthropic.chat(hi), RateLimitError);
    assertEquals([e.retryAfterMs, e.status], [3000, 429]);
    assertStringIncludes(
      e.message,
      "Number of requests has exceeded your rate limit",
    );
  });
  await t.step("529 overloaded is retryable pre_stream", async () => {
    const { anthropic } = port(FakeLLM.script([{
      error: new ProviderError("Overloaded", { status: 529, retryable: true }),
    }]));
    const e = await assertRejects(
      () => drain(anthropic.stream(hi)),
      ProviderError,
    );
    assertEquals([e.status, e.retryable, e.phase], [529, true, "pre_stream"]);
  });
  await t.step(
    "400 is a ProviderResponseError with Anthropic's message",
    async () => {
      const { anthropic } = port(FakeLLM.script([{
        error: new ProviderResponseError("messages: roles must alternate", {
          status: 400,
        }),
      }]));
      const e = await assertRejects(
        () => anthropic.chat(hi),
        ProviderResponseError,
      );
      assertEquals([e.status, e.retryable], [400, false]);
      assertStringIncludes(e.message, "messages: roles must alternate");
    },
  );
  await t.step(
    "an error event mid-stream keeps the stop reason and usage",
    async () => {
      const usage = { inputTokens: 1000, outputTokens: 64 };
      const { anthropic } = port(FakeLLM.script([{
        chunks: ["partial"],
        finishReason: "length",
        error: "Overloaded",
        usage,
      }]));
      const end = lastError(await drain(anthropic.stream(hi)));
      // cache_read_input_tokens is 0, never null, on the API: the port reads 0.
      assertEquals([end.finishReason, end.usage], ["length", { ...usage, cachedInputTokens: 0 }]);
      assert(end.error.message.endsWith(": Overloaded"), end.error.message);
      assertEquals((end.error as ProviderError).phase, "mid_stream");
    },
  );
  await t.step("a cut after the first delta is mid_stream", async () => {
    const { anthropic } = port(
      FakeLLM.script([{ chunks: ["a", "b"], failAfterChunks: 1 }]),
    );
    const events = await drain(anthropic.stream(hi));
    assertEquals(events.map((e) => e.type), [
      "message_start",
      "text_delta",
      "error",
    ]);
    const error = lastError(events).error as ProviderError;
    assertInstanceOf(error, ProviderError);
    assertEquals([error.phase, error.retryable], ["mid_stream", false]);
  });
});

Deno.test("AnthropicLLM under makeTestCtx refuses a real request", async () => {
  const anthropic = new AnthropicLLM({
    apiKey: "sk-ant-live",
    fetch: () => Promise.reject(new Error("must not be called")),
  });
  const e = await assertRejects(
    () => anthropic.chat(hi, makeTestCtx()),
    ModelRequestsDisallowed,
  );
  assertEquals(e.port, "AnthropicLLM");
  await assertRejects(
    () => drain(anthropic.stream(hi, makeTestCtx())),
    ModelRequestsDisallowed,
  );
});

Deno.test("AnthropicLLM checks its options", () => {
  try {
    new AnthropicLLM({ maxTokens: 0 });
    throw new Error("expected a RangeError");
  } catch (e) {
    assertInstanceOf(e, RangeError);
  }
  try {
    new AnthropicLLM({ max_tokens: 5 } as never);
    throw new Error("expected a TypeError");
  } catch (e) {
    assertInstanceOf(e, TypeError);
    assertStringIncludes((e as Error).message, 'did you mean "maxTokens"?');
  }
});

Deno.test("complete() on both ports sends the system and user prompts and reads the same script", async () => {
  const llm = FakeLLM.script(["one", "two"]);
  const provider = new FakeProvider({ llm });
  const anthropic = new AnthropicLLM({ apiKey: "k", fetch: provider.fetch });
  const openai = new OpenAIChatLLM({ apiKey: "k", fetch: provider.fetch });
  const prompt = { system: "Be brief.", user: "hi", model: "m" };
  assertEquals((await anthropic.complete(prompt)).content, "one");
  assertEquals((await openai.complete(prompt)).content, "two");
  assertEquals(llm.requests.map((r) => r.messages), [
    [{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }],
    [{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }],
  ]);
  assertEquals(provider.requests.map((r) => r.api), [
    "messages",
    "chat.completions",
  ]);
});

Deno.test("AnthropicLLM through a tool loop sends the turn's signed thinking block back on the next request", async () => {
  const thinking = {
    type: "thinking",
    thinking: "Look it up.",
    signature: "EqQBCkgIARABGAIiQL...",
  };
  const answers = [
    {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [thinking, {
        type: "tool_use",
        id: "toolu_1",
        name: "lookup",
        input: { host: "a" },
      }],
      stop_reason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 5 },
    },
    {
      id: "msg_2",
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "a is up." }],
      stop_reason: "end_turn",
      usage: { input_tokens: 20, output_tokens: 3 },
    },
  ];
  const sent: Array<{ messages: Array<{ role: string; content: unknown }> }> = [];
  const anthropic = new AnthropicLLM({
    apiKey: "sk-ant",
    fetch: (_url, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return Promise.resolve(Response.json(answers[sent.length - 1]));
    },
  });
  const agent = new Agent("a", {
    model: "claude-sonnet-4-5",
    cognition: new ReActCognition({
      tools: [new FakeTool({ name: "lookup", responder: () => "up" })],
    }),
  });
  const result = await agent.run(
    "check a",
    makeTestCtx({ llm: anthropic, allowModelRequests: true }),
  );
  assertEquals(result.output, "a is up.");
  assertEquals(sent[1].messages[1], {
    role: "assistant",
    content: [thinking, { type: "tool_use", id: "toolu_1", name: "lookup", input: { host: "a" } }],
  });
});
