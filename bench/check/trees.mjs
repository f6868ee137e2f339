// Two trees of this repository side by side, in one process, on Deno or on
// Node: the single turn, the stream and the 2-step tool loop of each, timed
// as the regression check times them (bench/check/_ratio.ts: 2 ms batches,
// interleaved, each path's fastest tenth), so a busy machine slows both
// trees alike. Issue 39's before/after table in bench/RESULTS.md is this.
//
//   git -C <repo> worktree add /tmp/before 0cca0da
//   (cd /tmp/before && deno bundle --platform node -o /tmp/before.mjs bench/deno/_cases.ts)
//   deno bundle --platform node -o /tmp/after.mjs bench/deno/_cases.ts
//   deno bundle --platform node -o /tmp/ratio.mjs bench/check/_ratio.ts
//   deno run -A bench/check/trees.mjs /tmp/ratio.mjs /tmp/before.mjs /tmp/after.mjs [rounds]
//   node bench/check/trees.mjs /tmp/ratio.mjs /tmp/before.mjs /tmp/after.mjs [rounds]
//
// Each tree is a bundle of its bench cases with its own runtime, so the two
// share no module; only the measure is one. Prints one JSON line: µs per run
// of each path on each tree, and after over before.
import { pathToFileURL } from "node:url";
import process from "node:process";

const [ratioPath, beforePath, afterPath, rounds = "60"] = process.argv.slice(2);
if (!afterPath) {
  console.error("usage: trees.mjs <ratio bundle> <before bundle> <after bundle> [rounds]");
  process.exit(2);
}
const load = (path) => import(pathToFileURL(path).href);
const { ratios } = await load(ratioPath);
const before = await load(beforePath);
const after = await load(afterPath);
const named = (c, tree) => ({ ...c, id: `${c.id}@${tree}` });
const cases = [];
for (const make of ["singleTurn", "streamed", "react2"]) {
  cases.push(named(before[make](), "before"), named(after[make](), "after"));
}
const measured = await ratios(cases, { rounds: Number(rounds), batchMs: 2 });
const us = Object.fromEntries(measured.map((p) => [p.id, Number(p.us.toFixed(3))]));
const out = {};
for (const id of ["single_turn", "stream_3_chunks", "react_2_steps"]) {
  const b = us[`${id}@before`];
  const a = us[`${id}@after`];
  out[id] = { before: b, after: a, ratio: Number((a / b).toFixed(3)) };
}
console.log(JSON.stringify(out));
