// trials(): 1,000 trials of a 5-step scripted agent against the same 1,000
// runs in a plain loop (bench/deno/_trials_case.ts). SPEC §24 asks for at
// most 1.1× the plain loop. `deno bench bench/deno/trials.bench.ts`; the
// steadier ratio on a busy machine is bench/deno/trials_ratio.ts.
import { plainLoop, resetCase, withTrials } from "./_trials_case.ts";

Deno.bench({
  name: "plain_loop_1000_runs",
  group: "trials",
  baseline: true,
  async fn() {
    resetCase();
    await plainLoop();
  },
});

Deno.bench({
  name: "trials_1000",
  group: "trials",
  async fn() {
    resetCase();
    await withTrials();
  },
});
