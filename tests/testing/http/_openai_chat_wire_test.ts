// The OpenAI Chat Completions wire (POST /v1/chat/completions) as raw HTTP:
// the JSON and the chunks a client reads, field by field, its error bodies,
// and the 400s it gets for a malformed request.
import { assert, assertEquals } from "@std/assert";
import {
  type LLMPort,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
  toolCall,
  type Usage,
} from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import { frames, json, post } from "./_wire_fetch.ts";
import { chatCompletionId, obfuscation, systemFingerprint } from "../../../testing/http/_ids.ts";

// The usage object as the API always sends it: both breakdowns, every count.
const usageOf = (prompt: number, completion: number, cached = 0, reasoning = 0) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: reasoning,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
});

const PATH = "/v1/chat/completions";
const hi = [{ role: "user", content: "hi" }];

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

const wireCall = (id: string, name: string, args: string) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

Deno.test("chat wire: a blocking answer is the whole chat.completion, usage with its cached part", async () => {
  const { provider: p } = provider({
    content: "Hi",
    toolCalls: [toolCall("call_1", "f", { a: 1 })],
    usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 1 },
  });
  const { status, body } = await json(p, PATH, { model: "gpt-4o", messages: hi });
  assertEquals(status, 200);
  assertEquals(body, {
    id: chatCompletionId("fake-chat-1"),
    object: "chat.completion",
    created: 0,
    model: "gpt-4o",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: "Hi",
        refusal: null,
        annotations: [],
        tool_calls: [wireCall("call_1", "f", '{"a":1}')],
      },
      logprobs: null,
      finish_reason: "tool_calls",
    }],
    usage: usageOf(4, 2, 1),
    service_tier: "default",
    system_fingerprint: systemFingerprint("gpt-4o"),
  });
  assert(/^chatcmpl-[A-Za-z0-9]{29}$/.test(body.id as string), "chatcmpl- + 29, as the API's");
  assert(/^fp_[0-9a-f]{10}$/.test(body.system_fingerprint as string));
});

Deno.test("chat wire: content is null only for a tool-call turn without text; no tool_calls key without calls", async () => {
  const { provider: p } = provider(
    { toolCalls: [toolCall("call_1", "f", {})] },
    { content: "" },
    { content: "x", usage: { inputTokens: 1, outputTokens: 1 } },
    { content: "y", model: "gpt-4o-2024-08-06" },
  );
  const body = { model: "gpt-4o", messages: hi };
  type Answer = { choices: Array<{ message: Record<string, unknown> }>; usage: unknown };
  const answer = async () => (await json(p, PATH, body)).body as unknown as Answer;
  const toolOnly = (await answer()).choices[0].message;
  assertEquals([toolOnly.content, toolOnly.tool_calls], [null, [wireCall("call_1", "f", "{}")]]);
  const empty = (await answer()).choices[0].message;
  assertEquals([empty.content, "tool_calls" in empty], ["", false]);
  // No cached tokens scripted: the breakdown still comes, with 0 (as the API's).
  assertEquals((await answer()).usage, usageOf(1, 1));
  assertEquals((await json(p, PATH, body)).body.model, "gpt-4o-2024-08-06");
});

Deno.test("chat wire: a finish reason of ours the wire lacks is stop", async () => {
  const { provider: p } = provider(
    { content: "x", finishReason: "error" },
    { content: "y", finishReason: "length" },
  );
  const reason = async () =>
    ((await json(p, PATH, { model: "gpt-4o", messages: hi })).body as {
      choices: Array<{ finish_reason: string }>;
    }).choices[0].finish_reason;
  assertEquals([await reason(), await reason()], ["stop", "length"]);
});

