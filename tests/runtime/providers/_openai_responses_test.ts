// The OpenAI Responses wire, client side, called directly: the request JSON,
// the blocking Response and the fold of response.* events, edge by edge.
import { assertEquals, assertInstanceOf, assertStringIncludes, assertThrows } from "@std/assert";
import {
  type ErrorEvent,
  type Message,
  ProviderError,
  ProviderResponseError,
  type StreamEvent,
} from "@agentkit/testing/ports";
import {
  chatResponseFromResponses,
  dataOfOutput,
  finishFromResponses,
  openAIResponsesBody,
  OpenAIResponsesStream,
  responsesInput,
  usageFromResponses,
} from "../../../runtime/providers/_openai_responses.ts";

const OPTS = { maxTokens: undefined, store: false };
const msg = (text: string, id = "msg_1") => ({
  type: "message",
  id,
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const call = (callId: string, name = "f", args = "{}", id = `fc_${callId}`) => ({
  type: "function_call",
  id,
  call_id: callId,
  name,
  arguments: args,
  status: "completed",
});
const reasoning = (text: string, id = "rs_1") => ({
  type: "reasoning",
  id,
  summary: [{ type: "summary_text", text }],
  encrypted_content: "enc",
});
const body = (output: unknown[], fields: Record<string, unknown> = {}) => ({
  id: "resp_1",
  object: "response",
  status: "completed",
  model: "gpt-5",
  output,
  ...fields,
});

function malformed(f: () => unknown, what: string): void {
  const e = assertThrows(f, ProviderResponseError);
  assertStringIncludes(e.message, what);
}

Deno.test("usageFromResponses(): what it refuses names the provider", () => {
  const e = assertThrows(() => usageFromResponses("x"), ProviderResponseError);
  assertStringIncludes(e.message, "OpenAI sent an answer that is not its API's shape");
});

Deno.test("usageFromResponses(): cached out of input, reasoning a part of output, bad counts named", () => {
  assertEquals(usageFromResponses(undefined), { inputTokens: 0, outputTokens: 0 });
  assertEquals(usageFromResponses(null), { inputTokens: 0, outputTokens: 0 });
  assertEquals(usageFromResponses({ input_tokens: 5, output_tokens: 2 }), {
    inputTokens: 5,
    outputTokens: 2,
  });
  assertEquals(
    usageFromResponses({
      input_tokens: 10,
      output_tokens: 8,
      input_tokens_details: null,
      output_tokens_details: null,
    }),
    { inputTokens: 10, outputTokens: 8 },
  );
  assertEquals(
    usageFromResponses({
      input_tokens: 10,
      output_tokens: 8,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens_details: { reasoning_tokens: 0 },
    }),
    { inputTokens: 6, outputTokens: 8, cachedInputTokens: 4 },
  );
  assertEquals(
    usageFromResponses({
      input_tokens: 10,
      output_tokens: 8,
      output_tokens_details: { reasoning_tokens: 8 },
    }),
    { inputTokens: 10, outputTokens: 8, reasoningTokens: 8 },
  );
  malformed(() => usageFromResponses("x"), "usage must be an object");
  malformed(() => usageFromResponses({ input_tokens: "5" }), "usage.input_tokens must be");
  malformed(() => usageFromResponses({ output_tokens: -1 }), "usage.output_tokens must be");
  malformed(
    () => usageFromResponses({ input_tokens_details: 3 }),
    "usage.input_tokens_details must be an object",
  );
  malformed(
    () => usageFromResponses({ input_tokens_details: { cached_tokens: 1.5 } }),
    "usage.input_tokens_details.cached_tokens must be",
  );
  malformed(
    () => usageFromResponses({ output_tokens_details: [] }),
    "usage.output_tokens_details must be an object",
  );
  malformed(
    () => usageFromResponses({ output_tokens_details: { reasoning_tokens: "1" } }),
    "usage.output_tokens_details.reasoning_tokens must be",
  );
  malformed(
    () => usageFromResponses({ input_tokens: 3, input_tokens_details: { cached_tokens: 4 } }),
    "cached_tokens (4) must not exceed usage.input_tokens (3)",
  );
  malformed(
    () => usageFromResponses({ output_tokens: 3, output_tokens_details: { reasoning_tokens: 4 } }),
    "reasoning_tokens (4) must not exceed usage.output_tokens (3)",
  );
});

Deno.test("finishFromResponses(): completed by calls or refusal, incomplete never stop", () => {
  assertEquals(finishFromResponses("completed", undefined, false, false), "stop");
  assertEquals(finishFromResponses("completed", undefined, true, false), "tool_calls");
  assertEquals(finishFromResponses("completed", undefined, false, true), "content_filter");
  assertEquals(finishFromResponses(undefined, undefined, false, false), "stop");
  assertEquals(finishFromResponses("incomplete", "max_output_tokens", true, false), "length");
  assertEquals(finishFromResponses("incomplete", "content_filter", false, false), "content_filter");
  assertEquals(finishFromResponses("incomplete", undefined, false, true), "length");
});

Deno.test("openAIResponsesBody(): the request, with and without each setting", () => {
  assertEquals(
    openAIResponsesBody(
      { model: "m", messages: [{ role: "user", content: "hi" }], tools: [] },
      false,
      OPTS,
    ),
    {
      model: "m",
      input: [{ type: "message", role: "user", content: "hi" }],
      store: false,
      include: ["reasoning.encrypted_content"],
    },
  );
  const full = openAIResponsesBody(
    {
      model: "m",
      messages: [
        { role: "system", content: "A." },
        { role: "user", content: "hi" },
        { role: "system", content: "B." },
      ],
      settings: { jsonSchema: { type: "object" }, temperature: 0 },
    },
    true,
    { maxTokens: 300, store: true },
  );
  assertEquals(full, {
    model: "m",
    instructions: "A.\n\nB.",
    input: [{ type: "message", role: "user", content: "hi" }],
    max_output_tokens: 300,
    temperature: 0,
    text: { format: { type: "json_schema", name: "output", schema: { type: "object" } } },
    store: true,
    stream: true,
  });
  // The request's own cap wins over the port's.
  assertEquals(
    openAIResponsesBody({ model: "m", messages: [], settings: { maxTokens: 20 } }, false, {
      maxTokens: 300,
      store: false,
    }).max_output_tokens,
    20,
  );
});

Deno.test("responsesInput(): assistant turns without kept items: text, then calls", () => {
  const c = { id: "c1", name: "f", args: { a: 1 } };
  const raw = { id: "c2", name: "g", args: {}, rawArgs: "{bad" };
  assertEquals(
    responsesInput([
      { role: "assistant", content: "" },
      { role: "assistant", content: "Let me look.", toolCalls: [c, raw] },
      { role: "assistant", content: "", toolCalls: [c] },
      { role: "tool", content: "r", toolCallId: "c1" },
    ]).input,
    [
      { type: "message", role: "assistant", content: "" },
      { type: "message", role: "assistant", content: "Let me look." },
      { type: "function_call", call_id: "c1", name: "f", arguments: '{"a":1}' },
      { type: "function_call", call_id: "c2", name: "g", arguments: "{bad" },
      { type: "function_call", call_id: "c1", name: "f", arguments: '{"a":1}' },
      { type: "function_call_output", call_id: "c1", output: "r" },
    ],
  );
  assertEquals(responsesInput([]).instructions, undefined);
});

Deno.test("responsesInput(): kept items go back in place, with the transcript's text and calls", () => {
  const kept = {
    openaiResponses: {
      output: [
        reasoning("r1"),
        { type: "message", id: "msg_1" },
        { type: "function_call", id: "fc_1", call_id: "c1" },
        { type: "web_search_call", id: "ws_1", status: "completed" },
        { type: "function_call", id: "fc_2", call_id: "c2" },
        { type: "function_call", id: "fc_1b", call_id: "c1" },
        "not an item",
      ],
    },
  };
  const calls = [
    { id: "c1", name: "f", args: {} },
    { id: "c2", name: "g", args: { x: 1 } },
    { id: "c3", name: "h", args: {} },
  ];
  const m: Message = { role: "assistant", content: "Hi.", toolCalls: calls, providerData: kept };
  assertEquals(responsesInput([m]).input, [
    reasoning("r1"),
    { type: "message", role: "assistant", content: "Hi." },
    { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
    { type: "web_search_call", id: "ws_1", status: "completed" },
    { type: "function_call", call_id: "c2", name: "g", arguments: '{"x":1}' },
    // A call the transcript holds and the response did not: after the kept ones.
    { type: "function_call", call_id: "c3", name: "h", arguments: "{}" },
  ]);
  // Text the response had no message for comes after the kept items; an
  // empty text is not sent; a call the transcript no longer holds is not.
  const noMessage: Message = {
    role: "assistant",
    content: "Added.",
    providerData: {
      openaiResponses: {
        output: [reasoning("r"), { type: "function_call", call_id: "gone" }, {
          type: "web_search_call",
          id: "w",
        }],
      },
    },
  };
  assertEquals(responsesInput([noMessage]).input, [
    reasoning("r"),
    { type: "web_search_call", id: "w" },
    { type: "message", role: "assistant", content: "Added." },
  ]);
  const emptyText: Message = {
    role: "assistant",
    content: "",
    toolCalls: [calls[0]],
    providerData: {
      openaiResponses: {
        output: [reasoning("r"), { type: "message" }, { type: "function_call", call_id: "c1" }],
      },
    },
  };
  assertEquals(responsesInput([emptyText]).input, [
    reasoning("r"),
    { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
  ]);
  // Only this turn's trailing reasoning is dropped, never an earlier turn's item.
  const trailing: Message = {
    role: "assistant",
    content: "",
    providerData: { openaiResponses: { output: [reasoning("a"), reasoning("b", "rs_2")] } },
  };
  assertEquals(
    responsesInput([{ role: "user", content: "q" }, trailing, { role: "user", content: "r" }])
      .input,
    [
      { type: "message", role: "user", content: "q" },
      { type: "message", role: "user", content: "r" },
    ],
  );
  // providerData that is not this port's is ignored.
  for (
    const providerData of [{ openaiResponses: "x" }, { openaiResponses: { output: 3 } }, {
      gemini: {},
    }]
  ) {
    assertEquals(responsesInput([{ role: "assistant", content: "t", providerData }]).input, [
      { type: "message", role: "assistant", content: "t" },
    ]);
  }
});

Deno.test("chatResponseFromResponses(): text, calls, reasoning and what is kept", () => {
  const r = chatResponseFromResponses(
    body([reasoning("think"), msg("Hel"), msg("lo", "msg_2"), call("c1", "f", '{"a":1}')]),
    "asked",
  );
  assertEquals(r.id, "resp_1");
  assertEquals(r.model, "gpt-5");
  assertEquals(r.content, "Hello");
  assertEquals(r.toolCalls, [{ id: "c1", name: "f", args: { a: 1 } }]);
  assertEquals(r.finishReason, "tool_calls");
  assertEquals(r.reasoning, "think");
  assertEquals(r.refusal, undefined);
  assertEquals(r.providerData, {
    openaiResponses: {
      output: [
        reasoning("think"),
        { type: "message", id: "msg_1" },
        { type: "message", id: "msg_2" },
        { type: "function_call", id: "fc_c1", call_id: "c1" },
      ],
    },
  });
  const plain = chatResponseFromResponses({ status: "completed", output: [msg("x")] }, "asked");
  assertEquals([plain.id, plain.model, plain.providerData, plain.reasoning], [
    "",
    "asked",
    undefined,
    undefined,
  ]);
  // Reasoning text parts (open-weight models) join the summaries, paragraph by paragraph.
  const texts = chatResponseFromResponses(
    body([{
      type: "reasoning",
      id: "rs",
      summary: [{ type: "summary_text", text: "a" }, { type: "summary_text", text: "" }],
      content: [{ type: "reasoning_text", text: "b" }],
    }, msg("x")]),
    "m",
  );
  assertEquals(texts.reasoning, "a\n\nb");
  // A refusal beside text is not a refusal; a message with no content is no text.
  const both = chatResponseFromResponses(
    body([{
      ...msg("ok"),
      content: [{ type: "output_text", text: "ok" }, { type: "refusal", refusal: "no" }],
    }]),
    "m",
  );
  assertEquals([both.content, both.finishReason, both.refusal], ["ok", "stop", undefined]);
  const none = chatResponseFromResponses(
    body([{ type: "message", id: "m", content: null }, call("c")]),
    "m",
  );
  assertEquals([none.content, none.toolCalls.length], ["", 1]);
  // Hosted tools' items are kept; an unknown part type is no text.
  const hosted = chatResponseFromResponses(
    body([{ type: "web_search_call", id: "ws", status: "completed" }, {
      ...msg(""),
      content: [{ type: "output_audio", data: "x" }, { type: "output_text", text: "found" }],
    }]),
    "m",
  );
  assertEquals(hosted.content, "found");
  assertEquals(
    (hosted.providerData!.openaiResponses as { output: unknown[] }).output[0],
    { type: "web_search_call", id: "ws", status: "completed" },
  );
});

Deno.test("chatResponseFromResponses(): what is not the API's shape is named", () => {
  malformed(() => chatResponseFromResponses("x", "m"), "the body must be an object");
  malformed(() => chatResponseFromResponses(body([5]), "m"), "output[0] must be an object");
  malformed(
    () => chatResponseFromResponses(body([{}]), "m"),
    "output[0].type must name the item's type",
  );
  malformed(
    () => chatResponseFromResponses(body([msg("a"), { ...call("c"), name: "" }]), "m"),
    "output[1].name must name the tool",
  );
  malformed(
    () => chatResponseFromResponses(body([{ ...call("c"), call_id: undefined }]), "m"),
    "output[0].call_id must identify the call",
  );
  malformed(
    () => chatResponseFromResponses(body([{ ...call("c"), arguments: {} }]), "m"),
    "output[0].arguments must be a string",
  );
  malformed(
    () => chatResponseFromResponses(body([{ ...msg("a"), content: "a" }]), "m"),
    "output[0].content must be an array",
  );
  malformed(
    () =>
      chatResponseFromResponses(
        body([{ ...msg("a"), content: [{ type: "output_text", text: 1 }] }]),
        "m",
      ),
    "output[0].content[0].text must be a string",
  );
  malformed(
    () =>
      chatResponseFromResponses(
        body([{ ...msg("a"), content: [{ type: "refusal", refusal: 1 }] }]),
        "m",
      ),
    "output[0].content[0].refusal must be a string",
  );
  malformed(
    () => chatResponseFromResponses(body([{ ...reasoning("a"), summary: "a" }]), "m"),
    "output[0].summary must be an array",
  );
  malformed(
    () => chatResponseFromResponses(body([{ ...reasoning("a"), summary: [{ text: 2 }] }]), "m"),
    "output[0].summary[0].text must be a string",
  );
  malformed(
    () => chatResponseFromResponses(body([msg("a")], { status: 3 }), "m"),
    "status must be a string",
  );
  malformed(
    () => chatResponseFromResponses(body([msg("a")], { id: 3 }), "m"),
    "id must be a string",
  );
  malformed(
    () => chatResponseFromResponses(body([msg("a")], { model: 3 }), "m"),
    "model must be a string",
  );
  malformed(
    () => chatResponseFromResponses(body([msg("a")], { incomplete_details: 3 }), "m"),
    "incomplete_details must be an object",
  );
  malformed(
    () => chatResponseFromResponses(body([msg("a")], { incomplete_details: { reason: 3 } }), "m"),
    "incomplete_details.reason must be a string",
  );
  malformed(() => chatResponseFromResponses(body([]), "m"), "output must carry at least one item");
  // An incomplete response may have nothing yet; a failed one is its error.
  assertEquals(
    chatResponseFromResponses(body([], { status: "incomplete", incomplete_details: null }), "m")
      .finishReason,
    "length",
  );
  const e = assertThrows(
    () =>
      chatResponseFromResponses(
        body([], { status: "failed", error: { code: "invalid_prompt", message: "bad" } }),
        "m",
      ),
    ProviderError,
  );
  assertEquals([e.retryable, e.phase], [false, "pre_stream"]);
  assertStringIncludes(e.message, "invalid_prompt");
});

Deno.test("dataOfOutput(): only a response with an item the port does not model needs sending back", () => {
  assertEquals(dataOfOutput([]), undefined);
  assertEquals(dataOfOutput([msg("a"), call("c")]), undefined);
  assertEquals(dataOfOutput([{ type: "image_generation_call", id: "ig", result: "b64" }]), {
    openaiResponses: { output: [{ type: "image_generation_call", id: "ig", result: "b64" }] },
  });
});

function fold(events: unknown[], delivered = false): StreamEvent[] {
  const wire = new OpenAIResponsesStream();
  wire.delivered = delivered;
  const out: StreamEvent[] = [];
  for (const e of events) {
    if (wire.done) break;
    const typed = typeof e === "object" && e !== null && "type" in e;
    wire.push({
      data: typeof e === "string" ? e : JSON.stringify(e),
      event: typed ? undefined : (e as { event?: string })?.event,
      id: undefined,
    }, out);
  }
  return out;
}

const created = { type: "response.created", response: { id: "resp_9", status: "in_progress" } };
const completed = (output: unknown[], fields: Record<string, unknown> = {}) => ({
  type: "response.completed",
  response: {
    id: "resp_9",
    status: "completed",
    output,
    usage: { input_tokens: 3, output_tokens: 2 },
    ...fields,
  },
});
const textDelta = (delta: string, item_id = "msg_1") => ({
  type: "response.output_text.delta",
  item_id,
  delta,
});

Deno.test("OpenAIResponsesStream: refusal deltas, arguments without a done item, [DONE] after the end", () => {
  const out = fold([
    created,
    { type: "response.output_item.added", item: { type: "message", id: "msg_1" } },
    { type: "response.refusal.delta", item_id: "msg_1", delta: "I can't" },
    { type: "response.refusal.delta", item_id: "msg_1", delta: "" },
    {
      type: "response.output_item.added",
      item: { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "" },
    },
    { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: '{"a":' },
    { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: "1}" },
    { type: "response.function_call_arguments.delta", item_id: "fc_unknown", delta: "x" },
    { type: "response.function_call_arguments.done", item_id: "fc_unknown", arguments: "x" },
    { type: "response.output_text.annotation.added", item_id: "msg_1" },
    completed([], { usage: null }),
    "[DONE]",
  ]);
  assertEquals(out, [
    { type: "message_start", messageId: "resp_9" },
    { type: "text_delta", messageId: "resp_9", content: "I can't", refusal: true },
    { type: "tool_call", messageId: "resp_9", call: { id: "c1", name: "f", args: { a: 1 } } },
    {
      type: "message_end",
      messageId: "resp_9",
      finishReason: "content_filter",
      usage: { inputTokens: 0, outputTokens: 0 },
    },
  ]);
  // arguments.done is the whole text, whatever the deltas said.
  const fixed = fold([
    created,
    {
      type: "response.output_item.added",
      item: { type: "function_call", id: "fc_1", call_id: "c1", name: "f" },
    },
    { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: "garbage" },
    { type: "response.function_call_arguments.done", item_id: "fc_1", arguments: '{"b":2}' },
    completed([]),
  ]);
  assertEquals((fixed[1] as Extract<StreamEvent, { type: "tool_call" }>).call.args, { b: 2 });
  // [DONE] before any terminal event ends nothing.
  const early = new OpenAIResponsesStream();
  const events: StreamEvent[] = [];
  early.push({ data: "[DONE]", event: undefined, id: undefined }, events);
  assertEquals([events, early.done], [[], false]);
});

Deno.test("OpenAIResponsesStream: whole items without deltas, and the terminal output's unseen items", () => {
  const out = fold([
    created,
    { type: "response.output_item.done", item: reasoning("thought") },
    { type: "response.output_item.done", item: msg("Whole text") },
    {
      type: "response.output_item.done",
      item: { ...msg(""), id: "msg_r", content: [{ type: "refusal", refusal: "No." }] },
    },
    completed([reasoning("thought"), msg("Whole text"), call("c9", "g")]),
  ]);
  assertEquals(out.map((e) => e.type === "message_end" ? e.finishReason : e.type), [
    "message_start",
    "reasoning_delta",
    "text_delta",
    "text_delta",
    "tool_call",
    "content_filter",
  ]);
  assertEquals((out[2] as { content: string }).content, "Whole text");
  const end = out.at(-1) as Extract<StreamEvent, { type: "message_end" }>;
  assertEquals(
    (end.providerData!.openaiResponses as { output: { type: string }[] }).output.map((i) => i.type),
    ["reasoning", "message", "function_call"],
  );
  // Streamed reasoning is not repeated by its done item; summary parts are paragraphs.
  const streamed = fold([
    created,
    {
      type: "response.reasoning_summary_text.delta",
      item_id: "rs_1",
      summary_index: 0,
      delta: "a",
    },
    { type: "response.reasoning_summary_text.delta", item_id: "rs_1", summary_index: 0, delta: "" },
    {
      type: "response.reasoning_summary_text.delta",
      item_id: "rs_1",
      summary_index: 1,
      delta: "b",
    },
    { type: "response.reasoning_text.delta", item_id: "rs_1", content_index: 0, delta: "c" },
    { type: "response.output_item.done", item: reasoning("a") },
    textDelta("x"),
    { type: "response.output_item.done", item: msg("x") },
    completed([reasoning("a"), msg("x")]),
  ]);
  assertEquals(
    streamed.flatMap((e) =>
      e.type === "reasoning_delta" || e.type === "text_delta" ? [e.content] : []
    ),
    ["a", "\n\nb", "\n\nc", "x"],
  );
  // A terminal event without a status: incomplete by its type.
  const cut = fold([created, textDelta("x"), {
    type: "response.incomplete",
    response: { id: "resp_9", output: [] },
  }]);
  assertEquals((cut.at(-1) as { finishReason: string }).finishReason, "length");
  const done = fold([created, textDelta("x"), {
    type: "response.completed",
    response: { id: "resp_9", output: [] },
  }]);
  assertEquals((done.at(-1) as { finishReason: string }).finishReason, "stop");
  // The event type may come from the SSE event name alone.
  const named = fold([{ event: "response.created", response: { id: "r" } }, {
    event: "response.output_text.delta",
    delta: "y",
  }, completed([])]);
  assertEquals(named.map((e) => e.type), ["message_start", "text_delta", "message_end"]);
});

Deno.test("OpenAIResponsesStream: failures before and after content, with what was reported", () => {
  const failed = {
    type: "response.failed",
    response: {
      id: "resp_9",
      status: "failed",
      usage: { input_tokens: 4, output_tokens: 1 },
      error: { code: "server_error", message: "boom" },
    },
  };
  const before = assertThrows(() => fold([created, failed]), ProviderError);
  assertEquals([before.retryable, before.phase], [true, "pre_stream"]);
  assertStringIncludes(before.message, "boom");
  const noError = assertThrows(
    () => fold([created, { type: "response.failed", response: { id: "r", usage: null } }]),
    ProviderError,
  );
  assertStringIncludes(noError.message, "the response failed with no error");
  // After content: an error event with the usage so far; a finished call is delivered first.
  const after = fold([
    created,
    textDelta("Hi"),
    {
      type: "response.output_item.added",
      item: { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{}" },
    },
    {
      type: "response.output_item.added",
      item: { type: "function_call", id: "fc_2", call_id: "", name: "g" },
    },
    failed,
  ], true);
  assertEquals(after.map((e) => e.type), ["message_start", "text_delta", "tool_call", "error"]);
  const event = after.at(-1) as ErrorEvent;
  assertInstanceOf(event.error, ProviderResponseError);
  assertEquals([(event.error as ProviderError).phase, event.usage], ["mid_stream", {
    inputTokens: 4,
    outputTokens: 1,
  }]);
  const errorEvent = fold([created, textDelta("Hi"), {
    type: "error",
    code: "server_error",
    message: "late",
    param: null,
  }], true);
  assertEquals(errorEvent.map((e) => e.type), ["message_start", "text_delta", "error"]);
  assertStringIncludes((errorEvent.at(-1) as ErrorEvent).error.message, "late");
  // A malformed event is named.
  malformed(
    () => fold([created, { type: "response.output_item.added", item: 3 }]),
    "item must be an object",
  );
  malformed(
    () => fold([created, { type: "response.output_text.delta", delta: 3 }]),
    "delta must be a string",
  );
  malformed(() => fold(["[1]"]), "a stream event must be an object");
  malformed(
    () => fold([{ type: "response.created", response: { id: 5 } }]),
    "response.id must be a string",
  );
});
