// The adapter's mapping, exercised through doGenerate/doStream directly (no
// `ai` import): the shapes the SDK sends that the interop tests do not reach.
import { assertEquals, assertInstanceOf } from "@std/assert";
import type { ChatRequest, LLMPort, StreamEvent } from "@agentkit/testing/ports";
import { ProviderError, RateLimitError, toolCall } from "@agentkit/testing/ports";
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
