// The Anthropic Messages wire, client side, called directly: the request
// JSON, the blocking answer and the fold of streamed events, edge by edge.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { ProviderError, ProviderResponseError } from "@agentkit/testing/ports";
import type { ChatRequest, StreamEvent } from "@agentkit/testing/ports";
import {
  anthropicBody,
  AnthropicStream,
  chatResponseFromAnthropic,
  finishFromAnthropic,
  usageFromAnthropic,
} from "../../../runtime/providers/_anthropic.ts";

Deno.test("finishFromAnthropic(): each stop reason, an unknown one as stop, none as undefined", () => {
  assertEquals(
    [
      "end_turn",
      "stop_sequence",
      "pause_turn",
      "max_tokens",
      "model_context_window_exceeded",
      "tool_use",
      "refusal",
      "new_reason",
      "",
      null,
    ].map(finishFromAnthropic),
    [
      "stop",
      "stop",
      "length", // pause_turn: the answer is not finished (SPEC §20: never a silent stop)
      "length",
      "length",
      "tool_calls",
      "content_filter",
      "stop",
      undefined,
      undefined,
    ],
  );
});

Deno.test("usageFromAnthropic(): cache writes count as input, cache reads as cached input", () => {
  assertEquals(usageFromAnthropic(undefined), {
    inputTokens: 0,
    outputTokens: 0,
  });
  assertEquals(
    usageFromAnthropic({
      input_tokens: 5,
      output_tokens: 2,
      cache_creation_input_tokens: 3,
      cache_read_input_tokens: 0,
    }),
    { inputTokens: 8, outputTokens: 2, cachedInputTokens: 0, cacheWriteInputTokens: 3 },
  );
  assertEquals(
    usageFromAnthropic({
      input_tokens: null,
      output_tokens: null,
      cache_read_input_tokens: null,
    }),
    {
      inputTokens: 0,
      outputTokens: 0,
    },
  );
});

Deno.test("anthropicBody(): system on top, tool results grouped per turn, tool_use blocks, settings", () => {
  const req: ChatRequest = {
    model: "claude",
    messages: [
      { role: "system", content: "one" },
      { role: "system", content: "two" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "f", args: { a: 1 } }, {
          id: "c2",
          name: "g",
          args: {},
          rawArgs: '{"b":2}',
        }],
      },
      { role: "tool", content: "r1", toolCallId: "c1" },
      { role: "tool", content: "r2", toolCallId: "c2", isError: true },
      {
        role: "assistant",
        content: "again",
        toolCalls: [{ id: "c3", name: "f", args: {}, rawArgs: "nope" }],
      },
      { role: "tool", content: "r3" },
      { role: "assistant", content: "done", toolCalls: [] },
    ],
    tools: [{ name: "f", description: "d", parameters: { type: "object" } }],
    settings: { temperature: 0, jsonSchema: { type: "object" } },
  };
  assertEquals(anthropicBody(req, true, 1024), {
    model: "claude",
    max_tokens: 1024,
    system: "one\n\ntwo",
    messages: [
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "c1", name: "f", input: { a: 1 } },
          { type: "tool_use", id: "c2", name: "g", input: { b: 2 } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c1", content: "r1" },
          {
            type: "tool_result",
            tool_use_id: "c2",
            content: "r2",
            is_error: true,
          },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "text", text: "again" }, {
          type: "tool_use",
          id: "c3",
          name: "f",
          input: {},
        }],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "", content: "r3" }],
      },
      { role: "assistant", content: "done" },
    ],
    tools: [{ name: "f", description: "d", input_schema: { type: "object" } }],
    temperature: 0,
    output_config: {
      format: { type: "json_schema", schema: { type: "object" } },
    },
    stream: true,
  });
  assertEquals(
    anthropicBody(
      { model: "c", messages: [], tools: [], settings: { maxTokens: 5 } },
      false,
      1024,
    ),
    {
      model: "c",
      max_tokens: 5,
      messages: [],
    },
  );
});

