import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  idleTimeout,
  Invoker,
  ModelTimeout,
  retry,
  RunContext,
  Services,
  timeout,
} from "@agentkit/testing/runtime";
import type { ChatRequest, StreamEvent } from "@agentkit/testing/ports";
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
  assertThrows(bad({ msec: 5 }), TypeError, 'timeout(): unknown option "msec"; did you mean "ms"?');
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

Deno.test("timeout() and idleTimeout() refuse what is not an options object, saying what they got", () => {
  for (const [build, name] of [[timeout, "timeout"], [idleTimeout, "idleTimeout"]] as const) {
    // deno-lint-ignore no-explicit-any
    const bad = (o: any) => () => build(o);
    assertThrows(
      bad(null),
      TypeError,
      `pass an options object such as ${name}({ ms: 30_000 }), got null`,
    );
    assertThrows(bad(5_000), TypeError, "got number");
    assertThrows(bad({ ms: 5, retries: 2 }), TypeError, `${name}(): unknown option "retries"`);
  }
  // Other words for the deadline point at "ms"; an unrelated key does not.
  const e = assertThrows(() => timeout({ millis: 5 } as never), TypeError, 'did you mean "ms"?');
  assert(e.message.includes('"millis"'));
  const other = assertThrows(() => timeout({ ms: 5, retries: 2 } as never), TypeError);
  assert(!other.message.includes("did you mean"), other.message);
});

// A provider's stream driven by hand, under timeout()'s stream directly:
// `next()` answers with whatever the test says, `return()` is recorded.
class HandStream implements AsyncIterator<StreamEvent> {
  readonly steps: PromiseWithResolvers<IteratorResult<StreamEvent>>[] = [];
  returned = 0;
  signal: AbortSignal | undefined;
  ctxSignal: AbortSignal | undefined;

  next(): Promise<IteratorResult<StreamEvent>> {
    const step = Promise.withResolvers<IteratorResult<StreamEvent>>();
    this.steps.push(step);
    return step.promise;
  }
  /** The provider's own cleanup when the caller stops early; absent on some providers. */
  return?(): Promise<IteratorResult<StreamEvent>> {
    this.returned++;
    return Promise.resolve({ done: true, value: undefined });
  }
  /** `timeout().stream`'s `next`: opens this stream, recording the signals it got. */
  open = (req: ChatRequest, ctx: RunContext): AsyncIterable<StreamEvent> => {
    this.signal = req.signal;
    this.ctxSignal = ctx.signal;
    return { [Symbol.asyncIterator]: () => this };
  };
}

const request: ChatRequest = { model: "fake-model", messages: [{ role: "user", content: "go" }] };
const start: StreamEvent = { type: "message_start", messageId: "m" };
const event = (value: StreamEvent): IteratorResult<StreamEvent> => ({ done: false, value });

/** The first event through timeout({ ms: 1_000 }), and the stream to pull more from. */
async function opened(
  provider: HandStream,
  ctx = makeTestCtx({ clock: new FakeClock({ autoAdvance: false }) }),
) {
  const stream = timeout({ ms: 1_000 }).stream!(request, ctx, provider.open)
    [Symbol.asyncIterator]();
  const first = stream.next();
  // The call opens a few promise turns later; no timer needed.
  for (let i = 0; i < 100 && provider.steps.length === 0; i++) await Promise.resolve();
  provider.steps[0].resolve(event(start));
  assertEquals((await first).value, start);
  return { stream, ctx, clock: ctx.clock as FakeClock };
}

Deno.test("timeout() on a stream: the call's own signal reaches the provider as the request's and the context's", async () => {
  const provider = new HandStream();
  const { stream, clock } = await opened(provider);
  assert(provider.signal !== undefined && provider.ctxSignal === provider.signal);
  const next = stream.next();
  await clock.advance(1_000);
  await assertRejects(() => next, ModelTimeout);
  assert(provider.ctxSignal!.aborted && provider.ctxSignal!.reason instanceof ModelTimeout);
});

Deno.test("timeout() on a stream: a provider's own failure mid-stream passes through, timer cleared", async () => {
  const provider = new HandStream();
  const { stream, clock } = await opened(provider);
  const next = stream.next();
  const broke = new Error("the provider broke");
  provider.steps[1].reject(broke);
  assertEquals(await assertRejects(() => next), broke);
  assertEquals(clock.pending, 0);
});

Deno.test("timeout() on a stream: a provider that fails with its own error when cancelled still reads as a ModelTimeout", async () => {
  const provider = new HandStream();
  const { stream, clock } = await opened(provider);
  const next = stream.next();
  provider.signal!.addEventListener("abort", () => {
    provider.steps[1].reject(new DOMException("The operation was aborted", "AbortError"));
  });
  await clock.advance(1_000);
  const e = await assertRejects(() => next, ModelTimeout);
  assertEquals(e.eventsBefore, 1);
});

