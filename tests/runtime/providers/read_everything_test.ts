// SPEC §20: every port reads what a real provider sends, without loss, on
// answers shaped as the providers document them (each fixture's source is in
// tests/fixtures/providers/README.md), blocking and streamed.
import { assert, assertEquals, assertInstanceOf, assertStringIncludes } from "@std/assert";
import {
  type ChatRequest,
  type ChatResponse,
  type ErrorEvent,
  type LLMPort,
  type Message,
  type MessageEndEvent,
  ProviderError,
  RateLimitError,
  type StreamEvent,
} from "@agentkit/testing/ports";
import {
  Agent,
  AnthropicLLM,
  Budget,
  GeminiLLM,
  meter,
  OpenAIChatLLM,
  OpenAIResponsesLLM,
  PriceTable,
} from "@agentkit/testing/runtime";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const dir = new URL("../../fixtures/providers/", import.meta.url);
const req: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };

type Port = "chat" | "responses" | "anthropic" | "gemini";

function replaying(file: string, status = 200, seen: Request[] = []) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push(new Request(input, init));
    const body = await Deno.readTextFile(new URL(file, dir));
    const type = file.endsWith(".sse") ? "text/event-stream" : "application/json";
    return new Response(body, { status, headers: { "content-type": type } });
  };
}

