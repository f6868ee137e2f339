// Charging a CLI turn: the same arithmetic meter() uses (a Charge of the
// provider's reported cost, else the price table's, in exact units), applied
// directly, because a CLI cognition's model calls never pass the invoker.
import type { Usage } from "../../ports/usage.ts";
import { toUnits } from "../_decimal.ts";
import type { RunContext } from "../context.ts";
import { UnpricedModel } from "../middleware/meter.ts";

/** Throws when a meter says the next turn must not happen (`BudgetExceeded`). */
export function checkMeters(ctx: RunContext): void {
  for (const m of ctx.allMeters) m.check(ctx);
}

/** Charges every meter in `ctx.allMeters` with one turn's usage. */
export function chargeMeters(ctx: RunContext, model: string, usage: Usage): void {
  const meters = ctx.allMeters;
  if (meters.length === 0) return;
  let costUnits = usage.costUsd !== undefined
    ? toUnits(usage.costUsd, "the CLI's total_cost_usd")
    : ctx.services.prices.costUnits(model, usage);
  if (costUnits === undefined) {
    if (meters.some((m) => m.requiresPrice === true)) throw new UnpricedModel(model);
    costUnits = 0n;
  }
  const charge = { model, usage, costUnits };
  for (const m of meters) m.charge(charge, ctx);
}
