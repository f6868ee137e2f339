import { assert, assertEquals, assertThrows } from "@std/assert";
import fc from "fast-check";
import {
  exactUnits,
  formatUnits,
  limitOf,
  toUnits,
  UNITS_PER_USD,
} from "../../../runtime/money/_decimal.ts";

Deno.test("toUnits() reads plain decimals, signs, bare fractions and padding", () => {
  assertEquals(UNITS_PER_USD, 1_000_000_000_000n);
  assertEquals(toUnits("0.10"), 100_000_000_000n);
  assertEquals(toUnits(0.1), 100_000_000_000n);
  assertEquals(toUnits("3"), 3n * UNITS_PER_USD);
  assertEquals(toUnits(".5"), UNITS_PER_USD / 2n);
  assertEquals(toUnits("5."), 5n * UNITS_PER_USD);
  assertEquals(toUnits("+1.5"), 1_500_000_000_000n);
  assertEquals(toUnits("0"), 0n);
});

Deno.test("toUnits() refuses negative amounts, stray whitespace and more than 12 decimals", () => {
  for (const bad of ["-0.5", -2, "-.000000000001", "  0.25\n", " 1", "0.0000000000019", 1e-13]) {
    assertThrows(() => toUnits(bad), RangeError, undefined, JSON.stringify(bad));
  }
  assertThrows(
    () => toUnits("-0.5", "the refund"),
    RangeError,
    'the refund "-0.5": it is negative',
  );
  assertThrows(() => toUnits("0.0000000000019"), RangeError, "more than 12 decimals");
});

Deno.test("toUnits() reads a number as it prints, not as the binary float it is", () => {
  // 123456789.123 is stored as 123456789.12299999594...; the amount meant is the printed one.
  assertEquals(toUnits(123456789.123), 123_456_789_123_000_000_000n);
  assertEquals(toUnits(0.3), 300_000_000_000n);
});

Deno.test("toUnits() reads numbers in exponent notation exactly, down to one unit", () => {
  assertEquals(toUnits(1e-7), 100_000n);
  assertEquals(toUnits(1e-11), 10n);
  assertEquals(toUnits(1.5e-12), 1n);
  assertEquals(toUnits(2.5e-7), 250_000n);
});

Deno.test("toUnits() drops a float's binary noise past the twelfth decimal, never a string's digits", () => {
  assertEquals(toUnits(0.1 + 0.2), 300_000_000_000n);
  assertEquals(toUnits("0.123456789012"), 123_456_789_012n);
  assertThrows(() => toUnits("0.1234567890129999"), RangeError, "more than 12 decimals");
});

Deno.test("toUnits() rejects text that is not wholly a decimal number", () => {
  for (
    const bad of ["abc0.10", "0.10abc", "", ".", "-", "+.", "1.2.3", "1e-7", "0x10", "$1", "1 000"]
  ) {
    assertThrows(() => toUnits(bad), TypeError, undefined, JSON.stringify(bad));
  }
  for (const bad of [NaN, Infinity, -Infinity]) {
    assertThrows(() => toUnits(bad), RangeError, undefined, String(bad));
  }
});

Deno.test("toUnits() names the amount it could not read", () => {
  const e = assertThrows(() => toUnits("ten", "maxCostUsd"), TypeError);
  assertEquals(e.message.includes("maxCostUsd") && e.message.includes('"ten"'), true);
  const plain = assertThrows(() => toUnits("ten"), TypeError);
  assertEquals(plain.message.includes("amount"), true);
});

Deno.test("formatUnits() shows six decimals by default, rounding half up away from zero", () => {
  assertEquals(formatUnits(0n), "0.000000");
  assertEquals(formatUnits(100_000_000n), "0.000100");
  assertEquals(formatUnits(12n * UNITS_PER_USD + 345_678_000_000n), "12.345678");
  assertEquals(formatUnits(500_000n), "0.000001", "half a micro-dollar rounds up");
  assertEquals(formatUnits(499_999n), "0.000000");
  assertEquals(formatUnits(-500_000n), "-0.000001", "the magnitude rounds, then the sign returns");
  assertEquals(formatUnits(-100_000_000n), "-0.000100");
  assertEquals(formatUnits(999_999_500_000n), "1.000000", "rounding carries into the whole part");
});

Deno.test("formatUnits() takes the number of decimals, zero included", () => {
  assertEquals(formatUnits(1_234_567_890_123n, 12), "1.234567890123");
  assertEquals(formatUnits(1_234_567_890_123n, 2), "1.23");
  assertEquals(formatUnits(5n, 12), "0.000000000005");
  assertEquals(formatUnits(1_500_000_000_000n, 0), "2");
  assertEquals(formatUnits(1_499_999_999_999n, 0), "1");
  assertEquals(formatUnits(-2_500_000_000_000n, 0), "-3");
  assertEquals(formatUnits(0n, 0), "0");
});

Deno.test("toUnits() at its edges: one unit, the largest amount, a bare sign, a negative that is not a number", () => {
  assertEquals(toUnits(1e-12), 1n);
  assertEquals(toUnits(999_999_999_999_999), 999_999_999_999_999n * UNITS_PER_USD);
  assertThrows(() => toUnits(1e15), RangeError);
  assertThrows(() => toUnits("-1"), RangeError);
  for (const bad of ["+", "-1abc", "-1.2.3"]) {
    assertThrows(() => toUnits(bad), TypeError, undefined, bad);
  }
});

// Amounts are parsed once and remembered; a fresh amount per run of a test
// takes the parsing path however often the test module runs in one process.
let fresh = 0;

