// The adapter's mapping, exercised through doGenerate/doStream directly (no
// `ai` import): the shapes the SDK sends that the interop tests do not reach.
import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import type { ChatRequest, LLMPort, StreamEvent } from "@agentkit/testing/ports";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
  toolCall,
} from "@agentkit/testing/ports";
import { AISDKError, APICallError } from "@ai-sdk/provider";
import {
  aiSdkModel,
  type AiSdkStreamPart,
  FakeLLM,
  makeTestCtx,
  ScriptExhausted,
} from "@agentkit/testing/testing";

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text", text }] });

async function partsOf(stream: ReadableStream<AiSdkStreamPart>): Promise<AiSdkStreamPart[]> {
  const out: AiSdkStreamPart[] = [];
  for await (const part of stream) out.push(part);
  return out;
}

Deno.test("aiSdkModel() maps every tool result kind to a tool message", async () => {
  using llm = new FakeLLM("ok");
  const result = (type: string, extra: Record<string, unknown>) => ({
    type: "tool-result",
    toolCallId: type,
    toolName: "t",
    output: { type, ...extra },
  });
  await aiSdkModel(llm).doGenerate({
    prompt: [
      user("go"),
      {
        role: "tool",
        content: [
          result("text", { value: "plain" }),
          result("json", { value: { a: 1 } }),
          result("error-text", { value: "boom" }),
          result("error-json", { value: { code: 7 } }),
          result("execution-denied", { reason: "not allowed" }),
          result("content", { value: [{ type: "text", text: "see " }, { type: "file" }] }),
          { type: "tool-approval-response" },
        ],
      },
    ],
  });
  assertEquals(llm.requests[0].messages.slice(1), [
    { role: "tool", content: "plain", toolCallId: "text" },
    { role: "tool", content: '{"a":1}', toolCallId: "json" },
    { role: "tool", content: "boom", toolCallId: "error-text", isError: true },
    { role: "tool", content: '{"code":7}', toolCallId: "error-json", isError: true },
    { role: "tool", content: "not allowed", toolCallId: "execution-denied", isError: true },
    { role: "tool", content: "see [file]", toolCallId: "content" },
  ]);
});

Deno.test("aiSdkModel() keeps malformed tool-call input as rawArgs and files as placeholders", async () => {
  using llm = new FakeLLM("ok");
  await aiSdkModel(llm).doGenerate({
    prompt: [
      {
        role: "user",
        content: [
          { type: "text", text: "Read this: " },
          { type: "file", mediaType: "application/pdf", filename: "a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "thinking" },
          { type: "text", text: "Calling." },
          { type: "tool-call", toolCallId: "c1", toolName: "t", input: '{"a":' },
          { type: "tool-call", toolCallId: "c2", toolName: "t", input: '{"b":2}' },
        ],
      },
    ],
  });
  assertEquals(llm.requests[0].messages, [
    { role: "user", content: "Read this: [file application/pdf a.pdf]" },
    {
      role: "assistant",
      content: "Calling.",
      toolCalls: [
        { id: "c1", name: "t", args: {}, rawArgs: '{"a":' },
        { id: "c2", name: "t", args: { b: 2 } },
      ],
    },
  ]);
});

Deno.test("aiSdkModel() honours toolChoice none and warns about what it cannot honour", async () => {
  using llm = new FakeLLM("ok");
  const model = aiSdkModel(llm);
  const tools = [
    { type: "function", name: "t", inputSchema: { type: "object" } },
    { type: "provider", name: "web_search" },
  ];
  await model.doGenerate({ prompt: [user("a")], tools, toolChoice: { type: "none" } });
  assertEquals(llm.requests[0].tools, []);
  const { warnings } = await model.doGenerate({
    prompt: [user("b")],
    tools,
    toolChoice: { type: "required" },
    responseFormat: { type: "json" },
  });
  assertEquals(warnings.map((w) => w.feature), [
    "toolChoice",
    "provider tool web_search",
    "responseFormat",
  ]);
  assertEquals(llm.requests[1].tools.map((t) => t.name), ["t"]);
});

Deno.test("aiSdkModel() doStream: a tool call, then one finish", async () => {
  using llm = FakeLLM.script([{ chunks: ["a"], toolCalls: [toolCall("c1", "t", { x: 1 })] }]);
  const { stream } = await aiSdkModel(llm).doStream({ prompt: [user("go")] });
  const parts = await partsOf(stream);
  assertEquals(parts.map((p) => p.type), [
    "stream-start",
    "response-metadata",
    "text-start",
    "text-delta",
    "text-end",
    "tool-input-start",
    "tool-input-delta",
    "tool-input-end",
    "tool-call",
    "finish",
  ]);
  const finish = parts.at(-1) as Extract<AiSdkStreamPart, { type: "finish" }>;
  assertEquals(finish.finishReason, { unified: "tool-calls", raw: "tool_calls" });
});

Deno.test("aiSdkModel() doStream: a port that ends without message_end finishes 'other'", async () => {
  const llm: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(): AsyncIterable<StreamEvent> {
      yield { type: "message_start", messageId: "m" };
      yield { type: "text_delta", messageId: "m", content: "cut" };
    },
  };
  const { stream } = await aiSdkModel(llm).doStream({ prompt: [user("go")] });
  const parts = await partsOf(stream);
  assertEquals(parts.slice(-2).map((p) => p.type), ["text-end", "finish"]);
  const finish = parts.at(-1) as Extract<AiSdkStreamPart, { type: "finish" }>;
  assertEquals(finish.finishReason.unified, "other");
});