Deno.test("chat wire: a stream is the API's chunks, tool calls indexed, usage only when asked, then [DONE]", async () => {
  const { provider: p } = provider(
    {
      chunks: ["Hel", "lo"],
      toolCalls: [toolCall("call_1", "f", { a: 1 }), toolCall("call_2", "g", {})],
      usage: { inputTokens: 4, outputTokens: 3 },
    },
    { content: "x" },
    { content: "z" },
  );
  // With include_usage every chunk says "usage": null until the last; each
  // carries its obfuscation pad.
  let n = 0;
  const id = chatCompletionId("fake-stream-1");
  const envelope = (fields: Record<string, unknown>, usage: unknown = null) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created: 0,
      model: "gpt-4o",
      service_tier: "default",
      system_fingerprint: systemFingerprint("gpt-4o"),
      ...fields,
      usage,
      obfuscation: obfuscation(id, n++),
    },
  });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    envelope({ choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const events = await frames(p, PATH, {
    model: "gpt-4o",
    messages: hi,
    stream: true,
    stream_options: { include_usage: true },
  });
  assertEquals(events, [
    chunk({ role: "assistant", content: "", refusal: null }),
    chunk({ content: "Hel" }),
    chunk({ content: "lo" }),
    chunk({
      tool_calls: [{
        index: 0,
        id: "call_1",
        type: "function",
        function: { name: "f", arguments: "" },
      }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
    chunk({
      tool_calls: [{
        index: 1,
        id: "call_2",
        type: "function",
        function: { name: "g", arguments: "" },
      }],
    }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: "{}" } }] }),
    chunk({}, "tool_calls"),
    envelope({ choices: [] }, usageOf(4, 3)),
    { data: "[DONE]" },
  ]);
  const plain = await frames(p, PATH, {
    model: "gpt-4o",
    messages: hi,
    stream: true,
    stream_options: { include_usage: "yes" },
  });
  assertEquals(plain.length, 4, "no usage chunk unless include_usage is true");
  assertEquals(plain.at(-1), { data: "[DONE]" });
  assert(
    plain.slice(0, -1).every((f) => !("usage" in (f.data as object))),
    "no usage key at all without include_usage",
  );
  const quiet = await frames(p, PATH, {
    model: "gpt-4o",
    messages: hi,
    stream: true,
    stream_options: { include_obfuscation: false },
  });
  assert(quiet.slice(0, -1).every((f) => !("obfuscation" in (f.data as object))), "pads off");
});

Deno.test("chat wire: a scripted error mid-stream sends the finish and usage it has, then the error JSON", async () => {
  const usage: Usage = { inputTokens: 1, outputTokens: 1 };
  const { provider: p } = provider(
    { chunks: ["x"], error: "boom", finishReason: "length", usage },
    { chunks: ["y"], error: "bare" },
  );
  const body = {
    model: "gpt-4o",
    messages: hi,
    stream: true,
    stream_options: { include_usage: true },
  };
  const withFinish = await frames(p, PATH, body);
  assertEquals(
    withFinish.slice(2).map((f) => {
      const d = f.data as Record<string, unknown>;
      return d.error ?? d.usage ??
        (d.choices as Array<{ finish_reason: unknown }>)[0].finish_reason;
    }),
    [
      "length",
      usageOf(1, 1),
      { message: "boom", type: "server_error", param: null, code: null },
    ],
  );
  const bare = await frames(p, PATH, body);
  // No finish reason: no finish chunk; FakeLLM reports its default usage.
  const id = chatCompletionId("fake-stream-2");
  assertEquals(bare.slice(2).map((f) => f.data), [
    {
      id,
      object: "chat.completion.chunk",
      created: 0,
      model: "gpt-4o",
      service_tier: "default",
      system_fingerprint: systemFingerprint("gpt-4o"),
      choices: [],
      usage: usageOf(10, 0),
      obfuscation: obfuscation(id, 2),
    },
    { error: { message: "bare", type: "server_error", param: null, code: null } },
  ]);
});

Deno.test("chat wire: an error event that carries no usage sends no usage chunk", async () => {
  // A model port whose failure reports neither finish reason nor usage.
  const llm: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(): AsyncGenerator<StreamEvent> {
      yield { type: "message_start", messageId: "m1" };
      yield { type: "error", messageId: "m1", error: new Error("gone") };
    },
  };
  const events = await frames(new FakeProvider({ llm }), PATH, {
    model: "gpt-4o",
    messages: hi,
    stream: true,
    stream_options: { include_usage: true },
  });
  assertEquals(events.length, 2);
  assertEquals(events[1].data, {
    error: { message: "gone", type: "server_error", param: null, code: null },
  });
});

