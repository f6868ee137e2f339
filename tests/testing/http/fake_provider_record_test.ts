// new FakeProvider({ record: { upstream, path } }): any client records
// through it; new FakeProvider({ llm: cassette(path) }) replays the file to
// any client (SPEC §23). The "real API" here is another FakeProvider,
// reached by in-process fetch: no socket, no network.
import OpenAI from "openai";
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { RateLimitError, toolCall } from "@agentkit/testing/ports";
import { cassette, FakeLLM, FakeProvider } from "@agentkit/testing/testing";

const KEY = "sk-proj-RealLookingKey0123456789abcdef";

async function inDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fake_provider_record_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const client = (provider: FakeProvider, apiKey = KEY) =>
  new OpenAI({
    apiKey,
    baseURL: "https://proxy.test/v1",
    fetch: provider.fetch,
    maxRetries: 0,
  });

const weather = {
  type: "function" as const,
  function: {
    name: "weather",
    description: "The weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

Deno.test("FakeProvider({ record }) records what the official OpenAI client sends through it, and FakeProvider({ llm: cassette(path) }) replays it to that client", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/openai.jsonl`;
    using real = new FakeProvider({
      llm: FakeLLM.script([
        { toolCalls: [toolCall("call_1", "weather", { city: "Oslo" })] },
        { chunks: ["Rain ", "in ", "Oslo."] },
      ]),
    });
    {
      using proxy = new FakeProvider({
        record: { upstream: "https://api.openai.example", path, fetch: real.fetch },
      });
      const ai = client(proxy);
      const first = await ai.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "Weather in Oslo?" }],
        tools: [weather],
      });
      const call = first.choices[0].message.tool_calls![0];
      assertEquals(call.type === "function" && call.function.name, "weather");
      const stream = await ai.chat.completions.create({
        model: "gpt-4o-mini",
        stream: true,
        messages: [
          { role: "user", content: "Weather in Oslo?" },
          first.choices[0].message,
          { role: "tool", tool_call_id: call.id, content: "rain" },
        ],
        tools: [weather],
      });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
      assertEquals(text, "Rain in Oslo.");
      // The upstream saw the client's key, on the path the client used.
      assertEquals(real.requests.map((r) => r.path), [
        "/v1/chat/completions",
        "/v1/chat/completions",
      ]);
      assertEquals(real.requests[0].headers.authorization, "Bearer ***");
      assertEquals(proxy.requests.length, 2);
    }
    const text = Deno.readTextFileSync(path);
    assert(!text.includes(KEY), "the client's key is not in the file");
    const lines = text.trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.length, 2);
    assertEquals(lines[0].provenance.provider, "OpenAIChatLLM");
    assertEquals(lines[1].turn.chunks, ["Rain ", "in ", "Oslo."]);

    // Replayed to the same client, with no upstream at all; the tool-call id
    // the replay generates differs from the recorded one, and still matches.
    using replay = new FakeProvider({ llm: cassette(path, { mode: "replay" }) });
    const ai = client(replay, "sk-another-key");
    const first = await ai.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      tools: [weather],
    });
    const call = first.choices[0].message.tool_calls![0];
    const again = await ai.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: "Weather in Oslo?" },
        first.choices[0].message,
        { role: "tool", tool_call_id: call.id, content: "rain" },
      ],
      tools: [weather],
    });
    assertEquals(again.choices[0].message.content, "Rain in Oslo.");
  });
});

Deno.test("FakeProvider({ record }) records Anthropic Messages and Gemini requests through their ports", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/mixed.jsonl`;
    using real = new FakeProvider({ llm: FakeLLM.script(["from claude", "from gemini"]) });
    {
      using proxy = new FakeProvider({
        record: { upstream: "https://upstream.example/", path, fetch: real.fetch },
      });
      const a = await proxy.fetch("https://proxy.test/v1/messages", {
        method: "POST",
        headers: {
          "x-api-key": "sk-ant-api03-SecretSecretSecret0123",
          "anthropic-version": "2023-06-01",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          model: "claude-x",
          max_tokens: 100,
          messages: [{ role: "user", content: "hi" }],
        }),
      });
      assertEquals((await a.json()).content[0].text, "from claude");
      const g = await proxy.fetch(
        "https://proxy.test/v1beta/models/gemini-2.5-flash:generateContent",
        {
          method: "POST",
          headers: { "x-goog-api-key": "AIzaSyGoogleSecret0123456789abcdefghi" },
          body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
        },
      );
      assertEquals((await g.json()).candidates[0].content.parts[0].text, "from gemini");
    }
    assertEquals(real.requests.map((r) => r.path), [
      "/v1/messages",
      "/v1beta/models/gemini-2.5-flash:generateContent",
    ]);
    const text = Deno.readTextFileSync(path);
    assert(!text.includes("SecretSecretSecret") && !text.includes("GoogleSecret"));
    const lines = text.trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.map((l) => l.provenance.provider), ["AnthropicLLM", "GeminiLLM"]);
  });
});

