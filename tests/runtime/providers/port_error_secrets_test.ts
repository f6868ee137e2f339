// No error a real port raises carries its credentials or an echoed secret:
// a hostile provider echoes the request's key, headers and URL in 4xx/5xx
// bodies and stream errors, and a fetch that fails quotes the full URL.
// In-process fetch functions only: no network.
import { assert, assertEquals, assertFalse, assertInstanceOf, assertRejects } from "@std/assert";
import {
  type ChatRequest,
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
} from "@agentkit/testing/ports";
import {
  Agent,
  AnthropicLLM,
  GeminiLLM,
  OpenAIChatLLM,
  OpenAIResponsesLLM,
  retry,
} from "@agentkit/testing/runtime";
import { FakeClock, makeTestCtx } from "@agentkit/testing/testing";
import { SECRET_CASES } from "../../_secret_cases.ts";

const KEY = "vllm-secret-token-42";
// userinfo in a baseURL is refused where it is given, so the URL's secret is a query key.
const BASE = "https://gw.example.com/v1?api_key=qk-1234&api-version=2024-06-01";
const HEADERS = {
  "api-key": "azure-0123456789abcdef",
  "x-portkey-api-key": "pk-live-abcdef",
  "OpenAI-Organization": "org-team-secret",
  cookie: "session=sess-998877",
};
// What the port itself sends and must never let out in an error.
const OWN = [KEY, "qk-1234", ...Object.values(HEADERS), "sess-998877"];
const hi: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

// Answers `status` with a body that quotes everything it was sent, and `extra`.
function echo(status: number, extra = "", headers: Record<string, string> = {}): Fetch {
  return (input, init) => {
    const sent = Object.fromEntries(new Headers(init?.headers));
    const message = `refused ${String(input)} with ${JSON.stringify(sent)} ${extra}`;
    return Promise.resolve(Response.json({ error: { message } }, { status, headers }));
  };
}

// Fails as a fetch does when the host is unreachable: quoting the URL, with a cause object.
const unreachable: Fetch = (input, init) => {
  const url = String(input);
  return Promise.reject(
    new TypeError(`error sending request for url (${url}): connection refused`, {
      cause: { url, headers: init?.headers, inner: new Error(`dns failed for ${url}`) },
    }),
  );
};

function ports(fetch: Fetch) {
  return [
    new OpenAIChatLLM({ apiKey: KEY, baseURL: BASE, headers: HEADERS, fetch }),
    new AnthropicLLM({ apiKey: KEY, baseURL: BASE, headers: HEADERS, fetch }),
    new GeminiLLM({ apiKey: KEY, baseURL: BASE, headers: HEADERS, fetch }),
    new OpenAIResponsesLLM({ apiKey: KEY, baseURL: BASE, headers: HEADERS, fetch }),
  ] as const;
}

// Every text an error exposes: message, stack, and the cause chain in full.
function exposed(error: unknown, depth = 0): string {
  if (depth > 20) return "";
  if (error instanceof Error) {
    const fields = JSON.stringify(
      Object.entries(error),
      (_k, v) => typeof v === "bigint" ? `${v}` : v,
    );
    return [error.message, error.stack ?? "", fields, exposed(error.cause, depth + 1)].join("\n");
  }
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? "";
  } catch {
    return String(error);
  }
}

function assertClean(error: unknown, secrets: readonly string[]): void {
  const text = exposed(error);
  for (const s of secrets) assertFalse(text.includes(s), `${s} left the port: ${text}`);
}

const ctx = () => makeTestCtx({ allowModelRequests: true });

Deno.test("a port's error carries none of its own credentials, on every status", async (t) => {
  for (const status of [400, 401, 403, 404, 408, 409, 429, 500, 502, 529]) {
    for (const port of ports(echo(status))) {
      await t.step(`${port.constructor.name} ${status}, blocking and streamed`, async () => {
        const blocking = await assertRejects(() => port.chat(hi, ctx()), ProviderError);
        assertClean(blocking, OWN);
        const streamed = await assertRejects(
          () => Array.fromAsync(port.stream(hi, ctx())),
          ProviderError,
        );
        assertClean(streamed, OWN);
        assertEquals(streamed.phase, "pre_stream");
      });
    }
  }
});

Deno.test("a port's error keeps its class and fields once scrubbed", async () => {
  const [openai] = ports(echo(429, "", { "retry-after-ms": "250" }));
  const limited = await assertRejects(() => openai.chat(hi, ctx()), RateLimitError);
  assertEquals([limited.retryable, limited.retryAfterMs, limited.status], [true, 250, 429]);
  const [, anthropic] = ports(echo(401));
  const refused = await assertRejects(() => anthropic.chat(hi, ctx()), ProviderResponseError);
  assertEquals([refused.retryable, refused.status, refused.phase], [false, 401, "pre_stream"]);
  assert(refused.message.includes("refused https://gw.example.com/"), refused.message);
  assert(refused.message.includes("?api_key=[REDACTED]&api-version=2024-06-01"), refused.message);
});

Deno.test("a fetch that fails quoting the URL: message and cause chain scrubbed", async () => {
  for (const port of ports(unreachable)) {
    const e = await assertRejects(() => port.chat(hi, ctx()), ProviderError);
    assertEquals([e.retryable, e.phase], [true, "pre_stream"]);
    assertInstanceOf(e.cause, TypeError);
    assertClean(e, OWN);
    assert(e.message.includes("gw.example.com"), "the host still says where it failed");
    const s = await assertRejects(() => Array.fromAsync(port.stream(hi, ctx())), ProviderError);
    assertClean(s, OWN);
  }
});

