// Answers a provider, a proxy or a gateway really sends when something is
// wrong, served from 127.0.0.1 to our ports and to the official clients side
// by side. Each case is one HTTP answer; `hostile_provider_test.ts` runs them
// and docs/providers.md's "When the provider misbehaves" tables are what it
// measured (a test keeps the two equal).
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { ProviderError, type StreamEvent } from "@agentkit/testing/ports";
import {
  Agent,
  AnthropicLLM,
  GeminiLLM,
  Invoker,
  OpenAIChatLLM,
  OpenAIResponsesLLM,
  retry,
  RetryAfterTooLong,
  RunContext,
  Services,
} from "@agentkit/testing/runtime";
import { FakeClock } from "@agentkit/testing/testing";

export type Api = "openai" | "anthropic" | "gemini" | "responses";

/** One hostile answer. */
export interface HostileCase {
  readonly name: string;
  readonly api: Api;
  readonly stream: boolean;
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** The body, or its chunks (each written as it is, for a stream). */
  readonly body: string | readonly string[];
  /** The outcome of our port, as {@linkcode outcomeOfPort} writes it. */
  readonly ours: string;
}

const json = { "content-type": "application/json" };
const sse = { "content-type": "text/event-stream" };
const html = { "content-type": "text/html" };
const data = (v: unknown) => `data: ${typeof v === "string" ? v : JSON.stringify(v)}\n\n`;
const event = (name: string, v: unknown) => `event: ${name}\ndata: ${JSON.stringify(v)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  data({ id: "c", choices: [{ index: 0, delta: d, finish_reason: finish }] });
const start = event("message_start", {
  type: "message_start",
  message: { id: "msg", usage: { input_tokens: 5, output_tokens: 1 } },
});
const stop = event("message_stop", { type: "message_stop" });
const ok = { choices: [{ message: { content: "fine" }, finish_reason: "stop" }] };
// Gemini's SSE frames end in CRLF CRLF.
const chunk = (v: unknown) => `data: ${typeof v === "string" ? v : JSON.stringify(v)}\r\n\r\n`;
const parts = (p: unknown[], finishReason?: string) => ({
  candidates: [{ content: { role: "model", parts: p }, ...(finishReason ? { finishReason } : {}) }],
});
const retryInfo = (delay: string) =>
  JSON.stringify({
    error: {
      code: 429,
      message: "You exceeded your current quota.",
      status: "RESOURCE_EXHAUSTED",
      details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay }],
    },
  });

const MALFORMED = "ProviderResponseError, pre_stream";

export const CASES: readonly HostileCase[] = [
  // OpenAI Chat Completions, blocking.
  { api: "openai", stream: false, name: "200 `{}`", headers: json, body: "{}", ours: MALFORMED },
  {
    api: "openai",
    stream: false,
    name: "200 `choices: []`",
    headers: json,
    body: '{"choices":[]}',
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "200, a choice without `message`",
    headers: json,
    body: '{"choices":[{"finish_reason":"stop"}]}',
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "200, `content: null` and no calls",
    headers: json,
    body: '{"choices":[{"message":{"content":null},"finish_reason":"stop"}]}',
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "200, `message` a string",
    headers: json,
    body: '{"choices":[{"message":"hi"}]}',
    ours: MALFORMED,
  },
  { api: "openai", stream: false, name: "200 `[]`", headers: json, body: "[]", ours: MALFORMED },
  {
    api: "openai",
    stream: false,
    name: '200 `"ok"`',
    headers: json,
    body: '"ok"',
    ours: MALFORMED,
  },
  { api: "openai", stream: false, name: "200 `42`", headers: json, body: "42", ours: MALFORMED },
  {
    api: "openai",
    stream: false,
    name: "200 `null`",
    headers: json,
    body: "null",
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "200 with an error object (a gateway)",
    headers: json,
    body: '{"error":{"message":"upstream overloaded","type":"server_error"}}',
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "openai",
    stream: false,
    name: "200 HTML (a proxy page)",
    headers: html,
    body: "<html>Welcome</html>",
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "200 empty body",
    headers: json,
    body: "",
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "usage counts as strings",
    headers: json,
    body: JSON.stringify({ ...ok, usage: { prompt_tokens: "7", completion_tokens: 2 } }),
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "a negative token count",
    headers: json,
    body: JSON.stringify({ ...ok, usage: { prompt_tokens: -3, completion_tokens: 2 } }),
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "`cached_tokens` above `prompt_tokens`",
    headers: json,
    body: JSON.stringify({
      ...ok,
      usage: {
        prompt_tokens: 3,
        completion_tokens: 1,
        prompt_tokens_details: { cached_tokens: 10 },
      },
    }),
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: false,
    name: "tool arguments as an object",
    headers: json,
    body: JSON.stringify({
      choices: [{
        message: {
          content: null,
          tool_calls: [{
            id: "c1",
            type: "function",
            function: { name: "f", arguments: { a: 1 } },
          }],
        },
        finish_reason: "tool_calls",
      }],
    }),
    ours: 'answer "", calls f {"a":1}, tool_calls',
  },
  {
    api: "openai",
    stream: false,
    name: "429, `retry-after` an HTTP date",
    status: 429,
    headers: {
      ...json,
      "retry-after": "Tue, 01 Dec 2026 12:00:30 GMT",
      date: "Tue, 01 Dec 2026 12:00:00 GMT",
    },
    body: '{"error":{"message":"slow down"}}',
    ours: "RateLimitError (retryable), pre_stream, retryAfterMs 30000",
  },
  {
    api: "openai",
    stream: false,
    name: "429, `retry-after: 99999999`, under retry()",
    status: 429,
    headers: { ...json, "retry-after": "99999999" },
    body: '{"error":{"message":"quota"}}',
    ours: "RetryAfterTooLong, pre_stream",
  },
  {
    api: "openai",
    stream: false,
    name: "502 HTML (a gateway)",
    status: 502,
    headers: html,
    body: "<html><h1>502 Bad Gateway</h1></html>",
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "openai",
    stream: false,
    name: "400 plain text",
    status: 400,
    headers: { "content-type": "text/plain" },
    body: "bad request",
    ours: "ProviderResponseError, pre_stream",
  },
  // OpenAI Chat Completions, streamed.
  {
    api: "openai",
    stream: true,
    name: "stream: an empty 200",
    headers: sse,
    body: "",
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "openai",
    stream: true,
    name: "stream: answered with blocking JSON",
    headers: json,
    body: JSON.stringify(ok),
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: true,
    name: "stream: answered with a JSON error",
    headers: json,
    body: '{"error":{"message":"overloaded","type":"server_error"}}',
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "openai",
    stream: true,
    name: "stream: answered with HTML",
    headers: html,
    body: "<html>login</html>",
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: true,
    name: "stream: the first event is an error",
    headers: sse,
    body: [data({ error: { message: "rate limited", code: "rate_limit_exceeded" } })],
    ours: "RateLimitError (retryable), pre_stream",
  },
  {
    api: "openai",
    stream: true,
    name: "stream: `delta.refusal`",
    headers: sse,
    body: [delta({ refusal: "I can't help" }), delta({}, "stop"), data("[DONE]")],
    ours: 'stream "I can\'t help", content_filter',
  },
  {
    api: "openai",
    stream: true,
    name: "stream: arguments as an object",
    headers: sse,
    body: [
      delta({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: { a: 1 } } }] }),
      delta({}, "tool_calls"),
      data("[DONE]"),
    ],
    ours: 'stream "", calls f {"a":1}, tool_calls',
  },
  {
    api: "openai",
    stream: true,
    name: "stream: content a number",
    headers: sse,
    body: [delta({ content: 42 }), data("[DONE]")],
    ours: MALFORMED,
  },
  {
    api: "openai",
    stream: true,
    name: "stream: cut after content",
    headers: sse,
    body: [delta({ content: "Hel" })],
    ours: 'stream "Hel", then error event ProviderError, mid_stream',
  },
  {
    api: "openai",
    stream: true,
    name: "stream: a data line that is not JSON",
    headers: sse,
    body: [delta({ content: "a" }), data("{oops")],
    ours: 'stream "a", then error event ProviderResponseError, mid_stream',
  },
  // Anthropic Messages, blocking.
  { api: "anthropic", stream: false, name: "200 `{}`", headers: json, body: "{}", ours: MALFORMED },
  {
    api: "anthropic",
    stream: false,
    name: "200, a text block without text",
    headers: json,
    body: '{"content":[{"type":"text"}],"stop_reason":"end_turn"}',
    ours: MALFORMED,
  },
  {
    api: "anthropic",
    stream: false,
    name: "200, tool_use without `input`'s object",
    headers: json,
    body: '{"content":[{"type":"tool_use","id":"t","name":"f","input":"x"}]}',
    ours: MALFORMED,
  },
  {
    api: "anthropic",
    stream: false,
    name: "200 with an error body (`overloaded_error`)",
    headers: json,
    body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "anthropic",
    stream: false,
    name: "usage counts as strings",
    headers: json,
    body:
      '{"content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":"7","output_tokens":0}}',
    ours: MALFORMED,
  },
  {
    api: "anthropic",
    stream: false,
    name: "529 overloaded",
    status: 529,
    headers: json,
    body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    ours: "ProviderError (retryable), pre_stream",
  },
  // Anthropic Messages, streamed.
  {
    api: "anthropic",
    stream: true,
    name: "stream: the first event is `overloaded_error`",
    headers: sse,
    body: [
      event("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    ],
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "anthropic",
    stream: true,
    name: "stream: an empty 200",
    headers: sse,
    body: "",
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "anthropic",
    stream: true,
    name: "stream: tool_use without `content_block_stop`",
    headers: sse,
    body: [
      start,
      event("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "t", name: "f" },
      }),
      event("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"a":1}' },
      }),
      event("message_delta", {
        type: "message_delta",
        delta: { stop_reason: "tool_use" },
        usage: { output_tokens: 9 },
      }),
      stop,
    ],
    ours: 'stream "", calls f {"a":1}, tool_calls',
  },
  {
    api: "anthropic",
    stream: true,
    name: "stream: an orphan `input_json_delta`",
    headers: sse,
    body: [
      start,
      event("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "x" },
      }),
      event("content_block_delta", {
        type: "content_block_delta",
        index: 3,
        delta: { type: "input_json_delta", partial_json: "{}" },
      }),
      stop,
    ],
    ours: 'stream "x", then error event ProviderResponseError, mid_stream',
  },
  {
    api: "anthropic",
    stream: true,
    name: "stream: usage counts as strings",
    headers: sse,
    body: [
      event("message_start", {
        type: "message_start",
        message: { id: "m", usage: { input_tokens: "7" } },
      }),
      stop,
    ],
    ours: MALFORMED,
  },
  // Gemini generateContent, blocking.
  { api: "gemini", stream: false, name: "200 `{}`", headers: json, body: "{}", ours: MALFORMED },
  {
    api: "gemini",
    stream: false,
    name: "200 `candidates: []`",
    headers: json,
    body: '{"candidates":[]}',
    ours: MALFORMED,
  },
  {
    api: "gemini",
    stream: false,
    name: "200, a candidate without content or finishReason",
    headers: json,
    body: '{"candidates":[{"index":0}]}',
    ours: MALFORMED,
  },
  {
    api: "gemini",
    stream: false,
    name: "200, a part's `text` a number",
    headers: json,
    body: JSON.stringify(parts([{ text: 7 }], "STOP")),
    ours: MALFORMED,
  },
  {
    api: "gemini",
    stream: false,
    name: "200 with an error object (a gateway)",
    headers: json,
    body: '{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}',
    ours: "ProviderError (retryable), pre_stream",
  },
  {
    api: "gemini",
    stream: false,
    name: "200 HTML (a proxy page)",
    headers: html,
    body: "<html><body>Sign in</body></html>",
    ours: MALFORMED,
  },
  {
    api: "gemini",
    stream: false,
    name: "usage counts as strings",
    headers: json,
    body: JSON.stringify({
      ...parts([{ text: "fine" }], "STOP"),
      usageMetadata: { promptTokenCount: "7" },
    }),
    ours: MALFORMED,
  },
  {
    api: "gemini",
    stream: false,
    name: "a blocked prompt (`promptFeedback.blockReason`)",
    headers: json,
    body: '{"promptFeedback":{"blockReason":"SAFETY"}}',
    ours: 'answer "", content_filter',
  },
  {
    api: "gemini",
    stream: false,
    name: "429 `RESOURCE_EXHAUSTED`, RetryInfo 30s",
    status: 429,
    headers: json,
    body: retryInfo("30s"),
    ours: "RateLimitError (retryable), pre_stream, retryAfterMs 30000",
  },
  {
    api: "gemini",
    stream: false,
    name: "429, RetryInfo 86400s, under retry()",
    status: 429,
    headers: json,
    body: retryInfo("86400s"),
    ours: "RetryAfterTooLong, pre_stream",
  },
  {
    api: "gemini",
    stream: false,
    name: "503 `UNAVAILABLE`",
    status: 503,
    headers: json,
    body: '{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}',
    ours: "ProviderError (retryable), pre_stream",
  },
  // Gemini streamGenerateContent?alt=sse.
  {
    api: "gemini",
    stream: true,
    name: "stream: cut after content (no finishReason)",
    headers: sse,
    body: [chunk(parts([{ text: "Hi" }]))],
    ours: 'stream "Hi", then error event ProviderError, mid_stream',
  },
  {
    api: "gemini",
    stream: true,
    name: "stream: an error chunk after content",
    headers: sse,
    body: [
      chunk(parts([{ text: "Hi" }])),
      chunk({ error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } }),
    ],
    ours: 'stream "Hi", then error event ProviderResponseError, mid_stream',
  },
  {
    api: "gemini",
    stream: true,
    name: "stream: a data line that is not JSON",
    headers: sse,
    body: [chunk(parts([{ text: "Hi" }])), chunk("{oops")],
    ours: 'stream "Hi", then error event ProviderResponseError, mid_stream',
  },
  {
    api: "gemini",
    stream: true,
    name: "stream: a JSON error document instead of SSE",
    status: 200,
    headers: json,
    body: retryInfo("2s"),
    ours: "RateLimitError (retryable), pre_stream, retryAfterMs 2000",
  },
  {
    api: "gemini",
    stream: true,
    name: "stream: a signed call without an id, then STOP",
    headers: sse,
    body: [
      chunk(parts([{ functionCall: { name: "f", args: { a: 1 } }, thoughtSignature: "c2ln" }])),
      chunk({ ...parts([{ text: "" }], "STOP"), usageMetadata: { promptTokenCount: 3 } }),
    ],
    ours: 'stream "", calls f {"a":1}, tool_calls',
  },
  // OpenAI Responses (SPEC §20): the Response object and its response.* events.
  ...RESPONSES_CASES(),
];

function RESPONSES_CASES(): HostileCase[] {
  const r = (fields: Record<string, unknown>) => ({
    id: "resp_1",
    object: "response",
    status: "completed",
    model: "m",
    output: [],
    ...fields,
  });
  const msg = (text: string) => ({
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  });
  const ev = (type: string, fields: Record<string, unknown>) => event(type, { type, ...fields });
  const created = ev("response.created", { response: r({ status: "in_progress" }) });
  const textDelta = (delta: string) =>
    ev("response.output_text.delta", {
      item_id: "msg_1",
      output_index: 0,
      content_index: 0,
      delta,
    });
  const usage = { input_tokens: 5, output_tokens: 2 };
  return [
    {
      api: "responses",
      stream: false,
      name: "200 `{}`",
      headers: json,
      body: "{}",
      ours: MALFORMED,
    },
    {
      api: "responses",
      stream: false,
      name: "200, `output: []` and completed",
      headers: json,
      body: JSON.stringify(r({ usage })),
      ours: MALFORMED,
    },
    {
      api: "responses",
      stream: false,
      name: "200, a failed response (`server_error`)",
      headers: json,
      body: JSON.stringify(
        r({ status: "failed", error: { code: "server_error", message: "The model failed." } }),
      ),
      ours: "ProviderError (retryable), pre_stream",
    },
    {
      api: "responses",
      stream: false,
      name: "usage counts as strings",
      headers: json,
      body: JSON.stringify(r({ output: [msg("fine")], usage: { input_tokens: "5" } })),
      ours: MALFORMED,
    },
    {
      api: "responses",
      stream: false,
      name: "200, incomplete at `max_output_tokens`",
      headers: json,
      body: JSON.stringify(
        r({
          status: "incomplete",
          incomplete_details: { reason: "max_output_tokens" },
          output: [msg("Parti")],
          usage,
        }),
      ),
      ours: 'answer "Parti", length',
    },
    {
      api: "responses",
      stream: false,
      name: "429 with `retry-after-ms`",
      status: 429,
      headers: { ...json, "retry-after-ms": "1500" },
      body: JSON.stringify({
        error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
      }),
      ours: "RateLimitError (retryable), pre_stream, retryAfterMs 1500",
    },
    {
      api: "responses",
      stream: true,
      name: "stream: an empty 200",
      headers: sse,
      body: "",
      ours: "ProviderError (retryable), pre_stream",
    },
    {
      api: "responses",
      stream: true,
      name: "stream: the first event is an error",
      headers: sse,
      body: [
        created,
        ev("error", { code: "rate_limit_exceeded", message: "Slow down", param: null }),
      ],
      ours: "RateLimitError (retryable), pre_stream",
    },
    {
      api: "responses",
      stream: true,
      name: "stream: `response.failed` before content",
      headers: sse,
      body: [
        created,
        ev("response.failed", {
          response: r({ status: "failed", error: { code: "server_error", message: "x" } }),
        }),
      ],
      ours: "ProviderError (retryable), pre_stream",
    },
    {
      api: "responses",
      stream: true,
      name: "stream: cut after content",
      headers: sse,
      body: [created, textDelta("Hel")],
      ours: 'stream "Hel", then error event ProviderError, mid_stream',
    },
    {
      api: "responses",
      stream: true,
      name: "stream: a data line that is not JSON",
      headers: sse,
      body: [created, textDelta("a"), data("{not json")],
      ours: 'stream "a", then error event ProviderResponseError, mid_stream',
    },
    {
      api: "responses",
      stream: true,
      name: "stream: incomplete by `content_filter`",
      headers: sse,
      body: [
        created,
        textDelta("x"),
        ev("response.incomplete", {
          response: r({
            status: "incomplete",
            incomplete_details: { reason: "content_filter" },
            output: [msg("x")],
            usage,
          }),
        }),
      ],
      ours: 'stream "x", content_filter',
    },
  ];
}

/** Our port for `api`, at `baseURL`. */
export function portFor(
  api: Api,
  baseURL: string,
): OpenAIChatLLM | AnthropicLLM | GeminiLLM | OpenAIResponsesLLM {
  if (api === "responses") {
    return new OpenAIResponsesLLM({ apiKey: "sk-test", baseURL: `${baseURL}/v1` });
  }
  return api === "openai"
    ? new OpenAIChatLLM({ apiKey: "sk-test", baseURL: `${baseURL}/v1` })
    : api === "gemini"
    ? new GeminiLLM({ apiKey: "AIza-test", baseURL: `${baseURL}/v1beta` })
    : new AnthropicLLM({ apiKey: "sk-ant-test", baseURL });
}

function describeError(e: unknown): string {
  if (e instanceof ProviderError) {
    const extra = e instanceof Error && "retryAfterMs" in e && typeof e.retryAfterMs === "number" &&
        e.name === "RateLimitError"
      ? `, retryAfterMs ${e.retryAfterMs}`
      : "";
    return `${e.name}${e.retryable ? " (retryable)" : ""}, ${e.phase}${extra}`;
  }
  return `${(e as Error)?.name ?? typeof e}: ${(e as Error)?.message ?? e}`;
}

function calls(list: readonly { name: string; args: unknown; rawArgs?: string }[]): string {
  return list.length
    ? `, calls ${list.map((c) => `${c.name} ${c.rawArgs ?? JSON.stringify(c.args)}`).join("; ")}`
    : "";
}

const request = (model: string) => ({
  model,
  messages: [{ role: "user" as const, content: "hi" }],
});

/** What our port made of a case: an answer, a thrown error, or an error event. */
export async function outcomeOfPort(c: HostileCase, baseURL: string): Promise<string> {
  const port = portFor(c.api, baseURL);
  const ctx = new RunContext({ services: new Services({ clock: new FakeClock() }) });
  try {
    if (c.name.includes("under retry()")) {
      // The runtime path: retry() reads the hint and refuses to sleep for a day.
      const agentCtx = new RunContext({
        services: new Services({
          clock: new FakeClock(),
          invoker: new Invoker({
            llm: port,
            chatMiddleware: [retry()],
          }),
        }),
      });
      await new Agent("a", { model: "m" }).run("hi", agentCtx);
      return "answered";
    }
    if (!c.stream) {
      const r = await port.chat(request("m"), ctx);
      return `answer ${JSON.stringify(r.content)}${calls(r.toolCalls)}, ${r.finishReason}`;
    }
    const events: StreamEvent[] = await Array.fromAsync(port.stream(request("m"), ctx));
    const text = events.flatMap((e) => e.type === "text_delta" ? [e.content] : []).join("");
    const made = events.flatMap((e) => e.type === "tool_call" ? [e.call] : []);
    const last = events.at(-1);
    if (last?.type === "error") {
      return `stream ${JSON.stringify(text)}, then error event ${describeError(last.error)}`;
    }
    if (last?.type !== "message_end") return `stream ended without message_end`;
    return `stream ${JSON.stringify(text)}${calls(made)}, ${last.finishReason}`;
  } catch (e) {
    return e instanceof RetryAfterTooLong ? `RetryAfterTooLong, ${e.phase}` : describeError(e);
  }
}

/** What the official client made of a case, in the same words where they apply. */
export async function outcomeOfClient(c: HostileCase, baseURL: string): Promise<string> {
  // An official client leaves some bodies unread (a stream answered with a
  // JSON document): they are released here, so the leak sanitizer judges ours.
  const responses: Response[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const r = await globalThis.fetch(input, init);
    responses.push(r);
    return r;
  };
  try {
    return await clientOutcome(c, baseURL, fetch);
  } finally {
    // (@google/genai stops reading a stream at an error chunk, releasing the
    // reader but leaving the body open: it is cancelled here too.)
    for (const r of responses) if (!r.body?.locked) await r.body?.cancel().catch(() => {});
  }
}

async function clientOutcome(
  c: HostileCase,
  baseURL: string,
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>,
): Promise<string> {
  try {
    if (c.api === "responses") {
      const client = new OpenAI({
        apiKey: "sk-test",
        baseURL: `${baseURL}/v1`,
        maxRetries: 0,
        fetch,
      });
      if (!c.stream) {
        const r = await client.responses.create({ model: "m", input: "hi" });
        return `answer ${JSON.stringify(r?.output_text)}, ${r?.status}`;
      }
      const s = await client.responses.create({ model: "m", input: "hi", stream: true });
      let text = "";
      let status: unknown;
      for await (const e of s) {
        if (e?.type === "response.output_text.delta") text += e.delta;
        if (e?.type === "response.completed" || e?.type === "response.incomplete") {
          status = e.response?.status;
        }
      }
      return `stream ${JSON.stringify(text)}, ${status ?? "no status"}`;
    }
    if (c.api === "openai") {
      const client = new OpenAI({
        apiKey: "sk-test",
        baseURL: `${baseURL}/v1`,
        maxRetries: 0,
        fetch,
      });
      if (!c.stream) {
        const r = await client.chat.completions.create(request("m"));
        const m = r?.choices?.[0]?.message;
        const tc = m?.tool_calls?.map((t) =>
          `${(t as { function: { name: string } }).function.name} ${
            JSON.stringify((t as { function: { arguments: unknown } }).function.arguments)
          }`
        );
        return `answer ${JSON.stringify(m?.content)}${
          tc?.length ? `, calls ${tc.join("; ")}` : ""
        }, ${r?.choices?.[0]?.finish_reason}`;
      }
      const s = await client.chat.completions.create({ ...request("m"), stream: true });
      let text = "";
      let finish: unknown;
      for await (const chunk of s) {
        const d = chunk?.choices?.[0]?.delta;
        text += d?.content ?? "";
        finish = chunk?.choices?.[0]?.finish_reason ?? finish;
      }
      return `stream ${JSON.stringify(text)}, ${finish ?? "no finish reason"}`;
    }
    if (c.api === "gemini") {
      const client = new GoogleGenAI({
        apiKey: "AIza-test",
        httpOptions: { baseUrl: baseURL, fetch },
      });
      if (!c.stream) {
        const r = await client.models.generateContent({ model: "m", contents: "hi" });
        return `answer ${JSON.stringify(r?.text)}, ${r?.candidates?.[0]?.finishReason}`;
      }
      const s = await client.models.generateContentStream({ model: "m", contents: "hi" });
      let text = "";
      let finish: unknown;
      for await (const r of s) {
        // The parts' text, as r.text would give it, without its warning about calls.
        for (const p of r?.candidates?.[0]?.content?.parts ?? []) text += p.text ?? "";
        finish = r?.candidates?.[0]?.finishReason ?? finish;
      }
      return `stream ${JSON.stringify(text)}, ${finish ?? "no finish reason"}`;
    }
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL, maxRetries: 0, fetch });
    if (!c.stream) {
      const r = await client.messages.create({ ...request("m"), max_tokens: 16 });
      const text = (r?.content ?? []).map((b) => (b as { text?: string }).text ?? "").join("");
      return `answer ${JSON.stringify(text)}, ${r?.stop_reason}`;
    }
    const s = await client.messages.create({ ...request("m"), max_tokens: 16, stream: true });
    let text = "";
    let stopReason: unknown;
    for await (const e of s) {
      if (e.type === "content_block_delta" && e.delta.type === "text_delta") text += e.delta.text;
      if (e.type === "message_delta") stopReason = e.delta.stop_reason;
    }
    return `stream ${JSON.stringify(text)}, ${stopReason ?? "no stop reason"}`;
  } catch (e) {
    return (e as Error)?.constructor?.name ?? String(e);
  }
}

/** Serves each case at `/case/<i>` on 127.0.0.1. */
export function serveCases(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const i = Number(new URL(req.url).pathname.split("/")[2]);
    const c = CASES[i];
    const body = c.body;
    if (typeof body === "string") {
      return new Response(body === "" ? null : body, {
        status: c.status ?? 200,
        headers: c.headers,
      });
    }
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of body) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(stream, { status: c.status ?? 200, headers: c.headers });
  });
}