Deno.test("FakeProvider({ record }) records an upstream failure as its class, and the replay sends it back", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/limit.jsonl`;
    using real = new FakeProvider({
      llm: FakeLLM.script([{ error: new RateLimitError("slow down", { retryAfterMs: 1000 }) }]),
    });
    {
      using proxy = new FakeProvider({
        record: { upstream: "https://api.openai.example", path, fetch: real.fetch },
      });
      const e = await assertRejects(() =>
        client(proxy).chat.completions.create({
          model: "m",
          messages: [{ role: "user", content: "hi" }],
        })
      );
      assertEquals((e as { status?: number }).status, 429);
    }
    using replay = new FakeProvider({ llm: cassette(path, { mode: "replay" }) });
    const res = await replay.fetch("https://x.test/v1/chat/completions", {
      method: "POST",
      headers: { authorization: "Bearer sk-test" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    assertEquals(res.status, 429);
    await res.body?.cancel();
  });
});

Deno.test("new FakeProvider() checks record where it is given", async (t) => {
  await t.step("llm and record together", () => {
    assertThrows(
      () =>
        new FakeProvider({
          llm: new FakeLLM("x"),
          record: { upstream: "https://a.example", path: "x.jsonl" },
        }),
      TypeError,
      "not both",
    );
  });
  await t.step("neither", () => {
    assertThrows(() => new FakeProvider({}), TypeError, '"llm"');
  });
  for (
    const [record, message] of [
      [{ path: "x.jsonl" }, '"upstream"'],
      [{ upstream: "ftp://a", path: "x.jsonl" }, "http(s) origin"],
      [{ upstream: "https://a.example", path: "x.jsonl", fetcher: 1 }, 'did you mean "fetch"'],
      ["https://a.example", "an object"],
    ] as const
  ) {
    await t.step(JSON.stringify(record), () => {
      const e = assertThrows(() => new FakeProvider({ record: record as never }));
      assertStringIncludes((e as Error).message, message);
    });
  }
  await t.step("the Responses API is forwarded through OpenAIResponsesLLM", async () => {
    const dir = await Deno.makeTempDir();
    try {
      using api = new FakeProvider({ llm: new FakeLLM("Forwarded.") });
      using proxy = new FakeProvider({
        record: { upstream: "https://a.example", path: `${dir}/r.jsonl`, fetch: api.fetch },
      });
      const res = await proxy.fetch("https://x.test/v1/responses", {
        method: "POST",
        headers: { authorization: "Bearer sk-responses-key-0123456789" },
        body: JSON.stringify({ model: "m", input: "hi" }),
      });
      assertEquals(res.status, 200);
      const body = await res.json();
      assertEquals(body.output.at(-1).content[0].text, "Forwarded.");
      const text = await Deno.readTextFile(`${dir}/r.jsonl`);
      assertEquals(JSON.parse(text.trim()).provenance.provider, "OpenAIResponsesLLM");
      assertEquals(text.includes("sk-responses-key"), false);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
