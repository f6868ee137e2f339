// The Anthropic Messages wire (POST /v1/messages) as raw HTTP: the JSON and
// the SSE events a client reads, field by field, its error bodies and header
// checks, and the 400s it gets for a malformed request.
import { assert, assertEquals } from "@std/assert";
import {
  type LLMPort,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import { frames, json, post } from "./_wire_fetch.ts";
import { anthropicMessageId } from "../../../testing/http/_ids.ts";

const PATH = "/v1/messages";
const hi = [{ role: "user", content: "hi" }];
const base = { model: "claude-x", max_tokens: 100, messages: hi };

function provider(...turns: Array<Turn | string>): { llm: FakeLLM; provider: FakeProvider } {
  const llm = FakeLLM.script(turns, { strictTools: false });
  return { llm, provider: new FakeProvider({ llm }) };
}

// The parse beneath the strict wire: what it makes of a request the real API
// would refuse, and its own 400s. The strict rules' tests are in
// tests/testing/http/*_rules_test.ts.
function lenient(...turns: Array<Turn | string>): { llm: FakeLLM; provider: FakeProvider } {
  const llm = FakeLLM.script(turns, { strictTools: false });
  return { llm, provider: new FakeProvider({ llm, strict: false }) };
}

// The usage object as the API always sends it: cache counts 0 (never null),
// their breakdown, the tier and where it ran (@anthropic-ai/sdk Usage).
const usage = (input: number, output: number, cached = 0) => ({
  input_tokens: input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: cached,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: output,
  service_tier: "standard",
  inference_geo: "not_available",
});

// message_delta's cumulative counts.
const deltaUsage = (input: number, output: number, cached = 0) => ({
  input_tokens: input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: cached,
  output_tokens: output,
});

Deno.test("messages wire: a blocking answer is the whole message, text then tool_use blocks", async () => {
  const { provider: p } = provider({
    content: "Let me check.",
    toolCalls: [
      toolCall("toolu_1", "f", { a: 1 }),
      { id: "toolu_2", name: "g", args: {}, rawArgs: '{"b":2}' },
    ],
    usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 5 },
  });
  const { status, body } = await json(p, PATH, base);
  assertEquals(status, 200);
  assertEquals(body, {
    id: anthropicMessageId("fake-chat-1"),
    type: "message",
    role: "assistant",
    model: "claude-x",
    content: [
      { type: "text", text: "Let me check." },
      { type: "tool_use", id: "toolu_1", name: "f", input: { a: 1 }, caller: { type: "direct" } },
      { type: "tool_use", id: "toolu_2", name: "g", input: { b: 2 }, caller: { type: "direct" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    stop_details: null,
    container: null,
    usage: usage(3, 2, 5),
    diagnostics: null,
  });
  assert(/^msg_01[A-Za-z0-9]{22}$/.test(body.id as string), "msg_ + 24, as the API's");
});

Deno.test("messages wire: a text block only when there is text or nothing else; each stop reason mapped", async () => {
  const { provider: p } = provider(
    { toolCalls: [toolCall("toolu_1", "f", {})] },
    { content: "" },
    { content: "a", finishReason: "length" },
    { content: "b", finishReason: "content_filter" },
    { content: "c", finishReason: "error" },
    { content: "d", model: "claude-x-20250101" },
  );
  const answer = async () => (await json(p, PATH, base)).body;
  assertEquals((await answer()).content, [{
    type: "tool_use",
    id: "toolu_1",
    name: "f",
    input: {},
    caller: { type: "direct" },
  }]);
  const empty = await answer();
  assertEquals([empty.content, empty.stop_reason, empty.usage], [
    [{ type: "text", text: "" }],
    "end_turn",
    usage(10, 0),
  ]);
  const reasons = [];
  for (let i = 0; i < 3; i++) reasons.push((await answer()).stop_reason);
  assertEquals(reasons, ["max_tokens", "refusal", "end_turn"]);
  assertEquals((await answer()).model, "claude-x-20250101");
});

Deno.test("messages wire: a stream is the API's events: blocks opened, filled and closed in order", async () => {
  const { provider: p } = provider({
    chunks: ["Hel", "lo"],
    toolCalls: [toolCall("toolu_1", "f", { a: 1 }), toolCall("toolu_2", "g", {})],
    usage: { inputTokens: 4, outputTokens: 3 },
  });
  const events = await frames(p, PATH, { ...base, stream: true });
  const ev = (type: string, fields: Record<string, unknown> = {}) => ({
    event: type,
    data: { type, ...fields },
  });
  const tool = (index: number, id: string, name: string, json: string) => [
    ev("content_block_start", {
      index,
      content_block: { type: "tool_use", id, name, input: {}, caller: { type: "direct" } },
    }),
    ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: json } }),
    ev("content_block_stop", { index }),
  ];
  assertEquals(events, [
    ev("message_start", {
      message: {
        id: anthropicMessageId("fake-stream-1"),
        type: "message",
        role: "assistant",
        model: "claude-x",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        container: null,
        usage: usage(0, 0),
        diagnostics: null,
      },
    }),
    // The API pings after the first content_block_start.
    ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    ev("ping"),
    ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Hel" } }),
    ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "lo" } }),
    ev("content_block_stop", { index: 0 }),
    ...tool(1, "toolu_1", "f", '{"a":1}'),
    ...tool(2, "toolu_2", "g", "{}"),
    ev("message_delta", {
      delta: { stop_reason: "tool_use", stop_sequence: null, stop_details: null },
      usage: deltaUsage(4, 3),
    }),
    ev("message_stop"),
  ]);
});