Deno.test("chat wire: tool_calls count only on an assistant message", async () => {
  const { llm, provider: p } = lenient("ok", "ok");
  await json(p, PATH, {
    model: "gpt-4o",
    messages: [{
      role: "user",
      content: "hi",
      tool_calls: [{ id: "c1", type: "function", function: { name: "f" } }],
    }],
  });
  assertEquals(llm.requests[0].messages, [{ role: "user", content: "hi" }]);
  // A json_schema format with no schema object sets nothing.
  await json(p, PATH, {
    model: "gpt-4o",
    messages: hi,
    response_format: { type: "json_schema", json_schema: { schema: "no" } },
  });
  assertEquals(llm.requests[1].settings, undefined);
});

Deno.test("chat wire: error bodies carry the type and code OpenAI gives each status", async (t) => {
  const error = async (p: FakeProvider, headers?: Record<string, string>) => {
    const res = headers
      ? await post(p, PATH, { model: "gpt-4o", messages: hi }, headers)
      : await post(p, PATH, { model: "gpt-4o", messages: hi });
    return { status: res.status, error: (await res.json()).error };
  };
  await t.step("429", async () => {
    const { provider: p } = provider({ error: new RateLimitError("slow down") });
    assertEquals(await error(p), {
      status: 429,
      error: { message: "slow down", type: "requests", param: null, code: "rate_limit_exceeded" },
    });
  });
  await t.step("500 and 503", async () => {
    for (const status of [500, 503]) {
      const { provider: p } = provider({ error: new ProviderResponseError("down", { status }) });
      assertEquals(await error(p), {
        status,
        error: { message: "down", type: "server_error", param: null, code: null },
      });
    }
  });
  await t.step("499 is a request error", async () => {
    const { provider: p } = provider({ error: new ProviderResponseError("gone", { status: 499 }) });
    assertEquals((await error(p)).error.type, "invalid_request_error");
  });
  await t.step("401 without a bearer key", async () => {
    for (
      const authorization of [
        undefined,
        "Bearer",
        "Bearer ",
        "Basic abc",
        "xBearer sk",
        "Bearer\tsk",
        "bearer  sk",
      ]
    ) {
      const { llm, provider: p } = provider("ok");
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (authorization !== undefined) headers.authorization = authorization;
      const answer = await error(p, headers);
      const ok = authorization === "Bearer\tsk" || authorization === "bearer  sk";
      assertEquals([answer.status, llm.calls], ok ? [200, 1] : [401, 0], authorization);
      if (!ok) {
        assertEquals(answer.error.type, "invalid_request_error");
        assert(answer.error.message.includes("API key"), answer.error.message);
      }
    }
  });
});

Deno.test("chat wire: messages of every role become ours, tool calls and results included", async () => {
  const { llm, provider: p } = lenient("ok");
  await json(p, PATH, {
    model: "gpt-4o",
    messages: [
      { role: "developer", content: "Dev." },
      { role: "system", content: [{ type: "text", text: "Sys." }] },
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "f", arguments: '{"x":1}' } },
          { id: "c2", type: "function", function: { name: "g" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "sunny" },
      { role: "assistant", content: "Sunny.", tool_calls: [] },
    ],
  });
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Dev." },
    { role: "system", content: "Sys." },
    { role: "user", content: "weather?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "f", args: { x: 1 } }, { id: "c2", name: "g", args: {} }],
    },
    { role: "tool", content: "sunny", toolCallId: "c1" },
    { role: "assistant", content: "Sunny." },
  ]);
});

