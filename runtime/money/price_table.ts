/**
 * Model prices, per million tokens, kept as exact decimals.
 *
 * @module
 */
import type { Usage } from "../../ports/usage.ts";
import { toUnits } from "./_decimal.ts";
import { checkOptions, checkValue, describe, is, type Rule, tokenCount } from "../_options.ts";

/**
 * The price of one model in USD per million tokens.
 *
 * @example
 * ```ts
 * import type { ModelPrice } from "@agentkit/testing/runtime";
 * const p: ModelPrice = { inputPerMTok: "3", outputPerMTok: "15", cachedInputPerMTok: "0.30" };
 * ```
 */
export interface ModelPrice {
  /** USD per million input tokens. */
  readonly inputPerMTok: number | string;
  /** USD per million output tokens. */
  readonly outputPerMTok: number | string;
  /**
   * USD per million cached input tokens.
   * @default {the input price}
   */
  readonly cachedInputPerMTok?: number | string;
}

interface UnitPrice {
  readonly input: bigint;
  readonly output: bigint;
  readonly cached: bigint;
  /** The same prices as numbers, for the fast path (rounded past the safe integers). */
  readonly small: readonly [number, number, number];
}

const MILLION = 1_000_000n;

// The built-in table, shared: see PriceTable.default().
let DEFAULT: PriceTable | undefined;

/**
 * Prices by model name. `PriceTable.default()` knows `fake-model` ($10 per
 * million input tokens, $30 per million output), so a default `FakeLLM` call
 * of 10 input tokens costs exactly `0.000100`.
 *
 * @example
 * ```ts
 * import { PriceTable } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const prices = PriceTable.default().with("big-model", { inputPerMTok: "3", outputPerMTok: "15" });
 * assertEquals(prices.costUsd("fake-model", { inputTokens: 10, outputTokens: 0 }), "0.000100");
 * assertEquals(prices.costUsd("big-model", { inputTokens: 1_000_000, outputTokens: 0 }), "3.000000");
 * assertEquals(prices.has("unknown"), false);
 * ```
 */
export class PriceTable {
  readonly #prices: Map<string, UnitPrice>;

  /**
   * Prices are parsed to exact decimals here; a malformed price throws naming its model.
   *
   * @param prices Model name to price.
   */
  constructor(prices: Readonly<Record<string, ModelPrice>> = {}) {
    checkValue("new PriceTable()", "the prices", prices, is.object);
    this.#prices = new Map();
    for (const [model, p] of Object.entries(prices)) {
      this.#prices.set(model, toUnitPrice(model, p));
    }
  }

  /**
   * The built-in table: `fake-model` only. A table never changes (`with`
   * returns a new one), so every caller shares one, built on first use: a
   * context does not parse prices to be built.
   * @returns The shared built-in table.
   */
  static default(): PriceTable {
    return DEFAULT ??= new PriceTable({
      "fake-model": { inputPerMTok: "10", outputPerMTok: "30", cachedInputPerMTok: "1" },
    });
  }

