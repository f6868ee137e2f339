// OpenAIResponsesLLM over our FakeProvider's strict Responses wire, over
// answers shaped as OpenAI documents them, and beside the official `openai`
// client reading the same bytes.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import OpenAI from "openai";
import {
  type ChatRequest,
  type ErrorEvent,
  type Message,
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
} from "@agentkit/testing/ports";
import {
  Agent,
  ModelRequestsDisallowed,
  OpenAIResponsesLLM,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const hi: ChatRequest = { model: "gpt-5-mini", messages: [{ role: "user", content: "hi" }] };

function port(llm: FakeLLM): { provider: FakeProvider; llm: OpenAIResponsesLLM } {
  const provider = new FakeProvider({ llm });
  return { provider, llm: new OpenAIResponsesLLM({ apiKey: "sk-test", fetch: provider.fetch }) };
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const seen: Request[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return Promise.resolve(Response.json(body, { status, headers }));
  };
  return { fetch, seen };
}

function sse(events: readonly Record<string, unknown>[]) {
  const text = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
  return (_input: string | URL | Request, _init?: RequestInit) =>
    Promise.resolve(
      new Response(text, { headers: { "content-type": "text/event-stream" } }),
    );
}

const withReasoning = (text: string, encrypted = "gAAAAB-enc") => ({
  id: "rs_1",
  type: "reasoning",
  summary: [{ type: "summary_text", text }],
  encrypted_content: encrypted,
});

// The documented shape of a response (OpenAI API reference, "The response
// object", and openai-node's Response type), with reasoning and a call.
const RESPONSE = {
  id: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
  object: "response",
  created_at: 1741476542,
  status: "completed",
  error: null,
  incomplete_details: null,
  model: "o4-mini-2025-04-16",
  output: [
    withReasoning("**Checking the weather**\n\nThe user wants Paris."),
    {
      type: "function_call",
      id: "fc_67ca09c6bedc8190a7abfec07b1a1332096610f474011cc0",
      call_id: "call_unLAR8MvFNptuiZK6K6HCy5k",
      name: "get_current_weather",
      arguments: '{"location":"Paris, France","unit":"celsius"}',
      status: "completed",
    },
  ],
  parallel_tool_calls: true,
  store: false,
  usage: {
    input_tokens: 328,
    input_tokens_details: { cached_tokens: 128 },
    output_tokens: 148,
    output_tokens_details: { reasoning_tokens: 128 },
    total_tokens: 476,
  },
};

Deno.test("OpenAIResponsesLLM.chat() sends the Responses request and reads the answer", async () => {
  const { provider, llm } = port(
    FakeLLM.script([{ content: "Hello.", usage: { inputTokens: 7, outputTokens: 2 } }]),
  );
  const res = await llm.chat({
    model: "gpt-5-mini",
    messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }],
    settings: { maxTokens: 64, temperature: 0.5 },
  });
  assertEquals([res.content, res.finishReason, res.usage], ["Hello.", "stop", {
    inputTokens: 7,
    outputTokens: 2,
    cachedInputTokens: 0,
  }]);
  assertEquals(provider.rejections, []);
  const req = provider.requests[0];
  assertEquals(req.path, "/v1/responses");
  assertEquals(req.body, {
    model: "gpt-5-mini",
    instructions: "Be brief.",
    input: [{ type: "message", role: "user", content: "hi" }],
    max_output_tokens: 64,
    temperature: 0.5,
    store: false,
    include: ["reasoning.encrypted_content"],
  });
  assert(req.headers.authorization?.startsWith("Bearer "));
});

Deno.test("OpenAIResponsesLLM: store: true is sent as is and asks for no encrypted reasoning", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("ok") });
  const llm = new OpenAIResponsesLLM({
    apiKey: "sk-test",
    fetch: provider.fetch,
    store: true,
    maxTokens: 100,
  });
  await llm.chat(hi);
  const body = provider.requests[0].body as Record<string, unknown>;
  assertEquals([body.store, body.include, body.max_output_tokens], [true, undefined, 100]);
});

