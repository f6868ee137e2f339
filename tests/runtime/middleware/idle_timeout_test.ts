import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  idleTimeout,
  retry,
  type RunContext,
  StreamStalled,
} from "@agentkit/testing/runtime";
import type { ChatRequest, ChatResponse, LLMPort, StreamEvent } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

// A provider that waits `gapMs` on the context's clock before each event, and
// records the signal it was given.
class SlowDripLLM implements LLMPort {
  signals: AbortSignal[] = [];
  constructor(readonly gapMs: number, readonly pieces: readonly string[]) {}
  chat(): Promise<ChatResponse> {
    return Promise.reject(new Error("stream only"));
  }
  complete(): Promise<ChatResponse> {
    return Promise.reject(new Error("stream only"));
  }
  async *stream(req: ChatRequest, ctx?: RunContext): AsyncGenerator<StreamEvent> {
    this.signals.push(req.signal!);
    yield { type: "message_start", messageId: "m" };
    for (const content of this.pieces) {
      await ctx!.clock.sleep(this.gapMs, req.signal);
      yield { type: "text_delta", messageId: "m", content };
    }
    yield {
      type: "message_end",
      messageId: "m",
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  }
}

Deno.test("idleTimeout() cancels a stalled stream, the provider sees it, and the call fails with StreamStalled", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ chunks: ["Let me ", "check"], stall: true }]);
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 30_000 })] });
  const wall = performance.now();
  const run = agent.start("go", ctx);
  const error = await assertRejects(() => run.result, StreamStalled, "nothing for 30000 ms");
  assert(performance.now() - wall < 1_000, "a 30 s stall must cost no wall time");
  assertEquals([error.idleMs, error.eventsBefore, error.phase], [30_000, 3, "mid_stream"]);
  assertEquals(error.retryable && error.phase === "pre_stream", false);
  assertEquals(llm.cancelled, ["fake-stream-1"]);
  assertEquals(clock.now(), 30_000);
  await run.drained;
  assertEquals(clock.pending, 0);
});

Deno.test("idleTimeout() measures silence between events, not the length of the stream", async () => {
  const clock = new FakeClock();
  const llm = new SlowDripLLM(20_000, ["a", "b", "c"]);
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 30_000 })] });
  const result = await agent.start("go", ctx).result;
  assertEquals([result.output, clock.now()], ["abc", 60_000]);
  assertEquals(llm.signals[0].aborted, false);
  assertEquals(clock.pending, 0); // every idle timer was cleared
});

Deno.test("idleTimeout() does not count a slow consumer as a stalled provider", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ chunks: ["a", "b"] }]);
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 1_000 })] });
  const seen: string[] = [];
  for await (const event of agent.stream("go", ctx)) {
    seen.push(event.type);
    await clock.sleep(5_000); // the consumer dawdles on the same clock
  }
  assertEquals(seen, ["message_start", "text_delta", "text_delta", "message_end"]);
  assertEquals(llm.cancelled, []);
});

Deno.test("idleTimeout(): a slow consumer of a provider that takes its time is no stall either", async () => {
  // Each event takes 500 ms to come, well inside the limit; the consumer
  // then spends 5 s on it, which must not count against the provider.
  const clock = new FakeClock();
  const llm = new SlowDripLLM(500, ["a", "b"]);
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 1_000 })] });
  const seen: string[] = [];
  for await (const event of agent.stream("go", ctx)) {
    seen.push(event.type);
    await clock.sleep(5_000);
  }
  assertEquals(seen, ["message_start", "text_delta", "text_delta", "message_end"]);
  assertEquals([llm.signals[0].aborted, clock.pending], [false, 0]);
});

Deno.test("idleTimeout(): a stall before the first event is retryable, so retry() outside it tries again", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ content: "never", gate: new Promise(() => {}) }, "recovered"]);
  const ctx = makeTestCtx({
    llm,
    clock,
    chatMiddleware: [retry({ maxAttempts: 2 }), idleTimeout({ ms: 10_000 })],
  });
  const result = await agent.start("go", ctx).result;
  assertEquals([result.output, llm.calls, llm.cancelled], ["recovered", 2, ["fake-stream-1"]]);
  assertEquals(clock.now(), 10_000 + 200); // the stall, then retry's first backoff
});

Deno.test("idleTimeout(): cancelling the run while the stream is quiet is a cancellation, not a stall", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const llm = FakeLLM.script([{ chunks: ["..."], stall: true }]);
  const run = agent.start(
    "go",
    makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 1_000 })] }),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  const why = new Error("user pressed stop");
  run.cancel(why);
  assertEquals(await assertRejects(() => run.result), why);
  await run.drained;
  assertEquals(llm.cancelled, ["fake-stream-1"]);
  assertEquals(clock.pending, 0);
});

Deno.test("idleTimeout() passes blocking chat calls through untouched", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("slow but fine", { delayMs: 60_000 });
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [idleTimeout({ ms: 1_000 })] });
  assertEquals((await agent.run("go", ctx)).output, "slow but fine");
  assertEquals(clock.sleeps, [60_000]);
});

Deno.test("idleTimeout() validates its options when built", () => {
  // deno-lint-ignore no-explicit-any
  const bad = (o: any) => () => idleTimeout(o);
  assertThrows(bad({ timeoutMs: 5 }), TypeError, 'unknown option "timeoutMs"; did you mean "ms"?');
  assertThrows(bad({ ms: 0 }), RangeError, "positive number");
  assertThrows(bad({ ms: Infinity }), RangeError);
  assertThrows(bad(undefined), TypeError, "idleTimeout({ ms: 30_000 })");
});

// A provider whose first event comes after `firstMs`, and then nothing until cancelled.
class QuietAfterOneLLM implements LLMPort {
  constructor(readonly firstMs: number) {}
  chat(): Promise<ChatResponse> {
    return Promise.reject(new Error("stream only"));
  }
  complete(): Promise<ChatResponse> {
    return Promise.reject(new Error("stream only"));
  }
  async *stream(req: ChatRequest, ctx?: RunContext): AsyncGenerator<StreamEvent> {
    await ctx!.clock.sleep(this.firstMs, req.signal);
    yield { type: "message_start", messageId: "m" };
    await ctx!.clock.sleep(3_600_000, req.signal);
  }
}

Deno.test("idleTimeout() times a stall from the last event, not from when its timer started", async () => {
  // The timer starts with the first wait (t=0) and fires at 1 000 ms, when
  // the wait after the first event (t=600) is only 400 ms old: the stall is
  // 1 000 ms after that event.
  const clock = new FakeClock();
  const ctx = makeTestCtx({
    llm: new QuietAfterOneLLM(600),
    clock,
    chatMiddleware: [idleTimeout({ ms: 1_000 })],
  });
  const error = await assertRejects(() => agent.start("go", ctx).result, StreamStalled);
  assertEquals([clock.now(), error.eventsBefore, error.phase], [1_600, 1, "mid_stream"]);
  assertEquals([error.name, idleTimeout({ ms: 1 }).name], ["StreamStalled", "idleTimeout"]);
});