  /**
   * A copy of this table with one more (or a replaced) model.
   * @param model The model name.
   * @param price Its price.
   * @returns A new table.
   */
  with(model: string, price: ModelPrice): PriceTable {
    checkValue("PriceTable.with()", "the model name", model, is.text);
    const next = new PriceTable();
    for (const [k, v] of this.#prices) next.#prices.set(k, v);
    next.#prices.set(model, toUnitPrice(model, price));
    return next;
  }

  /**
   * Whether the table prices `model`.
   * @param model The model name: a string.
   * @returns True when priced.
   * @throws {TypeError} When `model` is not a string.
   */
  has(model: string): boolean {
    if (typeof model !== "string") modelProblem("PriceTable.has()", model);
    return this.#prices.has(model);
  }

  /**
   * The cost of `usage` on `model` in 1e-12 USD units, or `undefined` when the
   * model is not priced. Token counts are safe integers, 0 or more, checked
   * whether or not the model is priced.
   * @param model The model name: a string.
   * @param usage What was consumed.
   * @returns The cost in scaled units.
   * @throws {TypeError} When `model` is not a string or `usage` not a usage object.
   * @throws {RangeError} For a token count that is NaN, negative, fractional or unsafe.
   */
  costUnits(model: string, usage: Usage): bigint | undefined {
    return this.#cost("PriceTable.costUnits()", model, usage);
  }

  /**
   * The cost of `usage` on `model` as a 6-decimal USD string (a price quote:
   * rounded half up; `costUnits` is exact). Arguments as for `costUnits`.
   * @param model The model name: a string.
   * @param usage What was consumed.
   * @returns `"0.000100"`, or `undefined` when the model is not priced.
   * @throws {TypeError} When `model` is not a string or `usage` not a usage object.
   * @throws {RangeError} For a token count that is NaN, negative, fractional or unsafe.
   */
  costUsd(model: string, usage: Usage): string | undefined {
    const u = this.#cost("PriceTable.costUsd()", model, usage);
    if (u === undefined) return undefined;
    const s = (u + 500_000n) / 1_000_000n;
    return `${s / 1_000_000n}.${(s % 1_000_000n).toString().padStart(6, "0")}`;
  }

  #cost(where: string, model: string, usage: Usage): bigint | undefined {
    // Read directly: every valid model and usage is priced here, and
    // anything else goes to refuseCounts(), which names the mistake. The checks
    // and their messages stay off this path, so it stays small enough for
    // V8 to inline into the meter that charges every call.
    if (typeof model === "string") {
      const i = usage?.inputTokens;
      const o = usage?.outputTokens;
      // Absent is none; null is a mistake tokenCount() names.
      const c = usage?.cachedInputTokens;
      if (isCount(i) && isCount(o) && (c === undefined || isCount(c))) {
        return this.#costOf(model, i, o, c === undefined ? 0 : c);
      }
    }
    return refuseCounts(where, model, usage);
  }

  #costOf(model: string, i: number, o: number, c: number): bigint | undefined {
    const p = this.#prices.get(model);
    if (!p) return undefined;
    // Exact in numbers while the sum is a safe integer (every call of a test,
    // and most real ones): the terms are non-negative, so each product is
    // below it and exact too, and a price rounded as a number (past 2^53
    // units) makes any term with a token too large. Bigints past that.
    const small = p.small;
    const sum = i * small[0] + o * small[1] + c * small[2];
    if (Number.isSafeInteger(sum)) return BigInt((sum - (sum % 1_000_000)) / 1_000_000);
    return (BigInt(i) * p.input + BigInt(o) * p.output + BigInt(c) * p.cached) / MILLION;
  }
}

// Throws the error naming what is wrong with a model name or usage that
// #cost() did not take: the first of the model, then each count in order.
function refuseCounts(where: string, model: unknown, usage: Usage): never {
  if (typeof model !== "string") modelProblem(where, model);
  tokenCount(where, usage, "inputTokens");
  tokenCount(where, usage, "outputTokens");
  tokenCount(where, usage, "cachedInputTokens");
  // Not reached while #cost() takes every usage tokenCount() passes; a
  // valid usage refused there fails loudly here rather than costing nothing.
  throw new TypeError(`${where}: usage ${describe(usage)} was refused though every count is valid`);
}

function modelProblem(where: string, model: unknown): never {
  throw new TypeError(`${where}: the model name must be a string, got ${describe(model)}`);
}

function isCount(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= 0;
}

const PRICE: Readonly<Record<string, Rule>> = {
  inputPerMTok: is.money,
  outputPerMTok: is.money,
  cachedInputPerMTok: is.money,
};

function toUnitPrice(model: string, p: ModelPrice): UnitPrice {
  checkOptions(`PriceTable: the price of "${model}"`, p, PRICE, {
    required: ["inputPerMTok", "outputPerMTok"],
  });
  // The check above refuses every amount toUnits() would, naming the model.
  const input = toUnits(p.inputPerMTok);
  const output = toUnits(p.outputPerMTok);
  const cached = p.cachedInputPerMTok === undefined ? input : toUnits(p.cachedInputPerMTok);
  return { input, output, cached, small: [Number(input), Number(output), Number(cached)] };
}
