// The OpenAI Responses wire (POST /v1/responses) as raw HTTP: the JSON and the
// SSE events a client reads, field by field, and the 400s it gets for a
// malformed request.
import { assert, assertEquals } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import { frames, json } from "./_wire_fetch.ts";
import { obfuscation, responsesId } from "../../../testing/http/_ids.ts";

const PATH = "/v1/responses";

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

// The response object as the API returns it, with `fields` over the
// defaults (openai-openapi's Response example, and recorded traffic).
function response(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: responsesId("resp_", id),
    access_programs: null,
    object: "response",
    created_at: 0,
    status: "in_progress",
    background: false,
    billing: { payer: "developer" },
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: "gpt-4.1",
    output: [],
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    prompt_cache_retention: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: "default",
    store: true,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: [],
    top_logprobs: 0,
    top_p: 1,
    truncation: "disabled",
    usage: null,
    user: null,
    metadata: {},
    ...fields,
  };
}

const message = (id: string, text: string) => ({
  id: responsesId("msg_", id),
  type: "message",
  status: "completed",
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [], logprobs: [] }],
});

const call = (id: string, name: string, args: string, resp = "fake-chat-1") => ({
  id: responsesId("fc_", `${resp}:${id}`),
  type: "function_call",
  status: "completed",
  call_id: id,
  name,
  arguments: args,
});

const usage = (input: number, cached: number, output: number) => ({
  input_tokens: input + cached,
  input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: input + cached + output,
});

Deno.test("responses wire: a blocking answer is the whole response object, settings and tools echoed", async () => {
  const { llm, provider: p } = provider({
    content: "Hi",
    usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 1 },
  });
  const tool = { type: "function", name: "f", description: "d", parameters: { type: "object" } };
  const { status, body } = await json(p, PATH, {
    model: "gpt-4.1",
    input: "hi",
    max_output_tokens: 50,
    temperature: 0.5,
    tools: [tool],
    text: { format: { type: "json_schema", name: "S", schema: { type: "object" } } },
  });
  assertEquals(status, 200);
  assertEquals(
    body,
    response("fake-chat-1", {
      status: "completed",
      completed_at: 0,
      max_output_tokens: 50,
      temperature: 0.5,
      text: {
        format: { type: "json_schema", name: "S", schema: { type: "object" } },
        verbosity: "medium",
      },
      tools: [{ ...tool, strict: false }],
      output: [message("fake-chat-1", "Hi")],
      usage: usage(3, 1, 2),
    }),
  );
  assertEquals(llm.requests[0].settings, {
    jsonSchema: { type: "object" },
    jsonSchemaName: "S",
    maxTokens: 50,
    temperature: 0.5,
  });
});

Deno.test("responses wire: the output holds a message when there is text or nothing else, then the calls", async () => {
  const { provider: p } = provider(
    { toolCalls: [toolCall("call_1", "f", { a: 1 })] },
    { content: "Look:", toolCalls: [toolCall("call_2", "f", {})] },
    { content: "" },
  );
  const body = { model: "gpt-4.1", input: "go" };
  assertEquals((await json(p, PATH, body)).body.output, [call("call_1", "f", '{"a":1}')]);
  assertEquals((await json(p, PATH, body)).body.output, [
    message("fake-chat-2", "Look:"),
    call("call_2", "f", "{}", "fake-chat-2"),
  ]);
  assertEquals((await json(p, PATH, body)).body.output, [message("fake-chat-3", "")]);
});

Deno.test("responses wire: a length or content-filter stop is an incomplete response with its reason", async () => {
  const { provider: p } = provider(
    { content: "cut", finishReason: "length" },
    { content: "no", finishReason: "content_filter" },
  );
  const body = { model: "gpt-4.1", input: "go" };
  for (const reason of ["max_output_tokens", "content_filter"]) {
    const answer = (await json(p, PATH, body)).body;
    assertEquals([answer.status, answer.incomplete_details], ["incomplete", { reason }]);
  }
  const { provider: streamed } = provider({ content: "no", finishReason: "content_filter" });
  const last = (await frames(streamed, PATH, { ...body, stream: true })).at(-1)!;
  assertEquals(last.event, "response.incomplete");
  const data = last.data as { response: Record<string, unknown> };
  assertEquals(
    [data.response.status, data.response.incomplete_details],
    ["incomplete", { reason: "content_filter" }],
  );
});

