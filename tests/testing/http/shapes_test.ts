// Every answer of every wire, held against the shape catalogue
// (testing/http/_shapes.ts): blocking and streamed; text, one tool call,
// parallel calls, usage with a cache, reasoning, refusals and filters, the
// misbehaviours, errors before and during a stream. An always-present field
// missing, a field of the wrong type, or an event kind the catalogue does
// not know fails here.
import { assert, assertEquals, assertThrows } from "@std/assert";
import { ProviderResponseError, RateLimitError, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, misbehave, type Turn } from "@agentkit/testing/testing";
import { type Shape, shapeOf, shapeProblems, SHAPES } from "../../../testing/http/_shapes.ts";
import type { ProviderApi } from "../../../testing/http/_wire.ts";

const TOOLS = ["lookup", "probe"];

// One turn of each kind the fake can answer.
const TURNS: Record<string, Turn> = {
  text: { chunks: ["Hel", "lo"] },
  empty: { content: "" },
  oneCall: { toolCalls: [toolCall("call_a1", "lookup", { host: "a" })] },
  textThenCall: { content: "Checking.", toolCalls: [toolCall("call_b1", "lookup", {})] },
  parallel: {
    toolCalls: [toolCall("call_p1", "lookup", { host: "a" }), toolCall("call_p2", "probe", {})],
  },
  usage: { content: "x", usage: { inputTokens: 30, outputTokens: 4, cachedInputTokens: 12 } },
  thoughtUsage: {
    content: "x",
    reasoning: "hm",
    usage: { inputTokens: 30, outputTokens: 10, reasoningTokens: 6, cacheWriteInputTokens: 5 },
  },
  length: { content: "cut", finishReason: "length" },
  reasoning: { content: "yes", reasoning: "let me think" },
  refusal: misbehave.refusal(),
  contentFilter: misbehave.contentFilter(),
  reasoningOnly: misbehave.reasoningOnly(),
  invalidToolJson: misbehave.invalidToolJson("lookup"),
  unknownTool: misbehave.unknownTool(),
  duplicateCallIds: misbehave.duplicateCallIds("lookup"),
  lengthMidToolCall: misbehave.lengthMidToolCall("lookup"),
  malformedToolCall: misbehave.malformedToolCall(),
  emptyAnswer: misbehave.emptyAnswer(),
  midStreamError: { chunks: ["par"], error: "boom", finishReason: "length" },
  rateLimit: { error: new RateLimitError("slow down", { retryAfterMs: 1500 }) },
  badRequest: { error: new ProviderResponseError("bad thing", { status: 400 }) },
};

interface Api {
  readonly api: ProviderApi;
  path(stream: boolean, model: string): string;
  body(stream: boolean, model: string): Record<string, unknown>;
  headers: Record<string, string>;
  models: readonly string[];
  // The kinds one answer's JSON is, given the SSE event name (if any) and the status.
  kinds(data: Record<string, unknown>, event: string | undefined, status: number): string[];
}

const hi = [{ role: "user", content: "hi" }];