Deno.test("anthropicBody(): an empty assistant turn is left out, and whitespace beside tool calls is no text block", () => {
  const body = anthropicBody(
    {
      model: "c",
      messages: [
        { role: "user", content: "a" },
        { role: "assistant", content: "" },
        { role: "user", content: "b" },
        { role: "assistant", content: " \n", toolCalls: [{ id: "t", name: "f", args: {} }] },
        { role: "tool", toolCallId: "t", content: "r" },
        { role: "assistant", content: "  " },
        { role: "user", content: "c" },
      ],
    },
    false,
    9,
  );
  assertEquals(body.messages, [
    { role: "user", content: "a" },
    { role: "user", content: "b" },
    { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "r" }] },
    { role: "user", content: "c" },
  ]);
});

Deno.test("chatResponseFromAnthropic(): text blocks joined, tool_use blocks as calls, defaults", () => {
  assertEquals(chatResponseFromAnthropic({ content: [] }, "asked"), {
    id: "",
    model: "asked",
    content: "",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0 },
  });
  const r = chatResponseFromAnthropic({
    id: "msg",
    model: "served",
    content: [
      { type: "text", text: "a" },
      { type: "thinking", thinking: "hidden" },
      { type: "text", text: "b" },
      { type: "tool_use", id: "t1", name: "f", input: { x: 1 } },
    ],
  }, "asked");
  assertEquals([r.id, r.model, r.content, r.finishReason], [
    "msg",
    "served",
    "ab",
    "tool_calls",
  ]);
  assertEquals(r.toolCalls, [{ id: "t1", name: "f", args: { x: 1 } }]);
  assertEquals(
    chatResponseFromAnthropic({ content: [], stop_reason: "max_tokens" }, "m")
      .finishReason,
    "length",
  );
});

Deno.test("chatResponseFromAnthropic(): a body that is not the API's shape is a ProviderResponseError naming the field", () => {
  const bad: Array<[unknown, string]> = [
    [{}, "content must be an array"],
    [null, "the body must be an object"],
    [[], "the body must be an object"],
    ["ok", "the body must be an object"],
    [{ content: "hi" }, "content must be an array"],
    [{ content: [{ type: "text" }] }, "content[0].text must be a string"],
    [{ content: [{ type: "text", text: 5 }] }, "content[0].text must be a string"],
    [{ content: [{ type: "tool_use", id: "t" }] }, "content[0].name must name the tool"],
    [
      { content: [{ type: "tool_use", id: "t", name: "f", input: "x" }] },
      "content[0].input must be an object",
    ],
    [{ content: [{ text: "x" }] }, "content[0].type must be a string"],
    [
      { content: [], usage: { input_tokens: "7" } },
      "usage.input_tokens must be a non-negative integer",
    ],
    [
      { content: [], usage: { output_tokens: -1 } },
      "usage.output_tokens must be a non-negative integer",
    ],
    [
      { content: [], usage: { output_tokens: 1.5 } },
      "usage.output_tokens must be a non-negative integer",
    ],
  ];
  for (const [body, says] of bad) {
    const e = assertThrows(() => chatResponseFromAnthropic(body, "m"), ProviderResponseError);
    assert(e.message.includes(says), `${JSON.stringify(body)}: ${e.message}`);
    assertEquals([e.retryable, e.phase], [false, "pre_stream"]);
  }
  // An error object in a 2xx body is the provider's error, classified by its type.
  const overloaded = assertThrows(() =>
    chatResponseFromAnthropic(
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      "m",
    )
  );
  assertInstanceOf(overloaded, ProviderError);
  assertEquals([overloaded.retryable, overloaded.phase], [true, "pre_stream"]);
  const invalid = assertThrows(
    () =>
      chatResponseFromAnthropic({ type: "error", error: { type: "invalid_request_error" } }, "m"),
    ProviderResponseError,
  );
  assertEquals(invalid.retryable, false);
});

function fold(
  events: Array<Record<string, unknown> | [string, Record<string, unknown>]>,
): StreamEvent[] {
  const wire = new AnthropicStream();
  const out: StreamEvent[] = [];
  for (const e of events) {
    if (wire.done) break;
    const [event, data] = Array.isArray(e) ? e : [undefined, e];
    wire.push({ event, data: JSON.stringify(data), id: undefined }, out);
  }
  return out;
}

