import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  FakeClock,
  FakeLLM,
  FakeProvider,
  InvalidScript,
  makeTestCtx,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";
import {
  type ChatRequest,
  type ChatResponse,
  type LLMPort,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
} from "@agentkit/testing/ports";
import { OpenAIChatLLM } from "@agentkit/testing/runtime";

const CHAT = "https://api.openai.com/v1/chat/completions";
const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], ...extra });
const post = (provider: FakeProvider, init: RequestInit = {}) =>
  provider.fetch(CHAT, {
    method: "POST",
    headers: { authorization: "Bearer sk-test" },
    body: body(),
    ...init,
  });

Deno.test("new FakeProvider() checks its options where they are given", () => {
  assertThrows(
    () => new FakeProvider({ llm: new FakeLLM("x"), clok: new FakeClock() } as never),
    TypeError,
    'unknown option "clok"; did you mean "clock"?',
  );
  assertThrows(() => new FakeProvider({} as never), TypeError, '"llm" is required');
  assertThrows(() => new FakeProvider({ llm: "hi" } as never), TypeError, "an LLMPort");
});

Deno.test("FakeProvider: delayMs holds the response on the provider's clock", async () => {
  const clock = new FakeClock();
  const provider = new FakeProvider({ llm: new FakeLLM("late", { delayMs: 30_000 }), clock });
  const res = await post(provider);
  assertEquals((await res.json()).choices[0].message.content, "late");
  assertEquals([clock.sleeps, clock.now()], [[30_000], 30_000]);
});

Deno.test("FakeProvider: a gate holds the response until it opens; an abort meanwhile rejects", async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  const llm = FakeLLM.script([{ content: "through", gate }, {
    content: "never",
    gate: new Promise(() => {}),
  }]);
  const provider = new FakeProvider({ llm });
  let settled = false;
  const pending = post(provider).then((r) => {
    settled = true;
    return r.json();
  });
  // A macrotask turn: everything the fetch could do without the gate is done.
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(settled, false);
  open();
  assertEquals((await pending).choices[0].message.content, "through");

  const controller = new AbortController();
  const reason = new Error("gave up");
  const held = post(provider, { signal: controller.signal });
  controller.abort(reason);
  assertEquals(await held.catch((e) => e), reason);
  assertEquals(llm.cancelled.length, 1);
});

Deno.test("FakeProvider: a harness error behind the wire is a 400 (no client retries it) now and a failure at verify()", async () => {
  const provider = new FakeProvider({ llm: FakeLLM.script(["one"]) });
  const ok = await post(provider);
  assertEquals(ok.status, 200);
  // Only a harness error tells the client not to retry (the SDKs read the header first).
  assertEquals(ok.headers.get("x-should-retry"), null);
  await ok.body?.cancel();
  const res = await post(provider);
  assertEquals(res.status, 400);
  assertEquals(res.headers.get("x-should-retry"), "false");
  const error = (await res.json()).error;
  assertStringIncludes(error.message, "has 1 turn(s)");
  assertEquals(error.code, "agentkit_harness_error");
  assertThrows(() => provider.verify(), ScriptExhausted);
});

Deno.test("FakeProvider: a stall turn asked for blocking is a harness error, not a hang", async () => {
  const provider = new FakeProvider({ llm: FakeLLM.script([{ chunks: ["x"], stall: true }]) });
  assertEquals((await post(provider)).status, 400);
  assertThrows(() => provider.verify(), InvalidScript, "stall");
});

Deno.test("FakeProvider: using verifies unused turns at scope exit", () => {
  assertThrows(() => {
    using _provider = new FakeProvider({ llm: FakeLLM.script(["a", "b"]) });
  }, UnusedTurns);
});

