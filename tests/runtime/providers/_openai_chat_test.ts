// The OpenAI Chat Completions wire, client side, called directly: the request
// JSON, the blocking answer and the fold of streamed chunks, edge by edge.
import { assertEquals } from "@std/assert";
import type { ChatRequest, StreamEvent } from "@agentkit/testing/ports";
import {
  chatResponseFromOpenAI,
  finishFromOpenAI,
  openAIChatBody,
  OpenAIChatStream,
  usageFromOpenAI,
} from "../../../runtime/providers/_openai_chat.ts";

Deno.test("finishFromOpenAI(): each reason, an unknown one as stop, none as undefined", () => {
  assertEquals(
    [
      "stop",
      "length",
      "tool_calls",
      "function_call",
      "content_filter",
      "weird",
      "",
      null,
      undefined,
    ]
      .map(finishFromOpenAI),
    [
      "stop",
      "length",
      "tool_calls",
      "tool_calls",
      "content_filter",
      "stop",
      undefined,
      undefined,
      undefined,
    ],
  );
});

Deno.test("usageFromOpenAI(): cached prompt tokens are split out of the input; missing counts are 0", () => {
  assertEquals(usageFromOpenAI(null), { inputTokens: 0, outputTokens: 0 });
  assertEquals(usageFromOpenAI({ prompt_tokens: 10, completion_tokens: 3 }), {
    inputTokens: 10,
    outputTokens: 3,
  });
  assertEquals(
    usageFromOpenAI({ prompt_tokens: 10, prompt_tokens_details: null }),
    {
      inputTokens: 10,
      outputTokens: 0,
    },
  );
  assertEquals(
    usageFromOpenAI({
      prompt_tokens: 10,
      completion_tokens: 3,
      prompt_tokens_details: { cached_tokens: 4 },
    }),
    { inputTokens: 6, outputTokens: 3, cachedInputTokens: 4 },
  );
  assertEquals(
    usageFromOpenAI({ prompt_tokens_details: { cached_tokens: 0 } }),
    {
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
    },
  );
});

Deno.test("openAIChatBody(): messages, tools and settings in the wire's shape", () => {
  const req: ChatRequest = {
    model: "gpt",
    messages: [
      { role: "system", content: "sys" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "f", args: { a: 1 } }, {
          id: "c2",
          name: "g",
          args: {},
          rawArgs: "{bad",
        }],
      },
      {
        role: "assistant",
        content: "thinking",
        toolCalls: [{ id: "c3", name: "f", args: {} }],
      },
      { role: "tool", content: "r1", toolCallId: "c1" },
      { role: "tool", content: "r2" },
      { role: "assistant", content: "plain", toolCalls: [] },
    ],
    tools: [{ name: "f", description: "d", parameters: { type: "object" } }],
    settings: { maxTokens: 0, temperature: 0, jsonSchema: { type: "object" } },
  };
  assertEquals(openAIChatBody(req, false), {
    model: "gpt",
    messages: [
      { role: "system", content: "sys" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: { name: "f", arguments: '{"a":1}' },
          },
          {
            id: "c2",
            type: "function",
            function: { name: "g", arguments: "{bad" },
          },
        ],
      },
      {
        role: "assistant",
        content: "thinking",
        tool_calls: [{
          id: "c3",
          type: "function",
          function: { name: "f", arguments: "{}" },
        }],
      },
      { role: "tool", tool_call_id: "c1", content: "r1" },
      { role: "tool", tool_call_id: "", content: "r2" },
      { role: "assistant", content: "plain" },
    ],
    tools: [{
      type: "function",
      function: { name: "f", description: "d", parameters: { type: "object" } },
    }],
    max_completion_tokens: 0,
    temperature: 0,
    response_format: {
      type: "json_schema",
      json_schema: { name: "output", schema: { type: "object" } },
    },
  });
  const streamed = openAIChatBody({
    model: "gpt",
    messages: [],
    tools: [],
    settings: { jsonSchema: {}, jsonSchemaName: "answer" },
  }, true);
  assertEquals(streamed, {
    model: "gpt",
    messages: [],
    response_format: {
      type: "json_schema",
      json_schema: { name: "answer", schema: {} },
    },
    stream: true,
    stream_options: { include_usage: true },
  });
});

