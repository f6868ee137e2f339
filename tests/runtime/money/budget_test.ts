import {
  assertEquals,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  Agent,
  Budget,
  BudgetExceeded,
  type BudgetOptions,
  meter,
  PriceTable,
  Quota,
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

Deno.test("Budget zero limits are limits: maxCostUsd 0, maxCalls 0 and maxTokens 0 refuse the first call", async (t) => {
  for (
    const options of [{ maxCostUsd: 0 }, { maxCostUsd: "0.00" }, { maxCalls: 0 }, { maxTokens: 0 }]
  ) {
    await t.step(JSON.stringify(options), async () => {
      const llm = new FakeLLM("ok");
      const budget = new Budget(options);
      const ctx = makeTestCtx({ llm, budget, chatMiddleware: [meter()] });
      const e = await assertRejects(() => agent.run("go", ctx), BudgetExceeded);
      assertEquals([e.limit, llm.calls, budget.calls], [Object.keys(options)[0], 0, 0]);
    });
  }
});

Deno.test("BudgetExceeded carries the limit, its value and what was used", async (t) => {
  const cases: Array<[BudgetOptions, string[]]> = [
    [{ maxCalls: 1 }, ["maxCalls", "1", "1 calls"]],
    [{ maxCostUsd: "0.0001" }, ["maxCostUsd", "0.000100", "$0.000100"]],
    [{ maxTokens: 10 }, ["maxTokens", "10", "10 tokens"]],
  ];
  for (const [options, expected] of cases) {
    await t.step(expected[0], async () => {
      const budget = new Budget(options);
      const ctx = makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [meter()] });
      await agent.run("1", ctx);
      const e = await assertRejects(() => agent.run("2", ctx), BudgetExceeded);
      assertEquals([e.limit, e.max, e.used], expected);
    });
  }
});

Deno.test("Budget with no limits never refuses, whatever was spent", () => {
  const budget = new Budget();
  budget.add("1000000");
  for (let i = 0; i < 3; i++) {
    budget.check();
    budget.charge({
      model: "m",
      usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 },
      costUnits: 10n ** 18n,
    });
  }
  budget.check();
  assertEquals([budget.calls, budget.tokens, budget.spent()], [3, 6_000_000, "4000000.000000"]);
  assertEquals([budget.maxCostUsd, budget.maxCalls, budget.maxTokens], [
    undefined,
    undefined,
    undefined,
  ]);
});

Deno.test("Budget reports its name and normalized limits, and requires a price only under a cost limit", () => {
  const budget = new Budget({ maxCostUsd: 0.1, maxCalls: 3, maxTokens: 0 });
  assertEquals(
    [budget.name, budget.maxCostUsd, budget.maxCalls, budget.maxTokens, budget.requiresPrice],
    ["budget", "0.100000", 3, 0, true],
  );
  assertEquals(new Budget({ maxCalls: 3 }).requiresPrice, false);
  assertEquals(new Budget({ maxCostUsd: "0" }).maxCostUsd, "0.000000");
});

Deno.test("Budget money edge values: exponents, long fractions, negatives and junk", () => {
  const budget = new Budget({ maxCostUsd: "0.000001" });
  budget.add(1e-7);
  budget.add("0.000000799999");
  budget.add(1e-7);
  budget.check(); // 0.000000999999
  budget.add("0.000000000001");
  assertThrows(() => budget.check(), BudgetExceeded);
  assertEquals(budget.spent(), "0.000001");
  budget.add(1e-7);
  assertEquals(budget.spent(), "0.0000011", "kept exactly, not rounded to six decimals");

  assertThrows(() => budget.add("-0.0000002"), RangeError, "negative");
  assertThrows(() => budget.add("0.0000004999999999999"), RangeError, "more than 12 decimals");
  assertThrows(() => new Budget({ maxCostUsd: "-0.01" }), RangeError, "maxCostUsd");
  assertThrows(() => new Budget({ maxCostUsd: -1e-7 }), RangeError);
  assertThrows(() => new Budget({ maxCostUsd: "abc0.10" }), TypeError);
  assertThrows(() => new Budget({ maxCostUsd: "0.10abc" }), TypeError);
  assertThrows(() => budget.add("abc0.10"), TypeError);
  assertThrows(() => budget.add(NaN), RangeError);
  assertThrows(() => new Budget({ maxCalls: 1.5 }), RangeError, "maxCalls");
  assertThrows(() => new Budget({ maxTokens: -1 }), RangeError, "maxTokens");
  assertThrows(() => new Budget({ maxTokens: 2.5 }), RangeError, "maxTokens");
});

