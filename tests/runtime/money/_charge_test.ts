import { assertEquals, assertThrows } from "@std/assert";
import { chargeMeters, checkMeters } from "../../../runtime/money/_charge.ts";
import {
  Budget,
  BudgetExceeded,
  type Charge,
  type Meter,
  PriceTable,
  RunContext,
  UnpricedModel,
} from "@agentkit/testing/runtime";

/** A meter that records what it was charged. */
function recording(name: string, requiresPrice?: boolean): Meter & { charges: Charge[] } {
  const charges: Charge[] = [];
  return { name, requiresPrice, charges, check() {}, charge: (c) => void charges.push(c) };
}

Deno.test("chargeMeters() charges every meter the price table's cost", () => {
  const a = recording("a");
  const b = recording("b");
  const ctx = new RunContext({ meters: [a, b] });
  const usage = { inputTokens: 10, outputTokens: 0 };
  chargeMeters(ctx, "fake-model", usage);
  const expected = [{ model: "fake-model", usage, costUnits: 100_000_000n }];
  assertEquals([a.charges, b.charges], [expected, expected]);
});

Deno.test("chargeMeters() takes the cost the provider reported over the price table", () => {
  const m = recording("m");
  const usage = { inputTokens: 10, outputTokens: 5, costUsd: 0.25 };
  chargeMeters(new RunContext({ meters: [m] }), "fake-model", usage, PriceTable.default());
  assertEquals(m.charges[0].costUnits, 250_000_000_000n);
});

Deno.test("chargeMeters() checks a reported cost and its tokens, naming the model", () => {
  const ctx = new RunContext({ meters: [recording("m")] });
  assertThrows(
    () => chargeMeters(ctx, "gpt-x", { inputTokens: -1, outputTokens: 0, costUsd: 0.1 }),
    RangeError,
    'Cannot charge "gpt-x": usage.inputTokens',
  );
  assertThrows(
    () => chargeMeters(ctx, "gpt-x", { inputTokens: 1, outputTokens: 0, costUsd: -0.1 }),
    RangeError,
    'the usage.costUsd "gpt-x" reported',
  );
});

Deno.test("chargeMeters(): an unpriced model costs 0 unless a meter limits cost", () => {
  const plain = recording("plain");
  const counting = recording("counting", false);
  const usage = { inputTokens: 3, outputTokens: 3 };
  chargeMeters(new RunContext({ meters: [plain, counting] }), "unpriced", usage);
  assertEquals([plain.charges[0].costUnits, counting.charges[0].costUnits], [0n, 0n]);

  const money = recording("money", true);
  const other = recording("other");
  const e = assertThrows(
    () => chargeMeters(new RunContext({ meters: [other, money] }), "unpriced", usage),
    UnpricedModel,
  );
  assertEquals(e.model, "unpriced");
  assertEquals([other.charges, money.charges], [[], []], "nobody is charged");
});

Deno.test("chargeMeters() with no meter reads nothing", () => {
  chargeMeters(new RunContext(), "unpriced", { inputTokens: -1, outputTokens: 0, costUsd: -1 });
});

Deno.test("checkMeters() asks every meter, the budget first", () => {
  const asked: string[] = [];
  const meter = (name: string): Meter => ({
    name,
    check: () => void asked.push(name),
    charge() {},
  });
  checkMeters(new RunContext({ meters: [meter("a"), meter("b")] }));
  assertEquals(asked, ["a", "b"]);
  const spent = new RunContext({ budget: new Budget({ maxCalls: 0 }), meters: [meter("c")] });
  assertThrows(() => checkMeters(spent), BudgetExceeded);
  assertEquals(asked, ["a", "b"], "the budget refused before the meters were asked");
});
