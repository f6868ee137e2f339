/**
 * `deno task bench:check`: the regression check of the hot paths. On Deno
 * and on Node, each in a fresh process, the single turn, the stream and the
 * 2-step tool loop are timed against a floor in the same process
 * (bench/check/_ratio.ts), and each ratio is compared with the one committed
 * in bench/check/baseline.json: a path whose ratio is more than 2× the
 * committed one, or that got more than 2× slower than the other paths did,
 * fails the check (exit 1; see compare() in bench/check/_paths.ts). Each runtime's ratios are the least
 * of two fresh processes' (--processes). About 10 s a runtime.
 *
 *   deno task bench:check [--runs=N] [--slow-tool=F] [--runtimes=deno,node]
 *                         [--processes=N] [--write]
 *
 * --runs=N      runs the whole check N times (each a fresh process a
 *               runtime) and fails if any run does: the proof that it is
 *               steady (`--runs=20` under load: no false alarm).
 * --slow-tool=F makes the tool of the 2-step loop F times slower on purpose
 *               (it keeps the CPU busy before it answers): with F=3 the check
 *               must fail, and does (tests/bench/check_test.ts).
 * --runtimes    which runtimes (both by default).
 * --write       records the median ratios of the runs as the new baseline
 *               (after a change that is meant to move a path; say why in the
 *               commit).
 *
 * The Node side runs a bundle of bench/check/_child.ts (`deno bundle
 * --platform node`), built into a temporary folder at each check.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PathRatio } from "./check/_ratio.ts";
import { type Baseline, compare, THRESHOLD, type Verdict } from "./check/_paths.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CHILD = join(ROOT, "bench", "check", "_child.ts");
const BASELINE = join(ROOT, "bench", "check", "baseline.json");
const RUNTIMES = ["deno", "node"] as const;
type Runtime = typeof RUNTIMES[number];

function fail(message: string): never {
  console.error(`bench:check: ${message}`);
  Deno.exit(2);
}

const flags = ["runs", "slow-tool", "runtimes", "write", "processes"];
const value = (name: string): string | undefined =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
for (const arg of Deno.args) {
  const name = arg.replace(/^--/, "").split("=")[0];
  if (!arg.startsWith("--") || !flags.includes(name)) {
    fail(`unknown argument "${arg}"; known flags: --${flags.join(", --")}`);
  }
}
const runs = Number(value("runs") ?? 1);
if (!Number.isInteger(runs) || runs < 1 || runs > 100) {
  fail(`--runs=${value("runs")} is not a whole number from 1 to 100`);
}
const slowTool = Number(value("slow-tool") ?? 1);
if (!Number.isFinite(slowTool) || slowTool < 1 || slowTool > 100) {
  fail(`--slow-tool=${value("slow-tool")} is not a number from 1 to 100 (1: not slowed)`);
}
const runtimes = (value("runtimes")?.split(",") ?? [...RUNTIMES]) as Runtime[];
for (const r of runtimes) {
  if (!RUNTIMES.includes(r)) fail(`--runtimes names "${r}"; known: ${RUNTIMES.join(", ")}`);
}
const write = Deno.args.includes("--write");
const PROCESSES = Number(value("processes") ?? 2);
if (!Number.isInteger(PROCESSES) || PROCESSES < 1 || PROCESSES > 10) {
  fail(`--processes=${value("processes")} is not a whole number from 1 to 10`);
}
if (write && slowTool !== 1) fail("--write records a baseline: not with --slow-tool");

async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd: ROOT, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    fail(`${cmd} ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}${text}`);
  }
  return text;
}

// The Node side: the child bundled with its imports (ours from source, zod).
const tmp = await Deno.makeTempDir({ prefix: "agentkit_bench_check_" });
const bundle = join(tmp, "check_child.mjs");
try {
  if (runtimes.includes("node")) {
    await run(Deno.execPath(), [
      "bundle",
      "--quiet",
      "--platform",
      "node",
      "--format",
      "esm",
      "--output",
      bundle,
      CHILD,
    ]);
  }
  const args = [String(slowTool)];
  const measured: Record<Runtime, PathRatio[][]> = { deno: [], node: [] };
  const baseline: Baseline = write ? {} : JSON.parse(await Deno.readTextFile(BASELINE)).ratios;
  let failedRuns = 0;
  for (let i = 1; i <= runs; i++) {
    const verdicts: Verdict[] = [];
    for (const runtime of runtimes) {
      // A path's ratio is the least of PROCESSES fresh processes: a process
      // can only be slowed by the machine (a busy CPU, a bad JIT day), not
      // sped up, and one in 20 was, 3x on one path.
      const each: PathRatio[][] = [];
      for (let p = 0; p < PROCESSES; p++) {
        const text = runtime === "deno"
          ? await run(Deno.execPath(), ["run", "--allow-read", "--allow-env", CHILD, ...args])
          : await run("node", [bundle, ...args]);
        each.push(JSON.parse(text.trim().split("\n").at(-1)!));
      }
      const paths = each[0].map((first) =>
        each.map((ps) => ps.find((p) => p.id === first.id)!).reduce((a, b) =>
          b.ratio < a.ratio ? b : a
        )
      );
      measured[runtime].push(paths);
      if (!write) verdicts.push(...compare(runtime, paths, baseline));
    }
    if (write) {
      console.log(`run ${i} of ${runs}: measured`);
      continue;
    }
    const bad = verdicts.filter((v) => !v.ok);
    if (bad.length) failedRuns++;
    console.log(
      `run ${i} of ${runs}: ${bad.length ? "FAILED" : "ok"}  ${
        verdicts.map((v) =>
          `${v.runtime} ${v.id} ${v.ratio.toFixed(2)}/${v.baseline?.toFixed(2) ?? "-"}=${
            v.slower?.toFixed(2) ?? "?"
          }x (${v.relative?.toFixed(2) ?? "?"}x)`
        ).join("  ")
      }`,
    );
    for (const v of bad) {
      console.log(
        v.baseline === undefined
          ? `  ${v.runtime} ${v.id}: no committed ratio in bench/check/baseline.json; record one with --write`
          : `  ${v.runtime} ${v.id}: ${v.slower!.toFixed(2)}x its committed ratio to the floor (${
            v.ratio.toFixed(2)
          } against ${v.baseline.toFixed(2)}), ${
            v.relative!.toFixed(2)
          }x the other paths' change; more than ${THRESHOLD}x either way fails: this path got slower`,
      );
    }
  }
  if (write) {
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratios: Record<string, Record<string, number>> = {};
    for (const runtime of runtimes) {
      ratios[runtime] = {};
      for (const { id } of measured[runtime][0]) {
        const xs = measured[runtime].map((paths) => paths.find((p) => p.id === id)!.ratio);
        ratios[runtime][id] = Number(median(xs).toFixed(3));
      }
    }
    const old = await Deno.readTextFile(BASELINE).then(JSON.parse).catch(() => ({ ratios: {} }));
    const note =
      `each path's time per run over the floor's in the same process (bench/check/_ratio.ts), the least of ${PROCESSES} processes, the median of ${runs} runs of \`deno task bench:check --write --runs=${runs}\`, ${
        new Date().toISOString().slice(0, 10)
      }`;
    await Deno.writeTextFile(
      BASELINE,
      JSON.stringify({ note, ratios: { ...old.ratios, ...ratios } }, null, 2) + "\n",
    );
    console.log(`wrote ${BASELINE}: ${JSON.stringify(ratios)}`);
  } else {
    console.log(
      `${runs - failedRuns} of ${runs} runs ok${failedRuns ? `, ${failedRuns} FAILED` : ""}${
        slowTool > 1 ? ` (the tool loop slowed ${slowTool}x on purpose)` : ""
      }`,
    );
    if (failedRuns) Deno.exitCode = 1;
  }
} finally {
  await Deno.remove(tmp, { recursive: true });
}
