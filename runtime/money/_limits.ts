// The limits a Budget and a Quota share: checked and parsed once, when the
// meter is built, then compared with a tally before every model call (the
// run's for a Budget, a tenant's for a Quota).
import { formatUnits, limitOf } from "./_decimal.ts";
import { checkOptions, LIMITS } from "../_options.ts";

/** The limits as given: `BudgetOptions` and `QuotaOptions` alike. */
export interface LimitOptions {
  readonly maxCostUsd?: number | string;
  readonly maxCalls?: number;
  readonly maxTokens?: number;
}

/** The limits, parsed: the cost both in units (to compare) and as a 6-decimal string (to show). */
export interface Limits {
  readonly maxUnits?: bigint;
  readonly maxCostUsd?: string;
  readonly maxCalls?: number;
  readonly maxTokens?: number;
}

// Most meters are built with no limit at all (makeTestCtx's default budget):
// they share this one, in the same shape as any other.
const NO_LIMITS: Limits = Object.freeze({
  maxUnits: undefined,
  maxCostUsd: undefined,
  maxCalls: undefined,
  maxTokens: undefined,
});

/** Checks `options` as `where` takes them and parses the cost limit (once per distinct amount). */
export function parseLimits(where: string, options: LimitOptions): Limits {
  checkOptions(where, options, LIMITS);
  const { maxCostUsd, maxCalls, maxTokens } = options;
  if (maxCostUsd === undefined) {
    if (maxCalls === undefined && maxTokens === undefined) return NO_LIMITS;
    return { maxUnits: undefined, maxCostUsd: undefined, maxCalls, maxTokens };
  }
  // One shape whatever is set, so the check before every call stays monomorphic.
  const limit = limitOf(maxCostUsd, "maxCostUsd");
  return { maxUnits: limit.units, maxCostUsd: limit.text, maxCalls, maxTokens };
}

/**
 * The first limit a tally has reached (calls, then cost, then tokens) as the
 * limit's name, its value and what was used, ready for `BudgetExceeded`; or
 * undefined, allocating nothing, while every limit has room.
 */
export function reachedLimit(
  limits: Limits,
  calls: number,
  units: bigint,
  tokens: number,
): [limit: string, max: string, used: string] | undefined {
  if (limits.maxCalls !== undefined && calls >= limits.maxCalls) {
    return ["maxCalls", String(limits.maxCalls), `${calls} calls`];
  }
  if (limits.maxUnits !== undefined && units >= limits.maxUnits) {
    return ["maxCostUsd", limits.maxCostUsd!, `$${formatUnits(units)}`];
  }
  if (limits.maxTokens !== undefined && tokens >= limits.maxTokens) {
    return ["maxTokens", String(limits.maxTokens), `${tokens} tokens`];
  }
  return undefined;
}