Deno.test("AnthropicStream: text and tool_use blocks by index, usage merged across events", () => {
  const out = fold([
    {
      type: "message_start",
      message: {
        id: "m1",
        usage: {
          input_tokens: 9,
          output_tokens: 1,
          cache_read_input_tokens: 2,
        },
      },
    },
    { type: "ping" },
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "He" },
    },
    {
      type: "content_block_start",
      index: 5,
      content_block: { type: "text", text: "" },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: "llo" },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: "" },
    },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "tool_use", id: "t1", name: "f" },
    },
    {
      type: "content_block_start",
      index: 2,
      content_block: { type: "tool_use", id: "t2", name: "g" },
    },
    {
      type: "content_block_delta",
      index: 2,
      delta: { type: "input_json_delta", partial_json: '{"b"' },
    },
    {
      type: "content_block_delta",
      index: 1,
      delta: { type: "input_json_delta", partial_json: '{"a":' },
    },
    {
      type: "content_block_delta",
      index: 1,
      delta: { type: "input_json_delta" },
    },
    {
      type: "content_block_delta",
      index: 1,
      delta: { type: "input_json_delta", partial_json: "1}" },
    },
    { type: "content_block_stop", index: 2 },
    { type: "content_block_stop", index: 1 },
    { type: "content_block_stop", index: 1 },
    {
      type: "message_delta",
      delta: { stop_reason: null },
      usage: { output_tokens: 12, input_tokens: null },
    },
    { type: "message_delta", delta: { stop_reason: "tool_use" } },
    { type: "message_stop" },
    {
      type: "content_block_start",
      index: 3,
      content_block: { type: "text", text: "after" },
    },
  ]);
  assertEquals(out, [
    { type: "message_start", messageId: "m1" },
    { type: "text_delta", messageId: "m1", content: "He" },
    { type: "text_delta", messageId: "m1", content: "llo" },
    {
      type: "tool_call",
      messageId: "m1",
      call: { id: "t2", name: "g", args: {}, rawArgs: '{"b"' },
    },
    {
      type: "tool_call",
      messageId: "m1",
      call: { id: "t1", name: "f", args: { a: 1 } },
    },
    {
      type: "message_end",
      messageId: "m1",
      finishReason: "tool_calls",
      usage: { inputTokens: 9, outputTokens: 12, cachedInputTokens: 2 },
    },
  ]);
});

Deno.test("AnthropicStream: arguments for a block no tool_use opened are a malformed answer, not dropped", () => {
  for (const index of [7, 0]) {
    const wire = new AnthropicStream();
    const out: StreamEvent[] = [];
    const push = (data: unknown) =>
      wire.push({ event: undefined, data: JSON.stringify(data), id: undefined }, out);
    push({ type: "message_start", message: { id: "m" } });
    push({
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "t", name: "f" },
    });
    push({ type: "content_block_stop", index: 0 });
    const e = assertThrows(
      () =>
        push({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: "{}" },
        }),
      ProviderResponseError,
    );
    assert(e.message.includes(`content block ${index}`), e.message);
  }
});

Deno.test("AnthropicStream: a tool_use block the message stopped without closing is still delivered", () => {
  const out = fold([
    { type: "message_start", message: { id: "m" } },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "tool_use", id: "b", name: "g" },
    },
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "a", name: "f" },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: '{"x":1}' },
    },
    { type: "message_delta", delta: { stop_reason: "tool_use" } },
    { type: "message_stop" },
  ]);
  assertEquals(
    out.flatMap((e) => e.type === "tool_call" ? [e.call] : []),
    [{ id: "a", name: "f", args: { x: 1 } }, { id: "b", name: "g", args: {} }],
  );
  assertEquals(out.at(-1)?.type, "message_end");
});