Deno.test("chat wire: tools and settings become ours; ones of the wrong type are left out", async () => {
  const { llm, provider: p } = lenient("ok", "ok", "ok", "ok");
  await json(p, PATH, {
    model: "gpt-4o",
    messages: hi,
    tools: [
      { type: "function", function: { name: "bare" } },
      {
        type: "function",
        function: { name: "full", description: "d", parameters: { type: "object" } },
      },
    ],
    max_completion_tokens: 100,
    max_tokens: 5,
    temperature: 0.2,
    response_format: {
      type: "json_schema",
      json_schema: { name: "S", schema: { type: "object" } },
    },
  });
  await json(p, PATH, {
    model: "gpt-4o",
    messages: hi,
    tools: null,
    max_tokens: 7,
    temperature: "warm",
    response_format: { type: "json_schema", json_schema: { name: 7, schema: "no" } },
  });
  await json(p, PATH, {
    model: "gpt-4o",
    messages: hi,
    max_tokens: "7",
    response_format: { type: "json_object", json_schema: { schema: { type: "object" } } },
  });
  await json(p, PATH, { model: "gpt-4o", messages: hi, response_format: { type: "json_schema" } });
  const [first, second, third, fourth] = llm.requests;
  assertEquals(first.tools, [
    { name: "bare", description: "", parameters: { type: "object", properties: {} } },
    { name: "full", description: "d", parameters: { type: "object" } },
  ]);
  assertEquals(first.settings, {
    jsonSchema: { type: "object" },
    jsonSchemaName: "S",
    maxTokens: 100,
    temperature: 0.2,
  });
  assertEquals([second.tools, second.settings?.maxTokens], [[], 7]);
  assertEquals([second.settings?.temperature, second.settings?.jsonSchema], [undefined, undefined]);
  assertEquals(second.settings?.jsonSchemaName, undefined);
  assertEquals([third.settings, fourth.settings], [undefined, undefined]);
});

Deno.test("chat wire: a malformed request is a 400 naming the parameter and the kind of problem", async (t) => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ["no messages", {}, "messages", "missing_required_parameter"],
    ["messages of the wrong type", { messages: "hi" }, "messages", "invalid_type"],
    ["a message that is not an object", { messages: ["hi"] }, "messages[0]", "invalid_type"],
    [
      "an unknown role",
      { messages: [...hi, { role: "robot", content: "b" }] },
      "messages[1].role",
      "invalid_value",
    ],
    [
      "content of the wrong type",
      { messages: [{ role: "user", content: 7 }] },
      "messages[0].content",
      "invalid_type",
    ],
    [
      "a tool result with no call id",
      {
        messages: [{ role: "tool", content: "x" }],
      },
      "messages[0].tool_call_id",
      "missing_required_parameter",
    ],
    [
      "a tool call that is not an object",
      {
        messages: [{ role: "assistant", content: null, tool_calls: ["c1"] }],
      },
      "messages[0].tool_calls",
      "invalid_value",
    ],
    [
      "a tool call with no id",
      {
        messages: [{ role: "assistant", tool_calls: [{ function: { name: "f" } }] }],
      },
      "messages[0].tool_calls",
      "invalid_value",
    ],
    [
      "a tool call with no function",
      {
        messages: [{ role: "assistant", tool_calls: [{ id: "c1" }] }],
      },
      "messages[0].tool_calls",
      "invalid_value",
    ],
    [
      "a tool call with no name",
      {
        messages: [{ role: "assistant", tool_calls: [{ id: "c1", function: {} }] }],
      },
      "messages[0].tool_calls",
      "invalid_value",
    ],
    ["tools of the wrong type", { messages: hi, tools: {} }, "tools", "invalid_value"],
    [
      "a tool with no function",
      { messages: hi, tools: ["f"] },
      "tools[0].function.name",
      "missing_required_parameter",
    ],
    [
      "a tool with no name",
      {
        messages: hi,
        tools: [{ type: "function", function: {} }],
      },
      "tools[0].function.name",
      "missing_required_parameter",
    ],
  ];
  for (const [name, body, param, code] of cases) {
    await t.step(name, async () => {
      const { llm, provider: p } = lenient("never");
      const { status, body: answer } = await json(p, PATH, { model: "gpt-4o", ...body });
      const error = answer.error as Record<string, unknown>;
      assertEquals([status, error.param, llm.calls], [400, param, 0]);
      if (param !== "tools") assertEquals(error.code, code);
      assert(typeof error.message === "string" && error.message.length > 0, "a message says why");
    });
  }
});
