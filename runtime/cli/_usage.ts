// The two CLIs' usage fields, converted to agentkit's Usage.
import type { Usage } from "../../ports/usage.ts";

function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/**
 * claude's `usage`: `input_tokens` already excludes the cached prefix; cache
 * writes are billed input, cache reads are the cached part.
 */
export function claudeUsage(raw: unknown, costUsd?: unknown): Usage {
  const u = (raw ?? {}) as Record<string, unknown>;
  const cached = count(u.cache_read_input_tokens);
  return {
    inputTokens: count(u.input_tokens) + count(u.cache_creation_input_tokens),
    outputTokens: count(u.output_tokens),
    ...(cached ? { cachedInputTokens: cached } : {}),
    ...(typeof costUsd === "number" && Number.isFinite(costUsd) && costUsd >= 0 ? { costUsd } : {}),
  };
}

/**
 * codex's `usage`: `input_tokens` includes `cached_input_tokens`, so the
 * cached part is subtracted here, and only here.
 */
export function codexUsage(raw: unknown): Usage {
  const u = (raw ?? {}) as Record<string, unknown>;
  const input = count(u.input_tokens);
  const cached = Math.min(count(u.cached_input_tokens), input);
  return {
    inputTokens: input - cached,
    outputTokens: count(u.output_tokens),
    ...(cached ? { cachedInputTokens: cached } : {}),
  };
}

/** Sums usages (costs included when any has one). */
export function sumUsage(all: Iterable<Usage>): Usage {
  let inputTokens = 0;
  let outputTokens = 0;
  let cached = 0;
  for (const u of all) {
    inputTokens += u.inputTokens;
    outputTokens += u.outputTokens;
    cached += u.cachedInputTokens ?? 0;
  }
  return { inputTokens, outputTokens, ...(cached ? { cachedInputTokens: cached } : {}) };
}
