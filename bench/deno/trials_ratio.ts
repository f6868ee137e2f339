// trials() over a plain loop, interleaved in one process: each round runs
// the batches of bench/deno/_trials_case.ts (1,000 runs of a 5-step
// scripted agent each), in each of the six orders in turn. Each round starts
// with a full GC and then one untimed pass of every batch: a forced GC
// (gc(), --expose-gc) throws away optimised code (V8's --trace-deopt shows
// the agent's functions recompiled in every batch after it), so a batch
// timed right after it measures mostly the JIT warming up again — 1.5-5x a
// warm batch — and whichever side has more code to re-warm pays for that,
// not for its work. The untimed pass pays for it; the timed batches then
// start warm, from the same collected heap (the shared FakeTool's record of
// calls emptied first: it would grow by four a run for the whole bench).
//
// A third side, the inline loop (the agent called in the loop's own body,
// the baseline of this bench before issue 42's second round: see
// _trials_case.ts), is timed with them so the cost of calling a function a
// run shows apart.
//
// Reported for wall time and for the process's CPU time (which a machine
// shared with other work disturbs less than wall time: time spent waiting
// for the core is not in it): each side's median batch, the ratio of the
// medians, the median over the rounds of trials()' batch over the plain
// loop's beside it, the ratio of the fastest batches, and the ratio of the
// totals over all rounds (every collection counted where it fell, which
// the medians and the minimum leave out or to chance). Then the
// bookkeeping alone: 1,000 trials of an empty function (seeds, Trial
// objects, outcome records, the report and its statistics), the part of
// trials() that is not the run. The load average before and after is
// printed with them.
//
//   taskset -c 0 deno run --allow-read --allow-env --allow-sys=loadavg --v8-flags=--expose-gc bench/deno/trials_ratio.ts [rounds]
import process from "node:process";
import { trials } from "@agentkit/testing/testing";
import { inlineLoop, N, plainLoop, resetCase, withTrials } from "./_trials_case.ts";

const ROUNDS = Number(Deno.args[0] ?? 31);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const load = () => {
  try {
    return Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
  } catch {
    return "unknown (run with --allow-sys=loadavg)";
  }
};

interface Sample {
  wall: number;
  cpu: number;
}

// The process's CPU time in ms (getrusage: user + system, whose sum the
// kernel keeps from the scheduler's exact run time).
function cpuNow(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

async function time(fn: () => Promise<unknown>): Promise<Sample> {
  const c0 = cpuNow();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  return { wall, cpu: cpuNow() - c0 };
}

const loadBefore = load();
// Warm-up: every path compiled before any round counts.
for (let i = 0; i < 3; i++) {
  await plainLoop();
  await withTrials();
  await inlineLoop();
}
const plain: Sample[] = [];
const ours: Sample[] = [];
const inline: Sample[] = [];
const sides = [
  { fn: plainLoop, into: plain },
  { fn: withTrials, into: ours },
  { fn: inlineLoop, into: inline },
];
for (let r = 0; r < ROUNDS; r++) {
  resetCase();
  gc();
  for (const side of sides) await side.fn();
  // The six orders in turn: each side first, middle and last equally often.
  const turned = [...sides.slice(r % 3), ...sides.slice(0, r % 3)];
  for (const side of r % 6 < 3 ? turned : turned.reverse()) side.into.push(await time(side.fn));
}
const empty = async () => {
  const report = await trials(() => {}, { n: N, k: 5, seed: 1 });
  return report.passHatK() + report.interval.low;
};
for (let i = 0; i < 10; i++) await empty();
const bookkeeping: Sample[] = [];
for (let r = 0; r < ROUNDS; r++) {
  gc();
  await empty();
  bookkeeping.push(await time(empty));
}

const f = (x: number) => x.toFixed(1);
const line = (what: keyof Sample) => {
  const p = plain.map((s) => s[what]);
  const o = ours.map((s) => s[what]);
  const il = inline.map((s) => s[what]);
  const ratios = o.map((x, i) => x / p[i]);
  const b = bookkeeping.map((s) => s[what]);
  return `${what}: plain loop median ${f(median(p))} ms (min ${f(Math.min(...p))}), ` +
    `trials() median ${f(median(o))} ms (min ${f(Math.min(...o))}); ` +
    `medians' ratio ${(median(o) / median(p)).toFixed(3)}, per-round ratio median ${
      median(ratios).toFixed(3)
    }, fastest batches' ratio ${(Math.min(...o) / Math.min(...p)).toFixed(3)}, totals' ratio ${
      (sum(o) / sum(p)).toFixed(3)
    }; bookkeeping alone median ${median(b).toFixed(2)} ms (min ${Math.min(...b).toFixed(2)}), ${
      (median(b) / median(p) * 100).toFixed(1)
    }% of the plain loop's median; inline loop median ${f(median(il))} ms, trials() over it ${
      (median(o) / median(il)).toFixed(3)
    } (medians), ${median(o.map((x, i) => x / il[i])).toFixed(3)} (per round)`;
};
console.log(
  `rounds ${ROUNDS}, ${N} runs a batch; load average before ${loadBefore}, after ${load()}`,
);
console.log(line("wall"));
console.log(line("cpu"));
