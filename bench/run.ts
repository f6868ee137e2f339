/**
 * `deno task bench`: measures the cases of bench/deno/_cases.ts on Deno and
 * on Node, next to the peers on Node, and writes bench/RESULTS.md.
 *
 * 1. installs the Node harness's packages (`npm ci` in bench/node) when absent;
 * 2. builds the npm package (`deno task build:npm --out=...`) and bundles the
 *    cases against it (bench/node/build_ours.mjs);
 * 3. runs every case on Deno and on Node, one process per implementation,
 *    case and pass (bench/node/case_runner.mjs: warm-up, 5 repetitions,
 *    median); each pass (3 by default) runs every case once;
 * 4. runs `deno bench` on bench/deno/ for its own view of our cases;
 * 5. writes bench/RESULTS.md, keeping the sections it does not write (the
 *    cold start, which `deno task bench:cold` writes; hand-run comparisons).
 *
 *   deno task bench [--quick] [--passes=N] [--cases=a,b] [--ours-only=c,d] [--peers=p,q]
 *                   [--cpu=N]
 *   (--quick: skip `deno bench`; --ours-only: no peers on those cases;
 *   --peers: only these peers, e.g. the ones the targets compare to;
 *   --cpu: pin every measured process to that CPU, with `taskset`)
 *
 * @module
 */
import { dirname, join } from "node:path";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const NODE_DIR = join(ROOT, "bench", "node");
const RUNNER = join(NODE_DIR, "case_runner.mjs");
const quick = Deno.args.includes("--quick");
// A flag's value as a whole number in [min, max], or the default when absent.
function countFlag(name: string, fallback: number | undefined, min: number, max: number) {
  const raw = Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    console.error(`bench: --${name}=${raw} is not a whole number from ${min} to ${max}`);
    Deno.exit(2);
  }
  return n;
}
const PASSES = countFlag("passes", 3, 1, 99)!;
// --cpu=N pins every measured process to CPU N, so a case's implementations
// and passes all run on the same one. A VM's virtual CPUs are not always
// equally quiet: on this one, in six back-to-back pairs, CPU 1 ran the
// streamed case 1.3-1.9× slower three times and CPU 0 never did. Spells that
// slow every process come on both; the passes and their medians are for those.
const CPU = countFlag("cpu", undefined, 0, navigator.hardwareConcurrency - 1);
if (CPU !== undefined) {
  // A pinned no-op: taskset is there, and this process may use that CPU.
  const probe = await new Deno.Command("taskset", {
    args: ["-c", String(CPU), "true"],
    stdout: "null",
    stderr: "null",
  })
    .output().catch(() => undefined);
  if (!probe?.success) {
    console.error(
      `bench: --cpu=${CPU} needs \`taskset\` (util-linux) and CPU ${CPU} in this process's CPU set; \`taskset -c ${CPU} true\` failed`,
    );
    Deno.exit(2);
  }
}
const listFlag = (name: string): string[] | undefined =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3).split(",");
// --cases=a,b measures only those cases; --ours-only=c,d runs no peer on those.
const ONLY_CASES = listFlag("cases");
const OURS_ONLY = listFlag("ours-only") ?? [];
// --peers=langchain,floor runs only those of the peers and floors.
const ONLY_PEERS = listFlag("peers");
const { allCases } = await import("./deno/_cases.ts");
// A mistyped name would otherwise measure nothing, or everything, after
// minutes of building: each list is checked against what exists, now.
function checkNames(flag: string, given: string[] | undefined, known: string[]): void {
  const unknown = given?.filter((name) => !known.includes(name)) ?? [];
  if (unknown.length) {
    console.error(
      `bench: --${flag} names no such ${unknown.length > 1 ? "entries" : "entry"}: ${
        unknown.join(", ")
      }; known: ${known.join(", ")}`,
    );
    Deno.exit(2);
  }
}
const CASE_IDS = allCases().map((c) => c.id);
checkNames("cases", ONLY_CASES, CASE_IDS);
checkNames("ours-only", OURS_ONLY, CASE_IDS);
checkNames("peers", ONLY_PEERS, ["ai_sdk", "langchain", "openai_agents", "floor"]);
const flags = ["quick", "passes", "cases", "ours-only", "peers", "cpu"];
for (const arg of Deno.args) {
  const name = arg.replace(/^--/, "").split("=")[0];
  if (!arg.startsWith("--") || !flags.includes(name)) {
    console.error(`bench: unknown argument "${arg}"; known flags: --${flags.join(", --")}`);
    Deno.exit(2);
  }
}