Deno.test("aiSdkModel() doStream: a port that throws mid-stream yields an error part", async () => {
  const cut = new ProviderError("connection reset", { retryable: true, phase: "mid_stream" });
  const llm: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(_req: ChatRequest): AsyncIterable<StreamEvent> {
      yield { type: "message_start", messageId: "m" };
      throw cut;
    },
  };
  const { stream } = await aiSdkModel(llm).doStream({ prompt: [user("go")] });
  const parts = await partsOf(stream);
  const error = parts.find((p) => p.type === "error") as {
    error: Error & { isRetryable: boolean };
  };
  assertEquals([error.error.name, error.error.cause, error.error.isRetryable], [
    "AI_APICallError",
    cut,
    false,
  ]);
  assertEquals(parts.at(-1)?.type, "finish");
});

Deno.test("aiSdkModel() doStream rejects before the stream on a pre-stream failure", async () => {
  const llm = FakeLLM.script(["x"], { failTimes: 1, failWith: new RateLimitError("slow") });
  const model = aiSdkModel(llm);
  const error = await model.doStream({ prompt: [user("go")] }).catch((e) => e);
  assertEquals([error.name, error.statusCode, error.isRetryable], ["AI_APICallError", 429, true]);
  await partsOf((await model.doStream({ prompt: [user("go")] })).stream);
  const exhausted = await model.doStream({ prompt: [user("go")] }).catch((e) => e);
  assertInstanceOf(exhausted, ScriptExhausted);
  assertEquals([llm.calls, llm.harnessErrors], [3, [exhausted]]);
});

Deno.test("aiSdkModel() passes its ctx to the port and the abort signal in the request", async () => {
  const seen: Array<[unknown, AbortSignal | undefined]> = [];
  const llm = new FakeLLM("ok");
  const port: LLMPort = {
    chat: (req, ctx) => {
      seen.push([ctx, req.signal]);
      return llm.chat(req, ctx);
    },
    stream: (req, ctx) => llm.stream(req, ctx),
    complete: (req, ctx) => llm.complete(req, ctx),
  };
  const ctx = makeTestCtx({ llm });
  const abort = new AbortController();
  await aiSdkModel(port, { ctx }).doGenerate({
    prompt: [user("go")],
    abortSignal: abort.signal,
  });
  assertEquals(seen, [[ctx, abort.signal]]);
});

