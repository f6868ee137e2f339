import { assert, assertEquals, assertInstanceOf, assertStringIncludes } from "@std/assert";
import {
  BudgetExceeded,
  HarnessError,
  MisconfiguredMiddleware,
  NoAsker,
  NoInvoker,
  ToolArgsInvalid,
  ToolTimeout,
  UnknownTool,
  UnmeteredBudget,
  UnpricedModel,
} from "@agentkit/testing/runtime";

Deno.test("runtime errors carry a name and the data a caller needs", () => {
  const budget = new BudgetExceeded("maxCalls", "3", "3");
  assertEquals([budget.name, budget.limit, budget.max, budget.used], [
    "BudgetExceeded",
    "maxCalls",
    "3",
    "3",
  ]);
  const args = new ToolArgsInvalid("lookup", "host: expected string");
  assertEquals([args.name, args.tool], ["ToolArgsInvalid", "lookup"]);
  const unknown = new UnknownTool("lookpu", ["lookup"]);
  assertEquals([unknown.name, unknown.tool], ["UnknownTool", "lookpu"]);
  const timeout = new ToolTimeout("slow", 150);
  assertEquals([timeout.name, timeout.tool, timeout.timeoutMs], ["ToolTimeout", "slow", 150]);
  const unpriced = new UnpricedModel("gpt-x");
  assertEquals([unpriced.name, unpriced.model], ["UnpricedModel", "gpt-x"]);
  const mis = new MisconfiguredMiddleware("memoize", "pass memoize({ store })");
  assertEquals([mis.name, mis.middleware, mis.message], [
    "MisconfiguredMiddleware",
    "memoize",
    "pass memoize({ store })",
  ]);
});

Deno.test("misuse of the kit is a HarnessError; conditions a caller handles are not", () => {
  for (const e of [new UnmeteredBudget(), new NoInvoker("a"), new NoAsker("t")]) {
    assertInstanceOf(e, HarnessError);
  }
  assertEquals(new UnmeteredBudget().name, "UnmeteredBudget");
  assertEquals(new NoInvoker("a").name, "NoInvoker");
  assertEquals(new NoAsker("t").name, "NoAsker");
  for (
    const e of [
      new BudgetExceeded("maxCalls", "1", "1"),
      new ToolArgsInvalid("t", "x"),
      new UnknownTool("t", []),
      new ToolTimeout("t", 1),
      new UnpricedModel("m"),
    ]
  ) assert(!(e instanceof HarnessError), e.name);
});

Deno.test("runtime error messages name what failed and the way out", () => {
  const budget = new BudgetExceeded("maxCostUsd", "0.10", "0.12");
  assert(budget.message.startsWith("Budget exceeded:"), budget.message);
  assertStringIncludes(budget.message, "raise maxCostUsd");
  assert(new BudgetExceeded("maxCalls", "1", "1", "Quota").message.startsWith("Quota exceeded:"));
  assertStringIncludes(new UnmeteredBudget().message, "add meter() to chatMiddleware");
  assertStringIncludes(new NoInvoker("analyst").message, '"analyst"');
  assertStringIncludes(new ToolArgsInvalid("lookup", "host: expected string").message, '"lookup"');
  assertStringIncludes(
    new ToolArgsInvalid("lookup", "host: expected string").message,
    "host: expected string",
  );
  const noAsker = new NoAsker("deploy").message;
  assertStringIncludes(noAsker, '"deploy"');
  assertStringIncludes(noAsker, "asker");
  const timeout = new ToolTimeout("slow", 150).message;
  assertStringIncludes(timeout, '"slow"');
  assertStringIncludes(timeout, "150 ms");
  assertStringIncludes(new UnpricedModel("gpt-x").message, 'with("gpt-x"');
});

Deno.test("UnknownTool lists the tools on offer and suggests the nearest", async (t) => {
  await t.step("the tools on offer, or none", () => {
    const e = new UnknownTool("zzz", ["lookup", "search"]);
    assertStringIncludes(e.message, '"zzz"');
    assert(e.message.endsWith('the tools on offer are "lookup", "search"'), e.message);
    assert(new UnknownTool("zzz", []).message.endsWith("the tools on offer are none"));
  });
  await t.step("a name within two edits", () => {
    assert(
      new UnknownTool("lookpu", ["search", "lookup"]).message.endsWith('; did you mean "lookup"?'),
    );
    assert(new UnknownTool("lokup", ["lookup"]).message.endsWith('did you mean "lookup"?'));
  });
  await t.step("the same name in another case, before any near one", () => {
    const e = new UnknownTool("SEARCH_WEB", ["alpha", "search_wed", "search_web"]);
    assert(e.message.endsWith('did you mean "search_web"?'), e.message);
  });
  await t.step("no suggestion three edits away", () => {
    const e = new UnknownTool("lkpu", ["lookup"]);
    assert(!e.message.includes("did you mean"), e.message);
  });
});
