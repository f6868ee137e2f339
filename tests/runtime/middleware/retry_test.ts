import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  Budget,
  type ChatMiddleware,
  InMemoryStore,
  isRetryable,
  memoize,
  meter,
  retry,
  RetryAfterTooLong,
} from "@agentkit/testing/runtime";
import {
  type ChatResponse,
  type LLMPort,
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
  type StreamEvent,
} from "@agentkit/testing/ports";
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

// A provider whose stream really throws (FakeLLM reports stream failures as
// `error` events): `fail(n)` says whether call n throws, and after which
// event count.
function throwingStream(
  fail: (call: number) => { afterEvents: number; error: Error } | undefined,
): LLMPort & { calls: number } {
  const port = {
    calls: 0,
    chat(): Promise<ChatResponse> {
      return Promise.reject(new Error("chat is not scripted here"));
    },
    complete(): Promise<ChatResponse> {
      return Promise.reject(new Error("complete is not scripted here"));
    },
    async *stream(): AsyncGenerator<StreamEvent, void, undefined> {
      const call = ++port.calls;
      const failure = fail(call);
      const events: StreamEvent[] = [
        { type: "message_start", messageId: `m${call}` },
        { type: "text_delta", messageId: `m${call}`, content: `call ${call}` },
        {
          type: "message_end",
          messageId: `m${call}`,
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        },
      ];
      for (const [i, event] of events.entries()) {
        if (failure && failure.afterEvents === i) throw failure.error;
        yield event;
      }
    },
  };
  return port;
}

async function drain(stream: AsyncIterable<StreamEvent>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of stream) out.push(e.type === "text_delta" ? e.content : e.type);
  return out;
}

Deno.test("retry() stream: a real throw after an event is never re-invoked, even if retryable", async () => {
  const llm = throwingStream((n) =>
    n === 1 ? { afterEvents: 1, error: new RateLimitError("cut after start") } : undefined
  );
  const clock = new FakeClock();
  const ctx = makeTestCtx({
    llm,
    clock,
    chatMiddleware: [retry({ maxAttempts: 3, retryOn: () => true })],
  });
  const seen: string[] = [];
  await assertRejects(async () => {
    for await (const e of agent.stream("go", ctx)) seen.push(e.type);
  }, RateLimitError);
  assertEquals([seen, llm.calls, clock.sleeps], [["message_start"], 1, []]);
});

Deno.test("retry() stream: a throw before the first event is re-invoked with backoff", async () => {
  const llm = throwingStream((n) =>
    n < 3 ? { afterEvents: 0, error: new RateLimitError() } : undefined
  );
  const clock = new FakeClock();
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 3 })] });
  const seen = await drain(agent.stream("go", ctx));
  assertEquals([seen, llm.calls, clock.sleeps], [
    ["message_start", "call 3", "message_end"],
    3,
    [200, 400],
  ]);
});

Deno.test("retry() stream gives up after maxAttempts and rethrows the last failure", async () => {
  let n = 0;
  const llm = throwingStream(() => ({ afterEvents: 0, error: new RateLimitError(`busy ${++n}`) }));
  const clock = new FakeClock();
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 3 })] });
  await assertRejects(() => drain(agent.stream("go", ctx)), RateLimitError, "busy 3");
  assertEquals([llm.calls, clock.sleeps], [3, [200, 400]]);

  const fake = new FakeLLM("ok", { failTimes: 10 });
  const fakeClock = new FakeClock();
  const fakeCtx = makeTestCtx({
    llm: fake,
    clock: fakeClock,
    chatMiddleware: [retry({ maxAttempts: 4 })],
  });
  await assertRejects(() => drain(agent.stream("go", fakeCtx)), ProviderTimeoutError);
  assertEquals([fake.calls, fakeClock.sleeps], [4, [200, 400, 800]]);
});

Deno.test("retry({ maxAttempts: 1 }) makes one attempt and never waits, blocking or streamed", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("ok", { failTimes: 2 });
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 1 })] });
  await assertRejects(() => agent.run("go", ctx), ProviderTimeoutError);
  assertEquals([llm.calls, clock.sleeps], [1, []]);
  await assertRejects(() => drain(agent.stream("go", ctx)), ProviderTimeoutError);
  assertEquals([llm.calls, clock.sleeps], [2, []]);
  assertEquals((await agent.run("go", ctx)).output, "ok");
});