Deno.test("messages wire: text after a tool call opens a new block; a plain end closes the text", async () => {
  const llm: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m1" };
      yield { type: "tool_call", messageId: "m1", call: toolCall("t1", "f") };
      yield { type: "text_delta", messageId: "m1", content: "after" };
      yield {
        type: "message_end",
        messageId: "m1",
        finishReason: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
  const events = await frames(new FakeProvider({ llm }), PATH, { ...base, stream: true });
  const blocks = events.map((e) => e.data as { type: string; index?: number })
    .filter((d) => d.type.startsWith("content_block"))
    .map((d) => `${d.type}:${d.index}`);
  assertEquals(blocks, [
    "content_block_start:0",
    "content_block_delta:0",
    "content_block_stop:0",
    "content_block_start:1",
    "content_block_delta:1",
    "content_block_stop:1",
  ]);
});

Deno.test("messages wire: a scripted error mid-stream closes the text, reports what it has, then the error", async () => {
  const { provider: p } = provider(
    {
      chunks: ["x"],
      error: "boom",
      finishReason: "length",
      usage: { inputTokens: 1, outputTokens: 1 },
    },
  );
  const events = await frames(p, PATH, { ...base, stream: true });
  assertEquals(events.slice(4), [
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: "max_tokens", stop_sequence: null, stop_details: null },
        usage: deltaUsage(1, 1),
      },
    },
    { event: "error", data: { type: "error", error: { type: "api_error", message: "boom" } } },
  ]);
  // An error event with neither a finish reason nor usage: no message_delta.
  const bare: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m1" };
      yield { type: "error", messageId: "m1", error: new Error("gone") };
    },
  };
  const plain = await frames(new FakeProvider({ llm: bare }), PATH, { ...base, stream: true });
  // No block opened: no ping (the API pings after the first content_block_start).
  assertEquals(plain.map((e) => e.event), ["message_start", "error"]);
  const cut: LLMPort = {
    ...bare,
    async *stream(): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m1" };
      yield { type: "error", messageId: "m1", error: new Error("gone"), finishReason: "length" };
    },
  };
  const cutDelta = (await frames(new FakeProvider({ llm: cut }), PATH, { ...base, stream: true }))
    .find((e) => e.event === "message_delta");
  assertEquals(cutDelta?.data, {
    type: "message_delta",
    delta: { stop_reason: "max_tokens", stop_sequence: null, stop_details: null },
    usage: deltaUsage(0, 0),
  });
  const billed: LLMPort = {
    ...bare,
    async *stream(): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m1" };
      yield {
        type: "error",
        messageId: "m1",
        error: new Error("gone"),
        usage: { inputTokens: 2, outputTokens: 0 },
      };
    },
  };
  const delta = (await frames(new FakeProvider({ llm: billed }), PATH, { ...base, stream: true }))
    .find((e) => e.event === "message_delta");
  assertEquals(delta?.data, {
    type: "message_delta",
    delta: { stop_reason: null, stop_sequence: null, stop_details: null },
    usage: deltaUsage(2, 0),
  });
});

