import {
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  type ChatRequest,
  type ErrorEvent,
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import {
  Agent,
  GeminiLLM,
  ModelRequestsDisallowed,
  ReActCognition,
  retry,
} from "@agentkit/testing/runtime";
import { FakeClock, FakeLLM, FakeProvider, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const hi: ChatRequest = { model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] };

function port(llm: FakeLLM): { provider: FakeProvider; gemini: GeminiLLM } {
  const provider = new FakeProvider({ llm });
  return { provider, gemini: new GeminiLLM({ apiKey: "AIza-test", fetch: provider.fetch }) };
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function lastError(events: StreamEvent[]): ErrorEvent {
  const e = events.at(-1);
  if (e?.type !== "error") throw new Error(`expected an error event, got ${e?.type}`);
  return e;
}

// A stream's result: the generator's return value, after every event.
async function resultOf<T>(events: AsyncGenerator<unknown, T, undefined>): Promise<T> {
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
  }
}

type Sent = {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  systemInstruction?: unknown;
  tools?: unknown;
  generationConfig?: unknown;
};

Deno.test("GeminiLLM.chat() posts generateContent with the key header, system instruction and settings", async () => {
  const { provider, gemini } = port(FakeLLM.script([{
    content: "Bonjour.",
    usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 30 },
  }]));
  const res = await gemini.chat({
    model: "gemini-2.5-flash",
    messages: [{ role: "system", content: "Answer in French." }, { role: "user", content: "hi" }],
    settings: { maxTokens: 64, temperature: 0.2 },
  });
  assertEquals([res.content, res.finishReason], ["Bonjour.", "stop"]);
  assertEquals(res.usage, { inputTokens: 9, outputTokens: 2, cachedInputTokens: 30 });
  const r = provider.requests[0];
  assertEquals(r.path, "/v1beta/models/gemini-2.5-flash:generateContent");
  assertEquals(r.headers["x-goog-api-key"], "***");
  assertEquals(r.body, {
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    systemInstruction: { parts: [{ text: "Answer in French." }] },
    generationConfig: { maxOutputTokens: 64, temperature: 0.2 },
  });
});

Deno.test("GeminiLLM runs a two-step tool loop on gemini-3: the thought signature comes back on the second request", async (t) => {
  for (const streaming of [false, true]) {
    await t.step(streaming ? "streamed" : "blocking", async () => {
      const provider = new FakeProvider({
        llm: FakeLLM.script([
          {
            toolCalls: [
              toolCall("c1", "lookup", { host: "a" }),
              toolCall("c2", "lookup", { host: "b" }),
            ],
          },
          "Both up.",
        ]),
      });
      const llm = new GeminiLLM({ apiKey: "AIza-test", fetch: provider.fetch });
      const agent = new Agent("a", {
        model: "gemini-3-pro-preview",
        system: "Check hosts.",
        cognition: new ReActCognition({
          tools: [new FakeTool({ name: "lookup", responder: () => "up" })],
        }),
      });
      const run = streaming
        ? await resultOf(agent.stream("check a and b", makeTestCtx({ llm })))
        : await agent.run("check a and b", makeTestCtx({ llm }));
      assertEquals(run.output, "Both up.");
      assertEquals(provider.requests.length, 2);
      const sent = provider.requests[1].body as Sent;
      assertEquals(sent.contents.map((c) => c.role), ["user", "model", "user"]);
      // Only the first call of a parallel step is signed; it comes back as issued.
      const [first, second] = sent.contents[1].parts;
      assertEquals(atob(first.thoughtSignature as string), "agentkit-fake-thought:1:c1");
      assertEquals(first.functionCall, { id: "c1", name: "lookup", args: { host: "a" } });
      assertEquals(second, { functionCall: { id: "c2", name: "lookup", args: { host: "b" } } });
      assertEquals(sent.contents[2].parts, [
        { functionResponse: { id: "c1", name: "lookup", response: { output: "up" } } },
        { functionResponse: { id: "c2", name: "lookup", response: { output: "up" } } },
      ]);
      // The transcript keeps it, keyed by the call.
      const assistant = run.messages.find((m) => m.role === "assistant" && m.toolCalls);
      assertEquals(assistant?.providerData, {
        gemini: { thoughtSignatures: { c1: btoa("agentkit-fake-thought:1:c1") } },
      });
    });
  }
});