Deno.test("retry() default backoff doubles from 200 ms", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("ok", { failTimes: 4 });
  const r = await agent.run(
    "go",
    makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 5 })] }),
  );
  assertEquals([r.output, llm.calls, clock.sleeps], ["ok", 5, [200, 400, 800, 1_600]]);
});

Deno.test("a TimeoutError stays retryable, blocking and streamed", async () => {
  const timeout = () => new DOMException("The signal timed out", "TimeoutError");
  assert(isRetryable(timeout()));
  const named = new Error("late");
  named.name = "TimeoutError";
  assert(isRetryable(named));
  assert(!isRetryable({ name: "TimeoutError", message: "not an Error" }));
  assert(!isRetryable("TimeoutError"));

  const clock = new FakeClock();
  const llm = new FakeLLM("ok", { failTimes: 1, failWith: timeout() });
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry()] });
  assertEquals([(await agent.run("go", ctx)).output, llm.calls], ["ok", 2]);
  const streamed = throwingStream((n) =>
    n === 1 ? { afterEvents: 0, error: timeout() } : undefined
  );
  const seen = await drain(
    agent.stream("go", makeTestCtx({ llm: streamed, clock, chatMiddleware: [retry()] })),
  );
  assertEquals([seen[1], streamed.calls, clock.sleeps], ["call 2", 2, [200, 200]]);
});

Deno.test("isRetryable() follows the ProviderError's own flag and phase", () => {
  assert(isRetryable(new ProviderError("flaky", { retryable: true })));
  assert(!isRetryable(new ProviderError("flaky", { retryable: false })));
  assert(!isRetryable(new ProviderError("cut", { retryable: true, phase: "mid_stream" })));
  assert(isRetryable(new ProviderTimeoutError()));
  assert(!isRetryable(new ScriptExhausted("FakeLLM.script", 1, 2)));
});

Deno.test("retry() stream never retries a harness error or a plain bug", async () => {
  const llm = FakeLLM.script(["one"]);
  const clock = new FakeClock();
  const ctx = makeTestCtx({
    llm,
    clock,
    chatMiddleware: [retry({ maxAttempts: 5, retryOn: () => true })],
  });
  await drain(agent.stream("go", ctx));
  await assertRejects(() => drain(agent.stream("go", ctx)), ScriptExhausted);
  assertEquals([llm.calls, clock.sleeps], [2, []]);

  const buggy = throwingStream(() => ({ afterEvents: 0, error: new TypeError("bug") }));
  await assertRejects(
    () => drain(agent.stream("go", makeTestCtx({ llm: buggy, clock, chatMiddleware: [retry()] }))),
    TypeError,
  );
  assertEquals([buggy.calls, clock.sleeps], [1, []]);
});

Deno.test("retry() stops retrying once the run is cancelled, and waits on the run's signal", async () => {
  const controller = new AbortController();
  const clock = new FakeClock();
  const signals: Array<AbortSignal | undefined> = [];
  const llm = new FakeLLM("ok", { failTimes: 3 });
  const ctx = makeTestCtx({
    llm,
    clock,
    signal: controller.signal,
    chatMiddleware: [
      retry({
        maxAttempts: 5,
        retryOn: () => true,
        sleep: (ms, signal) => {
          signals.push(signal);
          controller.abort(new Error("user cancelled"));
          return clock.sleep(ms);
        },
      }),
    ],
  });
  await assertRejects(() => agent.run("go", ctx), Error);
  assertEquals([llm.calls, signals.length, clock.sleeps], [2, 1, [200]]);
  assertEquals(signals[0]?.aborted, true, "the wait is given the run's signal");

  const streamController = new AbortController();
  const streamLlm = throwingStream(() => ({ afterEvents: 0, error: new RateLimitError() }));
  const streamClock = new FakeClock();
  const streamCtx = makeTestCtx({
    llm: streamLlm,
    clock: streamClock,
    signal: streamController.signal,
    chatMiddleware: [
      retry({
        maxAttempts: 5,
        sleep: (ms) => {
          streamController.abort(new Error("user cancelled"));
          return streamClock.sleep(ms);
        },
      }),
    ],
  });
  await assertRejects(() => drain(agent.stream("go", streamCtx)), Error);
  assertEquals([streamLlm.calls, streamClock.sleeps], [2, [200]]);
});

