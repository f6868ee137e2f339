/**
 * The run budget: cost, calls and tokens, with exact decimal arithmetic.
 *
 * @module
 */
import { exactUnits, toUnits } from "./_decimal.ts";
import { BudgetExceeded } from "../errors.ts";
import { chargedTokens, type Limits, parseLimits, reachedLimit } from "./_limits.ts";
import type { Charge, Meter } from "./meter.ts";

/** Options for {@linkcode Budget}. No limit is set unless given. */
export interface BudgetOptions {
  /**
   * The most the run may cost, in USD (`0.10` or `"0.10"`): a non-negative
   * decimal in whole micro-dollars (at most 6 decimals that are not 0), kept
   * exactly; `"0.0000001"` is refused with a RangeError naming the rounded limit.
   */
  readonly maxCostUsd?: number | string;
  /** The most model calls the run may make. */
  readonly maxCalls?: number;
  /** The most tokens (input + cached + output) the run may use. */
  readonly maxTokens?: number;
}

/**
 * A run budget. `meter()` checks it before each model call (throwing
 * `BudgetExceeded` before the provider is called) and charges it after.
 *
 * @example Exact sums
 * ```ts
 * import { Budget } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const budget = new Budget({ maxCostUsd: "0.10" });
 * budget.add("0.0001");
 * budget.add(0.0002);
 * assertEquals(budget.spent(), "0.000300");
 * ```
 */
export class Budget implements Meter {
  /** Always `"budget"`. */
  readonly name: string = "budget";
  /**
   * The cost limit, as kept: six decimals (`"0.100000"`). A limit finer than
   * a micro-dollar (`"0.0000001"`) is refused; spends are kept to 12 decimals.
   */
  readonly maxCostUsd?: string;
  /** The call limit. */
  readonly maxCalls?: number;
  /** The token limit. */
  readonly maxTokens?: number;
  readonly #limits: Limits;
  #spentUnits = 0n;
  #calls = 0;
  #tokens = 0;

  /**
   * Limits are parsed here: an unknown key or a malformed amount throws, never means no limit.
   *
   * @param options The limits.
   */
  constructor(options: BudgetOptions = {}) {
    const limits = this.#limits = parseLimits("new Budget()", options);
    this.maxCostUsd = limits.maxCostUsd;
    this.maxCalls = limits.maxCalls;
    this.maxTokens = limits.maxTokens;
  }

  /**
   * What has been spent, in USD: six decimals (`"0.000100"`), more when the
   * amount has them (`"0.0000001"`), never rounded.
   * @returns The spent amount.
   */
  spent(): string {
    return exactUnits(this.#spentUnits);
  }

  /** True when a cost limit is set: an unpriced model then fails instead of costing $0. */
  get requiresPrice(): boolean {
    return this.#limits.maxUnits !== undefined;
  }

  /** How many model calls were charged. */
  get calls(): number {
    return this.#calls;
  }

  /** How many tokens were charged. */
  get tokens(): number {
    return this.#tokens;
  }

  /**
   * Adds an amount directly, without a model call (for costs the runtime
   * does not see, or to pre-load a budget in a test).
   * @param usd The amount in USD: a non-negative decimal with at most 12 decimals.
   * @throws {TypeError} For an amount that is not a number or a decimal string.
   * @throws {RangeError} For a negative, non-finite or too precise amount.
   */
  add(usd: number | string): void {
    this.#spentUnits += toUnits(usd, "the amount");
  }

  /**
   * Throws `BudgetExceeded` when any limit is already reached.
   * @throws {BudgetExceeded} When the next call must not happen.
   */
  check(): void {
    const reached = reachedLimit(this.#limits, this.#calls, this.#spentUnits, this.#tokens);
    if (reached) throw new BudgetExceeded(...reached);
  }

  /**
   * Records one model call.
   * @param charge The call's usage (token counts: safe integers, 0 or more)
   * and cost (`costUnits`: a bigint of 1e-12 USD, 0n or more).
   * @throws {TypeError} For a charge, usage or cost of the wrong type.
   * @throws {RangeError} For a NaN, negative or fractional count, or a negative cost.
   */
  charge(charge: Charge): void {
    const tokens = chargedTokens("Budget.charge()", charge);
    this.#calls++;
    this.#tokens += tokens;
    this.#spentUnits += charge.costUnits;
  }
}