Deno.test("chatResponseFromOpenAI(): defaults for a sparse body, a refusal, tool calls", () => {
  assertEquals(chatResponseFromOpenAI({}, "asked"), {
    id: "",
    model: "asked",
    content: "",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0 },
  });
  const refused = chatResponseFromOpenAI({
    id: "r",
    model: "served",
    choices: [{
      message: { content: null, refusal: "I can't" },
      finish_reason: "stop",
    }],
  }, "asked");
  assertEquals([
    refused.id,
    refused.model,
    refused.content,
    refused.finishReason,
  ], [
    "r",
    "served",
    "I can't",
    "content_filter",
  ]);
  // Content wins over a refusal field; an empty refusal is none.
  const both = chatResponseFromOpenAI(
    { choices: [{ message: { content: "yes", refusal: "no" } }] },
    "m",
  );
  assertEquals([both.content, both.finishReason], ["yes", "stop"]);
  const empty = chatResponseFromOpenAI(
    { choices: [{ message: { content: null, refusal: "" } }] },
    "m",
  );
  assertEquals([empty.content, empty.finishReason], ["", "stop"]);
  const calls = chatResponseFromOpenAI({
    choices: [{
      message: {
        tool_calls: [{
          id: "c1",
          function: { name: "f", arguments: '{"x":1}' },
        }, {}],
      },
    }],
  }, "m");
  assertEquals([calls.toolCalls, calls.finishReason], [[
    { id: "c1", name: "f", args: { x: 1 } },
    { id: "", name: "", args: {} },
  ], "tool_calls"]);
  assertEquals(
    chatResponseFromOpenAI(
      { choices: [{ message: { content: "cut" }, finish_reason: "length" }] },
      "m",
    ).finishReason,
    "length",
  );
});

function fold(chunks: unknown[]): StreamEvent[] {
  const wire = new OpenAIChatStream();
  const out: StreamEvent[] = [];
  for (const c of chunks) {
    if (wire.done) break;
    wire.push({
      data: typeof c === "string" ? c : JSON.stringify(c),
      event: undefined,
      id: undefined,
    }, out);
  }
  return out;
}

Deno.test("OpenAIChatStream: text deltas, tool-call deltas joined by index, then the usage chunk and [DONE]", () => {
  const out = fold([
    { id: "m1", choices: [{ delta: { content: "Hel" } }] },
    { id: "m1", choices: [{ delta: { content: "" } }] },
    { id: "m1", choices: [{ delta: { content: "lo" } }] },
    {
      id: "m1",
      choices: [{
        delta: {
          tool_calls: [{
            index: 1,
            id: "c2",
            function: { name: "g", arguments: "" },
          }],
        },
      }],
    },
    {
      id: "m1",
      choices: [{
        delta: {
          tool_calls: [{
            index: 0,
            id: "c1",
            function: { name: "lo", arguments: '{"a"' },
          }],
        },
      }],
    },
    {
      id: "m1",
      choices: [{
        delta: {
          tool_calls: [{
            index: 0,
            function: { name: "okup", arguments: ":1}" },
          }],
        },
      }],
    },
    { id: "m1", choices: [{ delta: {}, finish_reason: "tool_calls" }] },
    {
      id: "m1",
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 2 },
    },
    "[DONE]",
    { id: "m1", choices: [{ delta: { content: "after" } }] },
  ]);
  assertEquals(out, [
    { type: "message_start", messageId: "m1" },
    { type: "text_delta", messageId: "m1", content: "Hel" },
    { type: "text_delta", messageId: "m1", content: "lo" },
    {
      type: "tool_call",
      messageId: "m1",
      call: { id: "c1", name: "lookup", args: { a: 1 } },
    },
    {
      type: "tool_call",
      messageId: "m1",
      call: { id: "c2", name: "g", args: {} },
    },
    {
      type: "message_end",
      messageId: "m1",
      finishReason: "tool_calls",
      usage: { inputTokens: 7, outputTokens: 2 },
    },
  ]);
});