Deno.test("aiSdkModel() doGenerate: the response, the usage with its cached part, and the request as sent", async () => {
  using llm = FakeLLM.script([
    {
      content: "Hi",
      toolCalls: [toolCall("c1", "t", { a: 1 })],
      usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 4 },
      model: "answering-model",
    },
    { toolCalls: [toolCall("c2", "t", {})], usage: { inputTokens: 1, outputTokens: 1 } },
  ], { strictTools: false });
  const model = aiSdkModel(llm, { modelId: "sdk-model" });
  const result = await model.doGenerate({ prompt: [user("go")] });
  assertEquals(result.content, [
    { type: "text", text: "Hi" },
    { type: "tool-call", toolCallId: "c1", toolName: "t", input: '{"a":1}' },
  ]);
  assertEquals(result.response, { id: "fake-chat-1", modelId: "answering-model" });
  assertEquals(result.usage, {
    inputTokens: { total: 7, noCache: 3, cacheRead: 4, cacheWrite: undefined },
    outputTokens: { total: 2, text: 2, reasoning: undefined },
    raw: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 4 },
  });
  assertEquals([result.providerMetadata, result.warnings], [undefined, []]);
  assertEquals(llm.requests[0].model, "sdk-model");
  // A turn without text has no text part; usage without cached tokens counts them as none.
  const toolsOnly = await model.doGenerate({ prompt: [user("go")] });
  assertEquals(toolsOnly.content.map((c) => c.type), ["tool-call"]);
  assertEquals(toolsOnly.usage.inputTokens, {
    total: 1,
    noCache: 1,
    cacheRead: undefined,
    cacheWrite: undefined,
  });
  assertEquals(aiSdkModel(new FakeLLM("x")).modelId, "fake-model");
});

Deno.test("aiSdkModel() sends only what the SDK set: no tools, settings or signal when there are none", async () => {
  const requests: ChatRequest[] = [];
  const llm = new FakeLLM("ok");
  const port: LLMPort = {
    chat: (req, ctx) => {
      requests.push(req);
      return llm.chat(req, ctx);
    },
    stream: (req, ctx) => llm.stream(req, ctx),
    complete: (req, ctx) => llm.complete(req, ctx),
  };
  const model = aiSdkModel(port);
  await model.doGenerate({ prompt: [user("bare")] });
  await model.doGenerate({ prompt: [user("max")], maxOutputTokens: 64 });
  await model.doGenerate({ prompt: [user("temp")], temperature: 0 });
  await model.doGenerate({
    prompt: [user("json")],
    responseFormat: { type: "json", schema: { type: "object" }, name: "Answer" },
  });
  await model.doGenerate({
    prompt: [user("nameless")],
    responseFormat: { type: "json", schema: {} },
  });
  await model.doGenerate({ prompt: [user("text")], responseFormat: { type: "text" } });
  assertEquals(Object.keys(requests[0]).sort(), ["messages", "model"]);
  assertEquals(requests.slice(1).map((r) => r.settings), [
    { maxTokens: 64 },
    { temperature: 0 },
    { jsonSchema: { type: "object" }, jsonSchemaName: "Answer" },
    { jsonSchema: {} },
    undefined,
  ]);
});