Deno.test("AnthropicStream: the SSE event name stands in for a missing type; no index is index 0", () => {
  const out = fold([
    ["message_start", { message: { id: "m" } }],
    ["content_block_start", {
      content_block: { type: "tool_use", id: "t", name: "f" },
    }],
    ["content_block_delta", {
      delta: { type: "input_json_delta", partial_json: "{}" },
    }],
    ["content_block_stop", {}],
    ["message_stop", {}],
  ]);
  assertEquals(out.map((e) => e.type), [
    "message_start",
    "tool_call",
    "message_end",
  ]);
  assertEquals(
    (out[2] as Extract<StreamEvent, { type: "message_end" }>).finishReason,
    "tool_calls",
  );
  // Events before message_start still open the message.
  const early = fold([
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: "x" },
    },
    { type: "message_stop" },
  ]);
  assertEquals(early.map((e) => e.type), [
    "message_start",
    "text_delta",
    "message_end",
  ]);
  assertEquals(
    (early[2] as Extract<StreamEvent, { type: "message_end" }>).finishReason,
    "stop",
  );
  const tool = fold([
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "t", name: "f" },
    },
    { type: "content_block_stop", index: 0 },
  ]);
  assertEquals(tool.map((e) => e.type), ["message_start", "tool_call"]);
});

Deno.test("AnthropicStream: an error event after content ends the stream with the reported finish reason and usage", () => {
  const out = fold([
    { type: "message_start", message: { id: "m", usage: { input_tokens: 4 } } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "Hi" } },
    {
      type: "message_delta",
      delta: { stop_reason: "max_tokens" },
      usage: { output_tokens: 6 },
    },
    {
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    },
    { type: "message_stop" },
  ]);
  assertEquals(out.map((e) => e.type), ["message_start", "text_delta", "error"]);
  const end = out[2] as Extract<StreamEvent, { type: "error" }>;
  assertEquals([end.finishReason, end.usage], ["length", { inputTokens: 4, outputTokens: 6 }]);
  assert(end.error.message.includes("(overloaded_error): Overloaded"), end.error.message);
  assertEquals((end.error as ProviderError).phase, "mid_stream");
});

Deno.test("AnthropicStream: an error event before any content is thrown pre_stream, retryable as its type says", () => {
  const overloaded = assertThrows(
    () =>
      fold([{ type: "message_start", message: { id: "m" } }, {
        type: "error",
        error: { type: "overloaded_error", message: "Overloaded" },
      }]),
    ProviderError,
  );
  assertEquals([overloaded.phase, overloaded.retryable], ["pre_stream", true]);
  const bad = assertThrows(
    () => fold([{ type: "error", error: { type: "invalid_request_error", message: "no" } }]),
    ProviderResponseError,
  );
  assertEquals([bad.phase, bad.retryable], ["pre_stream", false]);
  const bare = assertThrows(() => fold([{ type: "error" }]), ProviderError);
  assert(bare.message.length > 0);
});

Deno.test("Anthropic: an assistant message with no toolCalls field, a thinking block, text before message_start, usage after the stop reason", () => {
  assertEquals(
    anthropicBody({ model: "c", messages: [{ role: "assistant", content: "hi" }] }, false, 9)
      .messages,
    [{ role: "assistant", content: "hi" }],
  );
  const out = fold([
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "first" } },
    { type: "content_block_start", index: 1, content_block: { type: "thinking", text: "hidden" } },
    { type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: { output_tokens: 3 } },
    { type: "message_delta", delta: {}, usage: { output_tokens: 4 } },
    { type: "message_stop" },
  ]);
  assertEquals(out, [
    { type: "message_start", messageId: "" },
    { type: "text_delta", messageId: "", content: "first" },
    {
      type: "message_end",
      messageId: "",
      finishReason: "length",
      usage: { inputTokens: 0, outputTokens: 4 },
    },
  ]);
});