Deno.test("OpenAIChatStream: calls without an index append; [DONE] with no finish reason ends by what came", () => {
  const out = fold([
    {
      id: "m",
      choices: [{
        delta: { tool_calls: [{ id: "a", function: { name: "f" } }] },
      }],
    },
    {
      id: "m",
      choices: [{
        delta: {
          tool_calls: [{ id: "b", function: { name: "g", arguments: "[1]" } }],
        },
      }],
    },
    "[DONE]",
  ]);
  assertEquals(out.slice(1), [
    {
      type: "tool_call",
      messageId: "m",
      call: { id: "a", name: "f", args: {} },
    },
    {
      type: "tool_call",
      messageId: "m",
      call: { id: "b", name: "g", args: {}, rawArgs: "[1]" },
    },
    {
      type: "message_end",
      messageId: "m",
      finishReason: "tool_calls",
      usage: { inputTokens: 0, outputTokens: 0 },
    },
  ]);
  assertEquals(fold(["[DONE]"]), [
    { type: "message_start", messageId: "" },
    {
      type: "message_end",
      messageId: "",
      finishReason: "stop",
      usage: { inputTokens: 0, outputTokens: 0 },
    },
  ]);
});

Deno.test("OpenAIChatStream: an error chunk delivers the finished calls, then the error with what was reported", () => {
  const out = fold([
    {
      id: "m",
      choices: [{
        delta: {
          tool_calls: [{
            index: 0,
            id: "c",
            function: { name: "f", arguments: "{}" },
          }],
        },
      }],
    },
    { id: "m", choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } },
    { id: "m", error: { message: "overloaded" } },
    "[DONE]",
  ]);
  assertEquals(out.map((e) => e.type), ["message_start", "tool_call", "error"]);
  const end = out[2] as Extract<StreamEvent, { type: "error" }>;
  assertEquals([end.error.message, end.usage], ["overloaded", {
    inputTokens: 3,
    outputTokens: 1,
  }]);
  const bare = fold([{ error: {} }]);
  assertEquals(bare.map((e) => e.type), ["message_start", "error"]);
  assertEquals(
    (bare[1] as Extract<StreamEvent, { type: "error" }>).error.message.length >
      0,
    true,
  );
  // Calls flushed at the finish reason are not delivered twice by the end.
  const once = fold([
    {
      id: "m",
      choices: [{
        delta: { tool_calls: [{ index: 0, id: "c", function: { name: "f" } }] },
        finish_reason: "stop",
      }],
    },
    "[DONE]",
  ]);
  assertEquals(once.map((e) => e.type), [
    "message_start",
    "tool_call",
    "message_end",
  ]);
  assertEquals(
    (once[2] as Extract<StreamEvent, { type: "message_end" }>).finishReason,
    "stop",
  );
});

Deno.test("OpenAIChatStream: sparse chunks (no choices, no delta, no function, no id, a gap in the indexes) fold without loss", () => {
  const out = fold([
    { id: "e1", choices: [{ delta: { tool_calls: [{ index: 2 }] } }] },
    { id: "e1", choices: [{ delta: { tool_calls: [{ index: 2, function: { name: "f" } }] } }] },
    { id: "e1", usage: { prompt_tokens: 4, completion_tokens: 1 } },
    { id: "e1", choices: [{ finish_reason: "tool_calls" }] },
    { id: "e1", choices: [{ delta: {} }] },
    "[DONE]",
  ]);
  assertEquals(out, [
    { type: "message_start", messageId: "e1" },
    { type: "tool_call", messageId: "e1", call: { id: "", name: "f", args: {} } },
    {
      type: "message_end",
      messageId: "e1",
      finishReason: "tool_calls",
      usage: { inputTokens: 4, outputTokens: 1 },
    },
  ]);
  // An error as the very first chunk still opens the message under its id.
  assertEquals(fold([{ id: "e2", error: { message: "x" } }])[0], {
    type: "message_start",
    messageId: "e2",
  });
});
