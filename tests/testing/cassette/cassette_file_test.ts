// The cassette file as a recording leaves it: an entry appended to a
// hand-written file that ends without a newline starts on its own line; a
// blocking replay waits the recorded time scaled by `timing`; a turn names
// the answering model only when it is not the one asked.
import { assertEquals } from "@std/assert";
import type { ChatRequest, ChatResponse, LLMPort } from "@agentkit/testing/ports";
import { cassette, FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const ask = (content: string): ChatRequest => ({
  model: "m",
  messages: [{ role: "user", content }],
});

async function inFile(body: (path: string) => Promise<void>): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "cassette_file_", suffix: ".jsonl" });
  try {
    await body(path);
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

Deno.test("newEpisodes appends to a hand-written file that ends without a newline on a line of its own", async () => {
  await inFile(async (path) => {
    // No newline at the end: as an editor may save it.
    await Deno.writeTextFile(path, JSON.stringify({ request: ask("one"), turn: { content: "1" } }));
    {
      await using llm = cassette(path, {
        mode: "newEpisodes",
        upstream: () => FakeLLM.script(["2", "3"]),
      });
      assertEquals((await llm.chat(ask("one"))).content, "1");
      assertEquals((await llm.chat(ask("two"))).content, "2");
      // The second append follows a line this cassette wrote: no blank line between.
      assertEquals((await llm.chat(ask("three"))).content, "3");
    }
    const text = await Deno.readTextFile(path);
    const lines = text.split("\n");
    assertEquals(lines.length, 4, text);
    assertEquals(lines[3], "");
    assertEquals(lines.slice(0, 3).map((l) => JSON.parse(l).request.messages[0].content), [
      "one",
      "two",
      "three",
    ]);
    await using replay = cassette(path, { mode: "replay" });
    for (const q of ["one", "two", "three"]) await replay.chat(ask(q));
  });
});

Deno.test("a blocking replay waits the recorded time scaled by timing, on ctx.clock", async (t) => {
  await inFile(async (path) => {
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        version: 2,
        request: ask("gaps"),
        turn: { chunks: ["a", "b", "c"] },
        timing: { firstChunkMs: 300, gapsMs: [50, 70] },
      }) + "\n" +
        JSON.stringify({
          version: 2,
          request: ask("first only"),
          turn: { content: "x" },
          timing: { firstChunkMs: 300 },
        }) + "\n",
    );
    for (
      const [timing, sleeps] of [
        [0.5, [210, 150]],
        [4, [1680, 1200]],
        ["instant", []],
      ] as const
    ) {
      await t.step(String(timing), async () => {
        await using llm = cassette(path, { mode: "replay", timing });
        using clock = new FakeClock();
        const ctx = makeTestCtx({ llm, clock });
        await llm.chat(ask("gaps"), ctx);
        await llm.chat(ask("first only"), ctx);
        assertEquals(clock.sleeps, sleeps);
      });
    }
  });
});

Deno.test("a recorded turn names the model that answered only when it is not the one asked", async () => {
  await inFile(async (path) => {
    const answering = (model: string): LLMPort => {
      const answer = (): Promise<ChatResponse> =>
        Promise.resolve({
          id: "r",
          model,
          content: "ok",
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        });
      return {
        chat: answer,
        complete: answer,
        stream: () => FakeLLM.script(["x"]).stream(ask("")),
      };
    };
    let calls = 0;
    {
      await using rec = cassette(path, {
        mode: "record",
        upstream: () => answering(calls++ === 0 ? "m" : "m-2025-01-01"),
      });
      await rec.chat(ask("same"));
    }
    assertEquals("model" in JSON.parse(await Deno.readTextFile(path)).turn, false);
    {
      await using rec = cassette(path, {
        mode: "record",
        upstream: () => answering("m-2025-01-01"),
      });
      await rec.chat(ask("dated"));
    }
    const line = JSON.parse(await Deno.readTextFile(path));
    assertEquals(line.turn.model, "m-2025-01-01");
    assertEquals(line.provenance.model, "m-2025-01-01");
  });
});
