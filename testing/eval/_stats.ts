// The statistics of trials, written once: the Wilson score interval, the
// unbiased pass@k and pass^k estimators, and Fisher's exact test. Every
// report, baseline comparison and chaos summary reads its numbers here.
// Products and ratios throughout, never factorials: C(200, 100) overflows a
// double's exact range long before the suites this serves.

/** The two-sided 95% normal quantile, z(0.975). */
export const Z95 = 1.959963984540054;

/**
 * A 95% confidence interval on a pass rate (Wilson's score interval).
 *
 * @example
 * ```ts
 * import { TrialReport, type Interval } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const i: Interval = new TrialReport({ trials: [{ index: 0, seed: 0, outcome: "pass" }] }).interval;
 * assertEquals([i.low.toFixed(3), i.high], ["0.207", 1]);
 * ```
 */
export interface Interval {
  /** The lower bound, from 0 to 1. */
  readonly low: number;
  /** The upper bound, from 0 to 1. */
  readonly high: number;
}

function checkCounts(where: string, n: number, c: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${where}: n must be an integer, 0 or more, got ${n}`);
  }
  if (!Number.isSafeInteger(c) || c < 0 || c > n) {
    throw new RangeError(`${where}: the passes must be an integer from 0 to n (${n}), got ${c}`);
  }
}

function checkK(where: string, n: number, k: number): void {
  if (!Number.isSafeInteger(k) || k < 1 || k > n) {
    throw new RangeError(
      `${where}: k must be an integer from 1 to the number of trials (${n}), got ${k}; run at least k trials`,
    );
  }
}

/**
 * The Wilson score interval for `c` passes of `n` (Wilson 1927, "Probable
 * inference, the law of succession, and statistical inference", JASA 22;
 * the form of Newcombe 1998, Stat. Med. 17, method 3). With no trials it is
 * the whole range [0, 1]: nothing is known.
 */
export function wilson(c: number, n: number, z: number = Z95): Interval {
  checkCounts("wilson()", n, c);
  if (n === 0) return { low: 0, high: 1 };
  const p = c / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At c = 0 and c = n the bound is exactly 0 or 1 in real arithmetic.
  return {
    low: c === 0 ? 0 : Math.max(0, centre - half),
    high: c === n ? 1 : Math.min(1, centre + half),
  };
}

/**
 * The unbiased estimator of pass@k, the chance that at least one of k tries
 * drawn without replacement from the n trials passes:
 * 1 − C(n−c, k) / C(n, k), computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i)
 * (Chen et al. 2021, "Evaluating Large Language Models Trained on Code",
 * arXiv:2107.03374, §2.1 and its numerically stable listing).
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts("passAtK()", n, c);
  checkK("passAtK()", n, k);
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/**
 * The unbiased estimator of pass^k, the chance that every one of k tries
 * drawn without replacement from the n trials passes: C(c, k) / C(n, k),
 * computed as ∏_{i=0}^{k−1} (c−i)/(n−i) (Yao et al. 2024, "τ-bench",
 * arXiv:2406.12045, §5.1).
 */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts("passHatK()", n, c);
  checkK("passHatK()", n, k);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}

/**
 * Fisher's exact test, two-sided, on the 2×2 table [[a, b], [c, d]] (rows:
 * two runs; columns: passes, non-passes): the probability, under the
 * hypergeometric law with the table's margins fixed, of every table no
 * likelier than the one seen (Fisher 1935, "The Design of Experiments",
 * §2; the same rule as R's fisher.test, which counts tables within a
 * relative 1e-7 of the observed probability as equally likely).
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  for (const [name, v] of [["a", a], ["b", b], ["c", c], ["d", d]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new RangeError(`fisherExact(): cell ${name} must be an integer, 0 or more, got ${v}`);
    }
  }
  const row1 = a + b;
  const col1 = a + c;
  const row2 = c + d;
  const lo = Math.max(0, col1 - row2);
  const hi = Math.min(row1, col1);
  if (lo === hi) return 1;
  // Weights relative to the mode, reached by the ratio of neighbours
  // p(x+1)/p(x) = (row1−x)(col1−x) / ((x+1)(row2−col1+x+1)), so no weight
  // overflows and the far tails merely underflow to 0.
  const mode = Math.min(
    hi,
    Math.max(lo, Math.floor(((row1 + 1) * (col1 + 1)) / (row1 + row2 + 2))),
  );
  const w = new Float64Array(hi - lo + 1);
  w[mode - lo] = 1;
  for (let x = mode; x < hi; x++) {
    w[x + 1 - lo] = w[x - lo] * ((row1 - x) * (col1 - x)) / ((x + 1) * (row2 - col1 + x + 1));
  }
  for (let x = mode; x > lo; x--) {
    w[x - 1 - lo] = w[x - lo] * (x * (row2 - col1 + x)) / ((row1 - x + 1) * (col1 - x + 1));
  }
  let total = 0;
  for (const v of w) total += v;
  const seen = w[a - lo] * (1 + 1e-7);
  let tail = 0;
  for (const v of w) if (v <= seen) tail += v;
  return Math.min(1, tail / total);
}
