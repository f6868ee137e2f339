// A score against its threshold, as every scoring evaluator reports it (the
// Levenshtein ratio, the judge's verdict): it passes at the threshold or
// above, and is "below_threshold" under it.
import type { Metric } from "./evaluation_result.ts";

/** The metric of `score` against `threshold`, with the judge's `reason` when there is one. */
export function thresholdMetric(
  name: string,
  mode: Metric["mode"],
  score: number,
  threshold: number,
  reason?: string,
): Metric {
  const passed = score >= threshold;
  return {
    name,
    mode,
    score,
    threshold,
    passed,
    code: passed ? "passed" : "below_threshold",
    ...(reason ? { reason } : {}),
  };
}
