// The real ports against responses as the providers document them (see
// tests/fixtures/providers/README.md for each file's source).
import { assertEquals, assertInstanceOf, assertStringIncludes } from "@std/assert";
import {
  type ChatRequest,
  type LLMPort,
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
} from "@agentkit/testing/ports";
import { AnthropicLLM, OpenAIChatLLM } from "@agentkit/testing/runtime";

const dir = new URL("../../fixtures/providers/", import.meta.url);
const req: ChatRequest = {
  model: "m",
  messages: [{ role: "user", content: "hi" }],
};

function replaying(
  file: string,
  status = 200,
  headers: Record<string, string> = {},
): (input: string | URL | Request) => Promise<Response> {
  return async () => {
    const body = await Deno.readTextFile(new URL(file, dir));
    const type = file.endsWith(".sse") ? "text/event-stream" : "application/json";
    return new Response(body, {
      status,
      headers: { "content-type": type, ...headers },
    });
  };
}

const openai = (
  file: string,
  status?: number,
  headers?: Record<string, string>,
): LLMPort => new OpenAIChatLLM({ apiKey: "k", fetch: replaying(file, status, headers) });
const anthropic = (
  file: string,
  status?: number,
  headers?: Record<string, string>,
): LLMPort => new AnthropicLLM({ apiKey: "k", fetch: replaying(file, status, headers) });

async function drain(
  events: AsyncIterable<StreamEvent>,
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    assertInstanceOf(e, ProviderError);
    return e as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

Deno.test("OpenAIChatLLM reads OpenAI's documented responses", async (t) => {
  await t.step(
    "a completion: text, stop, usage with cached tokens split out",
    async () => {
      assertEquals(await openai("openai_chat_completion.json").chat(req), {
        id: "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
        model: "gpt-4.1-2025-04-14",
        content: "Hello! How can I assist you today?",
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 19, outputTokens: 10, cachedInputTokens: 0 },
      });
    },
  );
  await t.step("a tool call with content null", async () => {
    const res = await openai("openai_chat_tool_calls.json").chat(req);
    assertEquals([res.content, res.finishReason], ["", "tool_calls"]);
    assertEquals(res.toolCalls, [{
      id: "call_abc123",
      name: "get_current_weather",
      args: { location: "Boston, MA" },
    }]);
    assertEquals(res.usage, { inputTokens: 82, outputTokens: 17 });
  });
  await t.step("a stream with the include_usage chunk", async () => {
    const events = await drain(openai("openai_chat_stream.sse").stream(req));
    assertEquals(events, [
      { type: "message_start", messageId: "chatcmpl-123" },
      { type: "text_delta", messageId: "chatcmpl-123", content: "Hello" },
      { type: "text_delta", messageId: "chatcmpl-123", content: "!" },
      {
        type: "message_end",
        messageId: "chatcmpl-123",
        finishReason: "stop",
        usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 0 },
      },
    ]);
  });
  await t.step("tool call arguments streamed in pieces", async () => {
    const events = await drain(
      openai("openai_chat_stream_tool_calls.sse").stream(req),
    );
    assertEquals(events.map((e) => e.type), [
      "message_start",
      "tool_call",
      "message_end",
    ]);
    assertEquals(events[1].type === "tool_call" && events[1].call, {
      id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
      name: "get_weather",
      args: { location: "Paris, France" },
    });
  });
  await t.step("401: the provider's message, not retryable", async () => {
    const e = await failure(openai("openai_error_401.json", 401).chat(req));
    assertInstanceOf(e, ProviderResponseError);
    assertEquals([e.status, e.retryable], [401, false]);
    assertStringIncludes(e.message, "Incorrect API key provided: sk-abc.");
  });
  await t.step("429 with retry-after-ms", async () => {
    const e = await failure(
      openai("openai_error_429.json", 429, {
        "retry-after-ms": "120",
        "x-ratelimit-remaining-requests": "0",
      }).chat(req),
    );
    assertInstanceOf(e, RateLimitError);
    assertEquals([(e as RateLimitError).retryAfterMs, e.retryable, e.phase], [
      120,
      true,
      "pre_stream",
    ]);
    assertStringIncludes(e.message, "Rate limit reached for gpt-4o");
  });
});

