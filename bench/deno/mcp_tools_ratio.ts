// McpToolProvider's cost on a 2-step ReAct loop as ratios from one
// interleaved run: each round runs a batch of every case of _mcp_cases.ts
// (the order rotated every round, so no case always runs after another's
// garbage), and a case's ratio is the median over the rounds of its batch
// time over the plain `tools: [...]` batch of the same round. `deno bench`
// on a shared machine reports means that one descheduled run dominates; this
// does not. Only the run is timed, not building its context.
//
//   deno run -A bench/deno/mcp_tools_ratio.ts [rounds] [batch]
import { type BenchCase, mcpCases } from "./_mcp_cases.ts";

const ROUNDS = Number(Deno.args[0] ?? 101);
const BATCH = Number(Deno.args[1] ?? 100);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function batch(c: BenchCase): Promise<number> {
  let total = 0;
  for (let i = 0; i < BATCH; i++) {
    const run = c.prepare();
    const t0 = performance.now();
    await run();
    total += performance.now() - t0;
  }
  return (total * 1000) / BATCH;
}

const cases = mcpCases();
const [plain] = cases;
const times = new Map<string, number[]>(cases.map((c) => [c.id, []]));
const ratios = new Map<string, number[]>(cases.map((c) => [c.id, []]));
for (let r = -3; r < ROUNDS; r++) {
  const shift = ((r % cases.length) + cases.length) % cases.length;
  const order = [...cases.slice(shift), ...cases.slice(0, shift)];
  const round = new Map<string, number>();
  for (const c of order) round.set(c.id, await batch(c));
  if (r < 0) continue; // warm-up rounds
  for (const c of cases) {
    times.get(c.id)!.push(round.get(c.id)!);
    ratios.get(c.id)!.push(round.get(c.id)! / round.get(plain.id)!);
  }
}
console.log(
  `median of ${ROUNDS} rounds of ${BATCH} runs; ratio: the case's time over ${plain.id}'s`,
);
for (const c of cases) {
  console.log(
    `${c.id.padEnd(38)} ${median(times.get(c.id)!).toFixed(1).padStart(8)} µs  ${
      median(ratios.get(c.id)!).toFixed(2).padStart(6)
    }×`,
  );
}