Deno.test("FakeProvider records every request, the ones it refuses included", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("x") });
  await (await post(provider, { body: "{not json" })).body?.cancel();
  await (await provider.fetch("http://localhost:1234/v1/models")).body?.cancel();
  await (await provider.fetch(
    new Request(CHAT, {
      method: "POST",
      headers: { "x-api-key": "secret", cookie: "s=1", authorization: "Bearer sk-live-123" },
      body: body({ stream: true }),
    }),
  )).text();
  assertEquals(provider.requests.map((r) => [r.method, r.path, r.api, r.stream]), [
    ["POST", "/v1/chat/completions", "chat.completions", false],
    ["GET", "/v1/models", undefined, false],
    ["POST", "/v1/chat/completions", "chat.completions", true],
  ]);
  assertEquals(provider.requests[0].body, "{not json");
  const h = provider.requests[2].headers;
  assertEquals([h["x-api-key"], h.cookie, h.authorization], ["***", "***", "Bearer ***"]);
});

Deno.test("FakeProvider answers malformed requests with the provider's error JSON", async (t) => {
  const provider = new FakeProvider({ llm: new FakeLLM("x") });
  await t.step("OpenAI: a bad role is a 400 naming the parameter", async () => {
    const res = await post(provider, {
      body: JSON.stringify({ model: "m", messages: [{ role: "wizard", content: "hi" }] }),
    });
    const json = await res.json();
    assertEquals([res.status, json.error.param, json.error.type], [
      400,
      "messages[0].role",
      "invalid_request_error",
    ]);
  });
  await t.step("Anthropic: no anthropic-version header is a 400", async () => {
    const res = await provider.fetch("https://api.anthropic.com/v1/messages", {
      method: "POST",
      headers: { "x-api-key": "k" },
      body: JSON.stringify({ model: "m", max_tokens: 5, messages: [] }),
    });
    assertEquals([res.status, (await res.json()).error.type], [400, "invalid_request_error"]);
  });
  await t.step("Responses: no input is a 400", async () => {
    const res = await provider.fetch("https://api.openai.com/v1/responses", {
      method: "POST",
      headers: { authorization: "Bearer k" },
      body: JSON.stringify({ model: "m" }),
    });
    assertEquals([res.status, (await res.json()).error.param], [400, "input"]);
  });
  assertEquals((provider.llm as FakeLLM).calls, 0);
});

Deno.test("FakeProvider: a client that cancels a stream cancels the model", async () => {
  const llm = FakeLLM.script([{ chunks: ["a"], stall: true }]);
  const provider = new FakeProvider({ llm });
  const res = await post(provider, { body: body({ stream: true }) });
  const reader = res.body!.getReader();
  assertStringIncludes(new TextDecoder().decode((await reader.read()).value), '"content":"a"');
  await reader.cancel();
  assertEquals(llm.cancelled.length, 1);
});

Deno.test("FakeProvider: masks every credential header, a non-bearer one whole; the rest is kept", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("x") });
  await (await provider.fetch(
    new Request(CHAT, {
      method: "POST",
      headers: {
        "api-key": "k1",
        "proxy-authorization": "Token bearer abc",
        authorization: "Token t",
        "x-trace": "t-1",
      },
      body: body(),
    }),
  )).text();
  const h = provider.requests[0].headers;
  assertEquals(
    [h["api-key"], h["proxy-authorization"], h.authorization, h["x-trace"]],
    ["***", "***", "***", "t-1"],
  );
});

Deno.test("FakeProvider: a scripted 429 says when to come back, in ms and in whole seconds rounded up", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ error: new RateLimitError("slow", { retryAfterMs: 1_500 }) }, {
      error: new RateLimitError("no hint"),
    }]),
  });
  const first = await post(provider);
  await first.body?.cancel();
  assertEquals(
    [first.status, first.headers.get("retry-after-ms"), first.headers.get("retry-after")],
    [429, "1500", "2"],
  );
  const second = await post(provider);
  await second.body?.cancel();
  assertEquals([second.status, second.headers.get("retry-after")], [429, null]);
  // A provider's 429 is the client's to retry: only a harness error says not to.
  assertEquals([first.headers.get("x-should-retry"), second.headers.get("x-should-retry")], [
    null,
    null,
  ]);
  // Each request gets its own id, as the vendors' servers give one.
  assertEquals([first.headers.get("x-request-id"), second.headers.get("request-id")], [
    "req_1",
    "req_2",
  ]);
});

