// new FakeProvider({ record }): each API's request goes to the same path
// under `upstream` through that API's own port, with the client's key; the
// key never reaches the file; the options are checked where given.
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { HarnessError } from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

async function inDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fake_provider_record_wire_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

interface Sent {
  readonly url: string;
  readonly headers: Headers;
}

// The "real API": a FakeProvider behind a fetch that notes each URL and its headers.
function realApi(): { fetch: typeof fetch; sent: Sent[]; api: FakeProvider } {
  const api = new FakeProvider({ llm: new FakeLLM("Forwarded.") });
  const sent: Sent[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({ url: request.url, headers: request.headers });
    return api.fetch(request);
  };
  return { fetch: fetch as typeof globalThis.fetch, sent, api };
}

const KEY = "sk-proj-RecordWireKey0123456789abcdef";

const cases: {
  api: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  provider: string;
  sentKey: (h: Headers) => string | null;
  expectKey: string;
}[] = [
  {
    api: "OpenAI Chat Completions",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${KEY}` },
    body: { model: "m", messages: [{ role: "user", content: "hi" }] },
    provider: "OpenAIChatLLM",
    sentKey: (h: Headers) => h.get("authorization"),
    expectKey: `Bearer ${KEY}`,
  },
  {
    api: "OpenAI Responses",
    path: "/v1/responses",
    headers: { authorization: `bearer  ${KEY}` },
    body: { model: "m", input: "hi" },
    provider: "OpenAIResponsesLLM",
    sentKey: (h: Headers) => h.get("authorization"),
    expectKey: `Bearer ${KEY}`,
  },
  {
    api: "Anthropic Messages",
    path: "/v1/messages",
    headers: { "x-api-key": KEY, "anthropic-version": "2023-06-01" },
    body: { model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] },
    provider: "AnthropicLLM",
    sentKey: (h: Headers) => h.get("x-api-key"),
    expectKey: KEY,
  },
  {
    api: "Gemini, the key in the query",
    path: `/v1beta/models/m:generateContent?key=${KEY}`,
    headers: {},
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    provider: "GeminiLLM",
    sentKey: (h: Headers) => h.get("x-goog-api-key"),
    expectKey: KEY,
  },
  {
    api: "Gemini, the key in its header",
    path: "/v1beta/models/m:generateContent",
    headers: { "x-goog-api-key": KEY },
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    provider: "GeminiLLM",
    sentKey: (h: Headers) => h.get("x-goog-api-key"),
    expectKey: KEY,
  },
];

Deno.test("FakeProvider({ record }) forwards each API to the same path under upstream, with the client's key, through that API's port", async (t) => {
  for (const c of cases) {
    await t.step(c.api, async () => {
      await inDir(async (dir) => {
        const real = realApi();
        using _api = real.api;
        using proxy = new FakeProvider({
          // A gateway's base path, written with trailing slashes: they are not doubled.
          record: {
            upstream: "https://gw.example/llm//",
            path: `${dir}/c.jsonl`,
            fetch: real.fetch,
          },
        });
        const res = await proxy.fetch(`https://proxy.test${c.path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...c.headers },
          body: JSON.stringify(c.body),
        });
        assertEquals(res.status, 200, await res.clone().text());
        assertStringIncludes(await res.text(), "Forwarded.");
        assertEquals(real.sent.length, 1);
        const sent = new URL(real.sent[0].url);
        assertEquals(
          `${sent.origin}${sent.pathname}`,
          `https://gw.example/llm${c.path.replace(/\?.*$/, "")}`,
        );
        assertEquals(c.sentKey(real.sent[0].headers), c.expectKey);
        const text = await Deno.readTextFile(`${dir}/c.jsonl`);
        assertEquals(JSON.parse(text).provenance.provider, c.provider);
        assertEquals(text.includes("RecordWireKey"), false, "the client's key is not in the file");
      });
    });
  }
});

