// toHar(): which wire an entry is written as, when it is a stream, and the
// HAR 1.2 fields every entry carries (http://www.softwareishard.com/blog/har-12-spec/).
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { toHar } from "@agentkit/testing/testing";
import { REFUSING, underPolicy } from "../../../runtime/_ambient.ts";

async function harOf(
  lines: readonly Record<string, unknown>[],
  options?: Parameters<typeof toHar>[1],
): Promise<Awaited<ReturnType<typeof toHar>>> {
  const path = await Deno.makeTempFile({ prefix: "to_har_wire_", suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l) + "\n").join(""));
    return await toHar(path, options);
  } finally {
    await Deno.remove(path);
  }
}

const ask = { model: "m-1", messages: [{ role: "user", content: "hi" }] };
const provenance = (provider: string) => ({
  provider,
  model: "m-1",
  packageVersion: "0.1.0",
  recordedAt: "2026-11-01T10:00:00.000Z",
  systemHash: "0",
  toolsHash: "0",
});

Deno.test("toHar(): each entry on the wire its provenance names, unless api says otherwise", async () => {
  const lines = ["AnthropicLLM", "GeminiLLM", "OpenAIResponsesLLM", "OpenAIChatLLM", undefined].map(
    (p) => ({ request: ask, turn: { content: "ok" }, ...(p ? { provenance: provenance(p) } : {}) }),
  );
  const urls = (await harOf(lines)).log.entries.map((e) => e.request.url);
  assertEquals(urls, [
    "https://api.anthropic.com/v1/messages",
    "https://generativelanguage.googleapis.com/v1beta/models/m-1:generateContent",
    "https://api.openai.com/v1/responses",
    "https://api.openai.com/v1/chat/completions",
    "https://api.openai.com/v1/chat/completions",
  ]);
  // Each answer is read back by the API's own port: the text is there.
  const har = await harOf(lines);
  assertStringIncludes(har.log.entries[0].response.content.text, '"text":"ok"');
  assertStringIncludes(har.log.entries[2].response.content.text, '"text":"ok"');
  for (const api of ["chat.completions", "responses", "messages", "generateContent"] as const) {
    const forced = await harOf(lines, { api });
    const expected = (await harOf([{ request: ask, turn: { content: "ok" } }], { api }))
      .log.entries[0].request.url;
    assertEquals(new Set(forced.log.entries.map((e) => e.request.url)), new Set([expected]));
  }
});

Deno.test("toHar(): a stream when recorded in chunks or with gaps; one chunk is a blocking answer", async () => {
  const har = await harOf([
    { request: ask, turn: { chunks: ["only"] } },
    { request: ask, turn: { chunks: ["a", "b"] } },
    {
      request: ask,
      turn: { toolCalls: [{ id: "c1", name: "t", args: {} }], finishReason: "tool_calls" },
      timing: { firstChunkMs: 5, gapsMs: [3] },
    },
    { request: ask, turn: { content: "x" }, timing: { firstChunkMs: 5 } },
  ]);
  assertEquals(har.log.entries.map((e) => e.response.content.mimeType), [
    "application/json",
    "text/event-stream; charset=utf-8",
    "text/event-stream; charset=utf-8",
    "application/json",
  ]);
  assertEquals(har.log.entries.map((e) => e.response.content._eventSourceMessages !== undefined), [
    false,
    true,
    true,
    false,
  ]);
  assertEquals(JSON.parse(har.log.entries[1].request.postData.text).stream, true);
  assertEquals(JSON.parse(har.log.entries[0].request.postData.text).stream, undefined);
  // `stream` overrides in both directions.
  const all = await harOf([{ request: ask, turn: { chunks: ["only"] } }], { stream: true });
  assertEquals(all.log.entries[0].response.content.mimeType, "text/event-stream; charset=utf-8");
});

Deno.test("toHar(): the HAR 1.2 fields of every entry, and nothing invented", async () => {
  const har = await harOf([
    { request: ask, turn: { content: "no usage was recorded" } },
    { request: ask, turn: { chunks: ["a", "b"] }, provenance: provenance("GeminiLLM") },
  ]);
  const [blocking, gemini] = har.log.entries;
  for (const e of har.log.entries) {
    assertEquals(e.request.httpVersion, "HTTP/1.1");
    assertEquals(e.response.httpVersion, "HTTP/1.1");
    assertEquals([e.request.cookies, e.response.cookies], [[], []]);
    assertEquals([e.request.headersSize, e.response.headersSize], [-1, -1]);
    assertEquals(e.request.postData.mimeType, "application/json");
    assertEquals(e.request.bodySize, new TextEncoder().encode(e.request.postData.text).length);
    assertEquals(e.response.redirectURL, "");
    assertEquals(e.response.content.size, new TextEncoder().encode(e.response.content.text).length);
    assertEquals(e.cache, {});
    for (const h of [...e.request.headers, ...e.response.headers]) {
      assert(typeof h.name === "string" && typeof h.value === "string", JSON.stringify(h));
    }
    assert(e.request.headers.some((h) => h.name === "content-type"));
  }
  // No timing, no provenance: the epoch and zero times, not numbers made up.
  assertEquals(blocking.startedDateTime, "1970-01-01T00:00:00.000Z");
  assertEquals([blocking.time, blocking.timings], [0, { send: 0, wait: 0, receive: 0 }]);
  assertEquals(blocking.request.queryString, []);
  // Usage the recording did not have is zero, not an estimate.
  assertEquals(JSON.parse(blocking.response.content.text).usage.prompt_tokens, 0);
  assertEquals(JSON.parse(blocking.response.content.text).usage.completion_tokens, 0);
  // Gemini streams with ?alt=sse: the query is listed.
  assertEquals(gemini.request.queryString, [{ name: "alt", value: "sse" }]);
  assertStringIncludes(gemini.request.url, ":streamGenerateContent?alt=sse");
});

Deno.test("toHar(): a recorded request the strict wire would refuse is written as it was answered", async () => {
  const har = await harOf([{
    // A tool result with no call before it: the strict wire's tool-message-without-call.
    request: {
      model: "m-1",
      messages: [{ role: "user", content: "hi" }, {
        role: "tool",
        toolCallId: "c9",
        content: "42",
      }],
    },
    turn: { content: "answered" },
  }]);
  assertEquals(har.log.entries[0].response.status, 200);
});

Deno.test("toHar() works inside a test run's tool call: its fetch is in-process", async () => {
  const har = await underPolicy(
    REFUSING,
    () => harOf([{ request: ask, turn: { content: "ok" } }]),
  );
  assertEquals(har.log.entries[0].response.status, 200);
});

Deno.test("toHar(): a bad option's error names toHar()", async () => {
  const e = await harOf([{ request: ask, turn: { content: "ok" } }], { api: "chat" } as never)
    .catch((e) => e);
  assert(e instanceof TypeError);
  assertStringIncludes(e.message, "toHar()");
  assertStringIncludes(e.message, "chat.completions");
});