const APIS: Api[] = [
  {
    api: "chat.completions",
    path: () => "/v1/chat/completions",
    body: (stream) => ({
      model: "gpt-4o",
      messages: hi,
      tools: TOOLS.map((name) => ({
        type: "function",
        function: { name, parameters: { type: "object", properties: {} } },
      })),
      ...(stream ? { stream, stream_options: { include_usage: true } } : {}),
    }),
    headers: { authorization: "Bearer sk-test" },
    models: ["gpt-4o"],
    kinds(d, _event, status) {
      if (status !== 200 || "error" in d) return ["error"];
      if (d.object === "chat.completion") return ["chat.completion"];
      return d.usage ? ["chat.completion.chunk", "chat.completion.chunk (usage)"] : [
        "chat.completion.chunk",
      ];
    },
  },
  {
    api: "responses",
    path: () => "/v1/responses",
    body: (stream) => ({
      model: "gpt-4.1",
      input: "hi",
      tools: TOOLS.map((name) => ({
        type: "function",
        name,
        parameters: { type: "object", properties: {} },
      })),
      ...(stream ? { stream } : {}),
    }),
    headers: { authorization: "Bearer sk-test" },
    models: ["gpt-4.1"],
    kinds(_d, event, status) {
      if (status !== 200) return ["error"];
      if (event === "error") return ["error (event)"];
      return [event ?? "response"];
    },
  },
  {
    api: "messages",
    path: () => "/v1/messages",
    body: (stream) => ({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: hi,
      tools: TOOLS.map((name) => ({ name, input_schema: { type: "object", properties: {} } })),
      ...(stream ? { stream } : {}),
    }),
    headers: { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01" },
    models: ["claude-sonnet-4-5"],
    kinds(_d, event, status) {
      if (status !== 200) return ["error"];
      if (event === "error") return ["error (event)"];
      return [event ?? "message"];
    },
  },
  {
    api: "generateContent",
    path: (stream, model) =>
      `/v1beta/models/${model}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    body: () => ({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tools: [{
        functionDeclarations: TOOLS.map((name) => ({
          name,
          parameters: { type: "OBJECT", properties: {} },
        })),
      }],
    }),
    headers: { "x-goog-api-key": "AIza-test" },
    models: ["gemini-2.5-flash", "gemini-3-pro-preview"],
    kinds(d, _event, status) {
      if (status !== 200 || "error" in d) return ["error"];
      return _event === "chunk" ? ["GenerateContentResponse (chunk)"] : ["GenerateContentResponse"];
    },
  },
];

interface Seen {
  readonly kinds: Set<string>;
  readonly problems: string[];
}

function hold(api: Api, label: string, data: unknown, kinds: string[], seen: Seen): void {
  for (const kind of kinds) {
    seen.kinds.add(kind);
    let shape: Shape;
    try {
      shape = shapeOf(api.api, kind);
    } catch {
      seen.problems.push(`${label}: an answer of kind ${kind} the catalogue does not list`);
      continue;
    }
    for (const p of shapeProblems(data, shape)) seen.problems.push(`${label} (${kind}): ${p}`);
  }
}

// The SSE messages of a body: [event name, data].
function sse(text: string): Array<[string | undefined, string]> {
  const out: Array<[string | undefined, string]> = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (!block.trim()) continue;
    let event: string | undefined;
    let data = "";
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
    }
    out.push([event, data]);
  }
  return out;
}

async function answer(
  api: Api,
  model: string,
  stream: boolean,
  turn: Turn,
  label: string,
  seen: Seen,
): Promise<Array<[string | undefined, Record<string, unknown>]>> {
  const provider = new FakeProvider({ llm: FakeLLM.script([turn], { strictTools: false }) });
  const res = await provider.fetch(`https://api.example.com${api.path(stream, model)}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...api.headers },
    body: JSON.stringify(api.body(stream, model)),
  });
  const text = await res.text();
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    const data = JSON.parse(text);
    hold(api, label, data, api.kinds(data, undefined, res.status), seen);
    return [[undefined, data]];
  }
  const out: Array<[string | undefined, Record<string, unknown>]> = [];
  for (const [event, raw] of sse(text)) {
    if (raw === "[DONE]") continue;
    const data = JSON.parse(raw);
    const name = api.api === "generateContent" ? "chunk" : event;
    hold(api, `${label} ${event ?? ""}`.trim(), data, api.kinds(data, name, 200), seen);
    out.push([event, data]);
  }
  return out;
}

for (const api of APIS) {
  Deno.test(`shapes: every ${api.api} answer, blocking and streamed, has every field the catalogue says is always there`, async () => {
    const seen: Seen = { kinds: new Set(), problems: [] };
    for (const model of api.models) {
      for (const [name, turn] of Object.entries(TURNS)) {
        for (const stream of [false, true]) {
          const label = `${model} ${name}${stream ? " streamed" : ""}`;
          const events = await answer(api, model, stream, turn, label, seen);
          if (!stream || events.length < 2) continue;
          if (api.api === "chat.completions") {
            // include_usage: every chunk says usage, null until the last.
            const chunks = events.map(([, d]) => d).filter((d) => !("error" in d));
            assert(chunks.every((d) => "usage" in d), `${label}: a chunk without "usage"`);
            assert(chunks.slice(0, -1).every((d) => d.usage === null), `${label}: usage early`);
          }
          if (api.api === "messages") {
            // Anthropic's ping comes right after the first content_block_start.
            const names = events.map(([e]) => e);
            const first = names.indexOf("content_block_start");
            const ping = names.indexOf("ping");
            if (first >= 0) assertEquals(ping, first + 1, `${label}: ${names.join(",")}`);
            assertEquals(names.filter((n) => n === "ping").length <= 1, true, label);
          }
        }
      }
    }
    assertEquals(seen.problems, []);
    // Every kind of this API the catalogue lists was met by some answer
    // (a catalogue entry nothing checks would be a check that cannot fail).
    const listed = SHAPES.filter((s) => s.api === api.api).map((s) => s.kind);
    assertEquals(listed.filter((k) => !seen.kinds.has(k) && !NESTED.has(k)), []);
  });
}