Deno.test("OpenAIResponsesLLM: tools, JSON-schema output and the tool loop, paired by call_id", async () => {
  const weather = new FakeTool({
    name: "weather",
    description: "The weather in a city.",
    parameters: { type: "object", properties: { city: { type: "string" } } },
    responder: "sunny",
  });
  const { provider, llm } = port(FakeLLM.script([
    { toolCalls: [{ id: "call_1", name: "weather", args: { city: "Paris" } }] },
    { content: "It is sunny." },
  ]));
  const agent = new Agent("a", {
    model: "gpt-5-mini",
    system: "Use tools.",
    cognition: new ReActCognition({ tools: [weather] }),
  });
  const result = await agent.run("weather?", makeTestCtx({ llm }));
  assertEquals(result.output, "It is sunny.");
  assertEquals(provider.rejections, []);
  const second = provider.requests[1].body as { input: Record<string, unknown>[]; tools: unknown };
  assertEquals(second.input, [
    { type: "message", role: "user", content: "weather?" },
    { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
    { type: "function_call_output", call_id: "call_1", output: "sunny" },
  ]);
  assertEquals(second.tools, [{
    type: "function",
    name: "weather",
    description: "The weather in a city.",
    parameters: { type: "object", properties: { city: { type: "string" } } },
    strict: false,
  }]);

  const schema = { type: "object", properties: { n: { type: "number" } } };
  const p2 = port(new FakeLLM('{"n":1}'));
  await p2.llm.chat({ ...hi, settings: { jsonSchema: schema, jsonSchemaName: "num" } });
  assertEquals((p2.provider.requests[0].body as { text: unknown }).text, {
    format: { type: "json_schema", name: "num", schema },
  });
});

Deno.test("OpenAIResponsesLLM.stream() yields text, reasoning, calls and usage from response.* events", async () => {
  const { llm, provider } = port(FakeLLM.script([{
    reasoning: "Think first.",
    chunks: ["Hel", "lo"],
    toolCalls: [{ id: "call_9", name: "t", args: { a: 1 } }],
    usage: { inputTokens: 5, outputTokens: 3 },
  }]));
  const events = await drain(llm.stream(hi));
  assertEquals(events.map((e) => e.type), [
    "message_start",
    "reasoning_delta",
    "text_delta",
    "text_delta",
    "tool_call",
    "message_end",
  ]);
  const end = events.at(-1) as Extract<StreamEvent, { type: "message_end" }>;
  assertEquals([end.finishReason, end.usage.inputTokens, end.usage.outputTokens], [
    "tool_calls",
    5,
    3,
  ]);
  assertEquals((events[4] as Extract<StreamEvent, { type: "tool_call" }>).call, {
    id: "call_9",
    name: "t",
    args: { a: 1 },
  });
  // The reasoning item goes back with the next request.
  assertEquals(
    (end.providerData?.openaiResponses as { output: { type: string }[] }).output.map((i) => i.type),
    ["reasoning", "message", "function_call"],
  );
  assertEquals((provider.requests[0].body as { stream: boolean }).stream, true);
});

Deno.test("OpenAIResponsesLLM: a reasoning tool loop passes the strict wire (reasoning-item-orphaned)", async () => {
  const script = () =>
    FakeLLM.script([
      { reasoning: "Need the tool.", toolCalls: [{ id: "call_1", name: "t", args: {} }] },
      { reasoning: "Now answer.", content: "done" },
    ]);
  const check = (provider: FakeProvider) => {
    assertEquals(provider.rejections, []);
    const input = (provider.requests[1].body as { input: Record<string, unknown>[] }).input;
    assertEquals(input.map((i) => i.type), [
      "message",
      "reasoning",
      "function_call",
      "function_call_output",
    ]);
    assertEquals((input[1].summary as { text: string }[])[0].text, "Need the tool.");
  };
  // Blocking, through the runtime's ReAct loop.
  const blocking = port(script());
  const tool = new FakeTool({ name: "t", responder: "r" });
  const agent = new Agent("a", {
    model: "o4-mini",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("go", makeTestCtx({ llm: blocking.llm }));
  assertEquals(result.output, "done");
  check(blocking.provider);
  // Streamed: the message_end's providerData is what the next request sends back.
  const streamed = port(script());
  const first = await drain(
    streamed.llm.stream({ ...hi, messages: [{ role: "user", content: "go" }] }),
  );
  const end = first.at(-1) as Extract<StreamEvent, { type: "message_end" }>;
  const call =
    (first.find((e) => e.type === "tool_call") as Extract<StreamEvent, { type: "tool_call" }>).call;
  const second = await drain(streamed.llm.stream({
    ...hi,
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [call], providerData: end.providerData },
      { role: "tool", content: "r", toolCallId: call.id },
    ],
  }));
  assertEquals(
    second.filter((e) => e.type === "reasoning_delta").map((e) =>
      (e as { content: string }).content
    ),
    ["Now answer."],
  );
  check(streamed.provider);
});

Deno.test("OpenAIResponsesLLM: the documented response with encrypted reasoning is read, kept and sent back whole", async () => {
  const { fetch } = answering(200, RESPONSE);
  const llm = new OpenAIResponsesLLM({ apiKey: "sk-test", fetch });
  const res = await llm.chat(hi);
  assertEquals(res.toolCalls, [{
    id: "call_unLAR8MvFNptuiZK6K6HCy5k",
    name: "get_current_weather",
    args: { location: "Paris, France", unit: "celsius" },
  }]);
  assertEquals(res.finishReason, "tool_calls");
  assertEquals(res.reasoning, "**Checking the weather**\n\nThe user wants Paris.");
  assertEquals(res.usage, {
    inputTokens: 200,
    outputTokens: 148,
    cachedInputTokens: 128,
    reasoningTokens: 128,
  });
  const seen: Request[] = [];
  const next = new OpenAIResponsesLLM({
    apiKey: "sk-test",
    fetch: (input, init) => {
      seen.push(new Request(input, init));
      return Promise.resolve(Response.json({ ...RESPONSE, output: [RESPONSE.output[1]] }));
    },
  });
  const assistant: Message = {
    role: "assistant",
    content: "",
    toolCalls: res.toolCalls,
    providerData: res.providerData,
  };
  await next.chat({
    ...hi,
    messages: [...hi.messages, assistant, {
      role: "tool",
      content: "18C",
      toolCallId: "call_unLAR8MvFNptuiZK6K6HCy5k",
    }],
  });
  const body = await seen[0].json();
  assertEquals(body.input[1], RESPONSE.output[0]);
  assertEquals(body.input[2].type, "function_call");
  assertEquals(body.input[3], {
    type: "function_call_output",
    call_id: "call_unLAR8MvFNptuiZK6K6HCy5k",
    output: "18C",
  });
});

Deno.test("OpenAIResponsesLLM: a reasoning item that led to nothing is not sent back", async () => {
  const seen: Request[] = [];
  const llm = new OpenAIResponsesLLM({
    apiKey: "sk-test",
    fetch: (input, init) => {
      seen.push(new Request(input, init));
      return Promise.resolve(Response.json({ ...RESPONSE, output: [RESPONSE.output[1]] }));
    },
  });
  await llm.chat({
    ...hi,
    messages: [
      { role: "user", content: "a" },
      {
        role: "assistant",
        content: "",
        providerData: { openaiResponses: { output: [withReasoning("cut")] } },
      },
      { role: "user", content: "b" },
    ],
  });
  const body = await seen[0].json();
  assertEquals(body.input.map((i: { type: string }) => i.type), ["message", "message"]);
});

Deno.test("OpenAIResponsesLLM: incomplete responses map to length or content_filter, never stop", async () => {
  const cases: [string, string][] = [
    ["max_output_tokens", "length"],
    ["content_filter", "content_filter"],
    ["max_messages", "length"],
    ["steered", "length"],
  ];
  for (const [reason, finish] of cases) {
    const { fetch } = answering(200, {
      ...RESPONSE,
      status: "incomplete",
      incomplete_details: { reason },
      output: [{
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "incomplete",
        content: [{ type: "output_text", text: "Partial", annotations: [] }],
      }],
    });
    const res = await new OpenAIResponsesLLM({ apiKey: "k", fetch }).chat(hi);
    assertEquals([res.content, res.finishReason], ["Partial", finish], reason);
  }
  // Cut while thinking: no message at all, still an answer (length), not an error.
  const { fetch } = answering(200, {
    ...RESPONSE,
    status: "incomplete",
    incomplete_details: { reason: "max_output_tokens" },
    output: [withReasoning("thinking")],
  });
  const res = await new OpenAIResponsesLLM({ apiKey: "k", fetch }).chat(hi);
  assertEquals([res.content, res.finishReason, res.reasoning], ["", "length", "thinking"]);
});

Deno.test("OpenAIResponsesLLM: a refusal part is the answer's text with refusal: true", async () => {
  const { fetch } = answering(200, {
    ...RESPONSE,
    output: [{
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "refusal", refusal: "I can't help with that." }],
    }],
  });
  const res = await new OpenAIResponsesLLM({ apiKey: "k", fetch }).chat(hi);
  assertEquals([res.content, res.finishReason, res.refusal], [
    "I can't help with that.",
    "content_filter",
    true,
  ]);
});

