import { assert, assertEquals, assertRejects } from "@std/assert";
import {
  Agent,
  Budget,
  type ChatMiddleware,
  InMemoryStore,
  Invoker,
  memoize,
  meter,
  retry,
  RunContext,
  Services,
  timeout,
} from "@agentkit/testing/runtime";
import type { ChatRequest, ChatResponse, LLMPort, StreamEvent } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, makeTestCtx, RecordingTracer } from "@agentkit/testing/testing";
import {
  streamOf,
  type StreamStage,
  tapped,
  withStage,
} from "../../../runtime/middleware/_stream_stage.ts";

const agent = new Agent("a", { model: "fake-model" });

// A hand-written stream middleware, between built-in ones: it sees the events
// the layers below hand up, and the layers above see what it yields.
function upper(seen: string[]): ChatMiddleware {
  return {
    name: "upper",
    async *stream(req, ctx, next) {
      for await (const event of next(req, ctx)) {
        seen.push(event.type);
        yield event.type === "text_delta"
          ? { ...event, content: event.content.toUpperCase() }
          : event;
      }
    },
  };
}

Deno.test("Invoker: a hand-written stream middleware composes with built-in stages on both sides", async () => {
  const seen: string[] = [];
  const clock = new FakeClock();
  const budget = new Budget();
  const llm = new FakeLLM("quiet", { failTimes: 1 });
  const ctx = makeTestCtx({
    llm,
    clock,
    budget,
    store: new InMemoryStore(),
    chatMiddleware: [retry(), memoize(), upper(seen), meter(), timeout({ ms: 1_000 })],
  });
  const first = await agent.start("go", ctx).result;
  const second = await agent.start("go", ctx).result;
  assertEquals([first.output, second.output], ["QUIET", "QUIET"]);
  // One failed attempt retried after 200 ms, one answer, then a cache hit
  // above the meter and the hand-written layer, which neither sees.
  assertEquals([llm.calls, budget.calls], [2, 1]);
  assertEquals(clock.sleeps.filter((ms) => ms !== 1_000), [200]);
  assertEquals(seen, ["message_start", "text_delta", "message_end"]);
  assertEquals(clock.pending, 0);
});

Deno.test("Invoker.stream(): a consumer that stops early closes the provider's stream through every stage", async () => {
  let closed = false;
  const inner: ChatMiddleware = {
    name: "watch-close",
    async *stream(req, ctx, next) {
      try {
        yield* next(req, ctx);
      } finally {
        closed = true;
      }
    },
  };
  const clock = new FakeClock();
  const invoker = new Invoker({
    llm: FakeLLM.script([{ chunks: ["a", "b", "c"] }]),
    chatMiddleware: [retry(), meter(), timeout({ ms: 5_000 }), inner],
  });
  const ctx = new RunContext({ services: new Services({ invoker, clock }) });
  const seen: StreamEvent[] = [];
  for await (const event of invoker.stream({ model: "fake-model", messages: [] }, ctx)) {
    seen.push(event);
    if (event.type === "text_delta") break;
  }
  assertEquals([seen.length, closed, clock.pending], [2, true, 0]);
});

Deno.test("a middleware's stream method, called directly, runs the same stage", async () => {
  const budget = new Budget({ maxCalls: 1 });
  const ctx = makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [meter()] });
  const m = meter();
  const llm = new FakeLLM("direct");
  const events = await Array.fromAsync(
    m.stream!({ model: "fake-model", messages: [] }, ctx, (r, c) => llm.stream(r, c)),
  );
  assertEquals([events.length, budget.calls, budget.spent()], [3, 1, "0.000100"]);
  await assertRejects(
    () =>
      Array.fromAsync(
        m.stream!({ model: "fake-model", messages: [] }, ctx, (r, c) => llm.stream(r, c)),
      ),
    Error,
    "calls",
  );
});

// The stream driver through Invoker.stream(), its `llm` span ended once the
// call is over, however it ends.
const request: ChatRequest = { model: "fake-model", messages: [] };

function invoked(llm: LLMPort, chatMiddleware: ChatMiddleware[], budget?: Budget) {
  const tracer = new RecordingTracer();
  const clock = new FakeClock();
  const store = new InMemoryStore();
  const invoker = new Invoker({ llm, chatMiddleware });
  const ctx = new RunContext({
    services: new Services({ invoker, clock, trace: tracer, store }),
    budget,
  });
  const span = () => tracer.named("chat");
  return { stream: () => invoker.stream(request, ctx), span, store, clock, ctx };
}