Deno.test("messages wire: error bodies carry Anthropic's type for each status", async () => {
  const cases: Array<[number, string]> = [
    [400, "invalid_request_error"],
    [401, "authentication_error"],
    [403, "permission_error"],
    [404, "not_found_error"],
    [413, "request_too_large"],
    [418, "invalid_request_error"],
    [429, "rate_limit_error"],
    [500, "api_error"],
    [502, "api_error"],
    [504, "timeout_error"],
    [529, "overloaded_error"],
  ];
  for (const [status, type] of cases) {
    const error = status === 429
      ? new RateLimitError("nope")
      : new ProviderResponseError("nope", { status });
    const { provider: p } = provider({ error });
    const res = await post(p, PATH, base);
    // The body names the request, as the request-id header does.
    assertEquals([res.status, await res.json()], [status, {
      type: "error",
      error: { type, message: "nope" },
      request_id: res.headers.get("request-id"),
    }]);
    assert(res.headers.get("request-id")?.startsWith("req_"));
  }
});

Deno.test("messages wire: a key (x-api-key or a bearer token) and anthropic-version are required", async () => {
  const cases: Array<[Record<string, string>, number]> = [
    [{ "anthropic-version": "2023-06-01" }, 401],
    [{ "x-api-key": "k" }, 400],
    [{ authorization: "Bearer tok", "anthropic-version": "2023-06-01" }, 200],
    [{ authorization: "bearer  tok", "anthropic-version": "2023-06-01" }, 200],
    [{ authorization: "Bearer ", "anthropic-version": "2023-06-01" }, 401],
    [{ authorization: "xBearer tok", "anthropic-version": "2023-06-01" }, 401],
    [{ "x-api-key": "k", "anthropic-version": "2023-06-01" }, 200],
  ];
  for (const [headers, status] of cases) {
    const { provider: p } = provider("ok");
    const res = await post(p, PATH, base, { "content-type": "application/json", ...headers });
    const body = await res.json();
    assertEquals(res.status, status, JSON.stringify(headers));
    if (status === 401) assertEquals(body.error.type, "authentication_error");
    if (status === 400) assertEquals(body.error.type, "invalid_request_error");
    if (status !== 200) assert(body.error.message.length > 0);
  }
});

Deno.test("messages wire: blocks become our messages (tool results before the user's text)", async () => {
  const { llm, provider: p } = lenient("ok");
  await json(p, PATH, {
    ...base,
    system: [{ type: "text", text: "Be " }, { type: "text", text: "brief." }],
    messages: [
      { role: "user", content: [{ type: "text", text: "weather?" }, { type: "image" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "text", text: 7 },
          { type: "tool_use", id: "t1", name: "f", input: { city: "Paris" } },
          { type: "tool_use", id: "t2", name: "g", input: "not an object" },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "sunny" },
          {
            type: "tool_result",
            tool_use_id: "t2",
            content: [{ type: "text", text: "bad" }],
            is_error: true,
          },
          { type: "tool_result", tool_use_id: "t3", content: 7, is_error: "yes" },
          { type: "text", text: "and tomorrow?" },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t4" }] },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t5", name: "h" }, { type: "text", text: "" }],
      },
      { role: "user", content: [] },
      { role: "assistant", content: [{ type: "tool_result", tool_use_id: "x" }] },
      { role: "user", content: [{ type: "tool_use", id: "y", name: "z" }] },
    ],
  });
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "weather?" },
    {
      role: "assistant",
      content: "Checking.",
      toolCalls: [{ id: "t1", name: "f", args: { city: "Paris" } }, {
        id: "t2",
        name: "g",
        args: {},
      }],
    },
    { role: "tool", content: "sunny", toolCallId: "t1" },
    { role: "tool", content: "bad", toolCallId: "t2", isError: true },
    { role: "tool", content: "", toolCallId: "t3" },
    { role: "user", content: "and tomorrow?" },
    { role: "tool", content: "", toolCallId: "t4" },
    { role: "assistant", content: "", toolCalls: [{ id: "t5", name: "h", args: {} }] },
    { role: "user", content: "" },
    { role: "assistant", content: "" },
    { role: "user", content: "" },
  ]);
});

