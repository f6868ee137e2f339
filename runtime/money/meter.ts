/**
 * Meters: what `meter()` checks before each model call and charges after it.
 *
 * @module
 */
import type { Ctx } from "../../ports/context.ts";
import type { Usage } from "../../ports/usage.ts";

/**
 * One charge: a model call's usage and its exact cost.
 *
 * @example
 * ```ts
 * import type { Charge } from "@agentkit/testing/runtime";
 * const c: Charge = { model: "fake-model", usage: { inputTokens: 10, outputTokens: 0 }, costUnits: 100_000_000n };
 * ```
 */
export interface Charge {
  /** The model that was called. */
  readonly model: string;
  /** What it consumed. */
  readonly usage: Usage;
  /** Its cost in 1e-12 USD units (exact). */
  readonly costUnits: bigint;
}

/**
 * Something that limits or counts model calls: a {@linkcode Budget}, a
 * per-tenant quota.
 *
 * @example A meter that counts calls
 * ```ts
 * import type { Charge, Meter } from "@agentkit/testing/runtime";
 * class Counter implements Meter {
 *   readonly name = "counter";
 *   n = 0;
 *   check(): void {}
 *   charge(_c: Charge): void { this.n++; }
 * }
 * ```
 */
export interface Meter {
  /** A name for messages. */
  readonly name: string;
  /** True when the meter limits cost, so an unpriced model must fail rather than charge $0. */
  readonly requiresPrice?: boolean;
  /** Throws (`BudgetExceeded`) when the next call must not happen. */
  check(ctx: Ctx): void;
  /** Records a finished (or billed-then-failed) call. */
  charge(charge: Charge, ctx: Ctx): void;
}