Deno.test("PriceTable.default() is one shared table, built once; with() leaves it unchanged", () => {
  const table = PriceTable.default();
  assertStrictEquals(PriceTable.default(), table);
  const more = table.with("big-model", { inputPerMTok: "3", outputPerMTok: "15" });
  assertEquals([table.has("big-model"), more.has("big-model")], [false, true]);
});

Deno.test("Budget keeps a spend below a micro-dollar exactly, never as $0", () => {
  const budget = new Budget({ maxCostUsd: "0.000001" });
  assertEquals(budget.maxCostUsd, "0.000001");
  budget.add("0.0000005");
  assertEquals(budget.spent(), "0.0000005");
  budget.check();
  budget.add(5e-7);
  const e = assertThrows(() => budget.check(), BudgetExceeded);
  assertEquals([e.max, e.used], ["0.000001", "$0.000001"]);
  assertEquals(new Budget({ maxCostUsd: "0.10" }).maxCostUsd, "0.100000");
});

Deno.test("Budget and Quota refuse a cost limit finer than a micro-dollar, with the rounded one", () => {
  for (
    const [value, rounded] of [
      ["0.0000001", "0.000001"],
      [1e-7, "0.000001"],
      ["0.1234567", "0.123457"],
      // Rounded up to the next micro-dollar, not past it.
      ["0.000001999999", "0.000002"],
      ["2.000000000001", "2.000001"],
    ] as const
  ) {
    for (
      const make of [
        () => new Budget({ maxCostUsd: value }),
        () => new Quota({ maxCostUsd: value }),
      ]
    ) {
      const e = assertThrows(make, RangeError, "is finer than a micro-dollar");
      assertStringIncludes(
        e.message,
        `maxCostUsd ${typeof value === "string" ? `"${value}"` : value}`,
      );
      assertStringIncludes(e.message, `e.g. "${rounded}"`);
    }
  }
  assertEquals(new Budget({ maxCostUsd: "0.000001" }).maxCostUsd, "0.000001");
  assertEquals(new Budget({ maxCostUsd: "1.500000000000" }).maxCostUsd, "1.500000");
});

Deno.test("Budget.charge() refuses a charge whose tokens or cost are not counts, naming the field", () => {
  const budget = new Budget();
  const charge = (usage: unknown, costUnits: unknown = 0n) => () =>
    budget.charge({ model: "m", usage, costUnits } as never);
  assertThrows(charge({ inputTokens: NaN, outputTokens: 0 }), RangeError, "usage.inputTokens");
  assertThrows(charge({ inputTokens: 1, outputTokens: "2" }), TypeError, 'got "2"');
  assertThrows(charge({ inputTokens: 1, outputTokens: 1, cachedInputTokens: -1 }), RangeError);
  assertThrows(charge(undefined), TypeError, "Budget.charge(): usage must be a Usage object");
  assertThrows(
    charge({ inputTokens: 1, outputTokens: 0 }, 5),
    TypeError,
    "costUnits must be a bigint",
  );
  assertThrows(charge({ inputTokens: 1, outputTokens: 0 }, -1n), RangeError, "got -1n");
  assertThrows(() => budget.charge(undefined as never), TypeError, "the charge must be an object");
  // null is an object to typeof: named as the others, never a property read of null.
  assertThrows(() => budget.charge(null as never), TypeError, "the charge must be an object");
  assertThrows(
    charge(null),
    TypeError,
    "Budget.charge(): usage must be a Usage object ({ inputTokens, outputTokens }), got null",
  );
  assertThrows(charge([1, 2]), TypeError, "Budget.charge(): usage must be a Usage object");
  // Nothing was tallied by the refused charges.
  assertEquals([budget.calls, budget.tokens, budget.spent()], [0, 0, "0.000000"]);
  budget.charge({ model: "m", usage: { inputTokens: 2, outputTokens: 3 }, costUnits: 7n });
  assertEquals([budget.calls, budget.tokens, budget.spent()], [1, 5, "0.000000000007"]);
});
