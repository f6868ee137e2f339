/**
 * Charging meters from model usage.
 *
 * @module
 */
import { ProviderError } from "../../ports/provider_errors.ts";
import type { Usage } from "../../ports/usage.ts";
import { chargeMeters, checkMeters } from "../money/_charge.ts";
import type { RunContext } from "../context.ts";
import type { PriceTable } from "../money/price_table.ts";
import type { ChatMiddleware } from "./types.ts";
import { streamOf, type StreamStage, type Tap, tapped, withStage } from "./_stream_stage.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { checkOptions, is, type Rule } from "../_options.ts";
import { chatOf, type ChatStage } from "./_chat_stage.ts";
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";

const METER_OPTIONS: Readonly<Record<string, Rule>> = {
  prices: is.port("a PriceTable", ["costUnits"]),
};

// What meter() watches on a streamed call: it charges once, for the first
// event that reports usage, else for the usage a thrown ProviderError
// carries. One object per call, its methods on the class.
class MeterTap implements Tap {
  #charged = false;
  readonly #ctx: RunContext;
  readonly #model: string;
  readonly #prices: PriceTable | undefined;

  constructor(ctx: RunContext, model: string, prices: PriceTable | undefined) {
    this.#ctx = ctx;
    this.#model = model;
    this.#prices = prices;
  }

  event(event: StreamEvent): void {
    if (this.#charged) return;
    if (event.type === "message_end" || (event.type === "error" && event.usage)) {
      this.#charge(event.usage!);
    }
  }

  fail(error: unknown): void {
    if (!this.#charged && error instanceof ProviderError && error.usage) this.#charge(error.usage);
  }

  #charge(usage: Usage): void {
    this.#charged = true;
    chargeMeters(this.#ctx, this.#model, usage, this.#prices);
  }
}

/** Options for {@linkcode meter}. */
export interface MeterOptions {
  /**
   * Prices for models whose provider reports no cost.
   * @default {ctx.services.prices}
   */
  readonly prices?: PriceTable;
}

/**
 * Checks every meter in `ctx.allMeters` before each model call (a limit
 * already reached throws `BudgetExceeded` before the provider is called) and
 * charges each with the call's usage and exact cost afterwards, including
 * usage reported on a failed call or stream. The cost is the provider's
 * `usage.costUsd` when present, else the price table's.
 *
 * @param options The price table.
 * @returns The middleware.
 *
 * @example A metered run
 * ```ts
 * import { Agent, Budget, meter } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const budget = new Budget({ maxCostUsd: "0.10" });
 * const ctx = makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [meter()] });
 * await new Agent("a", { model: "fake-model" }).run("go", ctx);
 * assertEquals([budget.spent(), budget.calls], ["0.000100", 1]);
 * ```
 */
export function meter(options: MeterOptions = {}): ChatMiddleware {
  checkOptions("meter()", options, METER_OPTIONS);
  const charge = (ctx: RunContext, model: string, usage: Usage): void =>
    chargeMeters(ctx, model, usage, options.prices);
  const check = checkMeters;
  const stage: StreamStage = (req, ctx, next) => {
    check(ctx);
    return tapped(next(req, ctx), new MeterTap(ctx, req.model, options.prices));
  };
  // A ready answer is charged without a closure.
  const failed = (error: unknown, ctx: RunContext, req: ChatRequest): never => {
    if (error instanceof ProviderError && error.usage) charge(ctx, req.model, error.usage);
    throw error;
  };
  const answered = (res: ChatResponse, ctx: RunContext, req: ChatRequest): ChatResponse => {
    charge(ctx, res.model || req.model, res.usage);
    return res;
  };
  const chatStage: ChatStage = (req, ctx, next) => {
    check(ctx);
    let answer;
    try {
      answer = next(req, ctx);
    } catch (error) {
      return failed(error, ctx, req);
    }
    return answer instanceof Promise
      ? answer.then((res) => answered(res, ctx, req), (error) => failed(error, ctx, req))
      : answered(answer, ctx, req);
  };
  return withStage(
    { name: "meter", charges: true, chat: chatOf(chatStage), stream: streamOf(stage) },
    stage,
    chatStage,
  );
}