Deno.test("retry() stream waits on a custom sleep when given", async () => {
  const waits: number[] = [];
  const clock = new FakeClock();
  const llm = new FakeLLM("ok", { failTimes: 2 });
  const mw = retry({ backoff: (n) => n * 7, sleep: (ms) => (waits.push(ms), Promise.resolve()) });
  const seen = await drain(agent.stream("go", makeTestCtx({ llm, clock, chatMiddleware: [mw] })));
  assertEquals([seen, waits, clock.sleeps], [["message_start", "ok", "message_end"], [7, 14], []]);
});

Deno.test("retry() is named for error messages and rejects maxAttempts that are not whole", () => {
  assertEquals(retry().name, "retry");
  for (const maxAttempts of [1.5, -1, 0, NaN, Infinity]) {
    assertThrows(() => retry({ maxAttempts }), RangeError, 'retry(): option "maxAttempts"');
  }
});

Deno.test("retry() waits at least a RateLimitError's retryAfterMs, and its own backoff when that is longer", async () => {
  const clock = new FakeClock();
  const hints = [5_000, 50, 400, undefined];
  let n = 0;
  const llm: LLMPort = {
    chat: () => {
      const retryAfterMs = hints[n++];
      return n <= hints.length
        ? Promise.reject(new RateLimitError("slow down", { retryAfterMs }))
        : Promise.resolve({
          id: "r",
          model: "m",
          content: "ok",
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        });
    },
    complete: () => Promise.reject(new Error("not used")),
    stream: () => {
      throw new Error("not used");
    },
  };
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 5 })] });
  assertEquals((await agent.run("go", ctx)).output, "ok");
  // Backoffs are 200, 400, 800, 1600: a hint counts only when it is longer.
  assertEquals(clock.sleeps, [5_000, 400, 800, 1_600]);
});

Deno.test("retry() ignores a retryAfterMs that is not a number, and survives a thrown null", async () => {
  const clock = new FakeClock();
  const odd = Object.assign(new RateLimitError("slow down"), { retryAfterMs: "9000" });
  const failures: unknown[] = [odd, null];
  const llm = throwingStream((n) =>
    n <= failures.length ? { afterEvents: 0, error: failures[n - 1] as Error } : undefined
  );
  const ctx = makeTestCtx({
    llm,
    clock,
    chatMiddleware: [retry({ maxAttempts: 3, retryOn: () => true })],
  });
  const seen = await drain(agent.stream("go", ctx));
  assertEquals([seen[1], llm.calls, clock.sleeps], ["call 3", 3, [200, 400]]);
});

Deno.test("retry() stream: a failed attempt's usage reaches meter() below it, then the retry is billed too", async () => {
  const budget = new Budget();
  const usage = { inputTokens: 1_000, outputTokens: 0 };
  const llm = throwingStream((call) =>
    call === 1
      ? {
        afterEvents: 0,
        error: new ProviderError("overloaded", { retryable: true, phase: "pre_stream", usage }),
      }
      : undefined
  );
  const ctx = makeTestCtx({ llm, budget, chatMiddleware: [retry(), meter()] });
  const events = await drain(agent.stream("go", ctx));
  assert(events.includes("call 2") && !events.includes("call 1"), String(events));
  // Two calls billed: the failed attempt's 1 000 input tokens, and the answer.
  assertEquals([llm.calls, budget.calls], [2, 2]);
});

Deno.test("retry() stream over an asynchronous stage (memoize()): re-opened after a failure, the answer then cached", async () => {
  const clock = new FakeClock();
  const store = new InMemoryStore();
  const llm = throwingStream((call) =>
    call === 1 ? { afterEvents: 0, error: new RateLimitError("slow down") } : undefined
  );
  const ctx = makeTestCtx({ llm, clock, store, chatMiddleware: [retry(), memoize()] });
  const first = await drain(agent.stream("go", ctx));
  assert(first.includes("call 2"), String(first));
  assertEquals([llm.calls, store.size, clock.sleeps], [2, 1, [200]]);
  assertEquals(await drain(agent.stream("go", ctx)), first);
  assertEquals(llm.calls, 2);
});

