// The official Gemini clients, unchanged, against FakeProvider.fetch:
// @google/genai (httpOptions: { baseUrl, fetch }) and @ai-sdk/google
// (createGoogleGenerativeAI({ baseURL, fetch })) through the AI SDK.
import { ApiError, type Content, FinishReason, GoogleGenAI } from "@google/genai";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { ProviderError, RateLimitError, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

function genai(provider: FakeProvider): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: "AIza-test",
    httpOptions: { baseUrl: "https://generativelanguage.googleapis.com", fetch: provider.fetch },
  });
}

function aiSdk(provider: FakeProvider) {
  return createGoogleGenerativeAI({ apiKey: "AIza-test", fetch: provider.fetch });
}

const weather = {
  name: "get_weather",
  description: "Weather by city",
  parametersJsonSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  },
};

Deno.test("FakeProvider serves @google/genai generateContent: text, finish reason, usage, system", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{
      content: "Bonjour.",
      usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 30 },
    }]),
  });
  const res = await genai(provider).models.generateContent({
    model: "gemini-2.5-flash",
    contents: "hi",
    config: { systemInstruction: "Answer in French.", maxOutputTokens: 64, temperature: 0 },
  });
  assertEquals(res.text, "Bonjour.");
  assertEquals(res.candidates?.[0].finishReason, FinishReason.STOP);
  assertEquals(res.usageMetadata?.promptTokenCount, 39);
  assertEquals(res.usageMetadata?.cachedContentTokenCount, 30);
  assertEquals(res.usageMetadata?.candidatesTokenCount, 2);
  const seen = (provider.llm as FakeLLM).requests[0];
  assertEquals(seen.model, "gemini-2.5-flash");
  assertEquals(seen.messages, [
    { role: "system", content: "Answer in French." },
    { role: "user", content: "hi" },
  ]);
  assertEquals([seen.settings?.maxTokens, seen.settings?.temperature], [64, 0]);
  const r = provider.requests[0];
  assertEquals([r.path, r.api, r.stream], [
    "/v1/models/gemini-2.5-flash:generateContent",
    "generateContent",
    false,
  ]);
  assertEquals(r.headers["x-goog-api-key"], "***");
});

Deno.test("FakeProvider serves @google/genai streams: one chunk per delta, usage and STOP on the last", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ chunks: ["Hel", "lo"], usage: { inputTokens: 7, outputTokens: 2 } }]),
  });
  const stream = await genai(provider).models.generateContentStream({
    model: "gemini-2.5-flash",
    contents: "hi",
  });
  const texts: string[] = [];
  let last;
  for await (const chunk of stream) {
    if (chunk.text) texts.push(chunk.text);
    last = chunk;
  }
  assertEquals(texts, ["Hel", "lo"]);
  assertEquals(last?.candidates?.[0].finishReason, FinishReason.STOP);
  assertEquals(last?.usageMetadata?.promptTokenCount, 7);
  // This client version speaks /v1/ by default; @ai-sdk/google speaks /v1beta/.
  assertEquals(provider.requests[0].path, "/v1/models/gemini-2.5-flash:streamGenerateContent");
  assertEquals(provider.requests[0].stream, true);
});

Deno.test("FakeProvider serves @google/genai a two-step tool loop on gemini-3, signature issued and sent back", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([
      { toolCalls: [toolCall("call_1", "get_weather", { city: "Paris" })] },
      "Sunny in Paris.",
    ]),
  });
  const ai = genai(provider);
  const model = "gemini-3-pro-preview";
  const history: Content[] = [{ role: "user", parts: [{ text: "Weather in Paris?" }] }];
  const config = { tools: [{ functionDeclarations: [weather] }] };
  const first = await ai.models.generateContent({ model, contents: history, config });
  const calls = first.functionCalls ?? [];
  assertEquals(calls.map((c) => [c.id, c.name, c.args]), [["call_1", "get_weather", {
    city: "Paris",
  }]]);
  const part = first.candidates![0].content!.parts![0];
  assert(typeof part.thoughtSignature === "string" && part.thoughtSignature.length > 0);
  history.push(first.candidates![0].content!, {
    role: "user",
    parts: [{
      functionResponse: { id: "call_1", name: "get_weather", response: { output: "sunny" } },
    }],
  });
  const second = await ai.models.generateContent({ model, contents: history, config });
  assertEquals(second.text, "Sunny in Paris.");
  const sent = provider.requests[1].body as { contents: Content[] };
  assertEquals(sent.contents[1].parts![0].thoughtSignature, part.thoughtSignature);
  const seen = (provider.llm as FakeLLM).requests[1];
  assertEquals(seen.messages.at(-1), { role: "tool", content: "sunny", toolCallId: "call_1" });
  assertEquals(seen.tools?.[0].parameters, weather.parametersJsonSchema);
});

