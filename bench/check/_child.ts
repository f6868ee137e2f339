// One runtime's side of the regression check: measures the hot paths and
// prints them as one JSON line. Run by bench/check.ts, under Deno as is and
// under Node as a bundle.
//
//   <runtime> _child.ts [slowTool] [rounds] [batchMs]
import process from "node:process";
import { DEFAULTS, hotPaths } from "./_paths.ts";

const [slow = "1", rounds = String(DEFAULTS.rounds), batchMs = String(DEFAULTS.batchMs)] = process
  .argv.slice(2);
const paths = await hotPaths(Number(slow), { rounds: Number(rounds), batchMs: Number(batchMs) });
console.log(JSON.stringify(paths));
