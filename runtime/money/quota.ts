/**
 * Per-tenant quotas: a meter that keeps a separate account for every tenant.
 *
 * @module
 */
import type { Ctx } from "../../ports/context.ts";
import { Scope } from "../../ports/scope.ts";
import { describe } from "../_options.ts";
import { exactUnits } from "./_decimal.ts";
import { BudgetExceeded } from "../errors.ts";
import { chargedTokens, type Limits, parseLimits, reachedLimit } from "./_limits.ts";
import type { Charge, Meter } from "./meter.ts";

/**
 * Options for {@linkcode Quota}: limits that apply to each tenant on its own.
 * No limit is set unless given.
 *
 * @example
 * ```ts
 * import { Quota, type QuotaOptions } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const options: QuotaOptions = { maxCostUsd: "5", maxCalls: 1_000 };
 * assertEquals(new Quota(options).maxCostUsd, "5.000000");
 * ```
 */
export interface QuotaOptions {
  /**
   * The most each tenant may spend, in USD (`0.10` or `"0.10"`): a
   * non-negative decimal in whole micro-dollars, kept exactly (a finer one,
   * `"0.0000001"`, is refused).
   */
  readonly maxCostUsd?: number | string;
  /** The most model calls each tenant may make. */
  readonly maxCalls?: number;
  /** The most tokens (input + cached + output) each tenant may use. */
  readonly maxTokens?: number;
}

/**
 * What one tenant has used.
 *
 * @example
 * ```ts
 * import type { QuotaUsage } from "@agentkit/testing/runtime";
 * const u: QuotaUsage = { calls: 1, tokens: 10, spent: "0.000100" };
 * ```
 */
export interface QuotaUsage {
  /** Model calls charged. */
  readonly calls: number;
  /** Tokens charged. */
  readonly tokens: number;
  /** Cost charged, in USD: six decimals, more when the amount has them (never rounded). */
  readonly spent: string;
}

/**
 * A tenant reached its quota; the provider was not called. It is a
 * {@linkcode BudgetExceeded}, so code that handles an exhausted budget
 * handles an exhausted quota too, and it names the tenant.
 *
 * @example
 * ```ts
 * import { BudgetExceeded, QuotaExceeded } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { assert, assertMatch } from "@std/assert";
 *
 * const e = new QuotaExceeded(new Scope({ orgId: 7 }), "maxCalls", "2", "2 calls");
 * assert(e instanceof BudgetExceeded);
 * assertMatch(e.message, /tenant org7:dom0/);
 * ```
 */
export class QuotaExceeded extends BudgetExceeded {
  /** The tenant that is over its quota. */
  readonly scope: Scope;

  /**
   * The message names the tenant and the limit it reached.
   *
   * @param scope The tenant.
   * @param limit Which limit.
   * @param max The limit's value.
   * @param used What was used.
   */
  constructor(scope: Scope, limit: string, max: string, used: string) {
    super(limit, max, used, `Quota of tenant ${scope.key()}`);
    this.name = "QuotaExceeded";
    this.scope = scope;
  }
}

interface Account {
  calls: number;
  tokens: number;
  units: bigint;
}

const EMPTY: Readonly<Account> = Object.freeze({ calls: 0, tokens: 0, units: 0n });

/**
 * A per-tenant meter. Pass it through `meters` (`makeTestCtx({ meters: [quota] })`
 * or `new RunContext({ meters })`) and `meter()` checks and charges it next
 * to the run's budget. One `Quota` serves every tenant: each run is charged to
 * the account of its `ctx.scope`, the limits apply to each account on its
 * own, and a tenant over its quota gets `QuotaExceeded` before the provider is
 * called while other tenants carry on.
 *
 * @example One tenant runs out, the other does not
 * ```ts
 * import { Agent, QuotaExceeded, Quota, meter } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const quota = new Quota({ maxCalls: 1 });
 * const llm = new FakeLLM("ok");
 * const agent = new Agent("a", { model: "fake-model" });
 * const as = (orgId: number) =>
 *   makeTestCtx({ llm, scope: new Scope({ orgId }), meters: [quota], chatMiddleware: [meter()] });
 * await agent.run("go", as(7));
 * await assertRejects(() => agent.run("go", as(7)), QuotaExceeded, "tenant org7:dom0");
 * await agent.run("go", as(8));
 * assertEquals(llm.calls, 2);
 * assertEquals(quota.used(new Scope({ orgId: 7 })), { calls: 1, tokens: 10, spent: "0.000100" });
 * ```
 */