Deno.test("retry(): a layer below that refuses synchronously is not retried when its error is not retryable", async () => {
  // meter() refuses the call before the provider: the run has used its one call.
  const budget = new Budget({ maxCalls: 1 });
  const llm = new FakeLLM("ok");
  const ctx = makeTestCtx({ llm, budget, chatMiddleware: [retry(), meter()] });
  await agent.run("go", ctx);
  const e = await assertRejects(() => drain(agent.stream("again", ctx)));
  assert(!(e instanceof TypeError) && /call/i.test(String((e as Error).message)), String(e));
  assertEquals(llm.calls, 1);
});

Deno.test("retry() chat: a middleware below that throws synchronously is retried like a rejection", async () => {
  let throws = 1;
  const flaky: ChatMiddleware = {
    name: "flaky",
    chat(req, ctx, next) {
      if (throws-- > 0) throw new RateLimitError("sync 429");
      return next(req, ctx);
    },
  };
  const clock = new FakeClock();
  const llm = new FakeLLM("through");
  const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry(), flaky] });
  assertEquals((await agent.run("go", ctx)).output, "through");
  assertEquals([llm.calls, clock.sleeps], [1, [200]]);
});

Deno.test("retry() stream: an asynchronous stage below that fails to open passes its error up", async () => {
  const store = new InMemoryStore();
  const down = new Error("the cache is down");
  store.get = () => Promise.reject(down);
  const llm = new FakeLLM("never");
  const ctx = makeTestCtx({ llm, store, chatMiddleware: [retry(), memoize()] });
  assertEquals(await assertRejects(() => drain(agent.stream("go", ctx))), down);
  assertEquals(llm.calls, 0);
});

Deno.test("retry() waits a retry-after hint up to maxRetryAfterMs, and past it gives up with RetryAfterTooLong", async (t) => {
  const limited = (ms: number) =>
    new RateLimitError("slow down", { retryAfterMs: ms, status: 429 });
  await t.step("a hint at the cap is waited", async () => {
    const clock = new FakeClock();
    const llm = FakeLLM.script([{ error: limited(60_000) }, "ok"]);
    const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry()] });
    assertEquals((await agent.run("go", ctx)).output, "ok");
    assertEquals(clock.sleeps, [60_000]);
  });
  for (const stream of [false, true]) {
    await t.step(
      `a hint past it ends the retries at once (${stream ? "stream" : "chat"})`,
      async () => {
        const clock = new FakeClock();
        const cause = limited(99_999_999_000);
        const llm = FakeLLM.script([{ error: cause }, "never"], { allowUnused: true });
        const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry()] });
        const e = await assertRejects(
          () => agent.run("go", ctx),
          RetryAfterTooLong,
        );
        assertEquals([e.retryAfterMs, e.maxRetryAfterMs, e.retryable, e.status, e.cause], [
          99_999_999_000,
          60_000,
          false,
          429,
          cause,
        ]);
        assert(e.message.includes("maxRetryAfterMs"), e.message);
        assertEquals([clock.sleeps, llm.calls], [[], 1]);
      },
    );
  }
  await t.step("a raised cap waits the long hint", async () => {
    const clock = new FakeClock();
    const llm = FakeLLM.script([{ error: limited(3_600_000) }, "ok"]);
    const ctx = makeTestCtx({
      llm,
      clock,
      chatMiddleware: [retry({ maxRetryAfterMs: 3_600_000 })],
    });
    assertEquals((await agent.run("go", ctx)).output, "ok");
    assertEquals(clock.sleeps, [3_600_000]);
  });
  assertThrows(() => retry({ maxRetryAfterMs: -1 }), RangeError, "maxRetryAfterMs");
  assertThrows(() => retry({ maxRetryAfterMs: Infinity }), RangeError, "maxRetryAfterMs");
});