const THINKING = {
  type: "thinking",
  thinking: "The user wants the weather.",
  signature: "EqQBCkgI...",
};
const REDACTED = { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a..." };

Deno.test("chatResponseFromAnthropic(): signed thinking blocks are kept on providerData.anthropic, unsigned ones dropped", () => {
  const res = chatResponseFromAnthropic({
    id: "msg_1",
    content: [
      THINKING,
      { type: "thinking", thinking: "no signature" },
      REDACTED,
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
    ],
    stop_reason: "tool_use",
  }, "claude-sonnet-4-5");
  assertEquals(res.providerData, { anthropic: { thinking: [THINKING, REDACTED] } });
  assertEquals(res.toolCalls.map((c) => c.id), ["toolu_1"]);
  assertThrows(
    () => chatResponseFromAnthropic({ content: [{ type: "redacted_thinking" }] }, "c"),
    ProviderResponseError,
    "content[0].data must be a string",
  );
  assertEquals(
    chatResponseFromAnthropic({ content: [{ type: "text", text: "x" }] }, "c").providerData,
    undefined,
  );
});

Deno.test("AnthropicStream: thinking and signature deltas assembled into providerData on message_end", () => {
  const out = fold([
    { type: "message_start", message: { id: "msg_1" } },
    { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "thinking_delta", thinking: "The user " },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "thinking_delta", thinking: "wants the weather." },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "signature_delta", signature: "EqQBCkgI..." },
    },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_start", index: 1, content_block: REDACTED },
    { type: "content_block_stop", index: 1 },
    {
      type: "content_block_start",
      index: 2,
      content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
    },
    {
      type: "content_block_delta",
      index: 2,
      delta: { type: "input_json_delta", partial_json: '{"city":"Paris"}' },
    },
    { type: "content_block_stop", index: 2 },
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
    { type: "message_stop" },
  ]);
  const end = out.at(-1)!;
  assertEquals(end.type === "message_end" && end.providerData, {
    anthropic: { thinking: [THINKING, REDACTED] },
  });
  assertThrows(
    () =>
      fold([
        { type: "message_start", message: { id: "m" } },
        {
          type: "content_block_delta",
          index: 3,
          delta: { type: "signature_delta", signature: "x" },
        },
      ]),
    ProviderResponseError,
    "which no thinking content_block_start opened",
  );
});

Deno.test("anthropicBody(): an assistant turn's thinking blocks go back first, unchanged, before its text and tool_use", () => {
  const body = anthropicBody(
    {
      model: "claude-sonnet-4-5",
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: "Checking.",
          toolCalls: [{ id: "toolu_1", name: "get_weather", args: { city: "Paris" } }],
          providerData: { anthropic: { thinking: [THINKING, REDACTED] } },
        },
        { role: "tool", content: "sunny", toolCallId: "toolu_1" },
        // Thinking without calls still goes back as blocks.
        {
          role: "assistant",
          content: "Sunny.",
          providerData: { anthropic: { thinking: [THINKING] } },
        },
        // Another provider's data is not Anthropic's to send.
        { role: "assistant", content: "x", providerData: { gemini: { textSignature: "s" } } },
      ],
    },
    false,
    1024,
  );
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  assertEquals(messages[1].content, [
    THINKING,
    REDACTED,
    { type: "text", text: "Checking." },
    { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
  ]);
  assertEquals(messages[3].content, [THINKING, { type: "text", text: "Sunny." }]);
  assertEquals(messages[4].content, "x");
});

// SPEC §20: what the port reads without loss (server tools, compaction, iterations).

Deno.test("usageFromAnthropic(): usage.iterations are the billed usage, each count checked by path", () => {
  const it = (input: number, output: number, write = 0, read = 0, type = "message") => ({
    type,
    input_tokens: input,
    output_tokens: output,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  });
  assertEquals(
    usageFromAnthropic({
      input_tokens: 100,
      output_tokens: 10,
      iterations: [it(60_000, 3_500, 0, 0, "compaction"), it(100, 10, 20, 30)],
    }),
    { inputTokens: 60_120, outputTokens: 3_510, cachedInputTokens: 30, cacheWriteInputTokens: 20 },
  );
  // No iterations (none, null, empty): the top level.
  for (const iterations of [undefined, null, []]) {
    assertEquals(usageFromAnthropic({ input_tokens: 5, output_tokens: 1, iterations }), {
      inputTokens: 5,
      outputTokens: 1,
    });
  }
  // Iterations without cache counters sum without inventing them.
  assertEquals(
    usageFromAnthropic({
      iterations: [{ input_tokens: 1, output_tokens: 2 }, { input_tokens: 3 }],
    }),
    { inputTokens: 4, outputTokens: 2 },
  );
  const bad = (u: unknown, what: string) => {
    const e = assertThrows(() => usageFromAnthropic(u), ProviderResponseError);
    assertStringIncludes(e.message, what);
  };
  bad({ iterations: 3 }, "usage.iterations must be an array");
  bad({ iterations: [5] }, "usage.iterations[0] must be an object");
  bad(
    { iterations: [it(1, 1), { input_tokens: "7" }] },
    "usage.iterations[1].input_tokens must be",
  );
  bad(
    { iterations: [{ cache_read_input_tokens: -1 }] },
    "usage.iterations[0].cache_read_input_tokens",
  );
  bad({ iterations: [{ cache_creation_input_tokens: 0.5 }] }, "cache_creation_input_tokens");
  bad({ output_tokens: "1", iterations: [it(1, 1)] }, "usage.output_tokens must be");
});