// A provider whose stream is a plain iterator: no return(), and next() as the test says.
class PlainLLM implements LLMPort {
  calls = 0;
  constructor(
    readonly next: (
      i: number,
    ) => IteratorResult<StreamEvent> | Promise<IteratorResult<StreamEvent>>,
  ) {}
  chat(): Promise<ChatResponse> {
    return Promise.reject(new Error("stream only"));
  }
  complete(): Promise<ChatResponse> {
    return Promise.reject(new Error("stream only"));
  }
  stream(): AsyncIterable<StreamEvent> {
    this.calls++;
    let i = 0;
    const next = this.next;
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          try {
            return Promise.resolve(next(i++));
          } catch (error) {
            return Promise.reject(error);
          }
        },
      }),
    };
  }
}
const start: StreamEvent = { type: "message_start", messageId: "m" };
const end: StreamEvent = {
  type: "message_end",
  messageId: "m",
  finishReason: "stop",
  usage: { inputTokens: 1, outputTokens: 1 },
};

Deno.test("the stream driver ends the call's span once the stream ends, and stays done after", async () => {
  const budget = new Budget();
  const llm = FakeLLM.script([{ chunks: ["a"] }]);
  const { stream, span } = invoked(llm, [meter()], budget);
  const it = stream();
  const events = [];
  for (let step = await it.next(); !step.done; step = await it.next()) events.push(step.value);
  assertEquals(events.length, 3);
  assertEquals(span().map((s) => s.ended), [true]);
  // Pulled again after the end: still done, nothing charged twice.
  assertEquals((await it.next()).done, true);
  assertEquals([budget.calls, llm.calls], [1, 1]);
});

Deno.test("the stream driver ends the span when opening fails, and does not open again", async (t) => {
  await t.step("a synchronous throw: a run with meters and no meter()", async () => {
    const llm = new FakeLLM("never");
    const { stream, span } = invoked(llm, [], new Budget());
    const it = stream();
    await assertRejects(() => it.next(), Error, "meter");
    assertEquals((await it.next()).done, true);
    assertEquals([llm.calls, span().length], [0, 0]);
  });
  await t.step("a rejected opening: retry() gives up before the first event", async () => {
    const llm = new PlainLLM(() => {
      throw new Error("down");
    });
    const { stream, span } = invoked(llm, [retry({ maxAttempts: 1 })]);
    const it = stream();
    await assertRejects(() => it.next(), Error, "down");
    assertEquals(span().map((s) => s.ended), [true]);
    assertEquals((await it.next()).done, true);
    assertEquals(llm.calls, 1);
  });
});

Deno.test("the stream driver: a provider whose next() throws synchronously fails the call and ends the span", async () => {
  const broke = new Error("sync break");
  const llm: LLMPort = {
    chat: () => Promise.reject(broke),
    complete: () => Promise.reject(broke),
    stream: () => ({
      [Symbol.asyncIterator]: () => ({
        next: () => {
          throw broke;
        },
      }),
    }),
  };
  const { stream, span } = invoked(llm, [memoize(), meter()]);
  const it = stream();
  assertEquals(await assertRejects(() => it.next()), broke);
  assertEquals(span().map((s) => s.ended), [true]);
  assertEquals((await it.next()).done, true);
});

Deno.test("the stream driver: every tap on a source sees every event, a tap without fail() is skipped on a failure", async () => {
  // memoize() and meter() side by side tap the same source: meter charges,
  // memoize records; a later call is a hit.
  const budget = new Budget();
  const llm = FakeLLM.script([{ chunks: ["a", "b"] }, "unused"]);
  const { stream, store } = invoked(llm, [memoize(), meter()], budget);
  assertEquals((await Array.fromAsync(stream())).length, 4);
  assertEquals([budget.calls, store.size], [1, 1]);
  assertEquals((await Array.fromAsync(stream())).length, 4);
  assertEquals(llm.calls, 1);
  // A failure mid-stream reaches meter's fail() past memoize's tap, which has none.
  const down = new Error("mid-stream");
  const failing = new PlainLLM((i) => {
    if (i === 0) return { done: false, value: start };
    throw down;
  });
  const second = invoked(failing, [memoize(), meter()]);
  const seen: StreamEvent[] = [];
  const error = await assertRejects(async () => {
    for await (const e of second.stream()) seen.push(e);
  });
  assertEquals([error, seen, second.store.size], [down, [start], 0]);
});

