import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  Budget,
  Invoker,
  meter,
  PriceTable,
  RunContext,
  Services,
  UnmeteredBudget,
} from "@agentkit/testing/runtime";
import { type LLMPort, ProviderError, ProviderResponseError } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("meter() charges usage reported on a failed call (a cut-off answer still costs money)", async () => {
  const budget = new Budget();
  const llm = FakeLLM.script([{
    content: "I will",
    error: "Hit max tokens",
    usage: { inputTokens: 100, outputTokens: 50 },
  }]);
  await assertRejects(
    () => agent.run("go", makeTestCtx({ llm, budget, chatMiddleware: [meter()] })),
    ProviderResponseError,
  );
  assertEquals([budget.calls, budget.tokens, budget.spent()], [1, 150, "0.002500"]);
});

Deno.test("meter() charges a stream once, from message_end or from an error event with usage", async () => {
  const budget = new Budget();
  const llm = FakeLLM.script([
    { chunks: ["a", "b"] },
    {
      chunks: ["c"],
      error: "cut",
      finishReason: "length",
      usage: { inputTokens: 10, outputTokens: 5 },
    },
  ]);
  const ctx = makeTestCtx({ llm, budget, chatMiddleware: [meter()] });
  for await (const _ of agent.stream("1", ctx)) { /* drain */ }
  for await (const _ of agent.stream("2", ctx)) { /* drain */ }
  assertEquals([budget.calls, budget.tokens], [2, 25]);
});

Deno.test("a budget with no meter() in the chain fails with UnmeteredBudget before the provider is called", async () => {
  const llm = new FakeLLM("ok");
  const budget = new Budget({ maxCostUsd: "0.10" });
  await assertRejects(
    () => agent.run("go", makeTestCtx({ llm, budget })),
    UnmeteredBudget,
    "meter()",
  );
  assertEquals([llm.calls, budget.calls], [0, 0]);
});

// A model port whose answer names the model it served, and whose failures
// carry (or not) the usage of the call.
function served(model: string, usage = { inputTokens: 1_000_000, outputTokens: 0 }): LLMPort {
  const answer = {
    id: "r",
    model,
    content: "ok",
    toolCalls: [],
    finishReason: "stop" as const,
    usage,
  };
  return {
    chat: () => Promise.resolve(answer),
    async *stream() {
      yield { type: "message_start", messageId: "m" };
      yield { type: "message_end", messageId: "m", finishReason: "stop", usage };
    },
    complete: () => Promise.resolve(answer),
  };
}

const dear = PriceTable.default().with("dear", { inputPerMTok: 3, outputPerMTok: 0 })
  .with("cheap", { inputPerMTok: 1, outputPerMTok: 0 });

Deno.test("meter({ prices }) prices calls with its own table, on both paths; it checks its options", async () => {
  for (const streaming of [false, true]) {
    const budget = new Budget();
    const ctx = makeTestCtx({ llm: served(""), budget, chatMiddleware: [meter({ prices: dear })] });
    const run = new Agent("a", { model: "dear" });
    if (streaming) await Array.fromAsync(run.stream("go", ctx));
    else await run.run("go", ctx);
    assertEquals([budget.calls, budget.spent()], [1, "3.000000"]);
  }
  assertThrows(() => meter({ price: dear } as never), TypeError, 'meter(): unknown option "price"');
  assertThrows(() => meter({ prices: {} as never }), TypeError);
  const m = meter();
  assertEquals([m.name, m.charges], ["meter", true]);
});

Deno.test("meter(): a blocking call is charged at the model the provider says it served, else the one asked", async () => {
  const budget = new Budget();
  const mw = [meter({ prices: dear })];
  await new Agent("a", { model: "dear" }).run(
    "go",
    makeTestCtx({ llm: served("cheap"), budget, chatMiddleware: mw }),
  );
  assertEquals(budget.spent(), "1.000000");
  await new Agent("a", { model: "dear" }).run(
    "go",
    makeTestCtx({ llm: served(""), budget, chatMiddleware: mw }),
  );
  assertEquals(budget.spent(), "4.000000");
});

