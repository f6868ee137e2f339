/**
 * The run budget: cost, calls and tokens, with exact decimal arithmetic.
 *
 * @module
 */
import { formatUnits, toUnits } from "./_decimal.ts";
import { BudgetExceeded } from "../errors.ts";
import { type Limits, parseLimits, reachedLimit } from "./_limits.ts";
import type { Charge, Meter } from "./meter.ts";

/** Options for {@linkcode Budget}. No limit is set unless given. */
export interface BudgetOptions {
  /** The most the run may cost, in USD (`0.10` or `"0.10"`). */
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
  /** The cost limit, as given. */
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
   * What has been spent, as a fixed 6-decimal USD string (`"0.000100"`).
   * @returns The spent amount.
   */
  spent(): string {
    return formatUnits(this.#spentUnits);
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
   * @param usd The amount in USD.
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
   * @param charge The call's usage and cost.
   */
  charge(charge: Charge): void {
    this.#calls++;
    const u = charge.usage;
    this.#tokens += u.inputTokens + u.outputTokens + (u.cachedInputTokens ?? 0);
    this.#spentUnits += charge.costUnits;
  }
}
