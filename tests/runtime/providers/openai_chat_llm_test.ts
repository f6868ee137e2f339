import { assertEquals, assertInstanceOf, assertRejects, assertStringIncludes } from "@std/assert";
import {
  type ChatRequest,
  type ErrorEvent,
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import {
  Agent,
  ModelRequestsDisallowed,
  OpenAIChatLLM,
  ReActCognition,
  retry,
  RunContext,
  Services,
} from "@agentkit/testing/runtime";
import { FakeClock, FakeLLM, FakeProvider, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const hi: ChatRequest = {
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: "hi" }],
};

function port(llm: FakeLLM): { provider: FakeProvider; openai: OpenAIChatLLM } {
  const provider = new FakeProvider({ llm });
  return {
    provider,
    openai: new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch }),
  };
}

async function drain(
  events: AsyncIterable<StreamEvent>,
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function answering(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const seen: Request[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return Promise.resolve(Response.json(body, { status, headers }));
  };
  return { fetch, seen };
}

Deno.test("OpenAIChatLLM.chat() sends the Chat Completions request and reads the answer", async () => {
  const { provider, openai } = port(
    FakeLLM.script([{
      content: "Hello.",
      usage: { inputTokens: 12, outputTokens: 3, cachedInputTokens: 8 },
    }]),
  );
  const res = await openai.chat({
    model: "gpt-4o-mini",
    messages: [{ role: "system", content: "Be brief." }, {
      role: "user",
      content: "hi",
    }],
    settings: { maxTokens: 64, temperature: 0 },
  });
  assertEquals(res.content, "Hello.");
  assertEquals(res.finishReason, "stop");
  assertEquals(res.usage, {
    inputTokens: 12,
    outputTokens: 3,
    cachedInputTokens: 8,
  });
  const r = provider.requests[0];
  assertEquals([r.method, r.path, r.api, r.stream], [
    "POST",
    "/v1/chat/completions",
    "chat.completions",
    false,
  ]);
  assertEquals(r.headers.authorization, "Bearer ***");
  assertEquals(r.body, {
    model: "gpt-4o-mini",
    messages: [{ role: "system", content: "Be brief." }, {
      role: "user",
      content: "hi",
    }],
    max_completion_tokens: 64,
    temperature: 0,
  });
});

Deno.test("OpenAIChatLLM maps tool specs, tool calls and tool results both ways", async () => {
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("call_1", "lookup", { host: "db1" })] },
    { content: "db1 is up." },
  ]);
  const { openai } = port(llm);
  const tool = new FakeTool({
    name: "lookup",
    description: "Looks a host up",
    parameters: { type: "object", properties: { host: { type: "string" } } },
    responder: "up",
  });
  const agent = new Agent("a", {
    model: "gpt-4o-mini",
    system: "You check hosts.",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("is db1 up?", makeTestCtx({ llm: openai }));
  assertEquals(result.output, "db1 is up.");
  assertEquals(tool.calls, [{ host: "db1" }]);
  const second = llm.requests[1];
  assertEquals(second.tools.map((t) => t.name), ["lookup"]);
  assertEquals(second.tools[0].parameters, {
    type: "object",
    properties: { host: { type: "string" } },
  });
  const assistant = second.messages.find((m) => m.role === "assistant");
  assertEquals(assistant?.toolCalls, [{
    id: "call_1",
    name: "lookup",
    args: { host: "db1" },
  }]);
  const toolMessage = second.messages.find((m) => m.role === "tool");
  assertEquals([toolMessage?.toolCallId, toolMessage?.content], [
    "call_1",
    "up",
  ]);
  assertEquals(second.messages[0], {
    role: "system",
    content: "You check hosts.",
  });
});

Deno.test("OpenAIChatLLM.stream() yields deltas, tool calls and the usage at the end", async () => {
  const { provider, openai } = port(FakeLLM.script([{
    chunks: ["Che", "cking"],
    toolCalls: [toolCall("call_9", "lookup", { host: "a" })],
    usage: { inputTokens: 5, outputTokens: 7 },
  }]));
  const events = await drain(openai.stream(hi));
  const id = events[0].messageId;
  assertEquals(events, [
    { type: "message_start", messageId: id },
    { type: "text_delta", messageId: id, content: "Che" },
    { type: "text_delta", messageId: id, content: "cking" },
    {
      type: "tool_call",
      messageId: id,
      call: { id: "call_9", name: "lookup", args: { host: "a" } },
    },
    {
      type: "message_end",
      messageId: id,
      finishReason: "tool_calls",
      // The API always reports prompt_tokens_details.cached_tokens (0 here).
      usage: { inputTokens: 5, outputTokens: 7, cachedInputTokens: 0 },
    },
  ]);
  const body = provider.requests[0].body as Record<string, unknown>;
  assertEquals([body.stream, body.stream_options], [true, {
    include_usage: true,
  }]);
});

