// toHar(): a cassette as the HTTP exchanges its wire carries (SPEC §23).
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { cassette, FakeLLM, toHar } from "@agentkit/testing/testing";

async function inDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "to_har_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const ask = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }] };

Deno.test("toHar() writes a streamed entry's SSE frames as _eventSourceMessages, timed as recorded", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        version: 2,
        request: ask,
        turn: { chunks: ["Hel", "lo"], usage: { inputTokens: 3, outputTokens: 2 } },
        provenance: {
          provider: "OpenAIChatLLM",
          model: "gpt-4o-mini",
          packageVersion: "0.1.0",
          recordedAt: "2026-11-01T10:00:00.000Z",
          systemHash: "0",
          toolsHash: "0",
        },
        timing: { firstChunkMs: 400, gapsMs: [100] },
      }) + "\n",
    );
    const har = await toHar(path);
    assertEquals(har.log.version, "1.2");
    assertEquals(har.log.creator.name, "@agentkit/testing");
    const [e] = har.log.entries;
    assertEquals(e.startedDateTime, "2026-11-01T10:00:00.000Z");
    assertEquals([e.time, e.timings.wait, e.timings.receive], [500, 400, 100]);
    assertEquals(e.request.method, "POST");
    assertEquals(e.request.url, "https://api.openai.com/v1/chat/completions");
    const body = JSON.parse(e.request.postData.text);
    assertEquals([body.model, body.stream, body.messages], [
      "gpt-4o-mini",
      true,
      [{ role: "user", content: "hi" }],
    ]);
    assertEquals(e.request.headers.find((h) => h.name === "authorization")?.value, "[REDACTED]");
    assert(!JSON.stringify(har).includes("sk-har"), "no key of any kind");
    assertEquals(e.response.status, 200);
    const events = e.response.content._eventSourceMessages!;
    assertEquals(events.at(-1), {
      type: "message",
      // The first frame at the first chunk, the next after the one recorded gap, the rest with it.
      time: (Date.parse("2026-11-01T10:00:00.000Z") + 500) / 1000,
      eventId: "",
      data: "[DONE]",
    });
    const text = events.slice(0, -1).map((m) =>
      JSON.parse(m.data).choices?.[0]?.delta?.content ?? ""
    )
      .join("");
    assertEquals(text, "Hello");
    assertEquals(events[0].time, (Date.parse("2026-11-01T10:00:00.000Z") + 400) / 1000);
    assertStringIncludes(e.response.content.text, "data: [DONE]");
    assertEquals(e.comment, "cassette line 1");
  });
});

Deno.test("toHar() writes a blocking entry as JSON, an Anthropic one with its event names, a failure with its status", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    {
      await using rec = cassette(path, { upstream: () => new FakeLLM("plain answer") });
      await rec.chat(ask);
    }
    await Deno.writeTextFile(
      path,
      JSON.stringify({ request: ask, turn: { chunks: ["a", "b"] } }) + "\n" +
        JSON.stringify({
          request: ask,
          turn: { error: "slow down" },
          fault: { class: "RateLimitError", phase: "pre_stream", retryAfterMs: 2000 },
        }) + "\n",
      { append: true },
    );
    const openai = await toHar(path);
    const [blocking, , limited] = openai.log.entries;
    assertEquals(blocking.response.content.mimeType, "application/json");
    assertEquals(blocking.response.content._eventSourceMessages, undefined);
    assertEquals(
      JSON.parse(blocking.response.content.text).choices[0].message.content,
      "plain answer",
    );
    assertEquals(limited.response.status, 429);
    assertEquals(limited.response.headers.find((h) => h.name === "retry-after-ms")?.value, "2000");

    const anthropic = await toHar(path, { api: "messages" });
    const streamed = anthropic.log.entries[1];
    assertEquals(streamed.request.url, "https://api.anthropic.com/v1/messages");
    const types = streamed.response.content._eventSourceMessages!.map((m) => m.type);
    assertEquals(types[0], "message_start");
    assertEquals(types.at(-1), "message_stop");
    assertEquals(
      anthropic.log.entries[1].request.headers.find((h) => h.name === "x-api-key")?.value,
      "[REDACTED]",
    );

    const gemini = await toHar(path, { api: "generateContent", stream: false });
    assertStringIncludes(gemini.log.entries[1].request.url, ":generateContent");
    assertEquals(gemini.log.entries[1].response.content._eventSourceMessages, undefined);
  });
});

Deno.test("toHar() checks its options", async () => {
  await inDir(async (dir) => {
    const path = `${dir}/c.jsonl`;
    await Deno.writeTextFile(path, JSON.stringify({ request: ask, turn: "x" }) + "\n");
    for (
      const [options, message] of [[{ api: "completions" }, '"api"'], [{ streams: true }, "stream"]]
    ) {
      const e = await toHar(path, options as never).catch((e) => e);
      assert(e instanceof TypeError, String(e));
      assertStringIncludes(e.message, message);
    }
  });
});
