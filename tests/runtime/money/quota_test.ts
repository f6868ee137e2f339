import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  Budget,
  BudgetExceeded,
  meter,
  Quota,
  QuotaExceeded,
  UnmeteredBudget,
  UnpricedModel,
} from "@agentkit/testing/runtime";
import { Scope } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });
const org = (orgId: number) => new Scope({ orgId });

Deno.test("Quota is charged by meter() alongside the budget", async () => {
  const quota = new Quota({ maxCostUsd: "1" });
  const budget = new Budget({ maxCostUsd: "1" });
  const ctx = makeTestCtx({
    llm: new FakeLLM("ok"),
    scope: org(7),
    budget,
    meters: [quota],
    chatMiddleware: [meter()],
  });
  await agent.run("go", ctx);
  await agent.run("go", ctx);
  assertEquals(quota.used(org(7)), { calls: 2, tokens: 20, spent: "0.000200" });
  assertEquals([budget.calls, budget.spent()], [2, "0.000200"]);
  assertEquals(ctx.allMeters, [budget, quota]);
});

Deno.test("Quota throws QuotaExceeded for the tenant before the provider is called", async (t) => {
  for (
    const [limit, options] of [
      ["maxCalls", { maxCalls: 1 }],
      ["maxTokens", { maxTokens: 10 }],
      ["maxCostUsd", { maxCostUsd: "0.0001" }],
    ] as const
  ) {
    await t.step(limit, async () => {
      const quota = new Quota(options);
      const llm = new FakeLLM("ok");
      const ctx = makeTestCtx({ llm, scope: org(7), meters: [quota], chatMiddleware: [meter()] });
      await agent.run("go", ctx);
      const error = await assertRejects(() => agent.run("go", ctx), QuotaExceeded);
      assertEquals([error.limit, error.scope.key()], [limit, "org7:dom0"]);
      assert(error.message.startsWith("Quota of tenant org7:dom0 exceeded"), error.message);
      assertInstanceOf(error, BudgetExceeded);
      assertEquals(llm.calls, 1);
    });
  }
});

Deno.test("Quota keeps an account per tenant: one tenant over its quota does not stop another", async () => {
  const quota = new Quota({ maxCalls: 2 });
  const llm = new FakeLLM("ok");
  const as = (orgId: number, domainId = 0) =>
    makeTestCtx({
      llm,
      scope: new Scope({ orgId, domainId }),
      meters: [quota],
      chatMiddleware: [meter()],
    });
  await agent.run("go", as(7));
  await agent.run("go", as(7));
  await assertRejects(() => agent.run("go", as(7)), QuotaExceeded, "org7:dom0");
  await agent.run("go", as(8));
  await agent.run("go", as(7, 1)); // another domain of org7 is another tenant
  assertEquals(llm.calls, 4);
  assertEquals(quota.used(org(7)).calls, 2);
  assertEquals(quota.used(org(8)).calls, 1);
  assertEquals(quota.used(org(9)), { calls: 0, tokens: 0, spent: "0.000000" });
});

Deno.test("Quota with a limit of zero refuses the first call", async () => {
  const llm = new FakeLLM("ok");
  const ctx = makeTestCtx({ llm, meters: [new Quota({ maxCalls: 0 })], chatMiddleware: [meter()] });
  await assertRejects(() => agent.run("go", ctx), QuotaExceeded, "maxCalls is 0");
  assertEquals(llm.calls, 0);
});

Deno.test("Quota follows the meter rules: unmetered fails loudly, a cost limit needs a price", async () => {
  await assertRejects(
    () => agent.run("go", makeTestCtx({ llm: new FakeLLM("ok"), meters: [new Quota()] })),
    UnmeteredBudget,
  );
  const priced = makeTestCtx({
    llm: new FakeLLM("ok"),
    meters: [new Quota({ maxCostUsd: 1 })],
    chatMiddleware: [meter()],
  });
  await assertRejects(
    () => new Agent("a", { model: "unknown-model" }).run("go", priced),
    UnpricedModel,
  );
  assertEquals(new Quota({ maxCalls: 1 }).requiresPrice, false);
});

Deno.test("Quota validates its limits when built", () => {
  assertThrows(() => new Quota({ maxCalls: -1 }), RangeError, "maxCalls");
  assertThrows(() => new Quota({ maxTokens: 1.5 }), RangeError, "maxTokens");
  assertThrows(() => new Quota({ maxCostUsd: "-1" }), RangeError, "maxCostUsd");
  assertEquals(new Quota({ maxCostUsd: 0.1 }).maxCostUsd, "0.100000");
});

Deno.test("Quota refuses a charge, a scope or a ctx that is not one, naming the method", () => {
  const quota = new Quota({ maxCostUsd: "0.000001" });
  assertEquals(quota.maxCostUsd, "0.000001");
  const ctx = makeTestCtx();
  assertThrows(
    () =>
      quota.charge(
        { model: "m", usage: { inputTokens: NaN, outputTokens: 0 }, costUnits: 0n },
        ctx,
      ),
    RangeError,
    "Quota.charge(): usage.inputTokens",
  );
  assertThrows(
    () =>
      quota.charge(
        { model: "m", usage: { inputTokens: 1, outputTokens: 0 }, costUnits: 1 } as never,
        ctx,
      ),
    TypeError,
    "costUnits must be a bigint",
  );
  assertThrows(
    () => quota.used(undefined as never),
    TypeError,
    "Quota.used(): the scope must be a Scope",
  );
  assertThrows(() => quota.check(undefined as never), TypeError, "Quota.check(): the ctx must be");
  assertThrows(
    () =>
      quota.charge(
        { model: "m", usage: { inputTokens: 1, outputTokens: 0 }, costUnits: 1n },
        {} as never,
      ),
    TypeError,
    "Quota.charge(): the ctx must be",
  );
  assertEquals(quota.used(ctx.scope), { calls: 0, tokens: 0, spent: "0.000000" });
  quota.charge({ model: "m", usage: { inputTokens: 1, outputTokens: 0 }, costUnits: 50_000n }, ctx);
  assertEquals(quota.used(ctx.scope), { calls: 1, tokens: 1, spent: "0.00000005" });
});