Deno.test("OpenAIChatLLM sends settings.jsonSchema as the JSON-schema response format", async () => {
  const { provider, openai } = port(new FakeLLM('{"ok":true}'));
  const schema = {
    type: "object",
    properties: { ok: { type: "boolean" } },
    required: ["ok"],
  };
  await openai.chat({
    ...hi,
    settings: { jsonSchema: schema, jsonSchemaName: "verdict" },
  });
  assertEquals(
    (provider.requests[0].body as Record<string, unknown>).response_format,
    {
      type: "json_schema",
      json_schema: { name: "verdict", schema },
    },
  );
});

Deno.test("OpenAIChatLLM maps finish reasons", async (t) => {
  for (
    const reason of ["stop", "length", "tool_calls", "content_filter"] as const
  ) {
    await t.step(reason, async () => {
      const { openai } = port(
        FakeLLM.script([{ content: "x", finishReason: reason }, {
          content: "x",
          finishReason: reason,
        }]),
      );
      assertEquals((await openai.chat(hi)).finishReason, reason);
      const events = await drain(openai.stream(hi));
      assertEquals(events.at(-1)?.type === "message_end" && events.at(-1), {
        type: "message_end",
        messageId: events[0].messageId,
        finishReason: reason,
        usage: { inputTokens: 10, outputTokens: 0, cachedInputTokens: 0 },
      });
    });
  }
});

Deno.test("OpenAIChatLLM classifies HTTP failures", async (t) => {
  const cases: Array<
    [number, Record<string, string>, (e: ProviderError) => void]
  > = [
    [429, { "retry-after-ms": "1500" }, (e) => {
      assertInstanceOf(e, RateLimitError);
      assertEquals([
        (e as RateLimitError).retryAfterMs,
        e.retryable,
        e.phase,
        e.status,
      ], [
        1500,
        true,
        "pre_stream",
        429,
      ]);
    }],
    [
      429,
      { "retry-after": "2" },
      (e) => assertEquals((e as RateLimitError).retryAfterMs, 2000),
    ],
    [408, {}, (e) => {
      assertInstanceOf(e, ProviderTimeoutError);
      assertEquals([e.retryable, e.phase], [true, "pre_stream"]);
    }],
    [
      409,
      {},
      (e) =>
        assertEquals([e.retryable, e.phase, e.status], [
          true,
          "pre_stream",
          409,
        ]),
    ],
    [
      503,
      {},
      (e) =>
        assertEquals([e.retryable, e.phase, e.status], [
          true,
          "pre_stream",
          503,
        ]),
    ],
    [400, {}, (e) => {
      assertInstanceOf(e, ProviderResponseError);
      assertEquals([e.retryable, e.status], [false, 400]);
      assertStringIncludes(e.message, "the provider says no");
    }],
    [404, {}, (e) => {
      assertInstanceOf(e, ProviderResponseError);
      assertEquals([e.retryable, e.status], [false, 404]);
    }],
  ];
  for (const [status, headers, check] of cases) {
    await t.step(`${status} ${JSON.stringify(headers)}`, async () => {
      const { fetch } = answering(status, {
        error: {
          message: "the provider says no",
          type: "x",
          param: null,
          code: null,
        },
      }, headers);
      const openai = new OpenAIChatLLM({ apiKey: "k", fetch });
      check(await assertRejects(() => openai.chat(hi), ProviderError));
      // A stream fails the same way, before any event.
      check(await assertRejects(() => drain(openai.stream(hi)), ProviderError));
    });
  }
});

Deno.test("OpenAIChatLLM: a network failure before the first byte is retryable pre_stream", async () => {
  const openai = new OpenAIChatLLM({
    apiKey: "k",
    fetch: () => Promise.reject(new TypeError("connection refused")),
  });
  const e = await assertRejects(() => openai.chat(hi), ProviderError);
  assertEquals([e.retryable, e.phase], [true, "pre_stream"]);
  assertStringIncludes(e.message, "connection refused");
});

Deno.test("OpenAIChatLLM: a cut after the first delta is a mid_stream error event", async () => {
  const { openai } = port(
    FakeLLM.script([{ chunks: ["a", "b", "c"], failAfterChunks: 2 }]),
  );
  const events = await drain(openai.stream(hi));
  assertEquals(events.map((e) => e.type), [
    "message_start",
    "text_delta",
    "text_delta",
    "error",
  ]);
  const end = lastError(events);
  assertInstanceOf(end.error, ProviderError);
  assertEquals([
    (end.error as ProviderError).phase,
    (end.error as ProviderError).retryable,
  ], [
    "mid_stream",
    false,
  ]);
});

