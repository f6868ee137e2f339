import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { Agent, Budget, meter, retry } from "@agentkit/testing/runtime";
import { ProviderError, RateLimitError, type StreamEvent } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, makeTestCtx, ScriptExhausted } from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("retry() re-invokes pre-stream retryable failures, waiting on ctx.clock", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("ok", { failTimes: 2, failWith: new RateLimitError() });
  const r = await agent.run(
    "go",
    makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 3 })] }),
  );
  assertEquals([r.output, llm.calls, clock.sleeps], ["ok", 3, [200, 400]]);
});

Deno.test("retry() gives up after maxAttempts and rethrows the last failure", async () => {
  const llm = new FakeLLM("ok", { failTimes: 5, failWith: new RateLimitError("busy") });
  await assertRejects(
    () => agent.run("go", makeTestCtx({ llm, chatMiddleware: [retry({ maxAttempts: 2 })] })),
    RateLimitError,
    "busy",
  );
  assertEquals(llm.calls, 2);
});

Deno.test("retry() does not re-invoke non-retryable or mid-stream failures", async (t) => {
  await t.step("not retryable", async () => {
    const llm = new FakeLLM("ok", { failTimes: 1, failWith: new ProviderError("bad request") });
    await assertRejects(
      () => agent.run("go", makeTestCtx({ llm, chatMiddleware: [retry()] })),
      ProviderError,
    );
    assertEquals(llm.calls, 1);
  });
  await t.step("a plain Error is a bug, not a transient fault", async () => {
    const llm = new FakeLLM("ok", { failTimes: 1, failWith: new TypeError("oops") });
    await assertRejects(
      () => agent.run("go", makeTestCtx({ llm, chatMiddleware: [retry()] })),
      TypeError,
    );
    assertEquals(llm.calls, 1);
  });
  await t.step("a stream that already produced an event is never re-invoked", async () => {
    const llm = FakeLLM.script([{ chunks: ["a", "b"], failAfterChunks: 1 }, "second"], {
      allowUnused: true,
    });
    const ctx = makeTestCtx({ llm, chatMiddleware: [retry()] });
    const events: StreamEvent[] = [];
    for await (const e of agent.stream("go", ctx)) events.push(e);
    assertEquals(events.map((e) => e.type), ["message_start", "text_delta", "error"]);
    assertEquals(llm.calls, 1);
  });
  await t.step("a stream failing before its first event is re-invoked", async () => {
    const llm = new FakeLLM("ok", { failTimes: 1 });
    const ctx = makeTestCtx({ llm, chatMiddleware: [retry()] });
    const types: string[] = [];
    for await (const e of agent.stream("go", ctx)) types.push(e.type);
    assertEquals([types, llm.calls], [["message_start", "text_delta", "message_end"], 2]);
  });
});

Deno.test("retry() never retries a harness error", async () => {
  const llm = FakeLLM.script(["one"]);
  const ctx = makeTestCtx({
    llm,
    chatMiddleware: [retry({ maxAttempts: 5, retryOn: () => true })],
  });
  await agent.run("go", ctx);
  await assertRejects(() => agent.run("go", ctx), ScriptExhausted);
  assertEquals(llm.calls, 2);
});

Deno.test("retry() uses a custom sleep and backoff when given", async () => {
  const waits: number[] = [];
  const llm = new FakeLLM("ok", { failTimes: 3 });
  const mw = retry({
    maxAttempts: 4,
    backoff: (n) => n * 1_000,
    sleep: (ms) => (waits.push(ms), Promise.resolve()),
  });
  await agent.run("go", makeTestCtx({ llm, chatMiddleware: [mw] }));
  assertEquals(waits, [1_000, 2_000, 3_000]);
});

Deno.test("retry() outside meter(): a failed attempt that billed nothing is not charged", async () => {
  const budget = new Budget();
  const llm = new FakeLLM("ok", { failTimes: 1 });
  await agent.run("go", makeTestCtx({ llm, budget, chatMiddleware: [retry(), meter()] }));
  assertEquals([budget.calls, llm.calls], [1, 2]);
});

Deno.test("retry() validates maxAttempts when built", () => {
  assertThrows(() => retry({ maxAttempts: 0 }), RangeError, "maxAttempts");
});
