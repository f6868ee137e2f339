import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import {
  FakeClock,
  FakeLLM,
  FakeProvider,
  InvalidScript,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";
import { RateLimitError } from "@agentkit/testing/ports";

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

Deno.test("FakeProvider: a harness error behind the wire is a 500 now and a failure at verify()", async () => {
  const provider = new FakeProvider({ llm: FakeLLM.script(["one"]) });
  assertEquals((await post(provider)).status, 200);
  const res = await post(provider);
  assertEquals(res.status, 500);
  assertStringIncludes((await res.json()).error.message, "has 1 turn(s)");
  assertThrows(() => provider.verify(), ScriptExhausted);
});

Deno.test("FakeProvider: a stall turn asked for blocking is a harness error, not a hang", async () => {
  const provider = new FakeProvider({ llm: FakeLLM.script([{ chunks: ["x"], stall: true }]) });
  assertEquals((await post(provider)).status, 500);
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
        "proxy-authorization": "Basic abc",
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
  // Each request gets its own id, as the vendors' servers give one.
  assertEquals([first.headers.get("x-request-id"), second.headers.get("request-id")], [
    "req_1",
    "req_2",
  ]);
});
