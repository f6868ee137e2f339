import { assertEquals, assertThrows } from "@std/assert";
import { PriceTable } from "@agentkit/testing/runtime";
import type { Usage } from "@agentkit/testing/ports";

// Prices are USD per million tokens; costUnits() counts 1e-12 USD.
const UNITS_PER_USD = 1_000_000_000_000n;

Deno.test("PriceTable.costUnits() adds input, output and cached input at their prices", () => {
  const prices = new PriceTable({
    m: { inputPerMTok: "3", outputPerMTok: "15", cachedInputPerMTok: "0.30" },
  });
  // 3 USD/MTok is 3e6 units a token; 15 is 15e6; 0.30 is 0.3e6.
  assertEquals(
    prices.costUnits("m", { inputTokens: 1_000, outputTokens: 200, cachedInputTokens: 50 }),
    1_000n * 3_000_000n + 200n * 15_000_000n + 50n * 300_000n,
  );
  assertEquals(prices.costUnits("m", { inputTokens: 0, outputTokens: 7 }), 7n * 15_000_000n);
  assertEquals(prices.costUnits("m", { inputTokens: 7, outputTokens: 0 }), 7n * 3_000_000n);
  assertEquals(prices.costUnits("unpriced", { inputTokens: 1, outputTokens: 1 }), undefined);
});

Deno.test("PriceTable: cached input costs the input price when it has none of its own", () => {
  const prices = new PriceTable({ m: { inputPerMTok: "2", outputPerMTok: "8" } });
  assertEquals(
    prices.costUnits("m", { inputTokens: 0, outputTokens: 0, cachedInputTokens: 10 }),
    10n * 2_000_000n,
  );
});

Deno.test("PriceTable.costUnits() drops what is left below one unit", () => {
  // One unit (1e-12 USD) per million tokens: 1.5 million tokens cost 1 unit, not 2.
  const prices = new PriceTable({ tiny: { inputPerMTok: "0.000000000001", outputPerMTok: "0" } });
  assertEquals(prices.costUnits("tiny", { inputTokens: 1_500_000, outputTokens: 0 }), 1n);
  assertEquals(prices.costUnits("tiny", { inputTokens: 999_999, outputTokens: 0 }), 0n);
});

Deno.test("PriceTable.costUnits() stays exact past the safe integers", () => {
  // 9.999999999999 USD/MTok over ~1e9 tokens: a sum near 1e22, past what a float holds exactly.
  const prices = new PriceTable({ m: { inputPerMTok: "9.999999999999", outputPerMTok: "0" } });
  assertEquals(
    prices.costUnits("m", { inputTokens: 999_999_937, outputTokens: 0 }),
    (999_999_937n * 9_999_999_999_999n) / 1_000_000n,
  );
  // A price past the safe integers in units (more than ~9007 USD/MTok).
  const dear = new PriceTable({ big: { inputPerMTok: "10000.000000000001", outputPerMTok: "1" } });
  assertEquals(
    dear.costUnits("big", { inputTokens: 3, outputTokens: 1_000_000 }),
    (3n * 10_000_000_000_000_001n) / 1_000_000n + UNITS_PER_USD,
  );
  // No token at that price: the other prices alone, exact.
  assertEquals(dear.costUnits("big", { inputTokens: 0, outputTokens: 7 }), 7n * 1_000_000n);
});

Deno.test("PriceTable.costUsd() rounds to six decimals, half up", () => {
  const prices = PriceTable.default();
  assertEquals(prices.costUsd("fake-model", { inputTokens: 10, outputTokens: 0 }), "0.000100");
  assertEquals(prices.costUsd("fake-model", { inputTokens: 0, outputTokens: 1 }), "0.000030");
  const tiny = new PriceTable({ t: { inputPerMTok: "0.5", outputPerMTok: "1.5" } });
  assertEquals(tiny.costUsd("t", { inputTokens: 1, outputTokens: 0 }), "0.000001", "0.0000005 up");
  assertEquals(tiny.costUsd("t", { inputTokens: 0, outputTokens: 1 }), "0.000002", "0.0000015 up");
  assertEquals(
    tiny.costUsd("t", { inputTokens: 2_000_000, outputTokens: 1_000_000 }),
    "2.500000",
  );
  assertEquals(tiny.costUsd("nope", { inputTokens: 1, outputTokens: 1 }), undefined);
});