function port(kind: Port, file: string, seen: Request[] = [], status = 200): LLMPort {
  const fetch = replaying(file, status, seen);
  switch (kind) {
    case "chat":
      return new OpenAIChatLLM({ apiKey: "k", fetch });
    case "responses":
      return new OpenAIResponsesLLM({ apiKey: "k", fetch });
    case "anthropic":
      return new AnthropicLLM({ apiKey: "k", fetch });
    case "gemini":
      return new GeminiLLM({ apiKey: "k", fetch });
  }
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** A stream folded into the answer the blocking call would give. */
function folded(events: StreamEvent[]): ChatResponse & { events: string[] } {
  let content = "";
  let reasoning: string | undefined;
  const toolCalls = [];
  let last: MessageEndEvent | undefined;
  for (const e of events) {
    if (e.type === "text_delta") content += e.content;
    if (e.type === "reasoning_delta") reasoning = (reasoning ?? "") + e.content;
    if (e.type === "tool_call") toolCalls.push(e.call);
    if (e.type === "message_end") last = e;
  }
  const end = last as MessageEndEvent | undefined;
  if (!end) throw new Error(`no message_end in ${events.map((e) => e.type)}`);
  return {
    id: end.messageId,
    model: "",
    content,
    toolCalls,
    finishReason: end.finishReason,
    usage: end.usage,
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(end.providerData ? { providerData: end.providerData } : {}),
    events: events.map((e) => e.type),
  };
}

Deno.test("OpenAI Responses: the documented text, function-call and incomplete responses", async () => {
  const text = await port("responses", "openai_responses_text.json").chat(req);
  assertStringIncludes(text.content, "In a peaceful grove");
  assertEquals([text.finishReason, text.usage], ["stop", {
    inputTokens: 36,
    outputTokens: 87,
    cachedInputTokens: 0,
  }]);
  assertEquals(text.providerData, undefined);

  const fc = await port("responses", "openai_responses_function_call.json").chat(req);
  assertEquals(fc.toolCalls, [{
    id: "call_unLAR8MvFNptuiZK6K6HCy5k",
    name: "get_current_weather",
    args: { location: "Paris, France", unit: "celsius" },
  }]);
  assertEquals(fc.finishReason, "tool_calls");
  assertStringIncludes(fc.reasoning!, "Checking the weather");
  assertEquals(fc.usage, {
    inputTokens: 163,
    outputTokens: 215,
    cachedInputTokens: 128,
    reasoningTokens: 192,
  });
  const kept = (fc.providerData!.openaiResponses as { output: Record<string, unknown>[] }).output;
  assertEquals(kept.map((i) => i.type), ["reasoning", "function_call"]);
  assertStringIncludes(String(kept[0].encrypted_content), "gAAAAAB");

  const cut = await port("responses", "openai_responses_incomplete.json").chat(req);
  assertEquals([cut.finishReason, cut.content], [
    "length",
    "In a peaceful grove beneath a silver moon, a unicorn",
  ]);
});

Deno.test("OpenAI Responses: the documented streams, text and reasoning + call, agree with their blocking twins", async () => {
  const text = folded(await drain(port("responses", "openai_responses_stream.sse").stream(req)));
  assertEquals([text.content, text.finishReason, text.usage], [
    "Hi there! How can I assist you today?",
    "stop",
    { inputTokens: 37, outputTokens: 11, cachedInputTokens: 0 },
  ]);
  const r = folded(
    await drain(port("responses", "openai_responses_stream_reasoning_call.sse").stream(req)),
  );
  assertEquals(r.events, [
    "message_start",
    "reasoning_delta",
    "reasoning_delta",
    "reasoning_delta",
    "tool_call",
    "message_end",
  ]);
  // Two summary parts, one paragraph each, as a blocking answer joins them.
  assertEquals(
    r.reasoning,
    "**Planning the lookup**\n\nI need the weather for Paris.\n\n**Choosing units**\n\nCelsius suits France.",
  );
  assertEquals(r.toolCalls, [{
    id: "call_XPe7tHdFvMZ8E4ZqkjKpYQ9b",
    name: "get_current_weather",
    args: { location: "Paris, France", unit: "celsius" },
  }]);
  assertEquals([r.finishReason, r.usage.reasoningTokens], ["tool_calls", 192]);
  const kept = (r.providerData!.openaiResponses as { output: Record<string, unknown>[] }).output;
  assertEquals(kept[0].encrypted_content, "gAAAAABor0Axyz-encrypted-reasoning-blob==");

  // The next request sends the reasoning item whole, then the call and its output.
  const seen: Request[] = [];
  await port("responses", "openai_responses_text.json", seen).chat({
    ...req,
    messages: [
      ...req.messages,
      { role: "assistant", content: "", toolCalls: r.toolCalls, providerData: r.providerData },
      { role: "tool", content: "18C", toolCallId: "call_XPe7tHdFvMZ8E4ZqkjKpYQ9b" },
    ],
  });
  const body = await seen[0].json();
  assertEquals(body.input.map((i: { type: string }) => i.type), [
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
  ]);
  assertEquals(body.input[1].encrypted_content, "gAAAAABor0Axyz-encrypted-reasoning-blob==");
  assertEquals([body.store, body.include], [false, ["reasoning.encrypted_content"]]);
});

Deno.test("OpenAI Responses: response.failed before content is thrown, classified by its code", async () => {
  const e = await drain(port("responses", "openai_responses_stream_failed.sse").stream(req)).then(
    () => undefined,
    (e) => e,
  );
  assertInstanceOf(e, ProviderError);
  assertEquals([e.retryable, e.phase], [true, "pre_stream"]);
  assertStringIncludes(e.message, "server_error");
});

Deno.test("OpenAI-compatible servers: reasoning_content and reasoning become reasoning, never text", async () => {
  const ds = await port("chat", "openai_compat_reasoning_content.json").chat(req);
  assertEquals(ds.content, "9.8 is greater than 9.11.");
  assertStringIncludes(ds.reasoning!, "compare the tenths");
  assertEquals(ds.usage, {
    inputTokens: 18,
    outputTokens: 97,
    cachedInputTokens: 0,
    reasoningTokens: 78,
  });
  const s = folded(
    await drain(port("chat", "openai_compat_stream_reasoning_content.sse").stream(req)),
  );
  assertEquals([s.content, s.reasoning], ["9.8 is greater.", "Compare the tenths. 8 > 1."]);
  assertEquals(s.usage.reasoningTokens, 20);
  const or = folded(await drain(port("chat", "openai_compat_stream_reasoning.sse").stream(req)));
  assertEquals([or.content, or.reasoning, or.usage.reasoningTokens], [
    "Hello!",
    "The user greets me.",
    8,
  ]);
});

Deno.test("Anthropic: server-tool blocks in a blocking answer are kept and sent back in place", async () => {
  const res = await port("anthropic", "anthropic_message_web_search.json").chat(req);
  assertEquals(
    res.content,
    "I'll search for when Claude Shannon was born.Based on the search results, Claude Shannon was born on April 30, 1916, in Petoskey, Michigan",
  );
  assertEquals([res.finishReason, res.toolCalls], ["stop", []]);
  const blocks = (res.providerData!.anthropic as { blocks: Record<string, unknown>[] }).blocks;
  assertEquals(blocks.map((b) => b.type), [
    "text",
    "server_tool_use",
    "web_search_tool_result",
    "text",
    "text",
  ]);
  const seen: Request[] = [];
  await port("anthropic", "anthropic_message.json", seen).chat({
    ...req,
    messages: [...req.messages, {
      role: "assistant",
      content: res.content,
      providerData: res.providerData,
    }, { role: "user", content: "and where?" }],
  });
  const body = await seen[0].json();
  const fixture = JSON.parse(
    await Deno.readTextFile(new URL("anthropic_message_web_search.json", dir)),
  );
  // Byte for byte what came, citations and encrypted content included.
  assertEquals(body.messages[1], { role: "assistant", content: fixture.content });
});

Deno.test("Anthropic: MCP blocks are kept; cache writes are a part of the input", async () => {
  const res = await port("anthropic", "anthropic_message_mcp.json").chat(req);
  assertEquals(res.content, "I'll use the echo tool.It said Hello.");
  assertEquals(res.usage, {
    inputTokens: 150,
    outputTokens: 20,
    cachedInputTokens: 10,
    cacheWriteInputTokens: 50,
  });
  const blocks = (res.providerData!.anthropic as { blocks: Record<string, unknown>[] }).blocks;
  assertEquals(blocks.map((b) => b.type), ["text", "mcp_tool_use", "mcp_tool_result", "text"]);
});

Deno.test("Anthropic: a streamed server tool's input_json_delta is no error; the client call after it arrives", async () => {
  const seen: Request[] = [];
  const s = folded(
    await drain(port("anthropic", "anthropic_stream_web_fetch.sse", seen).stream(req)),
  );
  assertEquals(s.events.filter((t) => t === "error"), []);
  assertEquals(
    s.content,
    "Let me fetch that article. The article is about examples. I'll save a note.",
  );
  assertEquals(s.toolCalls, [{
    id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
    name: "save_note",
    args: { text: "examples" },
  }]);
  assertEquals(s.finishReason, "tool_calls");
  const blocks = (s.providerData!.anthropic as { blocks: Record<string, unknown>[] }).blocks;
  assertEquals(blocks.map((b) => b.type), [
    "text",
    "server_tool_use",
    "web_fetch_tool_result",
    "text",
    "tool_use",
  ]);
  assertEquals(blocks[1].input, { url: "https://example.com/article" });
  // Sent back: the server blocks in place, the client call from the transcript, its result next.
  const next: Request[] = [];
  await port("anthropic", "anthropic_message.json", next).chat({
    ...req,
    messages: [
      ...req.messages,
      {
        role: "assistant",
        content: s.content,
        toolCalls: s.toolCalls,
        providerData: s.providerData,
      },
      { role: "tool", content: "saved", toolCallId: "toolu_01T1x1fJ34qAmk2tNTrN7Up6" },
    ],
  });
  const body = await next[0].json();
  assertEquals(body.messages[1].content.map((b: { type: string }) => b.type), [
    "text",
    "server_tool_use",
    "web_fetch_tool_result",
    "text",
    "tool_use",
  ]);
  assertEquals(body.messages[1].content[1], {
    type: "server_tool_use",
    id: "srvtoolu_xyz789",
    name: "web_fetch",
    input: { url: "https://example.com/article" },
  });
  assertEquals(body.messages[2].content[0].type, "tool_result");
});

Deno.test("Anthropic: compaction iterations are billed, and the compaction block is kept, blocking and streamed", async () => {
  const billed = { inputTokens: 83_000, outputTokens: 4_500, cachedInputTokens: 0 };
  const res = await port("anthropic", "anthropic_message_compaction.json").chat(req);
  assertEquals(res.usage, billed);
  const blocks = (res.providerData!.anthropic as { blocks: Record<string, unknown>[] }).blocks;
  assertEquals(blocks[0].type, "compaction");
  const s = folded(await drain(port("anthropic", "anthropic_stream_compaction.sse").stream(req)));
  assertEquals([s.content, s.usage], ["Continuing the refactor.", billed]);
  const streamed = (s.providerData!.anthropic as { blocks: Record<string, unknown>[] }).blocks;
  assertEquals(streamed[0], {
    type: "compaction",
    content: "Summary: the user is refactoring the billing module.",
    encrypted_content: null,
  });
});

Deno.test("Anthropic: pause_turn is not a silent stop; the paused server call is kept", async () => {
  const res = await port("anthropic", "anthropic_message_pause_turn.json").chat(req);
  assertEquals(res.finishReason, "length");
  const blocks = (res.providerData!.anthropic as { blocks: Record<string, unknown>[] }).blocks;
  assertEquals(blocks.map((b) => b.type), ["text", "server_tool_use"]);
});

Deno.test("Gemini: code execution and inline data parts are kept and sent back in place", async () => {
  const res = await port("gemini", "gemini_code_execution.json").chat(req);
  assertEquals(
    res.content,
    "Okay, I need to calculate the sum of the first 50 prime numbers. I will use python code.The sum of the first 50 prime numbers is 5117.",
  );
  assertEquals(res.usage, { inputTokens: 38, outputTokens: 436, reasoningTokens: 215 });
  const parts = (res.providerData!.gemini as { parts: Record<string, unknown>[] }).parts;
  assertEquals(parts.map((p) => Object.keys(p)[0]), [
    "text",
    "executableCode",
    "codeExecutionResult",
    "text",
  ]);
  const seen: Request[] = [];
  await port("gemini", "gemini_code_execution.json", seen).chat({
    ...req,
    messages: [...req.messages, {
      role: "assistant",
      content: res.content,
      providerData: res.providerData,
    }, { role: "user", content: "thanks" }],
  });
  const fixture = JSON.parse(await Deno.readTextFile(new URL("gemini_code_execution.json", dir)));
  assertEquals((await seen[0].json()).contents[1].parts, fixture.candidates[0].content.parts);

  const img = await port("gemini", "gemini_inline_image.json").chat(req);
  assertEquals(img.content, "");
  const kept = (img.providerData!.gemini as { parts: Record<string, unknown>[] }).parts;
  assertEquals((kept[0].inlineData as { mimeType: string }).mimeType, "image/png");
});

Deno.test("Gemini: RetryInfo in a 200 body's error and in a stream's first error chunk", async () => {
  for (const stream of [false, true]) {
    const p = port(
      "gemini",
      stream ? "gemini_stream_error_retryinfo.sse" : "gemini_error_429_body.json",
    );
    const e = await (stream ? drain(p.stream(req)) : p.chat(req)).then(() => undefined, (e) => e);
    assertInstanceOf(e, RateLimitError, `stream: ${stream}`);
    assertEquals(e.retryAfterMs, 27_000);
  }
});

Deno.test("Gemini: every finish reason that is not a normal end is never stop, blocking and streamed", async () => {
  const reasons: Record<string, string> = {
    CONTINUATION: "length",
    MALFORMED_RESPONSE: "error",
    TOO_MANY_TOOL_CALLS: "error",
    IMAGE_PROHIBITED_CONTENT: "content_filter",
    LANGUAGE: "content_filter",
    NO_IMAGE: "error",
    IMAGE_OTHER: "error",
    IMAGE_RECITATION: "content_filter",
    MISSING_THOUGHT_SIGNATURE: "error",
  };
  for (const [reason, finish] of Object.entries(reasons)) {
    const answer = {
      candidates: [{ content: { role: "model", parts: [{ text: "x" }] }, finishReason: reason }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 },
    };
    const fetch = (_: string | URL | Request, init?: RequestInit) =>
      Promise.resolve(
        String(init?.body).length && new URL(String(_)).search.includes("alt=sse")
          ? new Response(`data: ${JSON.stringify(answer)}\n\n`, {
            headers: { "content-type": "text/event-stream" },
          })
          : Response.json(answer),
      );
    const llm = new GeminiLLM({ apiKey: "k", fetch });
    assertEquals((await llm.chat(req)).finishReason, finish, reason);
    const end = (await drain(llm.stream(req))).at(-1) as MessageEndEvent | ErrorEvent;
    assertEquals(end.finishReason, finish, `${reason} streamed`);
  }
});

Deno.test("meter() and prices work with the new usage breakdowns", async () => {
  const plain = { inputTokens: 1000, outputTokens: 500 };
  const spent = async (usage: Record<string, number>) => {
    const budget = new Budget({ maxCostUsd: "1" });
    const ctx = makeTestCtx({
      llm: FakeLLM.script([{ content: "ok", usage: usage as typeof plain }]),
      budget,
      chatMiddleware: [meter({ prices: PriceTable.default() })],
    });
    await new Agent("a", { model: "fake-model" }).run("go", ctx);
    return budget.spent();
  };
  const base = await spent(plain);
  assertEquals(await spent({ ...plain, reasoningTokens: 400, cacheWriteInputTokens: 300 }), base);
  assert(base !== "0.000000");
});

Deno.test("a tool message answering no call never reaches Gemini with an empty name", async () => {
  const seen: Request[] = [];
  const llm = port("gemini", "gemini_code_execution.json", seen);
  const messages: Message[] = [...req.messages, {
    role: "tool",
    content: "orphan",
    toolCallId: "nope",
  }];
  const e = await llm.chat({ ...req, messages }).then(() => undefined, (e) => e);
  assertInstanceOf(e, TypeError);
  assertStringIncludes(e.message, "no earlier assistant message made");
  assertEquals(seen.length, 0);
});
