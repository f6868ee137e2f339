import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { Agent, idleTimeout, StreamStalled, timeout } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, InvalidScript, makeTestCtx } from "@agentkit/testing/testing";

const request = { model: "m", messages: [{ role: "user" as const, content: "go" }] };

Deno.test("Turn firstChunkDelayMs and chunkDelayMs pace a stream on ctx.clock", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{
    chunks: ["The ", "cert ", "expired."],
    firstChunkDelayMs: 800,
    chunkDelayMs: 40,
  }]);
  const ctx = makeTestCtx({ llm, clock });
  const seen: Array<[string, number]> = [];
  for await (const e of llm.stream(request, ctx)) seen.push([e.type, clock.now()]);
  assertEquals(seen, [
    ["message_start", 0],
    ["text_delta", 800],
    ["text_delta", 840],
    ["text_delta", 880],
    ["message_end", 880],
  ]);
  assertEquals(clock.sleeps, [800, 40, 40]);
});

Deno.test("a minute to first token costs no wall time under a FakeClock", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{
    chunks: ["a", "b"],
    firstChunkDelayMs: 60_000,
    chunkDelayMs: 30_000,
  }]);
  const started = performance.now();
  const result = await new Agent("a", { model: "fake-model" }).run(
    "go",
    makeTestCtx({ llm, clock }),
  );
  assertEquals([result.output, clock.now()], ["ab", 90_000]);
  assert(performance.now() - started < 5_000);
});

Deno.test("firstChunkDelayMs delays the first tool call of a turn without chunks", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c", "t", {})], firstChunkDelayMs: 300 }]);
  const ctx = makeTestCtx({ llm, clock });
  const seen: Array<[string, number]> = [];
  for await (const e of llm.stream(request, ctx)) seen.push([e.type, clock.now()]);
  assertEquals(seen, [["message_start", 0], ["tool_call", 300], ["message_end", 300]]);
});

Deno.test("a blocking chat() on a paced turn answers when the stream would have ended", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([
    { chunks: ["a", "b", "c"], firstChunkDelayMs: 100, chunkDelayMs: 10 },
    { chunks: ["a", "b", "c"], failAfterChunks: 2, chunkDelayMs: 10 },
  ]);
  const ctx = makeTestCtx({ llm, clock });
  assertEquals((await llm.chat(request, ctx)).content, "abc");
  assertEquals(clock.now(), 120);
  await assertRejects(() => llm.chat(request, ctx), Error, "stream failed after 2 chunk(s)");
  assertEquals(clock.now(), 130);
});

Deno.test("idleTimeout() cuts a stream whose chunk gap is longer than its idle limit", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ chunks: ["Let me ", "think"], chunkDelayMs: 45_000 }]);
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 30_000 })] });
  const run = new Agent("a", { model: "fake-model" }).start("go", ctx);
  await assertRejects(() => run.result, StreamStalled, "nothing for 30000 ms");
  await run.drained;
  assertEquals([llm.cancelled, clock.now()], [["fake-stream-1"], 30_000]);
});

Deno.test("timeout() measures time to first token against its deadline", async (t) => {
  for (const [first, ok] of [[900, true], [1_100, false]] as const) {
    await t.step(`first chunk at ${first} ms, deadline 1000 ms`, async () => {
      const clock = new FakeClock();
      const llm = FakeLLM.script([{ content: "hi", firstChunkDelayMs: first }]);
      const ctx = makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 1_000 })] });
      const run = new Agent("a", { model: "fake-model" }).start("go", ctx);
      if (ok) assertEquals((await run.result).output, "hi");
      else await assertRejects(() => run.result);
      await run.drained;
      assertEquals(llm.cancelled.length, ok ? 0 : 1);
    });
  }
});

Deno.test("stream delays are checked when the script is built", () => {
  assertThrows(
    () => FakeLLM.script([{ content: "x", chunkDelayMs: -1 }]),
    InvalidScript,
    "chunkDelayMs",
  );
  assertThrows(
    () => FakeLLM.script([{ content: "x", chunkDelay: 5 } as never]),
    InvalidScript,
    'did you mean "chunkDelayMs"?',
  );
  assertThrows(
    () => FakeLLM.script([{ content: "x", firstChunkDelayMs: Infinity }]),
    InvalidScript,
    "firstChunkDelayMs",
  );
});