// Kinds checked through another kind's field (`@message` in message_start).
const NESTED = new Set(["message", "response"]);

Deno.test("shapes: a missing always-present field, a wrong type and an unknown parent are found", () => {
  const shape = shapeOf("chat.completions", "chat.completion");
  const good = {
    id: "chatcmpl-x",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{
      index: 0,
      message: { role: "assistant", content: "x", refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: "stop",
    }],
    usage: {
      prompt_tokens: 1,
      completion_tokens: 1,
      total_tokens: 2,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: "default",
    system_fingerprint: "fp_0123456789",
  };
  assertEquals(shapeProblems(good, shape), []);
  const { prompt_tokens_details: _, ...thin } = good.usage;
  assertEquals(shapeProblems({ ...good, usage: thin }, shape), [
    "usage.prompt_tokens_details: missing (so usage.prompt_tokens_details.cached_tokens is)",
    "usage.prompt_tokens_details: missing (so usage.prompt_tokens_details.audio_tokens is)",
  ]);
  assertEquals(shapeProblems({ ...good, system_fingerprint: null }, shape), [
    "system_fingerprint: null, not string",
  ]);
  const { service_tier: _t, ...noTier } = good;
  assertEquals(shapeProblems(noTier, shape), ["service_tier: missing"]);
  // An optional field is checked only when there, for its type.
  const calls = { ...good.choices[0].message, tool_calls: [{ id: 1, type: "function" }] };
  assertEquals(
    shapeProblems({ ...good, choices: [{ ...good.choices[0], message: calls }] }, shape),
    [
      "choices[0].message.tool_calls[0].id: integer, not string",
      "choices[0].message.tool_calls[0].function: missing (so choices[].message.tool_calls[].function.name is)",
      "choices[0].message.tool_calls[0].function: missing (so choices[].message.tool_calls[].function.arguments is)",
    ],
  );
  // A nested kind is held against its own shape.
  const start = shapeOf("messages", "message_start");
  assert(
    shapeProblems({ type: "message_start", message: { id: "msg_x" } }, start)
      .includes("message.usage: missing"),
  );
  assertEquals(shapeProblems("text", start), ["(the answer): string, not an object"]);
});

Deno.test("shapes: every field names its source, and every API has its error shape", () => {
  for (const s of SHAPES) {
    for (const f of s.fields) assert(f.source.length > 10, `${s.api} ${s.kind} ${f.path}`);
  }
  for (const api of APIS) shapeOf(api.api, "error");
});

Deno.test("shapes: a kind the catalogue does not list is a RangeError naming it", () => {
  assertThrows(
    () => shapeOf("messages", "chat.completion"),
    RangeError,
    'no shape "chat.completion" for messages in the catalogue',
  );
});

// The fields a real answer carries only sometimes (never sent by the fake)
// are still typed: a real answer that has them is held clean, so the
// catalogue never fails a recording the API really sent.
Deno.test("shapes: a real answer's sometimes-sent fields pass the catalogue", async () => {
  const seen: Seen = { kinds: new Set(), problems: [] };
  const messages = APIS.find((a) => a.api === "messages")!;
  const [[, message]] = await answer(messages, "claude-sonnet-4-5", false, TURNS.text, "m", seen);
  const usage = message.usage as Record<string, unknown>;
  const content = message.content as Record<string, unknown>[];
  const fuller = {
    ...message,
    content: [{ ...content[0], citations: null }],
    usage: {
      ...usage,
      server_tool_use: { web_search_requests: 1 },
      output_tokens_details: null,
      speed: null,
    },
  };
  assertEquals(shapeProblems(fuller, shapeOf("messages", "message")), []);
  const gemini = APIS.find((a) => a.api === "generateContent")!;
  const [[, gen]] = await answer(gemini, "gemini-2.5-flash", false, TURNS.text, "g", seen);
  const meta = gen.usageMetadata as Record<string, unknown>;
  // gemini-2.0 answers carry candidatesTokensDetails (the catalogue's source).
  const older = {
    ...gen,
    usageMetadata: { ...meta, candidatesTokensDetails: [{ modality: "TEXT", tokenCount: 2 }] },
  };
  assertEquals(shapeProblems(older, shapeOf("generateContent", "GenerateContentResponse")), []);
  assertEquals(seen.problems, []);
});