Deno.test("OpenAIResponsesLLM: failures are classified as §12 says", async () => {
  const limited = answering(429, {
    error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
  }, { "retry-after-ms": "1500" });
  const e429 = await assertRejects(
    () => new OpenAIResponsesLLM({ apiKey: "k", fetch: limited.fetch }).chat(hi),
    RateLimitError,
  );
  assertEquals(e429.retryAfterMs, 1500);
  const e500 = await assertRejects(
    () =>
      new OpenAIResponsesLLM({
        apiKey: "k",
        fetch: answering(500, { error: { message: "x" } }).fetch,
      })
        .chat(hi),
    ProviderError,
  );
  assertEquals([e500.retryable, e500.phase], [true, "pre_stream"]);
  const e400 = await assertRejects(
    () =>
      new OpenAIResponsesLLM({
        apiKey: "k",
        fetch: answering(400, {
          error: {
            message: "No tool output found for function call call_1.",
            type: "invalid_request_error",
            param: "input",
            code: null,
          },
        }).fetch,
      }).chat(hi),
    ProviderResponseError,
  );
  assertEquals(e400.retryable, false);
  assertStringIncludes(e400.message, "No tool output found");
  // A failed response in a 200 body (openai-node ResponseError): by its code.
  const failed = await assertRejects(
    () =>
      new OpenAIResponsesLLM({
        apiKey: "k",
        fetch: answering(200, {
          ...RESPONSE,
          status: "failed",
          output: [],
          error: { code: "server_error", message: "The model failed." },
        }).fetch,
      }).chat(hi),
    ProviderError,
  );
  assertEquals(failed.retryable, true);
  // Not the API's shape: named, never an empty answer.
  const bad = await assertRejects(
    () =>
      new OpenAIResponsesLLM({ apiKey: "k", fetch: answering(200, { id: "r", output: "x" }).fetch })
        .chat(hi),
    ProviderResponseError,
  );
  assertStringIncludes(bad.message, "output must be an array");
  const empty = await assertRejects(
    () =>
      new OpenAIResponsesLLM({
        apiKey: "k",
        fetch: answering(200, { id: "r", status: "completed", output: [] }).fetch,
      }).chat(hi),
    ProviderResponseError,
  );
  assertStringIncludes(empty.message, "at least one item");
});