Deno.test("aiSdkModel() warns about each setting the port lacks, and about tool choices it cannot honour", async () => {
  using llm = new FakeLLM("ok");
  const model = aiSdkModel(llm);
  const { warnings } = await model.doGenerate({
    prompt: [user("go")],
    stopSequences: ["x"],
    topP: 0.5,
    topK: 3,
    presencePenalty: 0,
    frequencyPenalty: 0,
    seed: 1,
  });
  assertEquals(warnings.map((w) => [w.type, w.feature]), [
    ["unsupported", "stopSequences"],
    ["unsupported", "topP"],
    ["unsupported", "topK"],
    ["unsupported", "presencePenalty"],
    ["unsupported", "frequencyPenalty"],
    ["unsupported", "seed"],
  ]);
  for (const w of warnings) assert(w.details && w.details.length > 0);
  const tools = [{ type: "function", name: "t", inputSchema: { type: "object" } }];
  const choices: Array<[Record<string, unknown> | undefined, string[]]> = [
    [undefined, []],
    [{ type: "auto" }, []],
    [{ type: "required" }, ["toolChoice"]],
    [{ type: "tool", toolName: "t" }, ["toolChoice"]],
  ];
  for (const [toolChoice, expected] of choices) {
    const answer = await model.doGenerate({ prompt: [user("go")], tools, toolChoice } as never);
    assertEquals(answer.warnings.map((w) => w.feature), expected);
    for (const w of answer.warnings) {
      assertEquals(w.type, "unsupported");
      assert(w.details?.includes(toolChoice!.type as string));
    }
  }
  const provider = await model.doGenerate({
    prompt: [user("go")],
    tools: [{ type: "provider", name: "web_search" }],
    responseFormat: { type: "json" },
  } as never);
  assertEquals(provider.warnings.map((w) => w.type), ["unsupported", "unsupported"]);
  for (const w of provider.warnings) assert(w.details && w.details.length > 0);
  // A function tool without a description or schema gets the defaults.
  await model.doGenerate({ prompt: [user("go")], tools: [{ type: "function", name: "bare" }] });
  assertEquals(llm.requests.at(-1)!.tools, [
    { name: "bare", description: "", parameters: { type: "object" } },
  ]);
});

Deno.test("aiSdkModel() doGenerate: the reported cost rides in providerMetadata; a failure is an APICallError on its url", async () => {
  using llm = FakeLLM.script([
    { content: "x", usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.25 } },
    { error: new RateLimitError("slow", { retryAfterMs: 5 }) },
  ]);
  const model = aiSdkModel(llm, { modelId: "priced" });
  const { providerMetadata } = await model.doGenerate({ prompt: [user("go")] });
  assertEquals(providerMetadata, { agentkit: { costUsd: 0.25 } });
  const error = await model.doGenerate({ prompt: [user("go")] }).catch((e) => e);
  assertEquals([error.name, error.url, error.requestBodyValues.model], [
    "AI_APICallError",
    "agentkit:priced",
    "priced",
  ]);
});

Deno.test("aiSdkModel() doStream: parts carry the ids, the request body, usage and cost", async () => {
  using llm = FakeLLM.script([{
    chunks: ["a", "b"],
    usage: { inputTokens: 2, outputTokens: 1, costUsd: 0.5 },
  }]);
  const { stream, request } = await aiSdkModel(llm, { modelId: "m1" }).doStream({
    prompt: [user("go")],
  });
  assertEquals(request, { body: { messages: [{ role: "user", content: "go" }], model: "m1" } });
  const parts = await partsOf(stream);
  assertEquals(parts.slice(0, 6), [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", id: "fake-stream-1", modelId: "m1" },
    { type: "text-start", id: "fake-stream-1:text" },
    { type: "text-delta", id: "fake-stream-1:text", delta: "a" },
    { type: "text-delta", id: "fake-stream-1:text", delta: "b" },
    { type: "text-end", id: "fake-stream-1:text" },
  ]);
  assertEquals(parts[6], {
    type: "finish",
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 2, noCache: 2, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
      raw: { inputTokens: 2, outputTokens: 1, costUsd: 0.5 },
    },
    providerMetadata: { agentkit: { costUsd: 0.5 } },
  });
  assertEquals(parts.length, 7);
});