Deno.test("messages wire: tools, max_tokens, temperature and a JSON format become ours", async () => {
  const { llm, provider: p } = lenient("ok", "ok", "ok", "ok");
  const schema = { type: "object" };
  await json(p, PATH, {
    ...base,
    system: "",
    temperature: 0.3,
    tools: [
      { name: "web_search", type: "web_search_20250305" },
      { name: "bare", input_schema: schema },
      { name: "full", description: "d", input_schema: schema },
    ],
    output_config: { format: { type: "json_schema", schema } },
  });
  await json(p, PATH, {
    ...base,
    system: "Sys.",
    temperature: "warm",
    tools: null,
    output_format: { type: "json_schema", schema },
  });
  await json(p, PATH, {
    ...base,
    tools: [{ name: "web_search", type: "web_search_20250305" }],
    output_format: { type: "json_schema", schema: "no" },
  });
  await json(p, PATH, { ...base, output_config: { format: { type: "text", schema } } });
  const [first, second, third, fourth] = llm.requests;
  assertEquals(first.messages, hi);
  assertEquals(first.tools, [
    { name: "bare", description: "", parameters: schema },
    { name: "full", description: "d", parameters: schema },
  ]);
  const settings = (
    r: typeof first,
  ) => [r.settings?.maxTokens, r.settings?.temperature, r.settings?.jsonSchema];
  assertEquals(settings(first), [100, 0.3, schema]);
  assertEquals(second.messages[0], { role: "system", content: "Sys." });
  assertEquals([second.tools, settings(second)], [[], [100, undefined, schema]]);
  assertEquals([third.messages, third.tools, settings(third)], [hi, [], [
    100,
    undefined,
    undefined,
  ]]);
  assertEquals(settings(fourth), [100, undefined, undefined]);
});

Deno.test("messages wire: a malformed request is a 400 that says what is wrong", async (t) => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["no model", { model: undefined }],
    ["no max_tokens", { max_tokens: "100" }],
    ["no messages", { messages: undefined }],
    ["messages that are not a list", { messages: { 0: { role: "user", content: "x" } } }],
    ["a system of the wrong type", { system: 7 }],
    ["an unknown role", { messages: [{ role: "system", content: "x" }] }],
    ["a message that is not an object", { messages: ["hi"] }],
    ["content that is not a list", { messages: [{ role: "user", content: 7 }] }],
    ["a block that is not an object", { messages: [{ role: "user", content: ["x"] }] }],
    ["a block with no type", { messages: [{ role: "user", content: [{ text: "x" }] }] }],
    ["a tool_use with no id", {
      messages: [{ role: "assistant", content: [{ type: "tool_use", name: "f" }] }],
    }],
    ["a tool_use with no name", {
      messages: [{ role: "assistant", content: [{ type: "tool_use", id: "t" }] }],
    }],
    ["a tool_result with no id", {
      messages: [{ role: "user", content: [{ type: "tool_result", content: "x" }] }],
    }],
    ["tools that are not a list", { tools: {} }],
    ["a tool with no name", { tools: [{ input_schema: {} }] }],
    ["a tool that is not an object", { tools: ["f"] }],
  ];
  for (const [name, fields] of cases) {
    await t.step(name, async () => {
      const { llm, provider: p } = provider("never");
      const { status, body } = await json(p, PATH, { ...base, ...fields });
      const error = body.error as Record<string, unknown>;
      assertEquals([status, body.type, error.type, llm.calls], [
        400,
        "error",
        "invalid_request_error",
        0,
      ]);
      assert(typeof error.message === "string" && error.message.length > 0, "a message says why");
    });
  }
  await t.step("the message names the path into the body", async () => {
    const { provider: p } = provider("never");
    const { body } = await json(p, PATH, {
      ...base,
      messages: [...hi, { role: "user", content: 7 }],
    });
    assert(String((body.error as { message: string }).message).startsWith("messages.1.content"));
  });
});

Deno.test("messages wire: a tool_use block in a user message is skipped, however malformed", async () => {
  const { llm, provider: p } = lenient("ok");
  const { status } = await json(p, PATH, {
    ...base,
    messages: [{ role: "user", content: [{ type: "tool_use" }, { type: "text", text: "hi" }] }],
  });
  assertEquals([status, llm.requests[0].messages], [200, hi]);
});
