// One side of trials_processes.ts, alone in its process: `plain` (the
// plain loop) or `trials` (trials()), warmed up, then timed. Prints one JSON
// line: the side and its mean ms a batch of 1,000 runs.
//
//   deno run --allow-read --allow-env bench/deno/_trials_side.ts <plain|trials> [batches]
import { plainLoop, resetCase, withTrials } from "./_trials_case.ts";

const side = Deno.args[0];
if (side !== "plain" && side !== "trials") {
  throw new Error(`usage: _trials_side.ts <plain|trials> [batches], got ${side}`);
}
const batches = Number(Deno.args[1] ?? 60);
const run = side === "trials" ? withTrials : plainLoop;
for (let i = 0; i < 10; i++) {
  resetCase();
  await run();
}
const t0 = performance.now();
for (let i = 0; i < batches; i++) {
  resetCase();
  await run();
}
console.log(JSON.stringify({ side, msPerBatch: (performance.now() - t0) / batches }));