Deno.test("OpenAIResponsesLLM.stream(): an error event before content is thrown pre_stream, after content is an error event", async () => {
  const created = {
    type: "response.created",
    sequence_number: 0,
    response: { ...RESPONSE, status: "in_progress", output: [], usage: null },
  };
  const error = {
    type: "error",
    sequence_number: 1,
    code: "rate_limit_exceeded",
    message: "Slow down",
    param: null,
  };
  const llm1 = new OpenAIResponsesLLM({ apiKey: "k", fetch: sse([created, error]) });
  await assertRejects(() => drain(llm1.stream(hi)), RateLimitError);

  const delta = {
    type: "response.output_text.delta",
    sequence_number: 1,
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    delta: "Hel",
    logprobs: [],
  };
  const llm2 = new OpenAIResponsesLLM({
    apiKey: "k",
    fetch: sse([created, delta, { ...error, code: "server_error" }]),
  });
  const events = await drain(llm2.stream(hi));
  assertEquals(events.map((e) => e.type), ["message_start", "text_delta", "error"]);
  const err = (events[2] as ErrorEvent).error as ProviderError;
  assertEquals(err.phase, "mid_stream");
  // A stream cut without response.completed: an error event after content.
  const llm3 = new OpenAIResponsesLLM({ apiKey: "k", fetch: sse([created, delta]) });
  const cut = await drain(llm3.stream(hi));
  assertEquals(cut.at(-1)?.type, "error");
  assertStringIncludes((cut.at(-1) as ErrorEvent).error.message, "response.completed");
});

