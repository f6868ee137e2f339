// The limits a Budget and a Quota share: checked and parsed once, when the
// meter is built, then compared with a tally before every model call (the
// run's for a Budget, a tenant's for a Quota).
import { exactUnits, limitOf } from "./_decimal.ts";
import { checkOptions, describe, LIMITS, tokenCount } from "../_options.ts";
import type { Charge } from "./meter.ts";

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

// One micro-dollar in ledger units (1e-12 USD).
const MICRO_UNITS = 1_000_000n;

function roundedUp(units: bigint): string {
  return exactUnits((units + MICRO_UNITS - 1n) / MICRO_UNITS * MICRO_UNITS);
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
  // A limit is a sum a person sets: the ledger keeps picodollars for what
  // per-token prices charge, but a limit finer than a micro-dollar is a
  // slipped decimal point, not a budget.
  if (limit.units % MICRO_UNITS !== 0n) {
    throw new RangeError(
      `${where}: maxCostUsd ${
        describe(maxCostUsd)
      } is finer than a micro-dollar; a cost limit is kept to 6 decimals ($0.000001): round it, e.g. "${
        roundedUp(limit.units)
      }"`,
    );
  }
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
  // Which limit, and the words for it, are found apart: a budget is checked
  // before every model call, and a small check is inlined into the meter
  // (issue 39).
  if (
    (limits.maxCalls !== undefined && calls >= limits.maxCalls) ||
    (limits.maxUnits !== undefined && units >= limits.maxUnits) ||
    (limits.maxTokens !== undefined && tokens >= limits.maxTokens)
  ) return limitReached(limits, calls, units, tokens);
  return undefined;
}

function limitReached(
  limits: Limits,
  calls: number,
  units: bigint,
  tokens: number,
): [limit: string, max: string, used: string] | undefined {
  if (limits.maxCalls !== undefined && calls >= limits.maxCalls) {
    return ["maxCalls", String(limits.maxCalls), `${calls} calls`];
  }
  if (limits.maxUnits !== undefined && units >= limits.maxUnits) {
    return ["maxCostUsd", limits.maxCostUsd!, `$${exactUnits(units)}`];
  }
  if (limits.maxTokens !== undefined && tokens >= limits.maxTokens) {
    return ["maxTokens", String(limits.maxTokens), `${tokens} tokens`];
  }
  return undefined;
}

/**
 * The tokens a charge adds, checked with its cost where a meter is charged:
 * token counts are safe integers, 0 or more, and the cost a bigint of units,
 * 0 or more, so a NaN count or a cost given as a number fails naming the
 * field instead of poisoning the tally (NaN tokens for ever after) or failing
 * as "Cannot mix BigInt and other types".
 */
export function chargedTokens(where: string, charge: Charge): number {
  // A well-formed charge, read by name, is added here; anything else goes
  // to refuseCharge(), which names the mistake. (tokenCount() reads a key it is
  // given, a load V8 cannot specialise once it has seen three keys, and the
  // messages are code the hot path does not carry: both cost more than the
  // rest of a charge.)
  if (charge !== null && typeof charge === "object") {
    const cost = charge.costUnits;
    const u = charge.usage;
    if (
      typeof cost === "bigint" && cost >= 0n && u !== null && typeof u === "object" &&
      !Array.isArray(u)
    ) {
      const i = u.inputTokens;
      const o = u.outputTokens;
      const c = u.cachedInputTokens;
      if (isCount(i) && isCount(o) && (c === undefined || isCount(c))) return i + o + (c ?? 0);
    }
  }
  return refuseCharge(where, charge);
}

// Throws the error naming what is wrong with a charge chargedTokens() did
// not take: its shape, then its cost, then each token count in order.
function refuseCharge(where: string, charge: Charge): never {
  if (charge === null || typeof charge !== "object") {
    throw new TypeError(
      `${where}: the charge must be an object { model, usage, costUnits }, got ${describe(charge)}`,
    );
  }
  const cost = charge.costUnits;
  if (typeof cost !== "bigint" || cost < 0n) {
    const text = `${where}: costUnits must be a bigint of 1e-12 USD units, 0n or more, got ${
      typeof cost === "bigint" ? `${cost}n` : describe(cost)
    }`;
    throw typeof cost === "bigint" ? new RangeError(text) : new TypeError(text);
  }
  const u = charge.usage;
  tokenCount(where, u, "inputTokens");
  tokenCount(where, u, "outputTokens");
  tokenCount(where, u, "cachedInputTokens");
  // Not reached while chargedTokens() takes every charge these checks pass;
  // a valid charge refused there fails loudly here rather than counting 0.
  throw new TypeError(`${where}: the charge ${describe(charge)} was refused though it is valid`);
}

// What tokenCount() accepts: a safe integer, 0 or more.
function isCount(n: unknown): n is number {
  return Number.isSafeInteger(n) && (n as number) >= 0;
}