const WEB = [
  { type: "text", text: "Searching. " },
  { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
  { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
  {
    type: "text",
    text: "Found it.",
    citations: [{ type: "web_search_result_location", url: "u" }],
  },
  { type: "text", text: "  " },
  { type: "tool_use", id: "toolu_1", name: "save", input: { a: 1 } },
];

Deno.test("chatResponseFromAnthropic(): unmodelled blocks keep the whole answer in order; modelled only, none", () => {
  const r = chatResponseFromAnthropic(
    { id: "m", content: WEB, stop_reason: "tool_use", usage: {} },
    "m",
  );
  assertEquals(r.content, "Searching. Found it.  ");
  assertEquals(r.toolCalls, [{ id: "toolu_1", name: "save", args: { a: 1 } }]);
  assertEquals(r.providerData, {
    anthropic: { blocks: [...WEB.slice(0, 5), { type: "tool_use", id: "toolu_1" }] },
  });
  const plain = chatResponseFromAnthropic({ content: [WEB[0], WEB[5]], usage: {} }, "m");
  assertEquals(plain.providerData, undefined);
  // Signed thinking stays where it was among the kept blocks, and on `thinking`.
  const thought = { type: "thinking", thinking: "t", signature: "s" };
  const unsigned = { type: "thinking", thinking: "u" };
  const withThinking = chatResponseFromAnthropic(
    { content: [thought, unsigned, { type: "compaction", content: "c" }, WEB[0]], usage: {} },
    "m",
  );
  assertEquals(withThinking.providerData, {
    anthropic: {
      thinking: [thought],
      blocks: [thought, { type: "compaction", content: "c" }, WEB[0]],
    },
  });
  const refused = chatResponseFromAnthropic(
    { content: [{ type: "text", text: "No." }], stop_reason: "refusal", usage: {} },
    "m",
  );
  // One signal for a refusal and the provider's filter (docs/misbehave.md): the content filter.
  assertEquals([refused.finishReason, refused.refusal], ["content_filter", undefined]);
  const paused = chatResponseFromAnthropic(
    { content: [WEB[1]], stop_reason: "pause_turn", usage: {} },
    "m",
  );
  assertEquals([paused.finishReason, paused.refusal], ["length", undefined]);
});

Deno.test("anthropicBody(): kept blocks go back in place, with the transcript's text and calls", () => {
  const blocks = [...WEB.slice(0, 5), { type: "tool_use", id: "toolu_1" }, {
    type: "tool_use",
    id: "gone",
  }];
  const calls = [{ id: "toolu_1", name: "save", args: { a: 2 } }, {
    id: "toolu_2",
    name: "more",
    args: {},
  }];
  const sent = (content: string, toolCalls = calls, data: unknown = { anthropic: { blocks } }) =>
    anthropicBody(
      {
        model: "m",
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content, toolCalls, providerData: data as Record<string, unknown> },
        ],
      },
      false,
      16,
    ).messages as { role: string; content: unknown }[];
  // The text unchanged: the text blocks as they came (citations kept, whitespace-only left out).
  assertEquals(sent("Searching. Found it.  ")[1].content, [
    WEB[0],
    WEB[1],
    WEB[2],
    WEB[3],
    { type: "tool_use", id: "toolu_1", name: "save", input: { a: 2 } },
    { type: "tool_use", id: "toolu_2", name: "more", input: {} },
  ]);
  // The text changed: the transcript's, in the first text block's place.
  assertEquals(sent("Rewritten.", [])[1].content, [
    { type: "text", text: "Rewritten." },
    WEB[1],
    WEB[2],
  ]);
  // No text at all in the transcript: none sent; text the blocks never had: after them.
  assertEquals(sent("", [])[1].content, [WEB[1], WEB[2]]);
  assertEquals(
    sent("New.", [], { anthropic: { blocks: [WEB[1], WEB[2]] } })[1].content,
    [WEB[1], WEB[2], { type: "text", text: "New." }],
  );
  // Blocks that are not an array: the plain path.
  assertEquals(sent("Hi.", [], { anthropic: { blocks: "x" } })[1], {
    role: "assistant",
    content: "Hi.",
  });
});

