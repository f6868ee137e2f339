// The OpenAI Chat Completions wire, client side, called directly: the request
// JSON, the blocking answer and the fold of streamed chunks, edge by edge.
import { assert, assertEquals, assertThrows } from "@std/assert";
import {
  type ChatRequest,
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
} from "@agentkit/testing/ports";
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
  assertEquals(chatResponseFromOpenAI({ choices: [{ message: { content: "" } }] }, "asked"), {
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
    { choices: [{ message: { content: "", refusal: "" } }] },
    "m",
  );
  assertEquals([empty.content, empty.finishReason], ["", "stop"]);
  const calls = chatResponseFromOpenAI({
    choices: [{
      message: {
        tool_calls: [{
          id: "c1",
          function: { name: "f", arguments: '{"x":1}' },
        }, { id: "c2", function: { name: "g", arguments: { y: 2 } } }],
      },
    }],
  }, "m");
  assertEquals([calls.toolCalls, calls.finishReason], [[
    { id: "c1", name: "f", args: { x: 1 } },
    // Arguments sent as an object (some compatible servers) are the arguments.
    { id: "c2", name: "g", args: { y: 2 } },
  ], "tool_calls"]);
  assertEquals(
    chatResponseFromOpenAI(
      { choices: [{ message: { content: "cut" }, finish_reason: "length" }] },
      "m",
    ).finishReason,
    "length",
  );
});

Deno.test("chatResponseFromOpenAI(): a body that is not the API's shape is a ProviderResponseError naming the field", () => {
  const bad: Array<[unknown, string]> = [
    [{}, "choices must be a non-empty array"],
    [{ choices: [] }, "choices must be a non-empty array"],
    [[], "the body must be an object"],
    ["ok", "the body must be an object"],
    [42, "the body must be an object"],
    [null, "the body must be an object"],
    [{ choices: "x" }, "choices must be a non-empty array"],
    [{ choices: [{}] }, "choices[0].message must be an object"],
    [{ choices: ["x"] }, "choices[0] must be an object"],
    [{ choices: [{ message: "hi" }] }, "choices[0].message must be an object"],
    [{ choices: [{ message: { content: null } }] }, "must carry content, a refusal or tool_calls"],
    [{ choices: [{ message: { content: 7 } }] }, "choices[0].message.content must be a string"],
    [{ choices: [{ message: { tool_calls: [{}] } }] }, "tool_calls[0].function must be an object"],
    [
      { choices: [{ message: { tool_calls: [{ function: { name: "" } }] } }] },
      "must name the tool",
    ],
    [
      { choices: [{ message: { tool_calls: [{ function: { name: "f", arguments: 5 } }] } }] },
      "arguments must be a string of JSON",
    ],
    [
      { choices: [{ message: { content: "a" } }], usage: { prompt_tokens: "7" } },
      "usage.prompt_tokens must be a non-negative integer",
    ],
    [
      { choices: [{ message: { content: "a" } }], usage: { completion_tokens: -2 } },
      "usage.completion_tokens",
    ],
    [{
      choices: [{ message: { content: "a" } }],
      usage: { prompt_tokens: 3, prompt_tokens_details: { cached_tokens: 10 } },
    }, "must not exceed usage.prompt_tokens"],
  ];
  for (const [body, says] of bad) {
    const e = assertThrows(() => chatResponseFromOpenAI(body, "m"), ProviderResponseError);
    assert(e.message.includes(says), `${JSON.stringify(body)}: ${e.message}`);
    assertEquals([e.retryable, e.phase], [false, "pre_stream"]);
  }
  const server = assertThrows(
    () => chatResponseFromOpenAI({ error: { message: "boom", type: "server_error" } }, "m"),
    ProviderError,
  );
  assertEquals([server.retryable, server.phase], [true, "pre_stream"]);
  assertThrows(
    () => chatResponseFromOpenAI({ error: { message: "no", type: "insufficient_quota" } }, "m"),
    ProviderResponseError,
    "add credit",
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
  assertEquals([end.error.message, end.usage], ["OpenAI reported an error: overloaded", {
    inputTokens: 3,
    outputTokens: 1,
  }]);
  assertEquals((end.error as ProviderError).phase, "mid_stream");
  // Before any content, the error is thrown pre_stream, so retry() can act on it.
  const bare = assertThrows(() => fold([{ error: {} }]), ProviderError);
  assert(bare.message.length > 0);
  assertEquals(bare.phase, "pre_stream");
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
  // An error as the very first chunk is classified by its type, before any content.
  const limited = assertThrows(
    () => fold([{ id: "e2", error: { message: "x", code: "rate_limit_exceeded" } }]),
    RateLimitError,
  );
  assertEquals([limited.phase, limited.retryable], ["pre_stream", true]);
});

// SPEC §20: reasoning text and reasoning tokens from compatible servers.

Deno.test("usageFromOpenAI(): reasoning tokens are a part of the completion, checked by path", () => {
  assertEquals(
    usageFromOpenAI({
      prompt_tokens: 10,
      completion_tokens: 30,
      completion_tokens_details: { reasoning_tokens: 30 },
    }),
    { inputTokens: 10, outputTokens: 30, reasoningTokens: 30 },
  );
  for (const details of [null, undefined, {}, { reasoning_tokens: 0 }]) {
    assertEquals(
      usageFromOpenAI({
        prompt_tokens: 1,
        completion_tokens: 2,
        completion_tokens_details: details,
      }),
      { inputTokens: 1, outputTokens: 2 },
    );
  }
  // A server that counts reasoning beside the completion: not a part of it, left out.
  assertEquals(
    usageFromOpenAI({
      prompt_tokens: 1,
      completion_tokens: 2,
      completion_tokens_details: { reasoning_tokens: 3 },
    }),
    { inputTokens: 1, outputTokens: 2 },
  );
  const e = assertThrows(
    () => usageFromOpenAI({ completion_tokens_details: { reasoning_tokens: "3" } }),
    Error,
  );
  assert(e.message.includes("usage.completion_tokens_details.reasoning_tokens must be"), e.message);
  const o = assertThrows(() => usageFromOpenAI({ completion_tokens_details: 3 }), Error);
  assert(o.message.includes("usage.completion_tokens_details must be an object"), o.message);
});

Deno.test("chatResponseFromOpenAI(): reasoning_content or reasoning is the reasoning, never the text", () => {
  const answer = (message: Record<string, unknown>, finish = "stop") =>
    chatResponseFromOpenAI({ choices: [{ message, finish_reason: finish }] }, "m");
  const ds = answer({ content: "9.8", reasoning_content: "compare" });
  assertEquals([ds.content, ds.reasoning], ["9.8", "compare"]);
  const or = answer({ content: "hi", reasoning: "greet" });
  assertEquals([or.content, or.reasoning], ["hi", "greet"]);
  // Both: reasoning_content wins; an object under `reasoning` is no text.
  assertEquals(answer({ content: "a", reasoning_content: "x", reasoning: "y" }).reasoning, "x");
  assertEquals(answer({ content: "a", reasoning: { effort: "low" } }).reasoning, undefined);
  assertEquals(answer({ content: "a", reasoning_content: "" }).reasoning, undefined);
  // An answer that only reasoned (cut at its cap, or a server that sent no text) is no error.
  const only = answer({ content: null, reasoning_content: "thinking..." });
  assertEquals([only.content, only.reasoning, only.finishReason], ["", "thinking...", "stop"]);
  assertThrows(() => answer({ content: null, reasoning: { x: 1 } }), Error, "must carry content");
});
