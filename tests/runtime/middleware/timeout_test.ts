import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { Agent, ModelTimeout, retry, timeout } from "@agentkit/testing/runtime";
import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("timeout() cancels a blocking call past its deadline and fails with ModelTimeout", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("late", { delayMs: 120_000 });
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 10_000 })] });
  const wall = performance.now();
  const error = await assertRejects(() => agent.run("go", ctx), ModelTimeout, "within 10000 ms");
  assert(performance.now() - wall < 1_000);
  assertEquals([error.timeoutMs, error.phase, error.retryable], [10_000, "pre_stream", true]);
  assertEquals([llm.cancelled, clock.now(), clock.pending], [["fake-chat-1"], 10_000, 0]);
});

Deno.test("timeout() bounds a whole stream, however lively it is", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ chunks: ["a", "b"], stall: true }]);
  const run = agent.start(
    "go",
    makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 5_000 })] }),
  );
  const error = await assertRejects(() => run.result, ModelTimeout);
  assertEquals([error.eventsBefore, error.phase], [3, "mid_stream"]);
  assertEquals([llm.cancelled, clock.now()], [["fake-stream-1"], 5_000]);
  await run.drained;
  assertEquals(clock.pending, 0);
});

Deno.test("timeout() lets a call that finishes in time through and leaves no timer behind", async (t) => {
  await t.step("chat", async () => {
    const clock = new FakeClock();
    const llm = new FakeLLM("ok", { delayMs: 100 });
    const ctx = makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 1_000 })] });
    assertEquals((await agent.run("go", ctx)).output, "ok");
    assertEquals([clock.now(), clock.pending, llm.cancelled], [100, 0, []]);
  });
  await t.step("stream", async () => {
    const clock = new FakeClock();
    const llm = FakeLLM.script([{ chunks: ["o", "k"] }]);
    const ctx = makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 1_000 })] });
    assertEquals((await agent.start("go", ctx).result).output, "ok");
    assertEquals([clock.pending, llm.cancelled], [0, []]);
  });
});

Deno.test("timeout() outside-in with retry(): a pre-stream timeout is tried again", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ content: "stuck", gate: new Promise(() => {}) }, "second try"]);
  const ctx = makeTestCtx({
    llm,
    clock,
    chatMiddleware: [retry({ maxAttempts: 2 }), timeout({ ms: 3_000 })],
  });
  assertEquals((await agent.run("go", ctx)).output, "second try");
  assertEquals([llm.calls, llm.cancelled, clock.now()], [2, ["fake-chat-1"], 3_200]);
});

Deno.test("timeout() validates its options when built", () => {
  // deno-lint-ignore no-explicit-any
  const bad = (o: any) => () => timeout(o);
  assertThrows(bad({ msec: 5 }), TypeError, 'unknown option "msec"; did you mean "ms"?');
  assertThrows(bad({ ms: -1 }), RangeError, "positive number");
  assertThrows(bad({}), TypeError, 'option "ms" is required');
});

Deno.test("timeout(): a provider's own failure passes through unchanged; names are the documented ones", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ error: "the provider broke" }]);
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 1_000 })] });
  const e = await assertRejects(() => agent.run("go", ctx));
  assert(!(e instanceof ModelTimeout) && e instanceof Error, String(e));
  assertEquals((e as Error).message, "the provider broke");
  assertEquals([timeout({ ms: 1 }).name, new ModelTimeout(5, 0).name], ["timeout", "ModelTimeout"]);
  assertEquals(clock.pending, 0);
});

Deno.test("timeout(): cancelling the run cancels the call under way, before the deadline", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("late", { delayMs: 60_000 });
  const controller = new AbortController();
  const ctx = makeTestCtx({
    llm,
    clock,
    signal: controller.signal,
    chatMiddleware: [timeout({ ms: 10_000 })],
  });
  const reason = new Error("user cancelled");
  const run = agent.run("go", ctx);
  await clock.advance(1_000);
  controller.abort(reason);
  const e = await assertRejects(() => run);
  assertEquals([e, llm.cancelled.length, clock.now() < 10_000], [reason, 1, true]);
});