Deno.test("AnthropicStream: server tools' input, citations and compaction deltas fold into the kept blocks", () => {
  // Unfinished JSON of a server tool is the answer's fault, named.
  assertThrows(
    () =>
      fold([
        { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 5 } } },
        {
          type: "content_block_start",
          index: 4,
          content_block: { type: "server_tool_use", id: "s_3", name: "web_search", input: {} },
        },
        {
          type: "content_block_delta",
          index: 4,
          delta: { type: "input_json_delta", partial_json: '{"q":"unfinished' },
        },
        { type: "content_block_stop", index: 4 },
      ]),
    ProviderResponseError,
    "content block 4's input_json_delta text must be JSON",
  );
  const fine = fold([
    {
      type: "message_start",
      message: { id: "msg_1", usage: { input_tokens: 5, output_tokens: 1 } },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "See" } },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "citations_delta", citation: { url: "a" } },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "citations_delta", citation: { url: "b" } },
    },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "mcp_tool_use", id: "mcp_1", name: "echo", input: {} },
    },
    {
      type: "content_block_delta",
      index: 1,
      delta: { type: "input_json_delta", partial_json: '{"x":' },
    },
    {
      type: "content_block_delta",
      index: 1,
      delta: { type: "input_json_delta", partial_json: "1}" },
    },
    { type: "content_block_stop", index: 1 },
    {
      type: "content_block_start",
      index: 2,
      content_block: {
        type: "server_tool_use",
        id: "s_2",
        name: "web_fetch",
        input: { kept: true },
      },
    },
    {
      type: "content_block_delta",
      index: 2,
      delta: { type: "input_json_delta", partial_json: "" },
    },
    { type: "content_block_stop", index: 2 },
    { type: "content_block_start", index: 3, content_block: { type: "compaction", content: null } },
    {
      type: "content_block_delta",
      index: 3,
      delta: { type: "compaction_delta", content: "Sum", encrypted_content: null },
    },
    {
      type: "content_block_delta",
      index: 3,
      delta: { type: "compaction_delta", content: "mary", encrypted_content: "enc" },
    },
    { type: "content_block_delta", index: 3, delta: { type: "a_delta_added_later", x: 1 } },
    { type: "content_block_delta", index: 9, delta: { type: "compaction_delta", content: "lost" } },
    {
      type: "content_block_start",
      index: 4,
      content_block: { type: "server_tool_use", id: "s_3", name: "web_search", input: {} },
    },
    {
      type: "content_block_delta",
      index: 4,
      delta: { type: "input_json_delta", partial_json: '{"q":"x"}' },
    },
    {
      type: "message_delta",
      delta: { stop_reason: "end_turn" },
      usage: { output_tokens: 9, iterations: [{ input_tokens: 50, output_tokens: 9 }] },
    },
    { type: "message_stop" },
  ]);
  const end = fine.at(-1) as Extract<StreamEvent, { type: "message_end" }>;
  assertEquals(end.usage, { inputTokens: 50, outputTokens: 9 });
  assertEquals(end.providerData, {
    anthropic: {
      blocks: [
        { type: "text", text: "See", citations: [{ url: "a" }, { url: "b" }] },
        { type: "mcp_tool_use", id: "mcp_1", name: "echo", input: { x: 1 } },
        { type: "server_tool_use", id: "s_2", name: "web_fetch", input: { kept: true } },
        { type: "compaction", content: "Summary", encrypted_content: "enc" },
        // Never stopped: closed with the message, its input read all the same.
        { type: "server_tool_use", id: "s_3", name: "web_search", input: { q: "x" } },
      ],
    },
  });
  assertThrows(
    () => fold([{ type: "content_block_start", index: 0, content_block: { type: 7 } }]),
    ProviderResponseError,
    "content_block.type must be a string",
  );
});