Deno.test("every secret shape a provider echoes is scrubbed from the port's error", async (t) => {
  for (const c of SECRET_CASES) {
    await t.step(c.name, async () => {
      for (const port of ports(echo(400, c.text))) {
        const e = await assertRejects(() => port.chat(hi, ctx()), ProviderError);
        assertClean(e, [c.secret, ...OWN]);
      }
    });
  }
});

Deno.test("a body that is not JSON, echoing the key, is scrubbed", async () => {
  const fetch: Fetch = (_input, init) =>
    Promise.resolve(
      new Response(`<html>bad key ${new Headers(init?.headers).get("authorization")}</html>`, {
        status: 502,
      }),
    );
  const [openai] = ports(fetch);
  const e = await assertRejects(() => openai.chat(hi, ctx()), ProviderError);
  assertClean(e, OWN);
  assert(e.retryable);
});

function sse(body: string): Fetch {
  return () =>
    Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
}

async function errorEvent(stream: AsyncIterable<StreamEvent>): Promise<Error> {
  const events = await Array.fromAsync(stream);
  const last = events.at(-1);
  if (last?.type !== "error") {
    throw new Error(`no error event at the end: ${JSON.stringify(events)}`);
  }
  return last.error;
}

Deno.test("a mid-stream error event echoing the key is scrubbed before it is yielded", async () => {
  const openai = new OpenAIChatLLM({
    apiKey: KEY,
    baseURL: BASE,
    fetch: sse(
      `data: {"id":"c","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: not json ${KEY} ${
        HEADERS["api-key"]
      }\n\n`,
    ),
    headers: HEADERS,
  });
  const a = await errorEvent(openai.stream(hi, ctx()));
  assertEquals((a as ProviderError).phase, "mid_stream");
  assertClean(a, OWN);

  const anthropic = new AnthropicLLM({
    apiKey: KEY,
    baseURL: BASE,
    headers: HEADERS,
    fetch: sse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":3,"output_tokens":0}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\n' +
        `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"overloaded for key ${KEY}, Bearer ${KEY}"}}\n\n`,
    ),
  });
  const b = await errorEvent(anthropic.stream(hi, ctx()));
  assertEquals((b as ProviderError).phase, "mid_stream");
  assertClean(b, OWN);
});

Deno.test("an error event before any content, thrown pre_stream, is scrubbed too", async () => {
  const anthropic = new AnthropicLLM({
    apiKey: KEY,
    baseURL: BASE,
    headers: HEADERS,
    fetch: sse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":3,"output_tokens":0}}}\n\n' +
        `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"overloaded for ${KEY} ${
          HEADERS["x-portkey-api-key"]
        }"}}\n\n`,
    ),
  });
  const e = await assertRejects(() => Array.fromAsync(anthropic.stream(hi, ctx())), ProviderError);
  assertEquals([e.phase, e.retryable], ["pre_stream", true]);
  assertClean(e, OWN);
});

const completion = {
  id: "c",
  object: "chat.completion",
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

Deno.test("retry() still classifies scrubbed errors: a 429 and a 500 are retried, a 401 is not", async () => {
  const answers = [
    () =>
      Response.json({ error: { message: `slow, ${KEY}` } }, {
        status: 429,
        headers: { "retry-after-ms": "700" },
      }),
    () => Response.json({ error: { message: `boom ${KEY}` } }, { status: 500 }),
    () => Response.json(completion),
  ];
  let calls = 0;
  const fetch: Fetch = () => Promise.resolve(answers[calls++]());
  const clock = new FakeClock();
  const llm = new OpenAIChatLLM({ apiKey: KEY, baseURL: BASE, fetch });
  const agent = new Agent("a", { model: "m" });
  const result = await agent.run(
    "hi",
    makeTestCtx({
      llm,
      clock,
      chatMiddleware: [retry({ maxAttempts: 3 })],
      allowModelRequests: true,
    }),
  );
  assertEquals([result.output, calls], ["ok", 3]);
  assertEquals(clock.sleeps[0], 700, "the first wait honours the scrubbed error's retryAfterMs");

  let refused = 0;
  const never = new OpenAIChatLLM({
    apiKey: KEY,
    baseURL: BASE,
    fetch: () => {
      refused++;
      return Promise.resolve(
        Response.json({ error: { message: `bad key ${KEY}` } }, { status: 401 }),
      );
    },
  });
  const e = await assertRejects(
    () =>
      agent.run(
        "hi",
        makeTestCtx({
          llm: never,
          clock,
          chatMiddleware: [retry({ maxAttempts: 3 })],
          allowModelRequests: true,
        }),
      ),
    ProviderResponseError,
  );
  assertEquals(refused, 1);
  assertClean(e, OWN);
});

Deno.test("a port's happy path is not changed by scrubbing", async () => {
  const [openai] = ports(() => Promise.resolve(Response.json(completion)));
  assertEquals((await openai.chat(hi, ctx())).content, "ok");
});

Deno.test("a port masks its own short credentials, too short for the process's registry, in its errors", async () => {
  // 4 to 7 characters, no vendor shape: only the port's own redactor knows them.
  for (const headers of [{ "x-api-key": "zq7wx" }, new Headers({ "x-api-key": "zq7wx" })]) {
    for (
      const port of [
        new OpenAIChatLLM({ apiKey: "k7zq2x", headers, fetch: echo(400, "bare zq7wx, k7zq2x") }),
        new AnthropicLLM({ apiKey: "k7zq2x", headers, fetch: echo(400, "bare zq7wx, k7zq2x") }),
      ]
    ) {
      const error = await assertRejects(() => port.chat(hi, ctx()), ProviderError);
      assertClean(error, ["k7zq2x", "zq7wx"]);
      assert(error.message.includes("[REDACTED]"), error.message);
    }
  }
});