Deno.test("AnthropicLLM reads Anthropic's documented responses", async (t) => {
  await t.step(
    "a message: cache reads split out, cache writes billed as input",
    async () => {
      assertEquals(await anthropic("anthropic_message.json").chat(req), {
        id: "msg_013Zva2CMHLNnXjNJJKqJ2EF",
        model: "claude-sonnet-4-5-20250929",
        content: "Hi! My name is Claude.",
        toolCalls: [],
        finishReason: "stop",
        usage: {
          inputTokens: 2095 + 2051,
          outputTokens: 503,
          cachedInputTokens: 2051,
          cacheWriteInputTokens: 2051,
        },
      });
    },
  );
  await t.step("a tool_use message", async () => {
    const res = await anthropic("anthropic_message_tool_use.json").chat(req);
    assertEquals(
      res.content,
      "I'll check the current weather in San Francisco for you.",
    );
    assertEquals(res.toolCalls, [{
      id: "toolu_01A09q90qw90lq917835lq9",
      name: "get_weather",
      args: { location: "San Francisco, CA", unit: "celsius" },
    }]);
    assertEquals([res.finishReason, res.usage], ["tool_calls", {
      inputTokens: 384,
      outputTokens: 92,
    }]);
  });
  await t.step(
    "the basic stream: usage from message_start, totals from message_delta",
    async () => {
      const id = "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY";
      assertEquals(await drain(anthropic("anthropic_stream.sse").stream(req)), [
        { type: "message_start", messageId: id },
        { type: "text_delta", messageId: id, content: "Hello" },
        { type: "text_delta", messageId: id, content: "!" },
        {
          type: "message_end",
          messageId: id,
          finishReason: "stop",
          usage: { inputTokens: 25, outputTokens: 15 },
        },
      ]);
    },
  );
  await t.step(
    "a streamed tool_use assembled from input_json_delta",
    async () => {
      const events = await drain(
        anthropic("anthropic_stream_tool_use.sse").stream(req),
      );
      const text = events.map((e) => e.type === "text_delta" ? e.content : "")
        .join("");
      assertEquals(
        text,
        "Okay, let's check the weather for San Francisco, CA:",
      );
      const call = events.find((e) => e.type === "tool_call");
      assertEquals(call?.type === "tool_call" && call.call, {
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        name: "get_weather",
        args: { location: "San Francisco, CA", unit: "fahrenheit" },
      });
      assertEquals(events.at(-1), {
        type: "message_end",
        messageId: "msg_014p7gG3wDgGV9EUtLvnow3U",
        finishReason: "tool_calls",
        usage: { inputTokens: 472, outputTokens: 89 },
      });
    },
  );
  await t.step(
    "an error event mid-stream: mid_stream, with the usage so far",
    async () => {
      const events = await drain(
        anthropic("anthropic_stream_error.sse").stream(req),
      );
      const end = events.at(-1);
      if (end?.type !== "error") throw new Error("expected an error event");
      const error = end.error as ProviderError;
      assertEquals([error.message, error.phase, error.retryable], [
        "Anthropic reported an error (overloaded_error): Overloaded",
        "mid_stream",
        false,
      ]);
      assertEquals(end.usage, { inputTokens: 25, outputTokens: 1 });
    },
  );
  await t.step("400, 429 and 529 error bodies", async () => {
    const bad = await failure(
      anthropic("anthropic_error_400.json", 400).chat(req),
    );
    assertEquals([bad.name, bad.status, bad.retryable], [
      "ProviderResponseError",
      400,
      false,
    ]);
    assertStringIncludes(bad.message, "roles must alternate");
    const limited = await failure(
      anthropic("anthropic_error_429.json", 429, { "retry-after": "7" }).chat(
        req,
      ),
    );
    assertInstanceOf(limited, RateLimitError);
    assertEquals((limited as RateLimitError).retryAfterMs, 7000);
    const overloaded = await failure(
      anthropic("anthropic_error_529.json", 529).chat(req),
    );
    assertEquals([overloaded.status, overloaded.retryable, overloaded.phase], [
      529,
      true,
      "pre_stream",
    ]);
    assertStringIncludes(overloaded.message, "Overloaded");
  });
});
