// trials() over a plain loop, interleaved in one process: each round runs
// both batches of bench/deno/_trials_case.ts (1,000 runs of a 5-step
// scripted agent each), the order swapped every round, a GC before each
// batch so neither pays for the other's garbage. Reported: each side's
// median batch time, and the median over the rounds of trials()' time over
// the plain loop's in the same round. Then the bookkeeping alone: 1,000
// trials of an empty function (seeds, Trial objects, outcome records, the
// report and its statistics), the part of trials() that is not the run.
//
//   taskset -c 0 deno run --allow-read --allow-env --v8-flags=--expose-gc bench/deno/trials_ratio.ts [rounds]
import { trials } from "@agentkit/testing/testing";
import { N, plainLoop, withTrials } from "./_trials_case.ts";

const ROUNDS = Number(Deno.args[0] ?? 31);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(fn: () => Promise<unknown>): Promise<number> {
  gc();
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

// Warm-up: both paths compiled before any round counts.
for (let i = 0; i < 3; i++) {
  await plainLoop();
  await withTrials();
}
const ratios: number[] = [];
const plain: number[] = [];
const ours: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  let a: number, b: number;
  if (r % 2) {
    b = await time(withTrials);
    a = await time(plainLoop);
  } else {
    a = await time(plainLoop);
    b = await time(withTrials);
  }
  plain.push(a);
  ours.push(b);
  ratios.push(b / a);
}
const empty = async () => {
  const report = await trials(() => {}, { n: N, k: 5, seed: 1 });
  return report.passHatK() + report.interval.low;
};
for (let i = 0; i < 10; i++) await empty();
const bookkeeping: number[] = [];
for (let r = 0; r < ROUNDS; r++) bookkeeping.push(await time(empty));
const f = (x: number) => x.toFixed(1);
console.log(
  `rounds ${ROUNDS}, ${N} runs a batch: plain loop median ${f(median(plain))} ms (min ${
    f(Math.min(...plain))
  }), trials() median ${f(median(ours))} ms (min ${f(Math.min(...ours))}); ` +
    `medians' ratio ${(median(ours) / median(plain)).toFixed(3)}, per-round ratio median ${
      median(ratios).toFixed(3)
    }; bookkeeping alone median ${median(bookkeeping).toFixed(2)} ms (min ${
      Math.min(...bookkeeping).toFixed(2)
    }), ${(median(bookkeeping) / median(plain) * 100).toFixed(1)}% of the plain loop's median`,
);
