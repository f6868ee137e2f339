import { assertEquals, assertRejects } from "@std/assert";
import { Agent, Budget, meter, UnmeteredBudget } from "@agentkit/testing/runtime";
import { ProviderResponseError } from "@agentkit/testing/ports";
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