Deno.test("OpenAIResponsesLLM: refuses under a test context unless the fetch is a FakeProvider's", async () => {
  const { fetch, seen } = answering(200, RESPONSE);
  const llm = new OpenAIResponsesLLM({ apiKey: "k", fetch });
  await assertRejects(() => llm.chat(hi, makeTestCtx()), ModelRequestsDisallowed);
  await assertRejects(() => drain(llm.stream(hi, makeTestCtx())), ModelRequestsDisallowed);
  assertEquals(seen.length, 0);
  await llm.chat(hi, makeTestCtx({ allowModelRequests: true }));
  assertEquals(seen.length, 1);
});

Deno.test("OpenAIResponsesLLM: options are checked where they are given", () => {
  assertThrows(
    () => new OpenAIResponsesLLM({ apiKey: "k", stor: false } as never),
    TypeError,
    "store",
  );
  assertThrows(() => new OpenAIResponsesLLM({ apiKey: "k", store: "no" } as never), TypeError);
  assertThrows(() => new OpenAIResponsesLLM({ apiKey: "k", maxTokens: 0 }), RangeError);
});

Deno.test("OpenAIResponsesLLM and the official openai client read the same bytes alike", async () => {
  const scripts = [
    { content: "Hello there.", usage: { inputTokens: 11, outputTokens: 3, cachedInputTokens: 4 } },
    {
      content: "Let me check.",
      toolCalls: [
        { id: "call_a", name: "lookup", args: { q: "x" } },
        { id: "call_b", name: "noargs", args: {} },
      ],
      usage: { inputTokens: 20, outputTokens: 9 },
    },
    { reasoning: "Hmm.", content: "42", usage: { inputTokens: 3, outputTokens: 8 } },
    { content: "Cut", finishReason: "length" as const, usage: { inputTokens: 1, outputTokens: 1 } },
  ];
  for (const turn of scripts) {
    for (const stream of [false, true]) {
      const provider = new FakeProvider({ llm: FakeLLM.script([turn, turn]) });
      const client = new OpenAI({
        apiKey: "sk-test",
        baseURL: "http://fake/v1",
        fetch: provider.fetch,
      });
      let theirs: OpenAI.Responses.Response;
      if (stream) {
        const events = await client.responses.create({
          model: "gpt-5-mini",
          input: "hi",
          stream: true,
        });
        let last: OpenAI.Responses.Response | undefined;
        for await (const e of events) {
          if (e.type === "response.completed" || e.type === "response.incomplete") {
            last = e.response;
          }
        }
        theirs = last!;
      } else theirs = await client.responses.create({ model: "gpt-5-mini", input: "hi" });
      const ours = new OpenAIResponsesLLM({ apiKey: "sk-test", fetch: provider.fetch });
      let content = "";
      let calls: unknown[] = [];
      let usage;
      let finish;
      if (stream) {
        for (const e of await drain(ours.stream(hi))) {
          if (e.type === "text_delta") content += e.content;
          if (e.type === "tool_call") calls.push(e.call);
          if (e.type === "message_end") [usage, finish] = [e.usage, e.finishReason];
        }
      } else {
        const r = await ours.chat(hi);
        [content, calls, usage, finish] = [r.content, [...r.toolCalls], r.usage, r.finishReason];
      }
      const label = `${JSON.stringify(turn)} stream=${stream}`;
      // output_text is the SDK's own sum of the message parts (not on a streamed response).
      const theirText = theirs.output.flatMap((i) => i.type === "message" ? i.content : [])
        .map((p) => p.type === "output_text" ? p.text : "").join("");
      assertEquals(content, theirText, label);
      if (!stream) assertEquals(theirs.output_text, theirText);
      const theirCalls = theirs.output.filter((i) => i.type === "function_call").map((i) => ({
        id: i.call_id,
        name: i.name,
        args: JSON.parse(i.arguments),
      }));
      assertEquals(calls, theirCalls, label);
      const u = theirs.usage!;
      assertEquals(usage, {
        inputTokens: u.input_tokens - u.input_tokens_details.cached_tokens,
        outputTokens: u.output_tokens,
        cachedInputTokens: u.input_tokens_details.cached_tokens,
        ...(u.output_tokens_details.reasoning_tokens
          ? { reasoningTokens: u.output_tokens_details.reasoning_tokens }
          : {}),
      }, label);
      assertEquals(
        finish,
        theirs.status === "incomplete" ? "length" : theirCalls.length ? "tool_calls" : "stop",
        label,
      );
      assert(provider.rejections.length === 0, label);
    }
  }
  assertInstanceOf(new OpenAIResponsesLLM({ apiKey: "k" }), OpenAIResponsesLLM);
});