Deno.test("aiSdkModel() doStream: an error event closes the text, then the error, then one finish", async () => {
  const events = (finishReason?: "length"): LLMPort => ({
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(): AsyncIterable<StreamEvent> {
      yield { type: "message_start", messageId: "m" };
      yield { type: "text_delta", messageId: "m", content: "par" };
      yield { type: "error", messageId: "m", error: new Error("boom"), finishReason };
      yield {
        type: "message_end",
        messageId: "m",
        finishReason: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  });
  for (const [reason, unified] of [[undefined, "error"], ["length", "length"]] as const) {
    const parts = await partsOf(
      (await aiSdkModel(events(reason)).doStream({ prompt: [user("go")] })).stream,
    );
    assertEquals(parts.slice(3).map((p) => p.type), ["text-delta", "text-end", "error", "finish"]);
    const finish = parts.at(-1) as Extract<AiSdkStreamPart, { type: "finish" }>;
    assertEquals(finish.finishReason.unified, unified);
  }
});

Deno.test("aiSdkModel() doStream: a port that throws mid-text closes the text, then errors and finishes 'error'", async () => {
  const llm: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(): AsyncIterable<StreamEvent> {
      yield { type: "message_start", messageId: "m" };
      yield { type: "text_delta", messageId: "m", content: "par" };
      throw new Error("gone");
    },
  };
  const parts = await partsOf((await aiSdkModel(llm).doStream({ prompt: [user("go")] })).stream);
  assertEquals(parts.slice(3).map((p) => p.type), ["text-delta", "text-end", "error", "finish"]);
  const finish = parts.at(-1) as Extract<AiSdkStreamPart, { type: "finish" }>;
  assertEquals(finish.finishReason, { unified: "error", raw: undefined });
});

Deno.test("aiSdkModel() doStream: a reader that cancels closes the port's stream", async () => {
  let closed = false;
  const llm: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    async *stream(): AsyncIterable<StreamEvent> {
      try {
        yield { type: "message_start", messageId: "m" };
        yield { type: "text_delta", messageId: "m", content: "a" };
        yield { type: "text_delta", messageId: "m", content: "b" };
      } finally {
        closed = true;
      }
    },
  };
  const { stream } = await aiSdkModel(llm).doStream({ prompt: [user("go")] });
  const reader = stream.getReader();
  await reader.read();
  await reader.read();
  await reader.cancel();
  assertEquals(closed, true);
});

Deno.test("aiSdkModel() maps a finish reason it does not know to 'other', keeping the raw one", async () => {
  const llm: LLMPort = {
    chat: () =>
      Promise.resolve({
        id: "r",
        model: "m",
        content: "x",
        toolCalls: [],
        finishReason: "paused" as never,
        usage: { inputTokens: 1, outputTokens: 1 },
      }),
    complete: () => Promise.reject(new Error("unused")),
    stream: () => {
      throw new Error("unused");
    },
  };
  const { finishReason } = await aiSdkModel(llm).doGenerate({ prompt: [user("go")] });
  assertEquals(finishReason, { unified: "other", raw: "paused" });
});

Deno.test("aiSdkModel() reads every prompt shape: system, files, empty parts, odd tool inputs and outputs", async () => {
  using llm = new FakeLLM("ok");
  await aiSdkModel(llm).doGenerate({
    prompt: [
      { role: "system", content: "Sys." },
      { role: "user", content: [{ type: "file", mediaType: "image/png" }] },
      { role: "user", content: [{ type: "text" }] },
      { role: "user", content: [{ type: "text" }, { type: "file" }, { type: "reasoning" }] },
      {
        role: "assistant",
        content: [
          { type: "text" },
          { type: "tool-call", toolCallId: "c1", toolName: "t", input: "" },
          { type: "tool-call", input: [1] },
          { type: "tool-call", toolCallId: "c3", toolName: "t" },
        ],
      },
      { role: "assistant", content: [{ type: "reasoning", text: "hm" }] },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "a", toolName: "t" },
          { type: "tool-result", toolName: "t", output: { type: "text" } },
          {
            type: "tool-result",
            toolCallId: "c",
            toolName: "t",
            output: { type: "execution-denied" },
          },
          {
            type: "tool-result",
            toolCallId: "d",
            toolName: "t",
            output: { type: "content", value: [{ type: "text" }, {}] },
          },
          {
            type: "tool-result",
            toolCallId: "e",
            toolName: "t",
            output: { type: "content", value: "x" },
          },
          { type: "tool-result", toolCallId: "f", toolName: "t", output: { type: "json" } },
        ],
      },
    ],
  } as never);
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Sys." },
    { role: "user", content: "[file image/png]" },
    { role: "user", content: "" },
    { role: "user", content: "[file unknown]" },
    {
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "c1", name: "t", args: {}, rawArgs: "" },
        { id: "", name: "", args: {}, rawArgs: "[1]" },
        { id: "c3", name: "t", args: {}, rawArgs: "null" },
      ],
    },
    { role: "assistant", content: "" },
    { role: "tool", content: "", toolCallId: "a" },
    { role: "tool", content: "", toolCallId: "" },
    { role: "tool", content: "The tool's execution was denied.", toolCallId: "c", isError: true },
    { role: "tool", content: "[part]", toolCallId: "d" },
    { role: "tool", content: "", toolCallId: "e" },
    { role: "tool", content: "null", toolCallId: "f" },
  ]);
});