Deno.test("toUnits() parses an amount it has not seen before, string or number", () => {
  const n = 1_000_000 + ++fresh;
  assertEquals(toUnits(`${n}.25`), BigInt(n) * UNITS_PER_USD + UNITS_PER_USD / 4n);
  assertEquals(toUnits(`+${n}.5`), BigInt(n) * UNITS_PER_USD + UNITS_PER_USD / 2n);
  assertEquals(toUnits(n + 0.75), BigInt(n) * UNITS_PER_USD + (UNITS_PER_USD * 3n) / 4n);
  assertEquals(toUnits(`${n}.25`), BigInt(n) * UNITS_PER_USD + UNITS_PER_USD / 4n, "remembered");
  // A number that prints in exponent notation: 1.xyz e-7, exact at the ledger's scale.
  const k = 1_000 + (fresh % 9_000);
  assertEquals(String(k * 1e-10).includes("e-"), true);
  assertEquals(toUnits(k * 1e-10), BigInt(k) * 100n);
  assertEquals(toUnits(k * 1e-12), BigInt(k), "digits past the tenth decimal kept");
});

Deno.test("limitOf() keeps a limit's units and its 6-decimal text", () => {
  const n = 2_000_000 + ++fresh;
  const first = limitOf(`${n}.1`, "maxCostUsd");
  assertEquals(first, {
    units: BigInt(n) * UNITS_PER_USD + UNITS_PER_USD / 10n,
    text: `${n}.100000`,
  });
  assertEquals(limitOf(`${n}.1`, "maxCostUsd"), first);
});

Deno.test("toUnits() says what is wrong with an amount, naming it", () => {
  const refused: [unknown, string][] = [
    [Infinity, "is not a finite number"],
    [-1, "is negative"],
    [1e15, "is too large for an amount in USD"],
    [1e-13, "is below the ledger's precision of 12 decimals"],
    ["", 'is not a decimal number (write "0.10")'],
    [" 1", "has stray whitespace"],
    ["0.1234567890123", "has more than 12 decimals"],
  ];
  for (const [value, text] of refused) {
    const e = assertThrows(() => toUnits(value as number), Error, text, String(value));
    assertEquals(e.message.startsWith("Cannot use amount "), true, e.message);
  }
  assertThrows(
    () => toUnits(null as never, "the price"),
    TypeError,
    'Cannot use the price null: pass a number or a decimal string like "0.10"',
  );
  assertEquals(toUnits(0), 0n);
});

Deno.test("exactUnits() shows six decimals, or every further one the amount has, never rounding", () => {
  assertEquals(exactUnits(0n), "0.000000");
  assertEquals(exactUnits(100_000_000n), "0.000100");
  assertEquals(exactUnits(100_000n), "0.0000001");
  assertEquals(exactUnits(1n), "0.000000000001");
  assertEquals(exactUnits(2n * UNITS_PER_USD + 100_001n), "2.000000100001");
  assertEquals(exactUnits(499_999n), "0.000000499999", "a sub-micro amount is not zero");
  assertEquals(exactUnits(-100_000n), "-0.0000001");
  assertEquals(exactUnits(-3n * UNITS_PER_USD), "-3.000000");
  assertEquals(limitOf("0.0000001", "maxCostUsd").text, "0.0000001");
  assertEquals(limitOf("0.0000001", "maxCostUsd").text, "0.0000001", "and once cached");
});

// Decimals as people write them: a whole part, and up to `max` decimals.
const decimal = (max: number) =>
  fc.tuple(
    fc.bigInt({ min: 0n, max: 999_999_999n }),
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 0, maxLength: max }),
  ).map(([whole, frac]) => (frac ? `${whole}.${frac}` : `${whole}`));

Deno.test("toUnits(): every decimal with at most 12 decimals is kept exactly (property)", () => {
  fc.assert(
    fc.property(decimal(12), (text) => {
      const units = toUnits(text);
      const [whole, frac = ""] = text.split(".");
      assertEquals(units, BigInt(whole) * UNITS_PER_USD + BigInt(frac.padEnd(12, "0")));
      // Shown back, it reads as the same amount: no digit is lost.
      assertEquals(toUnits(exactUnits(units)), units);
      const shown = exactUnits(units).split(".")[1];
      assertEquals(shown.replace(/0+$/, ""), frac.replace(/0+$/, ""));
    }),
    { numRuns: 300 },
  );
});

Deno.test("toUnits(): a decimal with a 13th digit is refused naming the precision (property)", () => {
  fc.assert(
    fc.property(decimal(12), fc.integer({ min: 1, max: 9 }), (text, digit) => {
      const base = text.includes(".") ? text : `${text}.`;
      const long = `${base}${"0".repeat(12 - base.split(".")[1].length)}${digit}`;
      assertThrows(() => toUnits(long, "maxCostUsd"), RangeError, "more than 12 decimals");
    }),
    { numRuns: 300 },
  );
});

Deno.test("toUnits(): text that is not a plain decimal is never read as one (property)", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 16 }), (text) => {
      let units: bigint | undefined;
      try {
        units = toUnits(text);
      } catch (e) {
        assert(e instanceof TypeError || e instanceof RangeError, String(e));
        assert((e as Error).message.includes(JSON.stringify(text)), (e as Error).message);
        return;
      }
      assert(/^\+?\d*(\.\d{0,12})?$/.test(text), `accepted ${JSON.stringify(text)}`);
      assert(units >= 0n);
    }),
    { numRuns: 500 },
  );
});
