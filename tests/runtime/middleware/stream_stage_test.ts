import { assertEquals, assertRejects } from "@std/assert";
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
import type { StreamEvent } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

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