Deno.test("meter(): a failure is charged only when it is a ProviderError carrying usage", async () => {
  const usage = { inputTokens: 1_000_000, outputTokens: 0 };
  const failing = (error: Error): LLMPort => ({
    chat: () => Promise.reject(error),
    // deno-lint-ignore require-yield
    async *stream() {
      throw error;
    },
    complete: () => Promise.reject(error),
  });
  const cases: Array<[Error, string]> = [
    [new ProviderError("cut", { usage }), "1.000000"],
    [new ProviderError("no usage"), "0.000000"],
    [Object.assign(new Error("not a provider's"), { usage }), "0.000000"],
  ];
  for (const [error, spent] of cases) {
    for (const path of ["chat", "stream"] as const) {
      const budget = new Budget();
      const invoker = new Invoker({
        llm: failing(error),
        chatMiddleware: [meter({ prices: dear })],
      });
      const ctx = new RunContext({ services: new Services({ invoker }), budget });
      const req = { model: "cheap", messages: [] };
      await assertRejects(() =>
        path === "chat" ? invoker.chat(req, ctx) : Array.fromAsync(invoker.stream(req, ctx))
      );
      assertEquals([path, budget.spent()], [path, spent]);
    }
  }
});

Deno.test("meter(): a stream that ends and then fails is charged once; an error event without usage is not charged", async () => {
  const usage = { inputTokens: 1_000_000, outputTokens: 0 };
  const llm: LLMPort = {
    chat: () => Promise.reject(new Error("unused")),
    async *stream() {
      yield { type: "message_start", messageId: "m" };
      yield { type: "message_end", messageId: "m", finishReason: "stop", usage };
      throw new ProviderError("after the end", { usage });
    },
    complete: () => Promise.reject(new Error("unused")),
  };
  const budget = new Budget();
  const invoker = new Invoker({ llm, chatMiddleware: [meter({ prices: dear })] });
  const ctx = new RunContext({ services: new Services({ invoker }), budget });
  await assertRejects(() => Array.fromAsync(invoker.stream({ model: "cheap", messages: [] }, ctx)));
  assertEquals([budget.calls, budget.spent()], [1, "1.000000"]);
  const quiet: LLMPort = {
    ...llm,
    async *stream() {
      yield { type: "message_start", messageId: "m" };
      yield { type: "error", messageId: "m", error: new Error("no usage") };
      yield { type: "message_end", messageId: "m", finishReason: "stop", usage };
    },
  };
  const b2 = new Budget();
  const i2 = new Invoker({ llm: quiet, chatMiddleware: [meter({ prices: dear })] });
  await Array.fromAsync(
    i2.stream(
      { model: "cheap", messages: [] },
      new RunContext({ services: new Services({ invoker: i2 }), budget: b2 }),
    ),
  );
  assertEquals([b2.calls, b2.spent()], [1, "1.000000"]);
});

Deno.test("meter(): a spent budget stops the call before the model, on both paths", async () => {
  for (const path of ["chat", "stream"] as const) {
    const llm = new FakeLLM("ok");
    const budget = new Budget({ maxCalls: 0 });
    const invoker = new Invoker({ llm, chatMiddleware: [meter()] });
    const ctx = new RunContext({ services: new Services({ invoker }), budget });
    const req = { model: "fake-model", messages: [] };
    await assertRejects(() =>
      path === "chat" ? invoker.chat(req, ctx) : Array.fromAsync(invoker.stream(req, ctx))
    );
    assertEquals(llm.calls, 0);
  }
});

Deno.test("meter(): a model port that throws at once is charged like one that rejects; a second terminal event is not charged again", async () => {
  const usage = { inputTokens: 1_000_000, outputTokens: 0 };
  const error = new ProviderError("refused at once", { usage });
  const throwing: LLMPort = {
    chat: () => {
      throw error;
    },
    async *stream() {
      yield { type: "message_start", messageId: "m" };
      yield { type: "message_end", messageId: "m", finishReason: "stop", usage };
      yield { type: "error", messageId: "m", error: new Error("late"), usage };
    },
    complete: () => Promise.reject(new Error("unused")),
  };
  const budget = new Budget();
  const invoker = new Invoker({ llm: throwing, chatMiddleware: [meter({ prices: dear })] });
  const ctx = new RunContext({ services: new Services({ invoker }), budget });
  const req = { model: "cheap", messages: [] };
  assertEquals(await assertRejects(() => invoker.chat(req, ctx)), error);
  assertEquals([budget.calls, budget.spent()], [1, "1.000000"]);
  await Array.fromAsync(invoker.stream(req, ctx));
  assertEquals([budget.calls, budget.spent()], [2, "2.000000"]);
});
