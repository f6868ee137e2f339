import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  Budget,
  BudgetExceeded,
  meter,
  PriceTable,
  UnpricedModel,
} from "@agentkit/testing/runtime";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("Budget.spent() is a fixed 6-decimal string and the default FakeLLM call costs exactly 0.000100", async () => {
  const budget = new Budget();
  assertEquals(budget.spent(), "0.000000");
  await agent.run("go", makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [meter()] }));
  assertEquals([budget.spent(), budget.calls, budget.tokens], ["0.000100", 1, 10]);
});

Deno.test("Budget sums exactly: a million charges of 0.0001 make 100.000000", () => {
  const budget = new Budget();
  for (let i = 0; i < 1_000_000; i++) budget.add("0.0001");
  assertEquals(budget.spent(), "100.000000");
  const floats = new Budget();
  for (let i = 0; i < 10; i++) floats.add(0.1);
  assertEquals(floats.spent(), "1.000000", "binary-float drift would give 0.999999...");
});

Deno.test("Budget maxCalls stops the run before the provider is called", async () => {
  const llm = new FakeLLM("ok");
  const budget = new Budget({ maxCalls: 2 });
  const ctx = makeTestCtx({ llm, budget, chatMiddleware: [meter()] });
  await agent.run("1", ctx);
  await agent.run("2", ctx);
  const e = await assertRejects(() => agent.run("3", ctx), BudgetExceeded, "maxCalls");
  assertEquals([e.limit, llm.calls, budget.calls], ["maxCalls", 2, 2]);
});

Deno.test("Budget maxCostUsd stops the run once the limit is reached, before the provider is called", async () => {
  const llm = new FakeLLM("ok");
  const budget = new Budget({ maxCostUsd: "0.0002" });
  const ctx = makeTestCtx({ llm, budget, chatMiddleware: [meter()] });
  await agent.run("1", ctx);
  await agent.run("2", ctx);
  await assertRejects(() => agent.run("3", ctx), BudgetExceeded, "maxCostUsd is 0.000200");
  assertEquals([llm.calls, budget.spent()], [2, "0.000200"]);
});

Deno.test("Budget maxTokens counts input, cached and output tokens", async () => {
  const llm = new FakeLLM("ok", {
    usage: { inputTokens: 30, outputTokens: 20, cachedInputTokens: 50 },
  });
  const budget = new Budget({ maxTokens: 100 });
  const ctx = makeTestCtx({ llm, budget, chatMiddleware: [meter()] });
  await agent.run("1", ctx);
  assertEquals(budget.tokens, 100);
  await assertRejects(() => agent.run("2", ctx), BudgetExceeded, "maxTokens");
  assertEquals(llm.calls, 1);
});

Deno.test("meter() prefers the provider's reported costUsd over the price table", async () => {
  const budget = new Budget();
  const llm = new FakeLLM("ok", { usage: { inputTokens: 10, outputTokens: 0, costUsd: 0.25 } });
  await agent.run("go", makeTestCtx({ llm, budget, chatMiddleware: [meter()] }));
  assertEquals(budget.spent(), "0.250000");
});

Deno.test("meter() refuses to charge $0 for an unpriced model under a cost limit", async () => {
  const budget = new Budget({ maxCostUsd: 1 });
  const priced = PriceTable.default().with("big", { inputPerMTok: "3", outputPerMTok: "15" });
  const big = new Agent("b", { model: "big" });
  await assertRejects(
    () =>
      new Agent("u", { model: "mystery" }).run(
        "go",
        makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [meter()] }),
      ),
    UnpricedModel,
    '"mystery"',
  );
  const ctx = makeTestCtx({
    llm: new FakeLLM("ok", { usage: { inputTokens: 1_000_000, outputTokens: 0 } }),
    budget,
    prices: priced,
    chatMiddleware: [meter()],
  });
  await big.run("go", ctx);
  assertEquals(budget.spent(), "3.000000");
  const countOnly = new Budget({ maxCalls: 5 });
  await new Agent("u", { model: "mystery" }).run(
    "go",
    makeTestCtx({ llm: new FakeLLM("ok"), budget: countOnly, chatMiddleware: [meter()] }),
  );
  assertEquals([countOnly.calls, countOnly.spent()], [1, "0.000000"]);
});

Deno.test("Budget rejects nonsense limits when built", () => {
  assertThrows(() => new Budget({ maxCalls: -1 }), RangeError, "maxCalls");
  assertThrows(() => new Budget({ maxCostUsd: "ten" }), TypeError, '"ten"');
  assertThrows(() => new Budget({ maxCostUsd: -1 }), RangeError);
});

Deno.test("PriceTable prices cached input at its own rate", () => {
  const t = new PriceTable({ m: { inputPerMTok: 10, outputPerMTok: 30, cachedInputPerMTok: 1 } });
  assertEquals(
    t.costUsd("m", { inputTokens: 100_000, outputTokens: 10_000, cachedInputTokens: 1_000_000 }),
    "2.300000",
  );
  assertEquals(t.costUsd("other", { inputTokens: 1, outputTokens: 1 }), undefined);
});