interface Result {
  impl: string;
  id: string;
  pass?: number;
  load?: [number, number];
  otherCpuShare?: number | null;
  title?: string;
  steps?: number;
  us?: number;
  cpuUs?: number;
  usPerStep?: number;
  minUs?: number;
  heapBytesPerRun?: number;
  runsPerRep?: number;
  error?: string;
  skipped?: string;
}

async function exec(cmd: string, args: string[], cwd = ROOT): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}${text}`,
    );
  }
  return text;
}

function log(line: string): void {
  console.error(`bench: ${line}`);
}

function parseLines(text: string): Result[] {
  return text.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

// 1. The harness's packages.
if (!(await exists(join(NODE_DIR, "node_modules", "ai")))) {
  log("installing bench/node packages (npm ci)");
  await exec("npm", ["ci", "--no-audit", "--no-fund"], NODE_DIR);
}

// 2. Our npm build, and the cases bundled against it.
const buildDir = await Deno.makeTempDir({ prefix: "agentkit_bench_npm_" });
let from: string[] = [];
try {
  log("building the npm package (deno task build:npm)");
  await exec("deno", ["task", "build:npm", `--out=${buildDir}`]);
  from = [`--from=${buildDir}`];
} catch (error) {
  log(`build:npm failed, falling back: ${(error as Error).message.split("\n")[0]}`);
}
const ourSource = (await exec("node", [join(NODE_DIR, "build_ours.mjs"), ...from])).trim()
  .replace(buildDir, "a fresh `deno task build:npm`");
await Deno.remove(buildDir, { recursive: true });

const load0 = loadAverage();

// 3. Every case on Deno (ours, from source) and on Node (ours and the peers),
// one process per implementation, case and pass. A pass runs every case of
// every implementation once, then the next pass all of them again: the
// implementations of a case run back to back, so a busy spell on the machine
// falls on all of them alike and a ratio compares runs of one pass; and the
// passes of a case are spread over the whole run, so its median does not
// rest on one stretch of minutes. (This VM has spells of minutes in which
// every process runs about 1.5× slower; with a case's passes back to back,
// one spell could cover all of one case and none of the next.)
const NODE_IMPLS: Record<string, string> = {
  ours: join(NODE_DIR, "node_modules", ".bench", "ours_cases.mjs"),
  ai_sdk: join(NODE_DIR, "peers", "ai_sdk.mjs"),
  langchain: join(NODE_DIR, "peers", "langchain.mjs"),
  openai_agents: join(NODE_DIR, "peers", "openai_agents.mjs"),
  floor: join(NODE_DIR, "peers", "floor.mjs"),
};
const ids: string[] = [];
const titles = new Map<string, string>();
const steps = new Map<string, number>();
for (const c of allCases()) {
  if (ONLY_CASES && !ONLY_CASES.includes(c.id)) continue;
  ids.push(c.id);
  titles.set(c.id, c.title);
  steps.set(c.id, c.steps);
}

async function runCase(impl: string, id: string, pass: number): Promise<Result[]> {
  const [cmd, args] = impl === "ours_deno"
    ? ["deno", [
      "run",
      "--allow-all",
      "--config",
      join(ROOT, "deno.json"),
      "--v8-flags=--expose-gc",
      RUNNER,
      join(ROOT, "bench", "deno", "_cases.ts"),
    ]]
    // A bigger heap than the default: a peer's 1,000-step loop holds gigabytes.
    : ["node", ["--expose-gc", "--max-old-space-size=12288", RUNNER, NODE_IMPLS[impl]]];
  const argv = [cmd, ...args, impl, id, String(pass)];
  const pinned = CPU === undefined ? argv : ["taskset", "-c", String(CPU), ...argv];
  const out = await new Deno.Command(pinned[0], {
    args: pinned.slice(1),
    cwd: NODE_DIR,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = parseLines(new TextDecoder().decode(out.stdout));
  if (!out.success || lines.length === 0) {
    return [{ impl, id, pass, error: new TextDecoder().decode(out.stderr).trim() }];
  }
  return lines.filter((r) => !r.skipped);
}

const results: Result[] = [];
for (let pass = 1; pass <= PASSES; pass++) {
  for (const id of ids) {
    log(`pass ${pass} of ${PASSES}: ${id}`);
    const impls = OURS_ONLY.includes(id) ? ["ours_deno", "ours"] : [
      "ours_deno",
      ...Object.keys(NODE_IMPLS).filter((i) =>
        i === "ours" || ONLY_PEERS === undefined || ONLY_PEERS.includes(i)
      ),
    ];
    for (const impl of impls) {
      results.push(...await runCase(impl, id, pass));
    }
  }
}

// The raw results first: a run takes minutes, and they outlive a report that fails.
await Deno.writeTextFile(
  join(NODE_DIR, "node_modules", ".bench", "results.json"),
  JSON.stringify(results, null, 2),
);

// 4. deno bench.
let denoBench: { name: string; avg: number; p75: number; n: number }[] = [];
if (!quick) {
  log("deno bench bench/deno/");
  const json = JSON.parse(
    await exec("deno", [
      "bench",
      "--json",
      // frameworks.bench.ts: cassette files; the AI SDK reads the host name as it loads.
      "--allow-read",
      "--allow-write",
      "--allow-sys=hostname,homedir",
      // providers.bench.ts: FakeProvider.listen() on loopback.
      "--allow-net=127.0.0.1",
      "bench/deno/",
    ]),
  );
  denoBench = json.benches.map((
    b: { name: string; results: { ok: Record<string, number> }[] },
  ) => ({
    name: b.name,
    avg: b.results[0].ok.avg / 1000,
    p75: b.results[0].ok.p75 / 1000,
    n: b.results[0].ok.n,
  }));
}
const load1 = loadAverage();

// 5. RESULTS.md.
function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
const runsOf = (impl: string, id: string) =>
  results.filter((r) => r.impl === impl && r.id === id && r.us !== undefined);
// An implementation's case over the passes: the median of each measure.
const get = (impl: string, id: string): Result | undefined => {
  const runs = runsOf(impl, id);
  if (runs.length === 0) {
    return results.find((r) => r.impl === impl && r.id === id && r.error);
  }
  const m = (f: (r: Result) => number | undefined) =>
    median(runs.map(f).filter((x): x is number => x !== undefined));
  return {
    impl,
    id,
    us: m((r) => r.us),
    cpuUs: m((r) => r.cpuUs),
    usPerStep: m((r) => r.usPerStep),
    heapBytesPerRun: m((r) => r.heapBytesPerRun),
  };
};
// The ratio of `impl` to `base` in each pass both ran in (`impl` ÷ `base`),
// on wall time, or on CPU time (what each took of the processor, whatever
// the other processes on the machine did meanwhile).
const ratios = (impl: string, base: string, id: string, on: "us" | "cpuUs" = "us"): number[] => {
  const out: number[] = [];
  for (const r of runsOf(impl, id)) {
    const b = runsOf(base, id).find((x) => x.pass === r.pass);
    if (b?.[on] && r[on]) out.push(r[on] / b[on]);
  }
  return out;
};
const ratioText = (x: number | undefined): string =>
  x === undefined ? "—" : `${x.toFixed(x >= 10 ? 0 : 1)}×`;
const PEERS = [
  ["ai_sdk", "AI SDK"],
  ["langchain", "LangChain"],
  ["openai_agents", "OpenAI Agents"],
] as const;

function fmt(us: number | undefined): string {
  if (us === undefined || !Number.isFinite(us)) return "—";
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`;
  if (us >= 100) return `${us.toFixed(0)} µs`;
  if (us >= 10) return `${us.toFixed(1)} µs`;
  return `${us.toFixed(2)} µs`;
}

