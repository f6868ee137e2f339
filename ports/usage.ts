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
  /**
   * Of `inputTokens`, those written to the provider's prompt cache (Anthropic
   * `cache_creation_input_tokens`), billed at the cache-write rate. A part of
   * `inputTokens`, never added to it.
   */
  readonly cacheWriteInputTokens?: number;
  /**
   * Of `outputTokens`, those the model spent reasoning (OpenAI
   * `output_tokens_details.reasoning_tokens`, Gemini `thoughtsTokenCount`).
   * A part of `outputTokens`, never added to it.
   */
  readonly reasoningTokens?: number;
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
 * Adds two usages field by field. An optional field (`cachedInputTokens`,
 * `cacheWriteInputTokens`, `reasoningTokens`, `costUsd`) is summed only when
 * either side has it.
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
 *
 * @example The breakdowns are summed too
 * ```ts
 * import { addUsage } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const sum = addUsage(
 *   { inputTokens: 100, outputTokens: 50, reasoningTokens: 40 },
 *   { inputTokens: 200, outputTokens: 10, cacheWriteInputTokens: 150 },
 * );
 * assertEquals(sum, {
 *   inputTokens: 300,
 *   outputTokens: 60,
 *   cacheWriteInputTokens: 150,
 *   reasoningTokens: 40,
 * });
 * ```
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: {
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens?: number;
    cacheWriteInputTokens?: number;
    reasoningTokens?: number;
    costUsd?: number;
  } = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined) {
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) +
      (b.cachedInputTokens ?? 0);
  }
  if (hasExtras(a) || hasExtras(b)) addExtras(sum, a, b);
  return sum;
}

// The fields few usages carry are summed apart: every step of a tool loop
// adds its usage, and V8 inlines a small addUsage into the loop (issue 39).
function hasExtras(u: Usage): boolean {
  return u.cacheWriteInputTokens !== undefined || u.reasoningTokens !== undefined ||
    u.costUsd !== undefined;
}

function addExtras(
  sum: { cacheWriteInputTokens?: number; reasoningTokens?: number; costUsd?: number },
  a: Usage,
  b: Usage,
): void {
  if (a.cacheWriteInputTokens !== undefined || b.cacheWriteInputTokens !== undefined) {
    sum.cacheWriteInputTokens = (a.cacheWriteInputTokens ?? 0) + (b.cacheWriteInputTokens ?? 0);
  }
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  if (a.costUsd !== undefined || b.costUsd !== undefined) {
    sum.costUsd = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  }
}
