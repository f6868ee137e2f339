// Checking and charging ctx.allMeters: shared by meter() and the CLI
// cognitions, whose model calls never pass the invoker.
import type { Ctx } from "../../ports/context.ts";
import type { Usage } from "../../ports/usage.ts";
import { toUnits } from "./_decimal.ts";
import { tokenCount } from "../_options.ts";
import { UnpricedModel } from "../errors.ts";
import type { Meter } from "./meter.ts";
import type { PriceTable } from "./price_table.ts";

/**
 * What charging needs of a run: its meters and its price table. A
 * `RunContext` is one; money/ names only this much of it, so it stays out
 * of the agent core.
 */
export interface ChargingCtx extends Ctx {
  readonly allMeters: readonly Meter[];
  readonly services: { readonly prices: PriceTable };
}

const TOKEN_KEYS = ["inputTokens", "outputTokens", "cachedInputTokens"] as const;

/** Throws when a meter says the next call must not happen (`BudgetExceeded`). */
export function checkMeters(ctx: ChargingCtx): void {
  for (const m of ctx.allMeters) m.check(ctx);
}

/**
 * Charges every meter in `ctx.allMeters` with one call's usage and exact cost:
 * the provider's `costUsd` when reported, else the price table's. An unpriced
 * model fails rather than costing $0 when a meter limits cost.
 */
export function chargeMeters(
  ctx: ChargingCtx,
  model: string,
  usage: Usage,
  prices: PriceTable = ctx.services.prices,
): void {
  const meters = ctx.allMeters;
  if (meters.length === 0) return;
  let costUnits: bigint | undefined;
  if (usage.costUsd !== undefined) {
    for (const key of TOKEN_KEYS) tokenCount(`Cannot charge "${model}"`, usage, key);
    costUnits = toUnits(usage.costUsd, `the usage.costUsd "${model}" reported`);
  } else costUnits = prices.costUnits(model, usage);
  if (costUnits === undefined) {
    if (meters.some((m) => m.requiresPrice === true)) throw new UnpricedModel(model);
    costUnits = 0n;
  }
  const charge = { model, usage, costUnits };
  for (const m of meters) m.charge(charge, ctx);
}
