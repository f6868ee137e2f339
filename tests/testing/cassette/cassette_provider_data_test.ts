// A recorded answer's providerData (what the next request must send back:
// Gemini thought signatures, Responses reasoning items) is written with the
// entry and given back on replay, blocking and streamed; a masked secret in
// it stays masked.
import { assertEquals, assertStringIncludes } from "@std/assert";
import type { ChatRequest, ChatResponse, LLMPort, StreamEvent } from "@agentkit/testing/ports";
import { cassette } from "@agentkit/testing/testing";

const signatures = { gemini: { thoughtSignatures: { c1: "c2lnLTE=" } } };
const reasoning = { openaiResponses: { items: [{ type: "reasoning", id: "rs_1", summary: [] }] } };
const ask: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };

// An upstream that answers with providerData, as the real ports do.
function upstream(providerData: Record<string, unknown>): LLMPort {
  const answer: ChatResponse = {
    id: "r1",
    model: "m",
    content: "ok",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 1, outputTokens: 1 },
    providerData,
  };
  return {
    chat: () => Promise.resolve(answer),
    complete: () => Promise.resolve(answer),
    async *stream(): AsyncIterable<StreamEvent> {
      yield { type: "message_start", messageId: "m1" };
      yield { type: "text_delta", messageId: "m1", content: "o" };
      yield { type: "text_delta", messageId: "m1", content: "k" };
      yield {
        type: "message_end",
        messageId: "m1",
        finishReason: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
        providerData,
      };
    },
  };
}

async function inFile(body: (path: string) => Promise<void>): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "cassette_pd_", suffix: ".jsonl" });
  await Deno.remove(path);
  try {
    await body(path);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

Deno.test("cassette: a blocking answer's providerData is recorded and replayed", async () => {
  await inFile(async (path) => {
    {
      await using rec = cassette(path, { mode: "record", upstream: () => upstream(signatures) });
      assertEquals((await rec.chat(ask)).providerData, signatures);
    }
    const line = JSON.parse(await Deno.readTextFile(path));
    assertEquals(line.providerData, signatures);
    await using replay = cassette(path, { mode: "replay" });
    const answer = await replay.chat(ask);
    assertEquals([answer.content, answer.providerData], ["ok", signatures]);
  });
});

Deno.test("cassette: a streamed answer's providerData is recorded from message_end and replayed on it", async () => {
  await inFile(async (path) => {
    {
      await using rec = cassette(path, { mode: "record", upstream: () => upstream(reasoning) });
      for await (const _ of rec.stream(ask)) { /* recorded at message_end */ }
    }
    assertEquals(JSON.parse(await Deno.readTextFile(path)).providerData, reasoning);
    await using replay = cassette(path, { mode: "replay" });
    const events: StreamEvent[] = [];
    for await (const e of replay.stream(ask)) events.push(e);
    const end = events.find((e) => e.type === "message_end");
    assertEquals(end?.type === "message_end" ? end.providerData : undefined, reasoning);
    // Only message_end carries it.
    assertEquals(events.filter((e) => "providerData" in e).length, 1);
  });
});

Deno.test("cassette: an entry without providerData replays without it; a hand-written one is read", async () => {
  await inFile(async (path) => {
    await Deno.writeTextFile(
      path,
      JSON.stringify({ request: ask, turn: { content: "plain" } }) + "\n" +
        JSON.stringify({
          version: 2,
          request: ask,
          turn: { chunks: ["a", "b"] },
          providerData: signatures,
        }) +
        "\n",
    );
    await using replay = cassette(path, { mode: "replay" });
    assertEquals("providerData" in await replay.chat(ask), false);
    assertEquals((await replay.chat(ask)).providerData, signatures);
  });
});

Deno.test("cassette: providerData that is not an object is a bad line", async () => {
  await inFile(async (path) => {
    await Deno.writeTextFile(
      path,
      JSON.stringify({ request: ask, turn: { content: "x" }, providerData: "sig" }) + "\n",
    );
    let error: unknown;
    try {
      cassette(path, { mode: "replay" });
    } catch (e) {
      error = e;
    }
    assertStringIncludes(String(error), "providerData");
  });
});

Deno.test("cassette: a secret inside providerData is masked in the file", async () => {
  await inFile(async (path) => {
    const leaky = { vendor: { apiKey: "sk-proj-SecretInsideProviderData0123456789" } };
    {
      await using rec = cassette(path, { mode: "record", upstream: () => upstream(leaky) });
      await rec.chat(ask);
    }
    const text = await Deno.readTextFile(path);
    assertEquals(text.includes("SecretInsideProviderData"), false);
    assertStringIncludes(text, '"providerData"');
  });
});

Deno.test("cassette: an agent replayed in order sends the recorded providerData back, as it did live", async () => {
  const { Agent, ReActCognition } = await import("@agentkit/testing/runtime");
  const { FakeLLM, FakeTool, makeTestCtx } = await import("@agentkit/testing/testing");
  const { toolCall } = await import("@agentkit/testing/ports");
  // A model that signs each answer (as Gemini's thought signatures do).
  const signing = (): LLMPort => {
    const fake = FakeLLM.script([
      { toolCalls: [toolCall("c1", "lookup", {})] },
      "done",
    ]);
    let n = 0;
    const sign = () => ({ gemini: { thoughtSignatures: { [`turn${++n}`]: "c2ln" } } });
    return {
      chat: async (r, ctx) => ({ ...await fake.chat(r, ctx), providerData: sign() }),
      complete: (r, ctx) => fake.complete(r, ctx),
      async *stream(r, ctx) {
        for await (const e of fake.stream(r, ctx)) {
          yield e.type === "message_end" ? { ...e, providerData: sign() } : e;
        }
      },
    };
  };
  const agent = () =>
    new Agent("a", {
      model: "fake-model",
      cognition: new ReActCognition({
        tools: [new FakeTool({ name: "lookup", responder: () => "42" })],
      }),
    });
  await inFile(async (path) => {
    {
      await using llm = cassette(path, { mode: "record", upstream: signing });
      assertEquals((await agent().run("go", makeTestCtx({ llm }))).output, "done");
    }
    const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
    // The second request carried the first answer's signature back.
    assertEquals(
      lines[1].request.messages.find((m: { role: string }) => m.role === "assistant").providerData,
      { gemini: { thoughtSignatures: { turn1: "c2ln" } } },
    );
    // Replayed in strict order, field for field: the signature must come back to be sent again.
    await using replay = cassette(path, { mode: "replay", match: "order" });
    assertEquals((await agent().run("go", makeTestCtx({ llm: replay }))).output, "done");
    replay.verify();
  });
});