function cell(impl: string, id: string, base?: string): string {
  const r = get(impl, id);
  if (!r) return "—";
  if (r.error) return "error";
  const ratio = base ? ` (${ratioText(median(ratios(impl, base, id)))})` : "";
  return `${fmt(r.us)}${ratio}`;
}

const versions = await collectVersions();
const cpu = cpus()[0]?.model ?? "unknown";
const lines: string[] = [];
lines.push("# Benchmarks: @agentkit/testing side by side with the peers");
lines.push("");
lines.push(
  `Written by \`deno task bench\` (bench/run.ts) on ${
    new Date().toISOString().slice(0, 10)
  }. Re-run it to refresh; every number below comes from that one run.`,
);
lines.push("");
lines.push("## Machine and versions");
lines.push("");
lines.push(`- CPU: ${cpu}, ${navigator.hardwareConcurrency} cores; ${Deno.build.os}`);
lines.push(
  `- load average (1 min) at the start of the measurements: ${load0}, at the end: ${load1}` +
    " (other work on the machine shows up as noise)",
);
for (const v of versions) lines.push(`- ${v}`);
lines.push(`- our code on Node: ${ourSource}`);
lines.push(
  CPU === undefined
    ? "- CPUs: every measured process ran wherever the scheduler put it (no `--cpu`)"
    : `- CPUs: every measured process was pinned to CPU ${CPU} (\`--cpu=${CPU}\`, with \`taskset\`); the harness and the kernel could use any; V8's helper threads (collector, compiler) shared it, so these numbers do not compare directly with an unpinned run's`,
);
lines.push(
  `- this run: \`deno task bench${
    Deno.args.length ? ` ${Deno.args.join(" ")}` : ""
  }\` (a peer or case it left out shows as —)`,
);
lines.push("");
lines.push(
  `## Median µs per run over ${PASSES} passes (the ratio: the median over the passes of the peer's time over ours on Node in the same pass)`,
);
lines.push("");
lines.push(
  "| case | ours, Deno | ours, Node | AI SDK | LangChain | OpenAI Agents | floor, Node |",
);
lines.push("|---|---:|---:|---:|---:|---:|---:|");
for (const id of ids) {
  lines.push(
    `| ${titles.get(id)} | ${cell("ours_deno", id)} | ${cell("ours", id)} | ${
      PEERS.map(([p]) => cell(p, id, "ours")).join(" | ")
    } | ${cell("floor", id)} |`,
  );
}
lines.push("");
lines.push("## Ratios per pass (the peer's time over ours on Node, measured in the same pass)");
lines.push("");
lines.push(
  `| case | peer | ${
    Array.from({ length: PASSES }, (_, i) => `pass ${i + 1}`).join(" | ")
  } | median |`,
);
lines.push(`|---|---|${"---:|".repeat(PASSES + 1)}`);
for (const id of ids) {
  for (const [p, name] of PEERS) {
    const per = Array.from({ length: PASSES }, (_, i) => {
      const r = runsOf(p, id).find((x) => x.pass === i + 1);
      const b = runsOf("ours", id).find((x) => x.pass === i + 1);
      return r?.us && b?.us ? r.us / b.us : undefined;
    });
    if (per.every((x) => x === undefined)) continue;
    lines.push(
      `| ${id} | ${name} | ${per.map(ratioText).join(" | ")} | ${
        ratioText(median(per.filter((x): x is number => x !== undefined)))
      } |`,
    );
  }
}
lines.push("");
lines.push("## How busy the machine was, per pass");
lines.push("");
lines.push(
  "The 1-minute load average while the pass ran (lowest and highest any process saw), and the share of the machine's CPU time that other processes used while a process timed its repetitions (median and highest over the pass).",
);
lines.push("");
lines.push("| pass | load average | other processes' CPU share (median) | (highest) |");
lines.push("|---:|---:|---:|---:|");
for (let pass = 1; pass <= PASSES; pass++) {
  const rs = results.filter((r) => r.pass === pass && r.load);
  const loads = rs.flatMap((r) => r.load!);
  const shares = rs.map((r) => r.otherCpuShare).filter((x): x is number => typeof x === "number");
  const pct = (x: number | undefined) => x === undefined ? "—" : `${(x * 100).toFixed(0)}%`;
  lines.push(
    `| ${pass} | ${
      loads.length ? `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}` : "—"
    } | ${pct(median(shares))} | ${pct(shares.length ? Math.max(...shares) : undefined)} |`,
  );
}
lines.push("");
lines.push("## The tool loop per step (µs per step; each step a model call and a tool call)");
lines.push("");
lines.push("| steps | ours, Deno | ours, Node | AI SDK | LangChain | OpenAI Agents |");
lines.push("|---:|---:|---:|---:|---:|---:|");
for (const n of [10, 100, 1000]) {
  const id = `react_${n}_steps`;
  const ps = (impl: string) => fmt(get(impl, id)?.usPerStep);
  lines.push(
    `| ${n} | ${ps("ours_deno")} | ${ps("ours")} | ${PEERS.map(([p]) => ps(p)).join(" | ")} |`,
  );
}
// Per-step cost at 1,000 steps over that at 10, in each pass (the two ran in
// the same pass, a few processes apart), and the median of the passes'
// ratios, as for the peers' ratios.
const flatByPass = (impl: string): { pass: number; ratio: number }[] => {
  const out: { pass: number; ratio: number }[] = [];
  for (const b of runsOf(impl, "react_1000_steps")) {
    const a = runsOf(impl, "react_10_steps").find((x) => x.pass === b.pass);
    if (a?.usPerStep && b.usPerStep) out.push({ pass: b.pass!, ratio: b.usPerStep / a.usPerStep });
  }
  return out;
};
const flatRatios = (impl: string): number[] => flatByPass(impl).map((x) => x.ratio);
const flatOf = (impl: string): number | undefined => median(flatRatios(impl));
const flat = (impl: string) => flatOf(impl)?.toFixed(2) ?? "—";
lines.push(
  `| 1000 ÷ 10 (median of the passes) | ${flat("ours_deno")} | ${flat("ours")} | ${
    PEERS.map(([p]) => flat(p)).join(" | ")
  } |`,
);
lines.push(
  "| 1000 ÷ 10, pass: ratio | " +
    [["ours_deno"], ["ours"], ...PEERS].map(([i]) =>
      flatByPass(i).map((x) => `${x.pass}: ${x.ratio.toFixed(2)}`).join(", ") || "—"
    ).join(" | ") + " |",
);
lines.push("");
lines.push("## Heap retained per run (bytes, after GC, while the state that ran is alive)");
lines.push("");
lines.push("| case | ours, Deno | ours, Node | AI SDK | LangChain | OpenAI Agents |");
lines.push("|---|---:|---:|---:|---:|---:|");
for (const id of ids) {
  const h = (impl: string) => {
    const v = get(impl, id)?.heapBytesPerRun;
    // A few hundred bytes either way is the collector's noise.
    return v === undefined ? "—" : v < 200 ? "< 200" : `${Math.round(v)}`;
  };
  lines.push(
    `| ${id} | ${h("ours_deno")} | ${h("ours")} | ${PEERS.map(([p]) => h(p)).join(" | ")} |`,
  );
}
lines.push("");
lines.push("## Targets");
lines.push("");
lines.push(
  "Wall time decides; the CPU time (this process's user and system time per run, from `process.cpuUsage()`) is shown beside it, since other processes' share of the machine inflates the wall time and not the CPU time.",
);
lines.push("");
lines.push("| target | Deno | Node | met |");
lines.push("|---|---:|---:|---|");
const target = (label: string, id: string, limit: number) => {
  const d = get("ours_deno", id), n = get("ours", id);
  const ok = (x?: number) => x !== undefined && x <= limit;
  const both = (r?: Result) => `${fmt(r?.us)} (CPU ${fmt(r?.cpuUs)})`;
  const wall = met(ok(d?.us), ok(n?.us));
  const cpu = met(ok(d?.cpuUs), ok(n?.cpuUs));
  lines.push(
    `| ${label} | ${both(d)} | ${both(n)} | ${wall}${
      cpu === wall ? "" : `; on CPU time: ${cpu}`
    } |`,
  );
};
function met(deno: boolean, node: boolean): string {
  return deno && node ? "yes" : deno ? "on Deno only" : node ? "on Node only" : "no";
}
target("streamed run, 3 chunks (retry + meter + budget) ≤ 2 µs", "stream_3_chunks", 2);
target("2-step ReAct loop ≤ 3 µs", "react_2_steps", 3);
target("construction ≤ 0.7 µs", "construct", 0.7);
target("10 × 30 s backoff < 1 ms of wall time", "retry_10x30s", 1000);
{
  const d = flatOf("ours_deno"), n = flatOf("ours");
  const ok = (x?: number) => x !== undefined && x <= 1.2 && x >= 1 / 1.2;
  lines.push(
    `| µs per step flat within 20% from 10 to 1,000 steps (1000 ÷ 10, median of the passes' ratios) | ${
      d?.toFixed(2) ?? "—"
    } | ${n?.toFixed(2) ?? "—"} | ${met(ok(d), ok(n))} |`,
  );
}
{
  const h = (impl: string) => {
    const v = get(impl, "react_1000_steps")?.heapBytesPerRun;
    return v === undefined ? undefined : v / 1000;
  };
  const d = h("ours_deno"), n = h("ours");
  const ok = (x?: number) => x !== undefined && x <= 600;
  lines.push(
    `| heap per ReAct step ≤ 600 B (1,000 steps) | ${d?.toFixed(0) ?? "—"} B | ${
      n?.toFixed(0) ?? "—"
    } B | ${met(ok(d), ok(n))} |`,
  );
}
const faster = (label: string, peer: string, id: string, times: number) => {
  const r = median(ratios(peer, "ours", id));
  const c = median(ratios(peer, "ours", id, "cpuUs"));
  const yes = (x?: number) => x !== undefined && x >= times ? "yes" : "no";
  lines.push(
    `| ${label} (median of the passes' ratios) | | ${ratioText(r)} (CPU ${ratioText(c)}) | ${
      yes(r)
    }${yes(c) === yes(r) ? "" : `; on CPU time: ${yes(c)}`} |`,
  );
};
faster(
  "streamed run ≥ 20× faster than LangChain's fake stream",
  "langchain",
  "stream_3_chunks",
  20,
);
faster(
  "single-turn `agent.run` ≥ 6× faster than LangChain's `FakeListChatModel.invoke`",
  "langchain",
  "single_turn",
  6,
);
faster("construction no slower than LangChain's (≥ 1×)", "langchain", "construct", 1);
faster(
  "construction no slower than the AI SDK's `MockLanguageModelV4` (≥ 1×)",
  "ai_sdk",
  "construct",
  1,
);
if (denoBench.length) {
  lines.push("");
  lines.push("## `deno bench bench/deno/` (its own statistics: mean and p75 per iteration)");
  lines.push("");
  lines.push("| bench | mean | p75 | iterations |");
  lines.push("|---|---:|---:|---:|");
  for (const b of denoBench) {
    lines.push(`| ${b.name} | ${fmt(b.avg)} | ${fmt(b.p75)} | ${b.n} |`);
  }
}
lines.push("");
lines.push("## How it is measured");
lines.push("");
for (
  const note of [
    `Every implementation, case and pass runs in its own process (bench/node/case_runner.mjs, the same file on Deno and on Node): a warm-up of at least 0.6 s and 2,000 runs (at most 5 s; some peers take thousands of runs to reach their steady state), then 5 repetitions of as many runs as fit in about 150 ms (at least 10; sized from two timed batches after the warm-up, since the warm-up's own mean includes the runs before the JIT settled); a pass reports the median repetition's mean µs per run, and the tables give the median over ${PASSES} passes. Each repetition's CPU time (\`process.cpuUsage()\`, user and system, with a single-use state's build measured alone and taken off) is recorded too, and shown beside the wall time in the targets.`,
    "The passes are interleaved: a pass runs every case, each case's implementations back to back, and the next pass runs them all again. A busy spell on the shared machine then falls on the implementations of a case alike, and a case's passes are spread over the whole run rather than one stretch of it (this VM has spells of minutes in which every process runs about 1.5× slower). A ratio compares two runs of one pass: two implementations of a case, or a 1,000-step loop and a 10-step one (per-step flatness); the tables give the median of the passes' ratios, and every pass's ratio is listed, next to how busy the machine was (load average, and the CPU share of other processes read from /proc while the repetitions ran).",
    "A case builds a state (context, double, agent) and times runs on it. A state that records requests serves 1,000 runs and is then rebuilt inline, its cost (under 0.1%) spread over them; a state whose script one run uses up (the tool loops, the retry) is built right before each run, as a test builds its context, and only the run is timed. The tool loops' agent, whose `FakeTool` records every call, is replaced after about 1,000 tool calls, and its zod schema is a module constant (zod compiles a parser on a schema's first parse).",
    "Ours: `makeTestCtx({ llm, chatMiddleware: [retry(), meter()], budget })` with a `FakeLLM`; the tool is a `FakeTool` with a zod schema; the loops are `ReActCognition`. Node runs the npm build; Deno runs the sources.",
    "AI SDK: `MockLanguageModelV4` from `ai/test`; `generateText`, `streamText` over `simulateReadableStream` with both delays `null`, and tool loops with `stopWhen: stepCountIs(n)`. Its retry waits on the global `setTimeout`, so the backoff case installs `@sinonjs/fake-timers` over the globals and drives it with `runAllAsync()`; a `retry-after-ms: 30000` header makes each of its 10 waits 30 s.",
    "LangChain: `FakeListChatModel` for `invoke` and `.stream` (it streams one character per chunk, so `ok!` is 3 chunks); its fakes cannot script a tool call and then an answer, so the loops use a minimal `BaseChatModel` subclass and the loop @langchain/core leaves to the caller (`invoke`, then `tool.invoke(call)` per call). It has no retry with a clock to fake: no backoff case.",
    "OpenAI Agents: `run()` with tracing disabled and a scripted model implementing its `Model` interface (it ships none); the n-step loops end at `maxTurns: n` (n model turns, each with its tool call). No backoff case: its retries are not driven by a clock a test can replace.",
    "Floors: an `await` of a resolved promise, and an async generator of 3 chunks consumed, timed by the same runner (its own `await` per run included).",
    "Heap: the growth of the heap across up to 500 runs, between two forced GCs, per run, while the states that ran are alive (a double's record of requests counts); under 200 bytes is within the collector's noise. It is measured after the timed repetitions: its forced GCs and the states it holds slowed the runs timed after them (on Deno, a 1,000-step loop by 1.6× per step).",
    "Construction: ours checks every scripted turn when the script is built (a hand-written check, zod only to explain a bad turn) and builds a `RunContext` whose services (invoker, clock) are built when first read, for the common `makeTestCtx` bag (a model and the run's own fields); the price table, the null observer and tracer are shared, the fake's record, the invoker's chains and the fake clock's timer engine are built on first use. The peers' mocks keep their scripted responses and look at them only when called.",
    "Noise: this machine is small and shared, and the same case can move by up to 2× between runs of `deno task bench` (the load average above says how busy it was); a target within that margin can flip from one run to the next.",
  ]
) lines.push(`- ${note}`);
lines.push("");
const errors = results.filter((r) => r.error);
if (errors.length) {
  lines.push("## Errors");
  lines.push("");
  for (const e of errors) lines.push(`- ${e.impl} / ${e.id}: ${e.error?.split("\n")[0]}`);
  lines.push("");
}
// Sections this run does not write are kept as they were: the cold start
// (bench/cold_start.ts, its own task) and hand-run before/after comparisons.
{
  // A heading of ours may hold a count ("over 5 passes"): compared without digits.
  const shape = (heading: string) => heading.replace(/\d+/g, "#");
  const ours = new Set(lines.filter((l) => l.startsWith("## ")).map(shape));
  const previous = await Deno.readTextFile(join(ROOT, "bench", "RESULTS.md")).catch(() => "");
  for (const section of previous.split(/\n(?=## )/).slice(1)) {
    const heading = section.slice(0, section.indexOf("\n") >>> 0);
    // Its optional sections are its own even when this run has none (a --quick run).
    const optional = heading.startsWith("## `deno bench") || heading === "## Errors";
    if (!ours.has(shape(heading)) && !optional) lines.push(section.trim(), "");
  }
}
await Deno.writeTextFile(join(ROOT, "bench", "RESULTS.md"), lines.join("\n"));
await exec("deno", ["fmt", join(ROOT, "bench", "RESULTS.md")]);
log("wrote bench/RESULTS.md");

function loadAverage(): string {
  return Deno.loadavg()[0].toFixed(2);
}

async function collectVersions(): Promise<string[]> {
  const node = (await exec("node", ["--version"])).trim();
  const pkg = async (name: string) => {
    try {
      const json = JSON.parse(
        await Deno.readTextFile(join(NODE_DIR, "node_modules", name, "package.json")),
      );
      return `${name} ${json.version}`;
    } catch {
      return `${name} (not installed)`;
    }
  };
  const ours = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).version;
  return [
    `Deno ${Deno.version.deno} (V8 ${Deno.version.v8}), Node ${node}`,
    `@agentkit/testing ${ours}`,
    `peers: ${
      (await Promise.all(["ai", "@langchain/core", "@openai/agents", "zod"].map(pkg))).join(", ")
    }`,
  ];
}