Deno.test("retry(): a backoff that returns Infinity, NaN, a negative or a non-number is a RangeError naming it", async () => {
  for (
    const bad of [Infinity, NaN, -1, "10" as unknown as number, undefined as unknown as number]
  ) {
    const clock = new FakeClock();
    const llm = FakeLLM.script([{ error: new ProviderTimeoutError() }, "ok"], {
      allowUnused: true,
    });
    const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ backoff: () => bad })] });
    const e = await assertRejects(() => agent.run("go", ctx), RangeError);
    assert(e.message.startsWith("retry(): backoff(1) returned"), e.message);
    assertEquals(clock.sleeps, []);
  }
});

Deno.test("retry() giving up says so, and names the FakeLLM's scripted failure, keeping the error's class and fields", async () => {
  const llm = new FakeLLM("ok", { failTimes: 10 });
  const ctx = makeTestCtx({ llm, clock: new FakeClock(), chatMiddleware: [retry()] });
  const text = "upstream timeout; retry() gave up after 3 attempts (maxAttempts: 3); it is the " +
    "FakeLLM's scripted failure (failTimes: 10), not a real provider's error";
  for (let run = 0; run < 2; run++) {
    const e = await assertRejects(() => agent.run("go", ctx), ProviderTimeoutError);
    assertEquals([e.message, e.name, e.retryable, e.phase], [
      text,
      "ProviderTimeoutError",
      true,
      "pre_stream",
    ]);
    assert(e.stack?.startsWith(`ProviderTimeoutError: ${text}\n    at `), e.stack);
  }
  assertEquals(
    llm.calls,
    6,
    "each run made its three attempts; the fake's own error was not rewritten",
  );
});

Deno.test("retry() giving up on a scripted turn's error keeps its fields; a real provider's failure is not called scripted", async () => {
  const llm = FakeLLM.script([
    { error: new RateLimitError("busy", { retryAfterMs: 5 }) },
    { error: new RateLimitError("busy", { retryAfterMs: 5 }) },
  ]);
  const ctx = makeTestCtx({
    llm,
    clock: new FakeClock(),
    chatMiddleware: [retry({ maxAttempts: 2 })],
  });
  const e = await assertRejects(() => agent.run("go", ctx), RateLimitError);
  assertEquals(
    [e.message, e.retryAfterMs],
    [
      "busy; retry() gave up after 2 attempts (maxAttempts: 2); it is the FakeLLM's scripted failure (a turn's error), not a real provider's error",
      5,
    ],
  );

  let n = 0;
  const real = throwingStream(() => ({ afterEvents: 0, error: new RateLimitError(`busy ${++n}`) }));
  const realCtx = makeTestCtx({ llm: real, clock: new FakeClock(), chatMiddleware: [retry()] });
  const r = await assertRejects(() => drain(agent.stream("go", realCtx)), RateLimitError);
  assertEquals(r.message, "busy 3; retry() gave up after 3 attempts (maxAttempts: 3)");
});

Deno.test("retry() leaves the error as it is when it did not give up on a retryable failure", async (t) => {
  await t.step("maxAttempts: 1 never retried", async () => {
    const llm = new FakeLLM("ok", { failTimes: 1 });
    const ctx = makeTestCtx({ llm, chatMiddleware: [retry({ maxAttempts: 1 })] });
    const e = await assertRejects(() => agent.run("go", ctx), ProviderTimeoutError);
    assertEquals(e.message, "upstream timeout");
  });
  await t.step("the last failure is not retryable", async () => {
    const llm = FakeLLM.script([
      { error: new RateLimitError("busy") },
      { error: new ProviderError("bad request") },
    ]);
    const ctx = makeTestCtx({
      llm,
      clock: new FakeClock(),
      chatMiddleware: [retry({ maxAttempts: 2 })],
    });
    const e = await assertRejects(() => agent.run("go", ctx), ProviderError);
    assertEquals(e.message, "bad request");
  });
  await t.step("the last failure is a harness error", async () => {
    const llm = FakeLLM.script([{ error: new RateLimitError("busy") }]);
    const ctx = makeTestCtx({
      llm,
      clock: new FakeClock(),
      chatMiddleware: [retry({ maxAttempts: 2, retryOn: () => true })],
    });
    const e = await assertRejects(() => agent.run("go", ctx), ScriptExhausted);
    assertEquals(e.message.includes("retry()"), false, e.message);
  });
  await t.step("what was thrown is not an Error", async () => {
    const port = {
      chat: () => Promise.reject("nope"),
      complete: () => Promise.reject("nope"),
      stream: () => {
        throw "nope";
      },
    } as unknown as LLMPort;
    const ctx = makeTestCtx({
      llm: port,
      clock: new FakeClock(),
      chatMiddleware: [retry({ maxAttempts: 2, retryOn: () => true })],
    });
    const thrown = await agent.run("go", ctx).then(() => undefined, (e: unknown) => e);
    assertEquals(thrown, "nope");
  });
});