export class Quota implements Meter {
  /** Always `"quota"`. */
  readonly name: string = "quota";
  /** The per-tenant cost limit, as kept: six decimals (a finer one is refused). */
  readonly maxCostUsd?: string;
  /** The per-tenant call limit. */
  readonly maxCalls?: number;
  /** The per-tenant token limit. */
  readonly maxTokens?: number;
  readonly #limits: Limits;
  readonly #accounts = new Map<string, Account>();

  /**
   * Limits are parsed here, as `Budget`'s are, and apply to each tenant separately.
   *
   * @param options The per-tenant limits.
   * @throws {RangeError} For a negative or non-integer limit.
   */
  constructor(options: QuotaOptions = {}) {
    const limits = this.#limits = parseLimits("new Quota()", options);
    this.maxCostUsd = limits.maxCostUsd;
    this.maxCalls = limits.maxCalls;
    this.maxTokens = limits.maxTokens;
  }

  /** True when a cost limit is set: an unpriced model then fails instead of costing $0. */
  get requiresPrice(): boolean {
    return this.#limits.maxUnits !== undefined;
  }

  /**
   * What a tenant has used so far.
   * @param scope The tenant: a `Scope`.
   * @returns Its calls, tokens and spend (zeros for a tenant never charged).
   * @throws {TypeError} When `scope` is not a `Scope`.
   */
  used(scope: Scope): QuotaUsage {
    if (!(scope instanceof Scope)) {
      throw new TypeError(`Quota.used(): the scope must be a Scope, got ${describe(scope)}`);
    }
    const a = this.#accounts.get(scope.key());
    return { calls: a?.calls ?? 0, tokens: a?.tokens ?? 0, spent: exactUnits(a?.units ?? 0n) };
  }

  /**
   * Throws `QuotaExceeded` when the run's tenant has reached a limit.
   * @param ctx The run (a context with a `Scope`); its scope picks the account.
   * @throws {QuotaExceeded} When the next call must not happen.
   * @throws {TypeError} When `ctx` has no `Scope`.
   */
  check(ctx: Ctx): void {
    const a = this.#accounts.get(scopeOf("Quota.check()", ctx).key()) ?? EMPTY;
    const reached = reachedLimit(this.#limits, a.calls, a.units, a.tokens);
    if (reached) throw new QuotaExceeded(ctx.scope, ...reached);
  }

  /**
   * Charges one model call to the run's tenant.
   * @param charge The call's usage (token counts: safe integers, 0 or more)
   * and cost (`costUnits`: a bigint of 1e-12 USD, 0n or more).
   * @param ctx The run (a context with a `Scope`); its scope picks the account.
   * @throws {TypeError} For a charge, usage or cost of the wrong type, or a `ctx` without a `Scope`.
   * @throws {RangeError} For a NaN, negative or fractional count, or a negative cost.
   */
  charge(charge: Charge, ctx: Ctx): void {
    const key = scopeOf("Quota.charge()", ctx).key();
    const tokens = chargedTokens("Quota.charge()", charge);
    let a = this.#accounts.get(key);
    if (!a) this.#accounts.set(key, a = { calls: 0, tokens: 0, units: 0n });
    a.calls++;
    a.tokens += tokens;
    a.units += charge.costUnits;
  }
}

function scopeOf(where: string, ctx: Ctx): Scope {
  const scope = ctx?.scope;
  if (scope instanceof Scope) return scope;
  throw new TypeError(
    `${where}: the ctx must be a run context with a Scope (its tenant), got ${describe(ctx)}`,
  );
}
