/**
 * Token usage and finish reasons.
 *
 * @module
 */

/**
 * What a model call consumed.
 *
 * `inputTokens` excludes the cached prefix; `cachedInputTokens` counts it.
 *
 * @example
 * ```ts
 * import type { Usage } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const u: Usage = { inputTokens: 10, outputTokens: 0 };
 * assertEquals(u.inputTokens, 10);
 * ```
 */
export interface Usage {
  /** Input tokens billed at the full rate (cached prefix excluded). */
  readonly inputTokens: number;
  /** Output tokens. */
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache. */
  readonly cachedInputTokens?: number;
  /** The cost the provider reported, when it reports one (USD). */
  readonly costUsd?: number;
}

/**
 * Why a model turn ended.
 *
 * @example
 * ```ts
 * import type { FinishReason } from "@agentkit/testing/ports";
 * const r: FinishReason = "tool_calls";
 * ```
 */
export type FinishReason =
  | "stop"
  | "tool_calls"
  | "length"
  | "content_filter"
  | "error";

/**
 * Usage of nothing: the starting value for sums.
 *
 * @example
 * ```ts
 * import { ZERO_USAGE } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(ZERO_USAGE.inputTokens + ZERO_USAGE.outputTokens, 0);
 * ```
 */
export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
});

/**
 * Adds two usages field by field. `costUsd` is summed only when either side has one.
 *
 * @param a The first usage.
 * @param b The second usage.
 * @returns Their sum.
 *
 * @example
 * ```ts
 * import { addUsage } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const sum = addUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, outputTokens: 1 });
 * assertEquals(sum, { inputTokens: 15, outputTokens: 3 });
 * ```
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    costUsd?: number;
  } = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined) {
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) +
      (b.cachedInputTokens ?? 0);
  }
  if (a.costUsd !== undefined || b.costUsd !== undefined) {
    sum.costUsd = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  }
  return sum;
}