Deno.test("FakeProvider({ record }) keeps one port per API, base URL and key", async () => {
  await inDir(async (dir) => {
    const real = realApi();
    using _api = real.api;
    using proxy = new FakeProvider({
      record: { upstream: "https://gw.example", path: `${dir}/c.jsonl`, fetch: real.fetch },
    });
    const send = (key: string) =>
      proxy.fetch("https://proxy.test/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: key }] }),
      }).then((r) => r.text());
    await send("sk-first-key-0123456789abcdef");
    await send("sk-other-key-0123456789abcdef");
    await send("sk-first-key-0123456789abcdef");
    assertEquals(
      real.sent.map((s) => s.headers.get("authorization")),
      [
        "Bearer sk-first-key-0123456789abcdef",
        "Bearer sk-other-key-0123456789abcdef",
        "Bearer sk-first-key-0123456789abcdef",
      ],
    );
    const text = await Deno.readTextFile(`${dir}/c.jsonl`);
    assertEquals(text.trim().split("\n").length, 3);
    assert(!text.includes("first-key") && !text.includes("other-key"));
  });
});

Deno.test("a recording FakeProvider's model called outside a request says how to call it", async () => {
  await inDir(async (dir) => {
    using proxy = new FakeProvider({
      record: { upstream: "https://gw.example", path: `${dir}/c.jsonl`, fetch: realApi().fetch },
    });
    await assertRejects(
      () => proxy.llm.chat({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      HarnessError,
      "outside a request: call it through provider.fetch or a served URL",
    );
  });
});

Deno.test("new FakeProvider({ record }) checks upstream and path where they are given", async (t) => {
  for (
    const [record, error, message] of [
      [{ upstream: 42, path: "x.jsonl" }, TypeError, "upstream"],
      [
        { upstream: "not a url", path: "x.jsonl" },
        RangeError,
        'an http(s) origin such as "https://api.openai.com"',
      ],
      [{ upstream: "file:///etc", path: "x.jsonl" }, RangeError, "http(s) origin"],
      [
        { upstream: new URL("https://a.example"), path: 7 },
        TypeError,
        "a file path or a file: URL",
      ],
      [{ upstream: "https://a.example", path: "x.jsonl", redact: "sk" }, TypeError, "redact"],
    ] as const
  ) {
    await t.step(JSON.stringify(record), () => {
      const e = assertThrows(() => new FakeProvider({ record: record as never }));
      assert(e instanceof error, `${(e as Error).name}: ${(e as Error).message}`);
      assertStringIncludes((e as Error).message, message);
      assertStringIncludes((e as Error).message, "new FakeProvider({ record })");
    });
  }
  await t.step("http, https and a URL object are origins", () => {
    for (
      const upstream of ["http://127.0.0.1:1", "https://a.example", new URL("https://b.example")]
    ) {
      const dir = Deno.makeTempDirSync();
      try {
        using _p = new FakeProvider({ record: { upstream, path: `${dir}/c.jsonl` } });
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    }
  });
});

Deno.test("FakeProvider({ record }) names each entry's provider right when two APIs are in flight at once", async () => {
  await inDir(async (dir) => {
    const real = realApi();
    using _api = real.api;
    using proxy = new FakeProvider({
      record: { upstream: "https://gw.example", path: `${dir}/c.jsonl`, fetch: real.fetch },
    });
    const [chat, , anthropic] = cases;
    // Each API asks its own model, so an entry shows which API it came from.
    const sends = [chat, anthropic, chat, anthropic].map((c) =>
      proxy.fetch(`https://proxy.test${c.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...c.headers },
        body: JSON.stringify({ ...(c.body as object), model: `model-of-${c.provider}` }),
      }).then((r) => r.text())
    );
    await Promise.all(sends);
    const lines = (await Deno.readTextFile(`${dir}/c.jsonl`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assertEquals(lines.length, 4);
    for (const line of lines) {
      assertEquals(`model-of-${line.provenance.provider}`, line.request.model);
    }
    assertEquals(lines.filter((l) => l.provenance.provider === "AnthropicLLM").length, 2);
  });
});