Deno.test("OpenAIResponsesLLM: complete(), the key from OPENAI_API_KEY, errors naming the port and OpenAI", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("Done.") });
  const previous = Deno.env.get("OPENAI_API_KEY");
  Deno.env.set("OPENAI_API_KEY", "sk-from-env");
  try {
    const llm = new OpenAIResponsesLLM({ fetch: provider.fetch });
    const res = await llm.complete({ model: "gpt-5-mini", system: "Be brief.", user: "go" });
    assertEquals(res.content, "Done.");
    const body = provider.requests[0].body as { instructions: string; input: unknown[] };
    assertEquals(body.instructions, "Be brief.");
    assertEquals(body.input, [{ type: "message", role: "user", content: "go" }]);
    assert(provider.requests[0].headers.authorization?.startsWith("Bearer "));
  } finally {
    if (previous === undefined) Deno.env.delete("OPENAI_API_KEY");
    else Deno.env.set("OPENAI_API_KEY", previous);
  }
  const e = assertThrows(() => new OpenAIResponsesLLM({ apiKey: "k", maxTokens: 1.5 }), RangeError);
  assertStringIncludes(e.message, "new OpenAIResponsesLLM()");
  const guarded = await assertRejects(
    () =>
      new OpenAIResponsesLLM({ apiKey: "k", fetch: answering(200, {}).fetch }).chat(
        hi,
        makeTestCtx(),
      ),
    ModelRequestsDisallowed,
  );
  assertStringIncludes(guarded.message, "OpenAIResponsesLLM");
  const bad = await assertRejects(
    () => new OpenAIResponsesLLM({ apiKey: "k", fetch: answering(200, {}).fetch }).chat(hi),
    ProviderResponseError,
  );
  assertStringIncludes(bad.message, "OpenAI sent an answer");
});