Deno.test("aiSdkModel() names itself in an option error", () => {
  assertThrows(() => aiSdkModel("llm" as never), TypeError, "aiSdkModel()");
  assertThrows(
    () => aiSdkModel(new FakeLLM("x"), { modelID: "m" } as never),
    TypeError,
    "aiSdkModel()",
  );
});

Deno.test("aiSdkModel(): a provider error is an APICallError the SDK recognises, with the status it stands for", async () => {
  const cases: Array<[Error, number, boolean, Record<string, string> | undefined]> = [
    [new RateLimitError("slow", { retryAfterMs: 1_500 }), 429, true, { "retry-after-ms": "1500" }],
    [new RateLimitError("slow"), 429, true, undefined],
    [new ProviderTimeoutError("late"), 408, true, undefined],
    [new ProviderResponseError("no such model", { status: 404 }), 404, false, undefined],
    [new ProviderError("bad gateway", { retryable: true }), 503, true, undefined],
    [new ProviderError("bad request"), 400, false, undefined],
  ];
  for (const [cause, status, retryable, headers] of cases) {
    using llm = FakeLLM.script([{ error: cause }]);
    const error = await aiSdkModel(llm).doGenerate({ prompt: [user("go")] }).catch((e) => e);
    assert(AISDKError.isInstance(error) && APICallError.isInstance(error), cause.message);
    assertEquals([error.statusCode, error.isRetryable, error.responseHeaders, error.cause], [
      status,
      retryable,
      headers,
      cause,
    ]);
  }
});

Deno.test("aiSdkModel(): an error that is not a provider's passes unchanged", async () => {
  const plain = new Error("a bug in the port");
  const llm: LLMPort = {
    chat: () => Promise.reject(plain),
    complete: () => Promise.reject(new Error("unused")),
    stream: () => {
      throw new Error("unused");
    },
  };
  assertEquals(await aiSdkModel(llm).doGenerate({ prompt: [user("go")] }).catch((e) => e), plain);
});

Deno.test("aiSdkModel(): a null tool input is kept raw; a port iterator without return() can be cancelled", async () => {
  using llm = new FakeLLM("ok");
  await aiSdkModel(llm).doGenerate({
    prompt: [{
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c", toolName: "t", input: null }],
    }],
  } as never);
  assertEquals(llm.requests[0].messages[0].toolCalls, [
    { id: "c", name: "t", args: {}, rawArgs: "null" },
  ]);
  // A hand-written async iterable whose iterator has only next().
  const events: StreamEvent[] = [
    { type: "message_start", messageId: "m" },
    { type: "text_delta", messageId: "m", content: "a" },
  ];
  const port: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    complete: () => Promise.reject(new Error("unused")),
    stream: () => ({
      [Symbol.asyncIterator]: () => {
        let i = 0;
        return { next: () => Promise.resolve({ done: false, value: events[i++ % 2] }) };
      },
    }),
  };
  const reader = (await aiSdkModel(port).doStream({ prompt: [user("go")] })).stream.getReader();
  await reader.read();
  await reader.cancel();
});

Deno.test("aiSdkModel(): call options without a prompt array are a TypeError saying what the SDK passes", async () => {
  const model = aiSdkModel(new FakeLLM("x"));
  for (const bad of [undefined, null, 5, {}, { prompt: 5 }, { prompt: "hi" }]) {
    await assertRejects(
      () => model.doGenerate(bad as never),
      TypeError,
      "take the AI SDK's call options",
    );
    await assertRejects(() => model.doStream(bad as never), TypeError, "with a prompt array");
  }
});