Deno.test("responses wire: a stream is every event of the API, in order, numbered", async () => {
  const { provider: p } = provider({
    chunks: ["Hel", "lo"],
    toolCalls: [toolCall("call_1", "f", { a: 1 })],
    usage: { inputTokens: 4, outputTokens: 3 },
  });
  const events = await frames(p, PATH, { model: "gpt-4.1", input: "hi", stream: true });
  const id = "fake-stream-1";
  const at = { item_id: responsesId("msg_", id), output_index: 0, content_index: 0 };
  const fc = { item_id: responsesId("fc_", `${id}:call_1`), output_index: 1 };
  let pads = 0;
  const pad = () => ({ obfuscation: obfuscation(id, pads++) });
  const expected: Array<[string, Record<string, unknown>]> = [
    ["response.created", { response: response(id) }],
    ["response.in_progress", { response: response(id) }],
    ["response.output_item.added", {
      output_index: 0,
      item: {
        id: responsesId("msg_", id),
        type: "message",
        status: "in_progress",
        role: "assistant",
        content: [],
      },
    }],
    ["response.content_part.added", {
      ...at,
      part: { type: "output_text", annotations: [], logprobs: [], text: "" },
    }],
    ["response.output_text.delta", { ...at, delta: "Hel", logprobs: [], ...pad() }],
    ["response.output_text.delta", { ...at, delta: "lo", logprobs: [], ...pad() }],
    ["response.output_text.done", { ...at, text: "Hello", logprobs: [] }],
    ["response.content_part.done", {
      ...at,
      part: { type: "output_text", annotations: [], logprobs: [], text: "Hello" },
    }],
    ["response.output_item.done", { output_index: 0, item: message(id, "Hello") }],
    ["response.output_item.added", {
      output_index: 1,
      item: { ...call("call_1", "f", "", id), status: "in_progress" },
    }],
    ["response.function_call_arguments.delta", { ...fc, delta: '{"a":1}', ...pad() }],
    ["response.function_call_arguments.done", { ...fc, arguments: '{"a":1}' }],
    ["response.output_item.done", { output_index: 1, item: call("call_1", "f", '{"a":1}', id) }],
    ["response.completed", {
      response: response(id, {
        status: "completed",
        completed_at: 0,
        output: [message(id, "Hello"), call("call_1", "f", '{"a":1}', id)],
        usage: usage(4, 0, 3),
      }),
    }],
  ];
  assertEquals(
    events,
    expected.map(([type, fields], i) => ({
      event: type,
      data: { type, sequence_number: i, ...fields },
    })),
  );
});

Deno.test("responses wire: a scripted error mid-stream closes the text, then is an error event", async () => {
  const { provider: p } = provider({ chunks: ["par"], error: "boom" });
  const events = await frames(p, PATH, { model: "gpt-4.1", input: "hi", stream: true });
  assertEquals(events.map((e) => e.event), [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
    "error",
  ]);
  assertEquals(events.at(-1)!.data, {
    type: "error",
    sequence_number: 8,
    code: "server_error",
    message: "boom",
    param: null,
  });
});

Deno.test("responses wire: input items become our messages", async () => {
  const { llm, provider: p } = lenient("ok");
  await json(p, PATH, {
    model: "gpt-4.1",
    instructions: "Be brief.",
    input: [
      { role: "developer", content: "Dev rules." },
      {
        role: "user",
        content: [{ type: "input_text", text: "a" }, { type: "input_text", text: "b" }],
      },
      { type: "message", role: "assistant", content: "Let me look." },
      { type: "function_call", call_id: "c1", name: "f", arguments: '{"x":1}' },
      { type: "function_call", call_id: "c2", name: "g" },
      { type: "reasoning", summary: [] },
      { type: "function_call_output", call_id: "c1", output: "one" },
      { type: "function_call_output", call_id: "c2", output: 7 },
      { type: "function_call", call_id: "c3", name: "h", arguments: "{}" },
    ],
  });
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Be brief." },
    { role: "system", content: "Dev rules." },
    { role: "user", content: "ab" },
    {
      role: "assistant",
      content: "Let me look.",
      toolCalls: [{ id: "c1", name: "f", args: { x: 1 } }, { id: "c2", name: "g", args: {} }],
    },
    { role: "tool", content: "one", toolCallId: "c1" },
    { role: "tool", content: "", toolCallId: "c2" },
    { role: "assistant", content: "", toolCalls: [{ id: "c3", name: "h", args: {} }] },
  ]);
});