Deno.test("timeout() on a stream: a provider that ignores the cancellation is abandoned and closed, its late failure swallowed", async () => {
  const provider = new HandStream();
  const { stream, clock } = await opened(provider);
  const next = stream.next();
  await clock.advance(1_000);
  await assertRejects(() => next, ModelTimeout);
  assertEquals(provider.returned, 1);
  // The abandoned step fails long after: nobody is left to see it, and no
  // unhandled rejection fails the test.
  provider.steps[1].reject(new Error("late"));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assertEquals(clock.pending, 0);
});

Deno.test("timeout() on a stream: a provider iterator without return() is abandoned the same way", async () => {
  const provider = new HandStream();
  provider.return = undefined;
  const { stream, clock } = await opened(provider);
  const next = stream.next();
  await clock.advance(1_000);
  await assertRejects(() => next, ModelTimeout);
});

Deno.test("timeout() on a stream: a consumer that stops early closes the provider and clears the timer", async (t) => {
  await t.step("a provider with return()", async () => {
    const provider = new HandStream();
    const { stream, clock } = await opened(provider);
    await stream.return!();
    assertEquals([provider.returned, clock.pending], [1, 0]);
  });
  await t.step("a provider without it", async () => {
    const provider = new HandStream();
    provider.return = undefined;
    const { stream, clock } = await opened(provider);
    await stream.return!();
    assertEquals(clock.pending, 0);
  });
});

Deno.test("timeout() on a stream: once the call is over, cancelling the run no longer reaches it", async () => {
  const provider = new HandStream();
  const run = new AbortController();
  const base = makeTestCtx({ clock: new FakeClock({ autoAdvance: false }) });
  const { stream } = await opened(provider, base.with({ signal: run.signal }));
  const end = stream.next();
  provider.steps[1].resolve({ done: true, value: undefined });
  assertEquals((await end).done, true);
  run.abort(new Error("the user left"));
  assertEquals(provider.signal!.aborted, false);
});

Deno.test("timeout() on a blocking call: the provider gets the call's signal in its context, unlinked once the call is over", async () => {
  const clock = new FakeClock();
  const seen: AbortSignal[] = [];
  let answer = true;
  const llm = new FakeLLM("ok");
  const chat = llm.chat.bind(llm);
  llm.chat = (req, ctx) => {
    seen.push(ctx!.signal);
    return answer ? chat(req, ctx) : clock.sleep(60_000, ctx!.signal).then(() => chat(req, ctx));
  };
  const run = new AbortController();
  const ctx = makeTestCtx({
    llm,
    clock,
    signal: run.signal,
    chatMiddleware: [timeout({ ms: 1_000 })],
  });
  assertEquals((await agent.run("go", ctx)).output, "ok");
  run.abort(new Error("the user left"));
  assertEquals(seen[0].aborted, false); // the finished call is no longer linked to the run
  answer = false;
  await assertRejects(
    () => agent.run("go", makeTestCtx({ llm, clock, chatMiddleware: [timeout({ ms: 1_000 })] })),
    ModelTimeout,
  );
  assert(seen[1].aborted && seen[1].reason instanceof ModelTimeout); // the context's signal too
});

Deno.test("timeout() over a stage that opens late: the opening is abandoned, and closed once it arrives", async () => {
  // retry() inside timeout() opens the call only with its first event; this
  // provider ignores the cancellation and sends that event after the deadline.
  const provider = new HandStream();
  const llm = {
    chat: () => Promise.reject(new Error("stream only")),
    complete: () => Promise.reject(new Error("stream only")),
    stream: provider.open,
  };
  const clock = new FakeClock({ autoAdvance: false });
  const invoker = new Invoker({ llm, chatMiddleware: [timeout({ ms: 1_000 }), retry()] });
  const ctx = new RunContext({ services: new Services({ invoker, clock }) });
  const first = invoker.stream(request, ctx).next();
  for (let i = 0; i < 100 && provider.steps.length === 0; i++) await Promise.resolve();
  await clock.advance(1_000);
  await assertRejects(() => first, ModelTimeout);
  assertEquals(provider.returned, 0);
  provider.steps[0].resolve(event(start));
  for (let i = 0; i < 20 && provider.returned === 0; i++) await Promise.resolve();
  assertEquals(provider.returned, 1);
});

Deno.test("timeout() on a stream: a provider whose return() answers without a promise is abandoned the same way", async () => {
  // for await tolerates such an iterator, so the watchdog must too.
  const provider = new HandStream();
  let closed = 0;
  provider.return = (() => (closed++, { done: true, value: undefined })) as never;
  const { stream, clock } = await opened(provider);
  const next = stream.next();
  await clock.advance(1_000);
  await assertRejects(() => next, ModelTimeout);
  assertEquals(closed, 1);
});

Deno.test("timeout() on a stream: a provider whose return() throws still fails the call with ModelTimeout", async () => {
  const provider = new HandStream();
  provider.return = () => {
    throw new Error("cleanup broke");
  };
  const { stream, clock } = await opened(provider);
  const next = stream.next();
  await clock.advance(1_000);
  await assertRejects(() => next, ModelTimeout);
});