// A model port scripted event by event, for what FakeLLM never does.
function port(
  stream: (request: ChatRequest) => AsyncGenerator<StreamEvent>,
  chat: (request: ChatRequest) => Promise<ChatResponse> = () => Promise.reject(new Error("unused")),
): LLMPort {
  return { chat, complete: () => Promise.reject(new Error("unused")), stream };
}

const streamed = (provider: FakeProvider) => post(provider, { body: body({ stream: true }) });
const nextTurn = () => new Promise((r) => setTimeout(r, 0));

Deno.test("new FakeProvider() names itself in an option error", () => {
  assertThrows(() => new FakeProvider({} as never), TypeError, "new FakeProvider()");
  assertThrows(() => new FakeProvider(undefined as never), TypeError, "new FakeProvider()");
});

Deno.test("FakeProvider.fetch is in-process: a test context that forbids model requests allows it", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("from the fake") });
  const openai = new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch });
  const ctx = makeTestCtx({ llm: new FakeLLM("unused") });
  assertEquals(ctx.allowModelRequests, false);
  const res = await openai.chat({ model: "m", messages: [{ role: "user", content: "hi" }] }, ctx);
  assertEquals(res.content, "from the fake");
});

Deno.test("FakeProvider.verify() throws a harness error of any model port, and passes a port with no verify", async () => {
  const quiet = new FakeProvider({ llm: port(async function* () {}, () => Promise.resolve(ok)) });
  assertEquals((await post(quiet)).status, 200);
  quiet.verify();
  const broken = new InvalidScript("the port's own script is wrong");
  const failing = new FakeProvider({
    llm: port(async function* () {}, () => Promise.reject(broken)),
  });
  assertEquals((await post(failing)).status, 400);
  assertEquals(assertThrows(() => failing.verify()), broken);
  // A provider error is the client's to see, not a harness failure.
  const limited = new FakeProvider({
    llm: FakeLLM.script([{ error: new RateLimitError("slow") }]),
  });
  assertEquals((await post(limited)).status, 429);
  limited.verify();
});

const ok: ChatResponse = {
  id: "r1",
  model: "m",
  content: "ok",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 1, outputTokens: 1 },
};

Deno.test("FakeProvider: an empty body, a body that is not JSON, and JSON null are each a 400", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("x") });
  const error = async (init: RequestInit) => {
    const res = await post(provider, init);
    return [res.status, (await res.json()).error.message];
  };
  const [emptyStatus, empty] = await error({ body: "" });
  const [noneStatus, none] = await error({ body: undefined });
  const [badStatus, bad] = await error({ body: "{not json" });
  const [nullStatus, nul] = await error({ body: "null" });
  assertEquals([emptyStatus, noneStatus, badStatus, nullStatus], [400, 400, 400, 400]);
  // An empty body is JSON that is not an object; text that is not JSON is a parse failure.
  assertEquals([empty, none, nul].map((m) => m.includes("must be a JSON object")), [
    true,
    true,
    true,
  ]);
  assertStringIncludes(bad, "could not parse the JSON body");
  assertEquals(provider.requests.map((r) => r.body), ["", "", "{not json", null]);
  const anthropic = await provider.fetch("https://api.anthropic.com/v1/messages", {
    method: "POST",
    headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
    body: "{not json",
  });
  const json = await anthropic.json();
  assertEquals([anthropic.status, json.type, json.error.type], [
    400,
    "error",
    "invalid_request_error",
  ]);
  assertStringIncludes(json.error.message, "issue with the request body");
  assertEquals((provider.llm as FakeLLM).calls, 0);
});

Deno.test("FakeProvider reads a body given as bytes, and a Request without a body", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("bytes") });
  const res = await post(provider, { body: new TextEncoder().encode(body()) });
  assertEquals((await res.json()).choices[0].message.content, "bytes");
  await (await provider.fetch(new Request("https://api.openai.com/v1/models"))).body?.cancel();
  assertEquals(provider.requests[1].body, "");
});