Deno.test("FakeProvider faults reach @google/genai as its ApiError with Google's error body", async (t) => {
  await t.step("a RateLimitError is a 429 RESOURCE_EXHAUSTED with RetryInfo", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{
        error: new RateLimitError("Quota exceeded", { retryAfterMs: 1500 }),
      }]),
    });
    const error = await assertRejects(
      () => genai(provider).models.generateContent({ model: "gemini-2.5-flash", contents: "hi" }),
      ApiError,
    );
    assertEquals(error.status, 429);
    const body = JSON.parse(error.message);
    assertEquals(body.error.status, "RESOURCE_EXHAUSTED");
    assertEquals(body.error.details, [{
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
      retryDelay: "1.5s",
    }]);
  });
  await t.step("a retryable ProviderError with status 503 is UNAVAILABLE", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{
        error: new ProviderError("overloaded", { retryable: true, status: 503 }),
      }]),
    });
    const error = await assertRejects(
      () => genai(provider).models.generateContent({ model: "gemini-2.5-flash", contents: "hi" }),
      ApiError,
    );
    assertEquals([error.status, JSON.parse(error.message).error.status], [503, "UNAVAILABLE"]);
  });
  await t.step("a stream cut after its first chunk fails the client's iteration", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ chunks: ["a", "b", "c"], failAfterChunks: 1 }]),
    });
    const stream = await genai(provider).models.generateContentStream({
      model: "gemini-2.5-flash",
      contents: "hi",
    });
    const texts: string[] = [];
    await assertRejects(async () => {
      for await (const chunk of stream) texts.push(chunk.text ?? "");
    });
    assertEquals(texts, ["a"]);
  });
  await t.step("no key is Google's 403 PERMISSION_DENIED", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("never") });
    const res = await provider.fetch(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
      { method: "POST", body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }) },
    );
    assertEquals(res.status, 403);
    assertEquals((await res.json()).error.status, "PERMISSION_DENIED");
  });
});

const tools = {
  get_weather: tool({
    description: "Weather by city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: ({ city }) => Promise.resolve(`sunny in ${city}`),
  }),
};

Deno.test("FakeProvider serves @ai-sdk/google generateText: text, usage, finish reason", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ content: "Hello.", usage: { inputTokens: 9, outputTokens: 2 } }]),
  });
  const result = await generateText({
    model: aiSdk(provider)("gemini-2.5-flash"),
    prompt: "hi",
    maxRetries: 0,
  });
  assertEquals(result.text, "Hello.");
  assertEquals(result.finishReason, "stop");
  assertEquals([result.usage.inputTokens, result.usage.outputTokens], [9, 2]);
});

Deno.test("FakeProvider serves @ai-sdk/google a two-step tool loop on gemini-3, blocking and streamed", async (t) => {
  for (const streamed of [false, true]) {
    await t.step(streamed ? "streamText" : "generateText", async () => {
      const provider = new FakeProvider({
        llm: FakeLLM.script([
          { toolCalls: [toolCall("call_1", "get_weather", { city: "Paris" })] },
          { chunks: ["Sunny", "."], usage: { inputTokens: 20, outputTokens: 3 } },
        ]),
      });
      const args = {
        model: aiSdk(provider)("gemini-3-flash-preview"),
        prompt: "Weather in Paris?",
        tools,
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      };
      let text: string;
      let finish: string;
      if (streamed) {
        const r = streamText(args);
        text = await r.text;
        finish = await r.finishReason;
      } else {
        const r = await generateText(args);
        text = r.text;
        finish = r.finishReason;
      }
      assertEquals([text, finish], ["Sunny.", "stop"]);
      assertEquals(provider.requests.length, 2);
      const echoed = (provider.requests[1].body as { contents: Content[] }).contents[1].parts![0];
      // The signature the fake issued with call_1, not the SDK's skip sentinel.
      assertEquals(atob(echoed.thoughtSignature!), "agentkit-fake-thought:1:call_1");
      const seen = (provider.llm as FakeLLM).requests[1].messages;
      assertEquals(seen.at(-1)?.role, "tool");
      assertEquals(seen.at(-1)?.toolCallId, "call_1");
    });
  }
});

Deno.test("FakeProvider faults reach @ai-sdk/google as APICallError, retry hints included", async (t) => {
  await t.step("429: retryable, Google's RetryInfo in the body", async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{
        error: new RateLimitError("Quota exceeded", { retryAfterMs: 1500 }),
      }]),
    });
    const error = await assertRejects(
      () =>
        generateText({ model: aiSdk(provider)("gemini-2.5-flash"), prompt: "hi", maxRetries: 0 }),
      APICallError,
    );
    assertEquals([error.statusCode, error.isRetryable, error.message], [
      429,
      true,
      "Quota exceeded",
    ]);
    assertEquals(JSON.parse(error.responseBody!).error.details[0].retryDelay, "1.5s");
  });
  await t.step("a bad model path is Google's 404 NOT_FOUND", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("never") });
    const res = await provider.fetch(
      "https://generativelanguage.googleapis.com/v1beta/models/:generateContent",
      {
        method: "POST",
        headers: { "x-goog-api-key": "AIza-test" },
        body: JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }] }),
      },
    );
    assertEquals(res.status, 404);
    const body = await res.json();
    assertEquals(body.error.status, "NOT_FOUND");
    assertMatch(body.error.message, /models\/ is not found for API version v1beta/);
  });
});