Deno.test("responses wire: empty instructions send no system message; settings of the wrong type are ignored", async () => {
  const { llm, provider: p } = lenient("ok", "ok");
  await json(p, PATH, {
    model: "gpt-4.1",
    instructions: "",
    input: "hi",
    max_output_tokens: "50",
    temperature: "hot",
    text: { format: { type: "json_schema", schema: "not an object" } },
  });
  await json(p, PATH, {
    model: "gpt-4.1",
    instructions: 7,
    input: "hi",
    text: { format: { type: "json_schema", name: 7, schema: { type: "object" } } },
  });
  const [first, second] = llm.requests;
  assertEquals([first.messages, first.settings], [[{ role: "user", content: "hi" }], undefined]);
  assertEquals(
    [second.messages.length, second.settings?.jsonSchema, second.settings?.jsonSchemaName],
    [1, { type: "object" }, undefined],
  );
});

Deno.test("responses wire: only function tools are read; a missing description or schema gets a default", async () => {
  const { llm, provider: p } = provider("ok", "ok");
  await json(p, PATH, {
    model: "gpt-4.1",
    input: "hi",
    tools: [
      { type: "web_search" },
      { type: "function" },
      "not a tool",
      { type: "function", name: "bare" },
      { type: "function", name: "full", description: "d", parameters: { type: "object" } },
    ],
  });
  await json(p, PATH, { model: "gpt-4.1", input: "hi", tools: [{ type: "web_search" }] });
  assertEquals(llm.requests[0].tools, [
    { name: "bare", description: "", parameters: { type: "object", properties: {} } },
    { name: "full", description: "d", parameters: { type: "object" } },
  ]);
  assertEquals(llm.requests[1].tools, []);
});

Deno.test("responses wire: a malformed input is a 400 naming the parameter", async (t) => {
  const cases: Array<[string, unknown, string]> = [
    ["no input", undefined, "input"],
    ["input of the wrong type", 7, "input"],
    ["an item that is not an object", ["hi"], "input[0]"],
    [
      "an unknown role",
      [{ role: "user", content: "a" }, { role: "robot", content: "b" }],
      "input[1].role",
    ],
    ["content of the wrong type", [{ role: "user", content: 7 }], "input[0].content"],
    ["a function_call with no name", [{ type: "function_call", call_id: "c" }], "input[0]"],
    ["a function_call with no call_id", [{ type: "function_call", name: "f" }], "input[0]"],
    [
      "an output with no call_id",
      [{ type: "function_call_output", output: "x" }],
      "input[0].call_id",
    ],
  ];
  for (const [name, input, param] of cases) {
    await t.step(name, async () => {
      const { llm, provider: p } = lenient("never");
      const { status, body } = await json(p, PATH, { model: "gpt-4.1", input });
      const error = body.error as Record<string, unknown>;
      assertEquals([status, error.param, error.code, llm.calls], [400, param, "invalid_value", 0]);
      assert(typeof error.message === "string" && error.message.length > 0, "a message says why");
    });
  }
  await t.step("no model", async () => {
    const { provider: p } = lenient("never");
    const { status, body } = await json(p, PATH, { input: "hi" });
    assertEquals([status, (body.error as Record<string, unknown>).param], [400, "model"]);
  });
});

Deno.test("responses wire: a call that opens the input is an assistant turn of its own", async () => {
  const { llm, provider: p } = provider("ok");
  await json(p, PATH, {
    model: "gpt-4.1",
    input: [
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "r" },
    ],
  });
  assertEquals(llm.requests[0].messages, [
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "f", args: {} }] },
    { role: "tool", content: "r", toolCallId: "c1" },
  ]);
});

Deno.test("responses wire: a blocking answer names the model that answered", async () => {
  const { provider: p } = provider({ content: "hi", model: "gpt-4.1-2025-04-14" });
  const { body } = await json(p, PATH, { model: "gpt-4.1", input: "hi" });
  assertEquals(body.model, "gpt-4.1-2025-04-14");
});