Deno.test("OpenAIChatLLM: an error the provider reports mid-stream keeps the finish reason and usage", async () => {
  const usage = { inputTokens: 198_000, outputTokens: 590 };
  const { openai } = port(FakeLLM.script([{
    chunks: ["I will start by "],
    finishReason: "length",
    error: "Hit max tokens",
    usage,
  }]));
  const events = await drain(openai.stream(hi));
  const end = lastError(events);
  // The cached count the API always reports (0) comes back too.
  const read = { ...usage, cachedInputTokens: 0 };
  assertEquals([end.finishReason, end.usage], ["length", read]);
  assertStringIncludes(end.error.message, ": Hit max tokens");
  assertEquals((end.error as ProviderError).usage, read);
});

Deno.test("OpenAIChatLLM: ctx.signal aborts a stalled stream", async () => {
  const llm = FakeLLM.script([{ chunks: ["thinking"], stall: true }]);
  const { openai } = port(llm);
  const controller = new AbortController();
  const ctx = new RunContext({
    services: new Services(),
    signal: controller.signal,
  });
  const seen: StreamEvent[] = [];
  const reason = new Error("user cancelled");
  const error = await assertRejects(async () => {
    for await (const e of openai.stream(hi, ctx)) {
      seen.push(e);
      if (e.type === "text_delta") controller.abort(reason);
    }
  });
  assertEquals(error, reason);
  assertEquals(seen.map((e) => e.type), ["message_start", "text_delta"]);
  assertEquals(llm.cancelled.length, 1);
});

Deno.test("OpenAIChatLLM: a 429 with retry-after-ms makes retry() wait at least that long", async () => {
  const llm = FakeLLM.script([
    { error: new RateLimitError("slow down", { retryAfterMs: 5_000 }) },
    { content: "ok" },
  ]);
  const { openai } = port(llm);
  const clock = new FakeClock();
  const ctx = makeTestCtx({
    llm: openai,
    clock,
    chatMiddleware: [retry({ maxAttempts: 2 })],
  });
  const result = await new Agent("a", { model: "gpt-4o-mini" }).run("go", ctx);
  assertEquals(result.output, "ok");
  assertEquals(clock.sleeps, [5_000]);
});

Deno.test("OpenAIChatLLM under makeTestCtx refuses a real request with ModelRequestsDisallowed", async () => {
  const calls: unknown[] = [];
  const openai = new OpenAIChatLLM({
    apiKey: "sk-live",
    fetch: (input) => {
      calls.push(input);
      return Promise.resolve(Response.json({ choices: [{ message: { content: "live" } }] }));
    },
  });
  const ctx = makeTestCtx({ llm: openai });
  const error = await assertRejects(
    () => new Agent("a", { model: "gpt-4o-mini" }).run("go", ctx),
    ModelRequestsDisallowed,
  );
  assertStringIncludes(
    error.message,
    "makeTestCtx({ allowModelRequests: true })",
  );
  assertStringIncludes(error.message, "AGENTKIT_ALLOW_MODEL_REQUESTS=1");
  assertEquals(calls, []);
  // The opt-in lets it through; a production context never refuses.
  const allowed = makeTestCtx({ llm: openai, allowModelRequests: true });
  await new Agent("a", { model: "m" }).run("go", allowed);
  await openai.chat(hi, new RunContext()).catch(() => {});
  assertEquals(calls.length, 2);
});

Deno.test("OpenAIChatLLM: AGENTKIT_ALLOW_MODEL_REQUESTS=1 opts a test context in", async () => {
  const openai = new OpenAIChatLLM({
    apiKey: "k",
    fetch: () =>
      Promise.resolve(
        Response.json({ choices: [{ message: { content: "live" } }] }),
      ),
  });
  Deno.env.set("AGENTKIT_ALLOW_MODEL_REQUESTS", "1");
  try {
    assertEquals((await openai.chat(hi, makeTestCtx())).content, "live");
  } finally {
    Deno.env.delete("AGENTKIT_ALLOW_MODEL_REQUESTS");
  }
  await assertRejects(
    () => openai.chat(hi, makeTestCtx()),
    ModelRequestsDisallowed,
  );
});

Deno.test("OpenAIChatLLM checks its options where they are given", () => {
  const bad = (o: unknown) => () => new OpenAIChatLLM(o as never);
  assertThrowsMsg(
    bad({ apiKye: "k" }),
    'unknown option "apiKye"; did you mean "apiKey"?',
  );
  assertThrowsMsg(
    bad({ baseURL: "localhost:11434" }),
    `option "baseURL" must be an absolute http(s) URL`,
  );
  assertThrowsMsg(bad({ fetch: "no" }), `option "fetch" must be a function`);
});

function lastError(events: StreamEvent[]): ErrorEvent {
  const end = events.at(-1);
  if (end?.type !== "error") {
    throw new Error(`expected an error event last, got ${end?.type}`);
  }
  return end;
}

function assertThrowsMsg(fn: () => unknown, text: string): void {
  try {
    fn();
  } catch (e) {
    assertInstanceOf(e, TypeError);
    assertStringIncludes((e as TypeError).message, text);
    return;
  }
  throw new Error(`expected a TypeError with "${text}"`);
}