Deno.test("FakeProvider: a path it does not serve, or a method other than POST, is OpenAI's 404", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("x") });
  for (const [method, url] of [["GET", CHAT], ["POST", "https://api.openai.com/v1/models"]]) {
    const res = await provider.fetch(url, { method, headers: { authorization: "Bearer k" } });
    const json = await res.json();
    assertEquals([res.status, json.error.type], [404, "invalid_request_error"]);
    assertStringIncludes(json.error.message, `${method} ${new URL(url).pathname}`);
  }
  assertEquals((provider.llm as FakeLLM).calls, 0);
});

Deno.test("FakeProvider: created is the provider clock's time in whole seconds", async () => {
  const clock = new FakeClock({ start: 1_700_000_000_999 });
  const provider = new FakeProvider({ llm: new FakeLLM("x"), clock });
  assertEquals((await (await post(provider)).json()).created, 1_700_000_000);
});

Deno.test("FakeProvider: a client's abort while the model waits reaches the model", async (t) => {
  await t.step("blocking", async () => {
    const llm = FakeLLM.script([{ content: "never", gate: new Promise(() => {}) }]);
    const provider = new FakeProvider({ llm });
    const controller = new AbortController();
    const reason = new Error("gave up");
    const pending = post(provider, { signal: controller.signal });
    await nextTurn();
    controller.abort(reason);
    assertEquals(await pending.catch((e) => e), reason);
    assertEquals(llm.cancelled, ["fake-chat-1"]);
  });
  await t.step("streamed, before the first event", async () => {
    const llm = FakeLLM.script([{ content: "never", gate: new Promise(() => {}) }]);
    const provider = new FakeProvider({ llm });
    const controller = new AbortController();
    const reason = new Error("gave up");
    const pending = post(provider, { body: body({ stream: true }), signal: controller.signal });
    await nextTurn();
    controller.abort(reason);
    assertEquals(await pending.catch((e) => e), reason);
    assertEquals(llm.cancelled, ["fake-stream-1"]);
  });
});

Deno.test("FakeProvider: a stream that fails before its first event is the provider's HTTP error", async () => {
  const timeout = new FakeProvider({ llm: FakeLLM.script(["x"], { failTimes: 1 }) });
  const res = await streamed(timeout);
  assertEquals([res.status, (await res.json()).error.message], [408, "upstream timeout"]);
  const statuses: number[] = [];
  for (const retryable of [true, false]) {
    const error = new ProviderResponseError("bad", { retryable });
    const p = new FakeProvider({ llm: FakeLLM.script([{ error }]) });
    const answer = await post(p);
    await answer.body?.cancel();
    statuses.push(answer.status);
  }
  assertEquals(statuses, [500, 400]);
  const thrown = new FakeProvider({ llm: port(async function* () {}, () => Promise.reject(null)) });
  assertEquals((await post(thrown)).status, 500);
});

Deno.test("FakeProvider: what a model streams first decides between an HTTP error and a 200 stream", async (t) => {
  await t.step("no event at all: a 500 saying so", async () => {
    const provider = new FakeProvider({ llm: port(async function* () {}) });
    const res = await streamed(provider);
    assertEquals(res.status, 500);
    assertStringIncludes((await res.json()).error.message, "without any event");
  });
  await t.step("a pre-stream error as the first event: that error's status", async () => {
    const provider = new FakeProvider({
      llm: port(async function* () {
        yield { type: "error", messageId: "m", error: new RateLimitError("slow") };
      }),
    });
    assertEquals((await streamed(provider)).status, 429);
  });
  await t.step("message_start and the end of the stream: a 200 with what there was", async () => {
    const provider = new FakeProvider({
      llm: port(async function* () {
        yield { type: "message_start", messageId: "m" };
      }),
    });
    const res = await streamed(provider);
    assertEquals(res.status, 200);
    assertStringIncludes(await res.text(), '"role":"assistant"');
  });
  await t.step(
    "a scripted mid-stream error after message_start: a 200 carrying the error",
    async () => {
      const provider = new FakeProvider({ llm: FakeLLM.script([{ error: "boom" }]) });
      const res = await streamed(provider);
      assertEquals(res.status, 200);
      assertStringIncludes(await res.text(), '"message":"boom"');
    },
  );
});