Deno.test("GeminiLLM: a hand-written history on gemini-3 (no signatures) passes the strict wire with Google's dummy signature", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("Both up.") });
  const llm = new GeminiLLM({ apiKey: "AIza-test", fetch: provider.fetch });
  const res = await llm.chat({
    model: "gemini-3-pro-preview",
    messages: [
      { role: "user", content: "check a" },
      { role: "assistant", content: "", toolCalls: [toolCall("c1", "lookup", { host: "a" })] },
      { role: "tool", toolCallId: "c1", content: "up" },
    ],
    tools: [{ name: "lookup", description: "", parameters: { type: "object" } }],
  });
  assertEquals(res.content, "Both up.");
  assertEquals(provider.rejections.length, 0);
  const sent = provider.requests[0].body as Sent;
  assertEquals(sent.contents[1].parts[0].thoughtSignature, "skip_thought_signature_validator");
});

Deno.test("GeminiLLM sends tools as functionDeclarations and a failed tool as { error }", async () => {
  const { provider, gemini } = port(FakeLLM.script(["ok"]));
  const parameters = { type: "object", properties: { host: { type: "string" } } };
  await gemini.chat({
    model: "gemini-2.5-flash",
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: "Looking.", toolCalls: [toolCall("x1", "lookup", {})] },
      { role: "tool", content: "boom", toolCallId: "x1", isError: true },
    ],
    tools: [{ name: "lookup", description: "Looks up", parameters }],
    settings: { jsonSchema: { type: "object" } },
  });
  const sent = provider.requests[0].body as Sent;
  assertEquals(sent.tools, [{
    functionDeclarations: [{
      name: "lookup",
      description: "Looks up",
      parametersJsonSchema: parameters,
    }],
  }]);
  assertEquals(sent.contents[1].parts, [
    { text: "Looking." },
    { functionCall: { id: "x1", name: "lookup", args: {} } },
  ]);
  assertEquals(sent.contents[2].parts, [
    { functionResponse: { id: "x1", name: "lookup", response: { error: "boom" } } },
  ]);
  assertEquals(sent.generationConfig, {
    responseMimeType: "application/json",
    responseJsonSchema: { type: "object" },
  });
  const seen = (provider.llm as FakeLLM).requests[0].messages.at(-1);
  assertEquals(seen, { role: "tool", content: "boom", toolCallId: "x1", isError: true });
});