Deno.test("the stream driver awaits an end tap that returns a promise, and fails the call when it throws", async () => {
  // memoize()'s end tap writes to the store: once the stream is done, the entry is there.
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const store = new InMemoryStore();
  const set = store.set.bind(store);
  store.set = async (...args) => {
    await gate;
    return set(...args);
  };
  const llm = new PlainLLM((i) =>
    [{ done: false, value: start }, { done: false, value: end }][i] ??
      { done: true, value: undefined }
  );
  const { ctx } = invoked(llm, []);
  const invoker = new Invoker({ llm, chatMiddleware: [memoize({ store })] });
  const it = invoker.stream(request, ctx);
  await it.next();
  await it.next();
  let finished = false;
  const last = it.next().then((s) => (finished = true, s));
  for (let i = 0; i < 20; i++) await Promise.resolve();
  assertEquals(finished, false); // waiting on the store
  release();
  assertEquals((await last).done, true);
  assertEquals(store.size, 1);
  // An end tap that throws: the call fails with its error.
  const full = new Error("the store is full");
  const broken = new InMemoryStore();
  broken.set = () => Promise.reject(full);
  const tracer = new RecordingTracer();
  const again = new Invoker({
    llm: new PlainLLM((i) =>
      i === 0 ? { done: false, value: start } : { done: true, value: undefined }
    ),
    chatMiddleware: [memoize({ store: new InMemoryStore() }), memoize({ store: broken })],
  });
  const traced = new RunContext({ services: new Services({ invoker: again, trace: tracer }) });
  assertEquals(await assertRejects(() => Array.fromAsync(again.stream(request, traced))), full);
  assertEquals(tracer.named("chat").map((s) => s.ended), [true]);
});

Deno.test("the stream driver: a consumer that stops early, even before the first event, closes what was opened", async (t) => {
  await t.step("before the first event: nothing was opened", async () => {
    const llm = new FakeLLM("never");
    const { stream, span } = invoked(llm, [meter()]);
    const it = stream();
    assertEquals((await it.return()).done, true);
    assertEquals((await it.next()).done, true);
    assertEquals([llm.calls, span().length], [0, 0]);
  });
  await t.step("a provider iterator without return()", async () => {
    const llm = new PlainLLM(() => ({ done: false, value: start }));
    const { stream, span } = invoked(llm, [memoize(), meter()]);
    const it = stream();
    await it.next();
    assertEquals((await it.return()).done, true);
    assertEquals(span().map((s) => s.ended), [true]);
    assertEquals((await it.next()).done, true);
  });
});

Deno.test("a chat-only middleware in the chain is skipped by a streamed call", async () => {
  let chats = 0;
  const chatOnly: ChatMiddleware = {
    name: "chat-only",
    chat: (req, ctx, next) => (chats++, next(req, ctx)),
  };
  const { stream } = invoked(FakeLLM.script([{ chunks: ["a"] }]), [chatOnly, meter()]);
  assertEquals((await Array.fromAsync(stream())).length, 3);
  assertEquals(chats, 0);
});

Deno.test("retry() inside timeout(): the first event retry fetched is handed on, and an early stop closes the provider", async () => {
  let closed = 0;
  const inner: ChatMiddleware = {
    name: "watch-close",
    async *stream(req, ctx, next) {
      try {
        yield* next(req, ctx);
      } finally {
        closed++;
      }
    },
  };
  const { stream } = invoked(FakeLLM.script([{ chunks: ["a", "b"] }, { chunks: ["c", "d"] }]), [
    timeout({ ms: 5_000 }),
    retry(),
    inner,
  ]);
  const all = await Array.fromAsync(stream());
  assertEquals(all.map((e) => e.type), [
    "message_start",
    "text_delta",
    "text_delta",
    "message_end",
  ]);
  const it = stream();
  assertEquals((await it.next()).value?.type, "message_start");
  await it.return();
  assertEquals(closed, 2);
  assert((await it.next()).done);
});

Deno.test("the stream driver: a tap with only an end() beside one that watches events is left out of each event", async () => {
  const ended: string[] = [];
  const stage: StreamStage = (req, ctx, next) =>
    tapped(next(req, ctx), { end: () => void ended.push("end") });
  const endOnly = withStage({ name: "endOnly", stream: streamOf(stage) }, stage);
  const budget = new Budget();
  const llm = FakeLLM.script([{ chunks: ["a", "b"] }]);
  const { stream } = invoked(llm, [endOnly, meter()], budget);
  const events = await Array.fromAsync(stream());
  assertEquals(events.map((e) => e.type), [
    "message_start",
    "text_delta",
    "text_delta",
    "message_end",
  ]);
  assertEquals([ended, budget.calls], [["end"], 1]);
});
