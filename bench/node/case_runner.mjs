// Runs one benchmark case in this process and prints one JSON line.
//
//   node --expose-gc case_runner.mjs <cases module> <implementation> <case id> [pass]
//   deno run -A --v8-flags=--expose-gc case_runner.mjs <cases module> <implementation> <case id> [pass]
//
// The cases module exports `allCases()`: objects with `id`, `title`, `uses`
// (runs one prepared state serves), `steps` and `prepare()` (builds a state,
// untimed, and returns the function that does one run). The runner warms the
// case up, sizes a repetition to about REP_MS, then times 5 repetitions and
// reports the median µs per run (wall time, and this process's CPU time),
// and the heap the runs retain per run.
// The same file runs under Node and Deno, so both columns are measured alike.
//
// A machine shared with other work slows whatever runs while it is busy, so
// the caller runs every implementation of a case in turn, several passes over
// (interleaved), and compares implementations within a pass. Each line says
// how busy the machine was while its repetitions ran: the 1-minute load
// average, and the share of the machine's CPU time that other processes used
// (from /proc; null where there is none).
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import process from "node:process";
import { pathToFileURL } from "node:url";

const REPS = 5;
const REP_MS = 150;
// Warm-up: at least WARMUP_MS and WARMUP_RUNS runs (some peers take thousands
// of runs to reach their steady state), but no more than WARMUP_MAX_MS.
const WARMUP_MS = 600;
const WARMUP_RUNS = 2000;
const WARMUP_MAX_MS = 5000;
// At most this many runs (and their states) are held to measure the heap.
const HEAP_RUNS = 500;

const [modulePath, impl, caseId, passArg] = process.argv.slice(2);
const pass = passArg === undefined ? 1 : Number(passArg);
if (!modulePath || !impl || !caseId) {
  console.error(
    "usage: case_runner.mjs <cases module> <implementation> <case id>",
  );
  process.exit(2);
}
const gc = globalThis.gc;
if (typeof gc !== "function") {
  console.error("run with --expose-gc (node) or --v8-flags=--expose-gc (deno)");
  process.exit(2);
}

const mod = await import(
  modulePath.startsWith("file:") ? modulePath : pathToFileURL(modulePath).href
);
const c = mod.allCases().find((x) => x.id === caseId);
if (!c) {
  console.log(JSON.stringify({ impl, id: caseId, skipped: "no such case" }));
  process.exit(0);
}

const now = () => process.hrtime.bigint();

// Times `n` runs; returns the elapsed ns. A single-use state is built
// (untimed) right before its run, as a test builds its context, and only the
// run is timed; a reusable state is rebuilt inline once used up (its cost
// spread over its runs), and the old one dropped, as a test drops it.
async function repetition(n) {
  if (c.uses === 1) {
    let elapsed = 0n;
    for (let i = 0; i < n; i++) {
      const run = c.prepare();
      const t0 = now();
      await run();
      elapsed += now() - t0;
    }
    return elapsed;
  }
  let run = c.prepare();
  let left = c.uses;
  const t0 = now();
  for (let i = 0; i < n; i++) {
    if (left-- <= 0) {
      run = c.prepare();
      left = c.uses - 1;
    }
    await run();
  }
  return now() - t0;
}

// The heap that runs retain while their state is alive (a double's record
// counts), per run: a GC, the runs, a GC.
async function retainedPerRun(most) {
  const runs = Math.max(
    1,
    Math.min(most, HEAP_RUNS, c.uses === 1 ? HEAP_RUNS : c.uses),
  );
  const states = [];
  for (let made = 0; made < runs; made += c.uses) states.push(c.prepare());
  gc();
  const h0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < runs; i++) await states[(i / c.uses) | 0]();
  gc();
  return (process.memoryUsage().heapUsed - h0) / runs;
}

// Warm-up, and a first estimate of the cost of one run.
let warmRuns = 0;
let warmNs = 0n;
const warmStart = now();
for (;;) {
  const ms = Number(now() - warmStart) / 1e6;
  if (ms >= WARMUP_MS && (warmRuns >= WARMUP_RUNS || ms >= WARMUP_MAX_MS)) {
    break;
  }
  const batch = Math.max(1, Math.min(1000, warmRuns || 1));
  const ns = await repetition(batch);
  warmNs += ns;
  warmRuns += batch;
}
const runsFor = (perRunNs) =>
  Math.max(10, Math.min(2_000_000, Math.round((REP_MS * 1e6) / perRunNs)));
// The warm-up's mean includes the runs before the JIT settled, so sizing
// the repetitions from it makes them far shorter than REP_MS (a few ms), and
// one collector pause then weighs on a whole repetition. Two timed batches
// at the steady pace size them instead.
let n = runsFor(Number(warmNs) / warmRuns);
for (let i = 0; i < 2; i++) n = runsFor(Number(await repetition(n)) / n);

// CPU time in clock ticks: the whole machine's (busy and idle) and this
// process's, to tell how much of the machine other processes used meanwhile.
function cpuTicks() {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(
      /\s+/,
    ).slice(1)
      .map(Number);
    const idle = cpu[3] + (cpu[4] ?? 0);
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    const self = readFileSync("/proc/self/stat", "utf8");
    const fields = self.slice(self.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    const own = Number(fields[11]) + Number(fields[12]);
    return { busy: total - idle, total, own };
  } catch {
    return undefined;
  }
}

// This process's CPU time (µs), next to the wall time: on a shared machine
// the wall time of a repetition includes the time other processes held the
// core, and the CPU time does not.
function cpuNow() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

const load0 = loadavg()[0];
const ticks0 = cpuTicks();
const us = [];
const cpuUs = [];
for (let r = 0; r < REPS; r++) {
  const c0 = cpuNow();
  us.push(Number(await repetition(n)) / n / 1000);
  cpuUs.push((cpuNow() - c0) / n);
}
const ticks1 = cpuTicks();
// A single-use state is built inside the repetition, outside the wall
// timing but inside the CPU window: its CPU cost, measured alone, is taken
// off.
if (c.uses === 1) {
  const c0 = cpuNow();
  for (let i = 0; i < n; i++) c.prepare();
  const prepareUs = (cpuNow() - c0) / n;
  for (let r = 0; r < REPS; r++) cpuUs[r] = Math.max(0, cpuUs[r] - prepareUs);
}
// The heap is measured after the timing: it forces GCs and holds up to
// HEAP_RUNS runs' states at once, and the runs after that pay for it (on
// Deno a 1,000-step loop ran 1.6x slower per step for the rest of the
// process), so measured first it would weigh on the timing.
const heapBytesPerRun = await retainedPerRun(n);
const otherCpuShare = ticks0 && ticks1 && ticks1.total > ticks0.total
  ? Math.max(0, (ticks1.busy - ticks0.busy) - (ticks1.own - ticks0.own)) /
    (ticks1.total - ticks0.total)
  : null;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(JSON.stringify({
  impl,
  id: c.id,
  pass,
  load: [load0, loadavg()[0]],
  otherCpuShare,
  title: c.title,
  steps: c.steps,
  runsPerRep: n,
  reps: us,
  us: median(us),
  cpuReps: cpuUs,
  cpuUs: median(cpuUs),
  usPerStep: median(us) / c.steps,
  minUs: Math.min(...us),
  heapBytesPerRun,
}));