Deno.test("GeminiLLM.stream() yields text deltas, tool calls and the usage at the end", async () => {
  const { provider, gemini } = port(FakeLLM.script([{
    chunks: ["Hel", "lo"],
    toolCalls: [toolCall("c1", "lookup", { host: "a" })],
    usage: { inputTokens: 7, outputTokens: 3 },
  }]));
  const events = await drain(gemini.stream(hi));
  assertEquals(events.map((e) => e.type), [
    "message_start",
    "text_delta",
    "text_delta",
    "tool_call",
    "message_end",
  ]);
  const end = events.at(-1)!;
  if (end.type !== "message_end") throw new Error(end.type);
  assertEquals([end.finishReason, end.usage], ["tool_calls", { inputTokens: 7, outputTokens: 3 }]);
  // No signature on a Gemini 2.5 model.
  assertEquals(end.providerData, undefined);
  assertEquals(provider.requests[0].path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent");
});

Deno.test("GeminiLLM maps finish reasons from the wire", async (t) => {
  for (
    const [finishReason, expected] of [
      ["length", "length"],
      ["content_filter", "content_filter"],
      ["stop", "stop"],
    ] as const
  ) {
    await t.step(finishReason, async () => {
      const { gemini } = port(FakeLLM.script([{ content: "x", finishReason }]));
      assertEquals((await gemini.chat(hi)).finishReason, expected);
      const { gemini: g2 } = port(FakeLLM.script([{ content: "x", finishReason }]));
      const end = (await drain(g2.stream(hi))).at(-1)!;
      assertEquals(end.type === "message_end" && end.finishReason, expected);
    });
  }
});

Deno.test("GeminiLLM: a turn the wire ends MALFORMED_FUNCTION_CALL is a ProviderResponseError, blocking and streamed", async () => {
  const { gemini } = port(FakeLLM.script([{ content: "", finishReason: "error" }]));
  await assertRejects(() => gemini.chat(hi), ProviderResponseError, "MALFORMED_FUNCTION_CALL");
  const { gemini: g2 } = port(FakeLLM.script([{ content: "", finishReason: "error" }]));
  await assertRejects(() => drain(g2.stream(hi)), ProviderResponseError, "MALFORMED_FUNCTION_CALL");
});

Deno.test("GeminiLLM classifies failures", async (t) => {
  await t.step(
    "429 RESOURCE_EXHAUSTED is a RateLimitError with retryAfterMs from RetryInfo",
    async () => {
      const { gemini } = port(FakeLLM.script([{
        error: new RateLimitError("You exceeded your current quota", { retryAfterMs: 1500 }),
      }]));
      const e = await assertRejects(() => gemini.chat(hi), RateLimitError);
      assertEquals([e.retryAfterMs, e.status, e.retryable], [1500, 429, true]);
      assertStringIncludes(e.message, "You exceeded your current quota");
    },
  );
  await t.step("retry() waits at least the RetryInfo delay", async () => {
    const { gemini, provider } = port(FakeLLM.script([
      { error: new RateLimitError("slow down", { retryAfterMs: 1500 }) },
      "ok",
    ]));
    const clock = new FakeClock();
    const ctx = makeTestCtx({ llm: gemini, clock, chatMiddleware: [retry({ maxAttempts: 2 })] });
    const result = await new Agent("a", { model: "gemini-2.5-flash" }).run("go", ctx);
    assertEquals(result.output, "ok");
    assertEquals(clock.sleeps, [1500]);
    assertEquals(provider.requests.length, 2);
  });
  await t.step("503 UNAVAILABLE is retryable pre_stream, blocking and streamed", async () => {
    for (const streamed of [false, true]) {
      const { gemini } = port(FakeLLM.script([{
        error: new ProviderError("The model is overloaded.", { status: 503, retryable: true }),
      }]));
      const e = await assertRejects(
        () => streamed ? drain(gemini.stream(hi)) : gemini.chat(hi),
        ProviderError,
      );
      assertEquals([e.status, e.retryable, e.phase], [503, true, "pre_stream"]);
    }
  });
  await t.step("400 is a ProviderResponseError with Google's message", async () => {
    const { gemini } = port(FakeLLM.script([{
      error: new ProviderResponseError("Please use a valid role: user, model.", { status: 400 }),
    }]));
    const e = await assertRejects(() => gemini.chat(hi), ProviderResponseError);
    assertEquals([e.status, e.retryable], [400, false]);
    assertStringIncludes(e.message, "Please use a valid role: user, model.");
  });
  await t.step(
    "a cut after the first delta is mid_stream, an error before content pre_stream",
    async () => {
      const { gemini } = port(FakeLLM.script([{ chunks: ["a", "b"], failAfterChunks: 1 }]));
      const events = await drain(gemini.stream(hi));
      assertEquals(events.map((e) => e.type), ["message_start", "text_delta", "error"]);
      const error = lastError(events).error as ProviderError;
      assertEquals([error.phase, error.retryable], ["mid_stream", false]);
    },
  );
  await t.step("an error chunk after content keeps the finish reason and usage", async () => {
    const usage = { inputTokens: 100, outputTokens: 6 };
    const { gemini } = port(FakeLLM.script([{
      chunks: ["partial"],
      finishReason: "length",
      error: "Internal error encountered.",
      usage,
    }]));
    const end = lastError(await drain(gemini.stream(hi)));
    assertEquals([end.finishReason, end.usage], ["length", usage]);
    assertStringIncludes(end.error.message, "Internal error encountered.");
    assertEquals((end.error as ProviderError).phase, "mid_stream");
  });
  await t.step("no key is Google's 403, not retried, naming the fix", async () => {
    const provider = new FakeProvider({ llm: new FakeLLM("never") });
    const gemini = new GeminiLLM({ apiKey: "", fetch: provider.fetch });
    const e = await assertRejects(() => gemini.chat(hi), ProviderResponseError);
    assertEquals([e.status, e.retryable], [403, false]);
    assertStringIncludes(e.message, "unregistered callers");
    assertStringIncludes(e.message, "check the API key");
  });
  await t.step("a bad model is Google's 404, naming the model path", async () => {
    const { gemini } = port(new FakeLLM("never"));
    const e = await assertRejects(
      () => gemini.chat({ ...hi, model: " " }),
      ProviderResponseError,
    );
    assertEquals(e.status, 404);
    assertStringIncludes(e.message, "is not found for API version v1beta");
  });
});

Deno.test("GeminiLLM refuses a 2xx answer that is not the API's shape", async (t) => {
  const cases: Array<[string, unknown, string]> = [
    ["no candidates", { usageMetadata: {} }, "candidates must be an array"],
    ["empty candidates", { candidates: [] }, "candidates must be a non-empty array"],
    ["a candidate without content or reason", { candidates: [{}] }, "content must be an object"],
    [
      "a text that is a number",
      { candidates: [{ content: { parts: [{ text: 5 }] } }] },
      "text must be a string",
    ],
    [
      "a call without a name",
      { candidates: [{ content: { parts: [{ functionCall: { args: {} } }] } }] },
      "functionCall.name must name the tool",
    ],
    [
      "a count that is a string",
      {
        candidates: [{ content: { parts: [{ text: "x" }] }, finishReason: "STOP" }],
        usageMetadata: { promptTokenCount: "7" },
      },
      "promptTokenCount must be a non-negative integer",
    ],
  ];
  for (const [name, body, says] of cases) {
    await t.step(name, async () => {
      const gemini = new GeminiLLM({
        apiKey: "AIza-test",
        fetch: () => Promise.resolve(Response.json(body)),
      });
      const e = await assertRejects(() => gemini.chat(hi), ProviderResponseError);
      assertStringIncludes(e.message, says);
      assertEquals(e.retryable, false);
    });
  }
  await t.step(
    "a blocked prompt (promptFeedback.blockReason) is a content filter, not malformed",
    async () => {
      const gemini = new GeminiLLM({
        apiKey: "AIza-test",
        fetch: () => Promise.resolve(Response.json({ promptFeedback: { blockReason: "SAFETY" } })),
      });
      const res = await gemini.chat(hi);
      assertEquals([res.content, res.finishReason], ["", "content_filter"]);
    },
  );
});

Deno.test("GeminiLLM under makeTestCtx refuses a real request", async () => {
  const gemini = new GeminiLLM({
    apiKey: "AIza-live",
    fetch: () => Promise.reject(new Error("must not be called")),
  });
  const e = await assertRejects(() => gemini.chat(hi, makeTestCtx()), ModelRequestsDisallowed);
  assertEquals(e.port, "GeminiLLM");
  await assertRejects(() => drain(gemini.stream(hi, makeTestCtx())), ModelRequestsDisallowed);
});

Deno.test("GeminiLLM checks its options", () => {
  assertThrows(() => new GeminiLLM({ maxTokens: 0 }), RangeError);
  const e = assertThrows(() => new GeminiLLM({ max_tokens: 5 } as never), TypeError);
  assertStringIncludes(e.message, 'did you mean "maxTokens"?');
  assertThrows(() => new GeminiLLM({ baseURL: "generativelanguage.googleapis.com" }), TypeError);
  assertThrows(() => new GeminiLLM({ apiKey: "AIza\n" }), TypeError);
});

Deno.test("GeminiLLM reads GEMINI_API_KEY, else GOOGLE_API_KEY", async (t) => {
  const saved = ["GEMINI_API_KEY", "GOOGLE_API_KEY"].map((k) => [k, Deno.env.get(k)] as const);
  const keys: string[] = [];
  const fetch = (_: string | URL | Request, init?: RequestInit): Promise<Response> => {
    keys.push(new Headers(init?.headers).get("x-goog-api-key") ?? "(none)");
    return Promise.resolve(Response.json({
      candidates: [{ content: { parts: [{ text: "ok" }] }, finishReason: "STOP" }],
    }));
  };
  try {
    await t.step("both set: GEMINI_API_KEY", async () => {
      Deno.env.set("GEMINI_API_KEY", "AIza-gemini");
      Deno.env.set("GOOGLE_API_KEY", "AIza-google");
      await new GeminiLLM({ fetch }).chat(hi);
    });
    await t.step("only GOOGLE_API_KEY", async () => {
      Deno.env.delete("GEMINI_API_KEY");
      await new GeminiLLM({ fetch }).chat(hi);
    });
    assertEquals(keys, ["AIza-gemini", "AIza-google"]);
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  }
});

Deno.test("GeminiLLM: a baseURL of /v1 and a FakeProvider on 127.0.0.1 take the same paths", async () => {
  const { provider } = port(FakeLLM.script(["one"]));
  const gemini = new GeminiLLM({
    apiKey: "AIza-test",
    baseURL: "https://proxy.example.com/gemini/v1",
    fetch: provider.fetch,
  });
  assertEquals((await gemini.chat(hi)).content, "one");
  assertEquals(provider.requests[0].path, "/gemini/v1/models/gemini-2.5-flash:generateContent");
  assertInstanceOf(gemini, GeminiLLM);
});

Deno.test("GeminiLLM gives calls without ids its own, one sequence per port, and answers complete()", async () => {
  const answer = {
    candidates: [{
      content: {
        role: "model",
        parts: [{ functionCall: { name: "f" } }, { functionCall: { name: "g" } }],
      },
      finishReason: "STOP",
    }],
  };
  const urls: string[] = [];
  const gemini = new GeminiLLM({
    apiKey: "AIza-test",
    fetch: (input) => {
      urls.push(String(input));
      return Promise.resolve(Response.json(answer));
    },
  });
  const first = await gemini.chat(hi);
  const second = await gemini.chat(hi);
  assertEquals([...first.toolCalls, ...second.toolCalls].map((c) => c.id), [
    "gemini_call_1",
    "gemini_call_2",
    "gemini_call_3",
    "gemini_call_4",
  ]);
  assertEquals(
    urls[0],
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
  );
  const { provider, gemini: port2 } = port(FakeLLM.script(["done"]));
  const res = await port2.complete({ model: "gemini-2.5-flash", system: "Be brief.", user: "hi" });
  assertEquals(res.content, "done");
  assertEquals(provider.requests[0].body, {
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    systemInstruction: { parts: [{ text: "Be brief." }] },
  });
});

Deno.test("GeminiLLM: maxTokens is the default output cap, a request's own wins; errors name Gemini", async () => {
  assertThrows(() => new GeminiLLM({ maxTokens: 1.5 }), RangeError);
  const { provider } = port(FakeLLM.script(["a", "b"]));
  const gemini = new GeminiLLM({ apiKey: "AIza-test", fetch: provider.fetch, maxTokens: 256 });
  await gemini.chat(hi);
  await gemini.chat({ ...hi, settings: { maxTokens: 8 } });
  assertEquals(provider.requests.map((r) => (r.body as Sent).generationConfig), [
    { maxOutputTokens: 256 },
    { maxOutputTokens: 8 },
  ]);
  const failing = new GeminiLLM({
    apiKey: "AIza-test",
    fetch: () => Promise.resolve(Response.json({ error: { message: "nope" } }, { status: 400 })),
  });
  const e = await assertRejects(() => failing.chat(hi), ProviderResponseError);
  assertEquals(e.message, "Gemini answered 400: nope");
});

Deno.test("GeminiLLM refuses a request or ctx that is not one, naming the call, before sending", async () => {
  let sent = 0;
  const gemini = new GeminiLLM({
    apiKey: "AIza-test",
    fetch: () => {
      sent++;
      return Promise.resolve(Response.json({}));
    },
  });
  for (
    const [call, where] of [[() => gemini.chat(undefined as never), "GeminiLLM.chat()"], [
      () => drain(gemini.stream(undefined as never)),
      "GeminiLLM.stream()",
    ]] as const
  ) {
    const e = await assertRejects(call, TypeError);
    assertStringIncludes(e.message, `${where}: the request must be a ChatRequest object`);
  }
  const bad = await assertRejects(() => gemini.chat({ ...hi, model: "" }), TypeError);
  assertStringIncludes(bad.message, "GeminiLLM.chat(): request.model must be a non-empty string");
  const ctx = await assertRejects(() => gemini.chat(hi, 5 as never), TypeError);
  assertStringIncludes(ctx.message, "GeminiLLM.chat(): the ctx must be a RunContext");
  assertEquals(sent, 0);
});
