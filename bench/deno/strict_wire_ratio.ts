// The strict wire's cost as a ratio from one interleaved run: batches of
// FakeProvider round trips (strict_wire.bench.ts's requests) alternate between
// a strict provider and a `strict: false` one, so both see the same machine
// load; the ratio is the median over the rounds of strict's batch time over
// the lenient batch beside it (the order swapped every round). `deno bench` on a shared machine
// reports means that one descheduled run dominates; this does not.
//
//   deno run --allow-read --allow-env bench/deno/strict_wire_ratio.ts [rounds] [batch] [cpu]
//
// With `cpu`, a batch's time is the process's CPU time (process.cpuUsage)
// rather than the wall clock, which on a loaded shared machine measures the
// scheduler.
import process from "node:process";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { ANSWER, WIRES } from "./_strict_wire_cases.ts";

const ROUNDS = Number(Deno.args[0] ?? 41);
const BATCH = Number(Deno.args[1] ?? 200);
const CPU = Deno.args[2] === "cpu";

function now(): number {
  if (!CPU) return performance.now();
  const t = process.cpuUsage();
  return (t.user + t.system) / 1000;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function batch(provider: FakeProvider, wire: (typeof WIRES)[number]): Promise<number> {
  const t0 = now();
  for (let i = 0; i < BATCH; i++) {
    const res = await provider.fetch(wire.url, {
      method: "POST",
      headers: wire.headers,
      body: wire.body,
    });
    await res.text();
  }
  return ((now() - t0) * 1000) / BATCH;
}

for (const wire of WIRES) {
  const strict: number[] = [];
  const lenient: number[] = [];
  const ratios: number[] = [];
  for (let r = -3; r < ROUNDS; r++) {
    // Fresh providers a round (a provider's record grows with every
    // request), and the order swapped every round, so neither mode always
    // runs after the other's garbage.
    const provider = new FakeProvider({ llm: new FakeLLM(ANSWER) });
    const lenientProvider = new FakeProvider({ llm: new FakeLLM(ANSWER), strict: false });
    let on: number, off: number;
    if (r % 2 === 0) {
      off = await batch(lenientProvider, wire);
      on = await batch(provider, wire);
    } else {
      on = await batch(provider, wire);
      off = await batch(lenientProvider, wire);
    }
    if (provider.rejections.length > 0) throw new Error(`${wire.api}: the request was refused`);
    if (r < 0) continue; // warm-up rounds
    strict.push(on);
    lenient.push(off);
    ratios.push(on / off);
  }
  console.log(
    `${wire.api}: strict ${median(strict).toFixed(1)} µs, strict: false ${
      median(lenient).toFixed(1)
    } µs a round trip; strict / lenient ${
      median(ratios).toFixed(3)
    } (median of ${ROUNDS} rounds of ${BATCH})`,
  );
}
