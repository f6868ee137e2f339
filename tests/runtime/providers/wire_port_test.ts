// The shell every port shares, through the ports: what each
// request carries (headers, signal), which fetch and which clock it uses.
import {
  assert,
  assertEquals,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { type ChatRequest, ProviderResponseError, RateLimitError } from "@agentkit/testing/ports";
import {
  AnthropicLLM,
  GeminiLLM,
  ModelRequestsDisallowed,
  OpenAIChatLLM,
  OpenAIResponsesLLM,
  RunContext,
  Services,
  type WirePort,
  type WirePortOptions,
} from "@agentkit/testing/runtime";
import { FakeClock, makeTestCtx } from "@agentkit/testing/testing";

const hi: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };

function recording(body: () => Response) {
  const seen: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(input), init: init ?? {} });
    return Promise.resolve(body());
  };
  return { fetch, seen };
}

const header = (init: RequestInit, name: string) => new Headers(init.headers).get(name);
const sse = () =>
  new Response("data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });

Deno.test("WirePort: JSON headers on a blocking call, text/event-stream on a stream, the caller's headers last", async () => {
  const { fetch, seen } = recording(() =>
    Response.json({ choices: [{ message: { content: "ok" } }] })
  );
  const openai = new OpenAIChatLLM({ apiKey: "k", fetch, headers: { "x-org": "o" } });
  await openai.chat(hi);
  const streamed = recording(sse);
  await Array.fromAsync(
    new OpenAIChatLLM({ apiKey: "k", fetch: streamed.fetch }).stream(hi),
  );
  const [blocking, stream] = [seen[0].init, streamed.seen[0].init];
  assertEquals(
    [header(blocking, "content-type"), header(blocking, "accept"), header(blocking, "x-org")],
    ["application/json", "application/json", "o"],
  );
  assertEquals([header(stream, "content-type"), header(stream, "accept")], [
    "application/json",
    "text/event-stream",
  ]);
});

Deno.test("WirePort: the request's own signal wins over the context's", async () => {
  const { fetch, seen } = recording(() =>
    Response.json({ choices: [{ message: { content: "ok" } }] })
  );
  const openai = new OpenAIChatLLM({ apiKey: "k", fetch });
  const own = new AbortController().signal;
  const ctx = new RunContext({ services: new Services(), signal: new AbortController().signal });
  await openai.chat({ ...hi, signal: own }, ctx);
  await openai.chat(hi, ctx);
  assertStrictEquals(seen[0].init.signal, own);
  assertStrictEquals(seen[1].init.signal, ctx.signal);
});

Deno.test("WirePort: a retry-after date is read against the response's Date, never the context's virtual clock", async () => {
  const clock = new FakeClock(); // at 0 ms: 1970, which no server's date is near
  const sent = Date.parse("2026-12-01T12:00:00Z");
  const { fetch } = recording(() =>
    Response.json({ error: { message: "slow" } }, {
      status: 429,
      headers: {
        "retry-after": new Date(sent + 7_000).toUTCString(),
        date: new Date(sent).toUTCString(),
      },
    })
  );
  const ctx = new RunContext({ services: new Services({ clock }) });
  const e = await assertRejects(
    () => new OpenAIChatLLM({ apiKey: "k", fetch }).chat(hi, ctx),
    RateLimitError,
  );
  assertEquals(e.retryAfterMs, 7_000);
});

Deno.test("WirePort: with no fetch given, the global fetch of the moment is used", async () => {
  const original = globalThis.fetch;
  const { fetch, seen } = recording(() =>
    Response.json({ choices: [{ message: { content: "g" } }] })
  );
  globalThis.fetch = fetch as typeof globalThis.fetch;
  try {
    const openai = new OpenAIChatLLM({ apiKey: "k", baseURL: "http://127.0.0.1:9/v1" });
    assertEquals((await openai.chat(hi, new RunContext())).content, "g");
  } finally {
    globalThis.fetch = original;
  }
  assertEquals(seen[0].url, "http://127.0.0.1:9/v1/chat/completions");
});

Deno.test("the ports read their key from the environment when none is given; complete() answers", async () => {
  Deno.env.set("OPENAI_API_KEY", "sk-env");
  Deno.env.set("ANTHROPIC_API_KEY", "sk-ant-env");
  try {
    const o = recording(() => Response.json({ choices: [{ message: { content: "o" } }] }));
    const openai = new OpenAIChatLLM({ fetch: o.fetch });
    assertEquals((await openai.complete({ model: "m", system: "s", user: "u" })).content, "o");
    assertEquals(header(o.seen[0].init, "authorization"), "Bearer sk-env");
    const a = recording(() => Response.json({ content: [{ type: "text", text: "a" }] }));
    const anthropic = new AnthropicLLM({ fetch: a.fetch });
    assertEquals((await anthropic.complete({ model: "m", system: "s", user: "u" })).content, "a");
    assertEquals(header(a.seen[0].init, "x-api-key"), "sk-ant-env");
  } finally {
    Deno.env.delete("OPENAI_API_KEY");
    Deno.env.delete("ANTHROPIC_API_KEY");
  }
  assertThrows(() => new AnthropicLLM({ maxTokens: 1.5 }), RangeError);
});

Deno.test("WirePort: a key too short for the secret registry is still masked in the port's own errors", async () => {
  // The registry masks values of 8 characters or more everywhere; the port
  // masks its own key from 4, since a provider that rejects it quotes it.
  const key = "k3y-5x";
  const { fetch } = recording(() =>
    Response.json({ error: { message: `invalid key ${key}` } }, { status: 401 })
  );
  for (
    const llm of [
      new OpenAIChatLLM({ apiKey: key, fetch }),
      new AnthropicLLM({ apiKey: key, fetch }),
    ]
  ) {
    const e = await assertRejects(() => llm.chat(hi));
    assertEquals((e as Error).message.includes(key), false, (e as Error).message);
    assertEquals((e as Error).message.includes("[REDACTED]"), true, (e as Error).message);
  }
});

Deno.test("WirePort: each port's codec names it in option errors and refusals, and its provider in answer errors", async () => {
  const notJson = () => Promise.resolve(new Response("<html>", { status: 200 }));
  const ports: [string, string, (o: WirePortOptions) => WirePort][] = [
    ["OpenAIChatLLM", "OpenAI", (o) => new OpenAIChatLLM(o)],
    ["OpenAIResponsesLLM", "OpenAI", (o) => new OpenAIResponsesLLM(o)],
    ["AnthropicLLM", "Anthropic", (o) => new AnthropicLLM(o)],
    ["GeminiLLM", "Gemini", (o) => new GeminiLLM(o)],
  ];
  for (const [port, provider, make] of ports) {
    const bad = assertThrows(() => make({ bogus: 1 } as WirePortOptions), TypeError);
    assertStringIncludes(bad.message, `new ${port}()`);
    const llm = make({ apiKey: "sk-test", fetch: notJson });
    const e = await assertRejects(() => llm.chat(hi), ProviderResponseError);
    assert(
      e.message.startsWith(`${provider} answered 200 with a body that is not JSON`),
      e.message,
    );
    const refused = await assertRejects(() => llm.chat(hi, makeTestCtx()), ModelRequestsDisallowed);
    assertEquals(refused.port, port);
  }
});
