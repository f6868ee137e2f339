/**
 * The regression check's measure (`deno task bench:check`, bench/check.ts):
 * each hot path's time per run over a floor's, both in the same process,
 * interleaved. Runs alike under Deno and Node (the Node side is a bundle of
 * this file), so nothing here uses Deno or Node globals.
 *
 * Why a ratio, and why a low quantile of short batches: on a shared machine
 * a busy spell slows whatever runs through it, so a time alone says as much
 * about the machine as about the code; the floor, timed in the same rounds,
 * is slowed alike, and their ratio stays. Work that another process
 * interrupts only gets slower, never faster, so of many short batches (2 ms:
 * most fit between two preemptions) the fastest tenth is the code's own cost.
 * On this 2-core VM at load 12-14, four runs of each way gave, for the 2-step
 * tool loop over a floor: 1.8-8.8 (median of 20 ms batches, CPU time),
 * 2.5-2.8 (10th percentile of 2 ms batches, wall time: this one).
 *
 * @module
 */
import type { BenchCase } from "../deno/_cases.ts";

/** One path's result: its ratio to the floor, and its µs per run. */
export interface PathRatio {
  readonly id: string;
  /** The path's time per run over the floor's (each the {@linkcode QUANTILE} of its batches). */
  readonly ratio: number;
  /** The path's time per run, in µs ({@linkcode QUANTILE} of its batches). */
  readonly us: number;
  /** The floor's time per run, in µs ({@linkcode QUANTILE} of its batches). */
  readonly floorUs: number;
  /** The path's median batch over the floor's median batch: how busy the machine was shows here. */
  readonly medianRatio: number;
}

/** The measure's knobs. */
export interface RatioOptions {
  /** Rounds timed (after a warm-up): each times one batch of every path and of the floor. */
  readonly rounds: number;
  /** The milliseconds a batch aims at (its run count is sized in the warm-up). */
  readonly batchMs: number;
}

const WARM_RUNS = 3000;
const WARM_MS = 300;

/** The quantile of a path's batch times it is measured by. */
export const QUANTILE = 0.1;

/**
 * The floor: the least an asynchronous test double costs, as the bench's
 * Node floor measures it (bench/node/peers/floor.mjs): awaits of settled
 * promises, and the answer object a double hands back. It is a peer of the
 * paths in the same process: a slower machine slows it alike, a slower
 * agentkit does not. It is this small because it must be steady: over 8
 * fresh processes each, it ran 0.080-0.083 µs on Deno and 0.125-0.135 µs on
 * Node, when a floor that built and spread request objects ran 1.9-2.6 µs
 * on Node and one that serialized JSON 1.7-3.8 µs on Deno.
 */
export async function floorRun(): Promise<unknown> {
  const answer = await Promise.resolve({ content: "expired" });
  await Promise.resolve(answer);
  return answer;
}

// One batch of `n` runs of a case: µs per run. The states are built first,
// untimed, so only the runs are timed, as the bench times them.
async function batch(c: BenchCase, n: number): Promise<number> {
  const runs: (() => Promise<unknown>)[] = [];
  for (let made = 0; made < n; made += c.uses) runs.push(c.prepare());
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await runs[Math.floor(i / c.uses)]();
  return ((performance.now() - t0) * 1000) / n;
}

const FLOOR: BenchCase = {
  id: "floor",
  title: "the floor: plain JavaScript doing an agent's kind of work",
  uses: Number.MAX_SAFE_INTEGER,
  steps: 1,
  prepare: () => floorRun,
};

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * Each case's ratio to the floor (see the module doc).
 *
 * @param cases The hot paths.
 * @param options Rounds and batch size.
 * @param onBatch Told each timed batch's µs per run, by case id.
 * @returns One result a case, in the order given.
 */
export async function ratios(
  cases: readonly BenchCase[],
  options: RatioOptions,
  onBatch?: (id: string, us: number) => void,
): Promise<PathRatio[]> {
  const all = [FLOOR, ...cases];
  // Warm-up, and each path's run count for a batch of about batchMs. Node's
  // JIT takes thousands of runs to settle on our code (a short warm-up read
  // the single turn 2.5x slower than it is, and the floor, which settles
  // at once, not at all): every path runs WARM_RUNS times and WARM_MS first.
  const sizes = all.map(() => 100);
  for (let i = 0; i < all.length; i++) {
    const t0 = performance.now();
    for (let n = 0; n < WARM_RUNS || performance.now() - t0 < WARM_MS; n += sizes[i]) {
      const us = await batch(all[i], sizes[i]);
      sizes[i] = Math.max(10, Math.min(100_000, Math.round((options.batchMs * 1000) / us)));
    }
  }
  const per = all.map(() => [] as number[]);
  for (let r = 0; r < options.rounds; r++) {
    for (let k = 0; k < all.length; k++) {
      const i = (k + r) % all.length;
      const us = await batch(all[i], sizes[i]);
      per[i].push(us);
      onBatch?.(all[i].id, us);
    }
  }
  const floor = quantile(per[0], QUANTILE);
  const floorMedian = quantile(per[0], 0.5);
  return cases.map((c, k) => {
    const us = quantile(per[k + 1], QUANTILE);
    return {
      id: c.id,
      ratio: us / floor,
      us,
      floorUs: floor,
      medianRatio: quantile(per[k + 1], 0.5) / floorMedian,
    };
  });
}