Deno.test("FakeProvider: a stream is SSE, uncached, complete even when the client reads late", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ chunks: ["a", "b"] }, { chunks: ["c", "d"], chunkDelayMs: 1_000 }]),
  });
  const res = await streamed(provider);
  assertEquals(
    [res.headers.get("content-type"), res.headers.get("cache-control")],
    ["text/event-stream; charset=utf-8", "no-cache"],
  );
  await nextTurn(); // the model ran ahead; its frames wait for the reader
  const text = await res.text();
  assertStringIncludes(text, '"content":"b"');
  assert(text.endsWith("data: [DONE]\n\n"));
  // Paced on the provider's clock: the reader waits for frames still to come.
  const paced = await (await streamed(provider)).text();
  assertStringIncludes(paced, '"content":"d"');
  assert(paced.endsWith("data: [DONE]\n\n"));
});

Deno.test("FakeProvider: a cut is a broken connection after the frames sent before it", async () => {
  const provider = new FakeProvider({
    llm: FakeLLM.script([{ chunks: ["a", "b"], failAfterChunks: 1 }]),
  });
  const reader = (await streamed(provider)).body!.getReader();
  let text = "";
  const error = await (async () => {
    for (;;) {
      const step = await reader.read();
      if (step.done) return undefined;
      text += new TextDecoder().decode(step.value);
    }
  })().catch((e) => e);
  assert(error instanceof TypeError, String(error));
  assertStringIncludes(error.message, "cut mid-stream");
  assertStringIncludes(text, '"content":"a"');
  assert(!text.includes("[DONE]") && !text.includes('"error"'));
});

Deno.test("FakeProvider: a harness error mid-stream fails the stream and verify(); another error only the stream", async () => {
  const broken = new InvalidScript("broken mid-stream");
  for (const error of [broken, new Error("plain")]) {
    const provider = new FakeProvider({
      llm: port(async function* () {
        yield { type: "message_start", messageId: "m" };
        yield { type: "text_delta", messageId: "m", content: "a" };
        throw error;
      }),
    });
    const res = await streamed(provider);
    assertEquals(await res.text().catch((e) => e), error);
    if (error === broken) assertEquals(assertThrows(() => provider.verify()), broken);
    else provider.verify();
  }
});

Deno.test("FakeProvider: a client that cancels a stream aborts the model with its reason, or an AbortError", async () => {
  for (const reason of [new Error("client went away"), undefined]) {
    let seen: unknown;
    const provider = new FakeProvider({
      llm: port(async function* (request) {
        yield { type: "message_start", messageId: "m" };
        yield { type: "text_delta", messageId: "m", content: "a" };
        await new Promise((resolve) => request.signal!.addEventListener("abort", resolve));
        seen = request.signal!.reason;
      }),
    });
    const reader = (await streamed(provider)).body!.getReader();
    await reader.read();
    await reader.cancel(reason);
    await nextTurn();
    if (reason) assertEquals(seen, reason);
    else {
      assertEquals([seen instanceof DOMException, (seen as DOMException).name], [
        true,
        "AbortError",
      ]);
      assertStringIncludes((seen as DOMException).message, "cancelled");
    }
  }
});

Deno.test("FakeProvider.fetch() refuses what fetch() would not take, naming it", async () => {
  const provider = new FakeProvider({ llm: new FakeLLM("x") });
  for (const bad of [5, null, {}, undefined]) {
    await assertRejects(
      () => provider.fetch(bad as never),
      TypeError,
      "FakeProvider.fetch() takes what fetch() takes",
    );
  }
});