Deno.test("PriceTable.with() adds or replaces one model in a new table", () => {
  const base = PriceTable.default();
  const more = base.with("big", { inputPerMTok: 3, outputPerMTok: 15 });
  assertEquals([base.has("big"), more.has("big"), more.has("fake-model")], [false, true, true]);
  assertEquals(
    more.costUsd("fake-model", { inputTokens: 10, outputTokens: 0 }),
    "0.000100",
    "the old prices come along",
  );
  const cheaper = more.with("fake-model", { inputPerMTok: "1", outputPerMTok: "1" });
  assertEquals(cheaper.costUsd("fake-model", { inputTokens: 10, outputTokens: 0 }), "0.000010");
  assertEquals(more.costUsd("fake-model", { inputTokens: 10, outputTokens: 0 }), "0.000100");
});

Deno.test("PriceTable refuses bad tables, names and usage, saying where", () => {
  assertThrows(
    () => new PriceTable(5 as never),
    TypeError,
    "new PriceTable(): the prices must be an object",
  );
  assertThrows(
    () => PriceTable.default().with(5 as never, { inputPerMTok: 1, outputPerMTok: 1 }),
    TypeError,
    "PriceTable.with(): the model name must be",
  );
  assertThrows(
    () => new PriceTable({ m: { outputPerMTok: "1" } as never }),
    TypeError,
    'the price of "m": option "inputPerMTok" is required',
  );
  assertThrows(
    () => new PriceTable({ m: { inputPerMTok: "1" } as never }),
    TypeError,
    'option "outputPerMTok" is required',
  );
  const prices = PriceTable.default();
  for (const key of ["inputTokens", "outputTokens", "cachedInputTokens"] as const) {
    const usage = { inputTokens: 1, outputTokens: 1, [key]: -1 };
    assertThrows(
      () => prices.costUnits("fake-model", usage),
      RangeError,
      `PriceTable.costUnits(): usage.${key} must be a safe integer`,
    );
    // Not a number at all (null included: only an absent cachedInputTokens is none).
    for (const bad of [null, "3", 1.5]) {
      assertThrows(
        () => prices.costUnits("fake-model", { inputTokens: 1, outputTokens: 1, [key]: bad }),
        typeof bad === "number" ? RangeError : TypeError,
        `PriceTable.costUnits(): usage.${key} must be a safe integer`,
      );
    }
  }
});

Deno.test("PriceTable checks the model and the usage of every method, priced or not", () => {
  const prices = PriceTable.default();
  type Cost = (model: string, usage: Usage) => unknown;
  for (const method of [prices.costUsd, prices.costUnits] as Cost[]) {
    const call = { call: (_: PriceTable, m: string, u: Usage) => method.call(prices, m, u) };
    assertThrows(
      () => call.call(prices, undefined as never, { inputTokens: 1, outputTokens: 1 }),
      TypeError,
      "the model name must be a string, got undefined",
    );
    assertThrows(
      () => call.call(prices, "fake-model", undefined as never),
      TypeError,
      "usage must be",
    );
    // An unpriced model still gets its usage checked: a NaN is a mistake either way.
    assertThrows(
      () => call.call(prices, "not-priced", { inputTokens: NaN, outputTokens: 0 }),
      RangeError,
      "usage.inputTokens must be a safe integer, 0 or more (a count of tokens), got NaN",
    );
  }
  assertThrows(
    () => prices.costUsd("fake-model", { inputTokens: 1e300, outputTokens: 0 }),
    RangeError,
    "got 1e+300",
  );
  assertThrows(() => prices.has(5 as never), TypeError, "PriceTable.has(): the model name");
  assertEquals(prices.costUsd("not-priced", { inputTokens: 1, outputTokens: 1 }), undefined);
});