Deno.test("retry() giving up rewrites the first line of a stack it can read, and only that", async () => {
  const fail = (stack: string | undefined) => {
    const error = new RateLimitError("busy");
    Object.defineProperty(error, "stack", { value: stack, writable: true, configurable: true });
    return error;
  };
  for (
    const [stack, want] of [
      ["custom", "RateLimitError: busy; retry() gave up after 2 attempts (maxAttempts: 2)"],
      [
        "RateLimitError: busy\n    at here (x.ts:1:1)",
        "RateLimitError: busy; retry() gave up after 2 attempts (maxAttempts: 2)\n    at here (x.ts:1:1)",
      ],
      [undefined, undefined],
    ] as const
  ) {
    let n = 0;
    const port = throwingStream(() => (n++, { afterEvents: 0, error: fail(stack) }));
    const ctx = makeTestCtx({
      llm: port,
      clock: new FakeClock(),
      chatMiddleware: [retry({ maxAttempts: 2 })],
    });
    const e = await assertRejects(() => drain(agent.stream("go", ctx)), RateLimitError);
    assertEquals([e.stack, n], [want, 2]);
  }
});

Deno.test("retry() giving up copies a frozen error, and its message and stack are an Error's own", async () => {
  const port = throwingStream(() => ({
    afterEvents: 0,
    error: Object.freeze(new RateLimitError("busy")),
  }));
  const ctx = makeTestCtx({
    llm: port,
    clock: new FakeClock(),
    chatMiddleware: [retry({ maxAttempts: 2 })],
  });
  const e = await assertRejects(() => drain(agent.stream("go", ctx)), RateLimitError);
  assertEquals(e.message, "busy; retry() gave up after 2 attempts (maxAttempts: 2)");
  const fresh = { writable: true, enumerable: false, configurable: true };
  for (const key of ["message", "stack"]) {
    const { value: _, ...flags } = Object.getOwnPropertyDescriptor(e, key)!;
    assertEquals(flags, fresh, key);
  }
});

Deno.test("retry() stopped by a cancelled run before maxAttempts does not say it gave up", async () => {
  const controller = new AbortController();
  let calls = 0;
  const port = {
    chat: () => {
      if (++calls === 2) controller.abort(); // the second of three attempts
      return Promise.reject(new RateLimitError("busy"));
    },
    complete: () => Promise.reject(new Error("not here")),
    stream: () => {
      throw new Error("not here");
    },
  } as unknown as LLMPort;
  const ctx = makeTestCtx({
    llm: port,
    clock: new FakeClock(),
    signal: controller.signal,
    chatMiddleware: [retry({ maxAttempts: 3 })],
  });
  const thrown = await agent.run("go", ctx).then(() => undefined, (e: unknown) => e);
  assertEquals(calls, 2);
  assertEquals(String((thrown as Error).message).includes("gave up"), false, String(thrown));
});

Deno.test("retry({ attempts }) and the other libraries' names point at maxAttempts", () => {
  for (
    const [key, more] of [
      ["attempts", "(attempts in total, the first included)"],
      ["retries", "retries n is maxAttempts n + 1"],
      ["maxRetries", "maxRetries n is maxAttempts n + 1"],
    ]
  ) {
    const e = assertThrows(
      () => retry({ [key]: 3 } as never),
      TypeError,
      `retry(): unknown option "${key}"; did you mean "maxAttempts"?`,
    );
    assert(e.message.includes(more), e.message);
    assert(
      e.message.includes("(the options are maxAttempts, maxRetryAfterMs, sleep, backoff, retryOn)"),
      e.message,
    );
  }
});
