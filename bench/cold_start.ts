/**
 * `deno task bench:cold`: what a test file pays before its first test, on
 * Node 22 and on Deno. Each subject is a fresh process that imports a
 * package and does one model call through its test double; an empty program
 * is the floor. The subjects of a round run back to back (in an order that
 * rotates from round to round), so a busy spell on the shared machine falls
 * on all of them alike, and each ratio compares the times of one round.
 *
 * Subjects (bench/node/cold/*.mjs on Node, bench/deno/cold/*.ts on Deno):
 * `ours` (the root entry, `makeTestCtx({ llm: new FakeLLM("ok") })`, one
 * `agent.run`; Node runs a fresh npm build, Deno the sources), `ai_sdk`
 * (`MockLanguageModelV4` and one `generateText`), `langchain` (Node only:
 * `FakeListChatModel.invoke`), `empty`.
 *
 * Writes the "## Cold start" section of bench/RESULTS.md (bench/run.ts keeps
 * it when it rewrites the rest).
 *
 *   deno task bench:cold [--rounds=N] [--cpu=N] [--no-build] [--dry] [--before=<commit>]
 *   (--rounds: default 15, after one untimed round that fills the caches;
 *   --before: also measure our package as it was at that commit, as the
 *   subject `before`, in the same rounds;
 *   --cpu: pin every measured process to that CPU with `taskset`;
 *   --no-build: use the npm build already in bench/node/node_modules;
 *   --dry: print the section, leave RESULTS.md alone)
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const NODE_DIR = join(ROOT, "bench", "node");
const RESULTS = join(ROOT, "bench", "RESULTS.md");
/** The heading of the section this script owns in bench/RESULTS.md. */
export const COLD_HEADING = "## Cold start";

const FLAGS = ["rounds", "cpu", "no-build", "dry", "before"];
function flag(name: string): string | undefined {
  const arg = Deno.args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return arg === undefined ? undefined : arg.slice(name.length + 3);
}
function wholeFlag(name: string, fallback: number, min: number, max: number): number {
  const raw = flag(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    console.error(`bench:cold: --${name}=${raw} is not a whole number from ${min} to ${max}`);
    Deno.exit(2);
  }
  return n;
}

interface Subject {
  readonly runtime: "node" | "deno";
  readonly name: string;
  readonly argv: readonly string[];
}

/** The median of `xs` (undefined for none). */
export function median(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The per-round ratios of `peer`'s cost over `ours`' cost, each cost being
 * the time over the same round's empty process: above 1, ours starts faster.
 */
export function overheadRatios(
  rounds: readonly Readonly<Record<string, number>>[],
  ours: string,
  peer: string,
  empty: string,
): number[] {
  const out: number[] = [];
  for (const r of rounds) {
    if (!(ours in r && peer in r && empty in r)) continue;
    const mine = r[ours] - r[empty], theirs = r[peer] - r[empty];
    if (Number.isFinite(mine) && Number.isFinite(theirs) && mine > 0) out.push(theirs / mine);
  }
  return out;
}

async function output(cmd: string, args: string[], cwd = ROOT): Promise<string> {
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

// GNU time, where there is one: the CPU time (user + system) a subject's
// process used, which other processes on the machine inflate far less than
// its wall time (in 10 ms steps: the kernel's accounting tick).
const GNU_TIME = "/usr/bin/time";
let cpuTimes = false;

interface Timing {
  readonly wallMs: number;
  readonly cpuMs?: number;
}

// One run of a subject: the wall time from spawn to exit, and its CPU time, in ms.
async function timeOnce(s: Subject, cpu: number | undefined): Promise<Timing> {
  const timed = cpuTimes ? [GNU_TIME, "-f", "cpu %U %S", ...s.argv] : [...s.argv];
  const argv = cpu === undefined ? timed : ["taskset", "-c", String(cpu), ...timed];
  const t0 = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: s.runtime === "node" ? NODE_DIR : ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - t0;
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`bench:cold: ${s.runtime} ${s.name} failed:\n${stderr}`);
  const m = /^cpu (\d+\.\d+) (\d+\.\d+)$/m.exec(stderr);
  return { wallMs, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
}

/** Replaces (or appends) the `## Cold start` section of a RESULTS.md text. */
export function withSection(text: string, section: string): string {
  const start = text.indexOf(`\n${COLD_HEADING}`);
  if (start < 0) return `${text.trimEnd()}\n\n${section.trim()}\n`;
  const next = text.indexOf("\n## ", start + 1);
  const rest = next < 0 ? "" : text.slice(next);
  return `${text.slice(0, start).trimEnd()}\n\n${section.trim()}\n${rest}`;
}

/** The `## Cold start` section of a RESULTS.md text, or "" when it has none. */
export function sectionOf(text: string): string {
  const start = text.indexOf(`\n${COLD_HEADING}`);
  if (start < 0) return "";
  const next = text.indexOf("\n## ", start + 1);
  return text.slice(start + 1, next < 0 ? undefined : next).trim();
}

if (import.meta.main) await main();

async function main(): Promise<void> {
  for (const arg of Deno.args) {
    const name = arg.replace(/^--/, "").split("=")[0];
    if (!arg.startsWith("--") || !FLAGS.includes(name)) {
      console.error(`bench:cold: unknown argument "${arg}"; known flags: --${FLAGS.join(", --")}`);
      Deno.exit(2);
    }
  }
  const rounds = wholeFlag("rounds", 15, 1, 999);
  const cpuRaw = flag("cpu");
  const cpu = cpuRaw === undefined
    ? undefined
    : wholeFlag("cpu", 0, 0, navigator.hardwareConcurrency - 1);
  const log = (line: string) => console.error(`bench:cold: ${line}`);
  cpuTimes = await new Deno.Command(GNU_TIME, { args: ["-f", "%U", "true"], stderr: "null" })
    .output().then((o) => o.success, () => false);

  try {
    await Deno.stat(join(NODE_DIR, "node_modules", "ai"));
  } catch {
    log("installing bench/node packages (npm ci)");
    await output("npm", ["ci", "--no-audit", "--no-fund"], NODE_DIR);
  }
  if (flag("no-build") === undefined) {
    const dir = await Deno.makeTempDir({ prefix: "agentkit_cold_npm_" });
    try {
      log("building the npm package (deno task build:npm)");
      await output("deno", ["task", "build:npm", `--out=${dir}`]);
      await output("node", [join(NODE_DIR, "build_ours.mjs"), `--from=${dir}`]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  // --before=<commit>: that commit's tree (git archive), its npm build
  // installed beside ours as @agentkit/testing-before, and a subject for each
  // runtime that does what `ours` does through it.
  const before = flag("before");
  const beforeSubjects: Subject[] = [];
  let beforeDir: string | undefined;
  if (before !== undefined) {
    beforeDir = await Deno.makeTempDir({ prefix: "agentkit_cold_before_" });
    log(`exporting ${before} and building its npm package`);
    const tar = join(beforeDir, "tree.tar");
    await output("git", ["archive", "--output", tar, before]);
    const tree = join(beforeDir, "tree");
    await Deno.mkdir(tree);
    await output("tar", ["-xf", tar, "-C", tree]);
    const pkg = join(NODE_DIR, "node_modules", "@agentkit", "testing-before");
    await Deno.remove(pkg, { recursive: true }).catch(() => {});
    await output("deno", ["task", "build:npm", `--out=${pkg}`], tree);
    const ours = await Deno.readTextFile(join(NODE_DIR, "cold", "ours.mjs"));
    const nodeFile = join(NODE_DIR, "node_modules", ".bench", "cold_before.mjs");
    await Deno.mkdir(dirname(nodeFile), { recursive: true });
    await Deno.writeTextFile(
      nodeFile,
      ours.replace('from "@agentkit/testing"', 'from "@agentkit/testing-before"'),
    );
    const denoFile = join(tree, "_cold_before.ts");
    await Deno.writeTextFile(
      denoFile,
      (await Deno.readTextFile(join(ROOT, "bench", "deno", "cold", "ours.ts")))
        .replace('from "@agentkit/testing"', 'from "./mod.ts"'),
    );
    beforeSubjects.push(
      { runtime: "node", name: "before", argv: [nodeFile] },
      { runtime: "deno", name: "before", argv: [denoFile, join(tree, "deno.json")] },
    );
  }
  log("finding Node 22 (npx --yes node@22)");
  const node22 = (await output("npx", ["--yes", "node@22", "-p", "process.execPath"])).trim();
  const nodeVersion = (await output(node22, ["--version"])).trim();

  // The same flags for every Deno subject; the AI SDK reads the host name.
  const denoRun = (file: string, config = join(ROOT, "deno.json")) => [
    Deno.execPath(),
    "run",
    "--allow-read",
    "--allow-env",
    "--allow-sys=hostname,homedir",
    "--config",
    config,
    file,
  ];
  const subjects: Subject[] = [
    ...["empty", "ours", "ai_sdk", "langchain"].map((name): Subject => ({
      runtime: "node",
      name,
      argv: [node22, join(NODE_DIR, "cold", `${name}.mjs`)],
    })),
    ...beforeSubjects.filter((s) => s.runtime === "node").map((s) => ({
      ...s,
      argv: [node22, s.argv[0]],
    })),
    ...["empty", "ours", "ai_sdk"].map((name): Subject => ({
      runtime: "deno",
      name,
      argv: denoRun(join(ROOT, "bench", "deno", "cold", `${name}.ts`)),
    })),
    ...beforeSubjects.filter((s) => s.runtime === "deno").map((s) => ({
      ...s,
      argv: denoRun(s.argv[0], s.argv[1]),
    })),
  ];
  const key = (s: Subject) => `${s.runtime}/${s.name}`;

  log("one untimed round (fills Deno's and the OS's caches)");
  for (const s of subjects) await timeOnce(s, cpu);
  const loads: number[] = [Deno.loadavg()[0]];
  const times: Record<string, number>[] = [];
  const cpus: Record<string, number>[] = [];
  for (let r = 0; r < rounds; r++) {
    log(`round ${r + 1} of ${rounds}`);
    const round: Record<string, number> = {}, roundCpu: Record<string, number> = {};
    // The order rotates, so no subject always runs first (or right after another).
    for (let i = 0; i < subjects.length; i++) {
      const s = subjects[(i + r) % subjects.length];
      const t = await timeOnce(s, cpu);
      round[key(s)] = t.wallMs;
      if (t.cpuMs !== undefined) roundCpu[key(s)] = t.cpuMs;
    }
    times.push(round);
    cpus.push(roundCpu);
    loads.push(Deno.loadavg()[0]);
  }

  const ms = (x: number | undefined) => x === undefined ? "—" : `${x.toFixed(0)} ms`;
  const ratio = (x: number | undefined) => x === undefined ? "—" : `${x.toFixed(2)}×`;
  const over = (rs: Record<string, number>[], k: string, empty: string) =>
    median(rs.filter((t) => k in t && empty in t).map((t) => t[k] - t[empty]));
  const lines: string[] = [
    COLD_HEADING,
    "",
    `Written by \`deno task bench:cold\` (bench/cold_start.ts) on ${
      new Date().toISOString().slice(0, 10)
    }: ${rounds} rounds after one untimed one; in each round every subject ran once, as a fresh process, back to back in an order that rotates from round to round${
      cpu === undefined ? "" : `, pinned to CPU ${cpu}`
    }. ${nodeVersion} (\`npx --yes node@22\`) on a fresh npm build;${
      before === undefined
        ? ""
        : ` \`before\` is our package at ${before} (its npm build on Node, its sources on Deno), in the same rounds, so its ratio is this tree's speed-up;`
    } Deno ${Deno.version.deno} on the sources. A subject imports its package and does one model call through its double: ours \`makeTestCtx({ llm: new FakeLLM("ok") })\` and one \`agent.run\` through the root entry; the AI SDK \`MockLanguageModelV4\` and one \`generateText\`; LangChain \`FakeListChatModel.invoke\`. A cost is a subject's time over the empty process's in the same round; a ratio is the peer's cost over ours in the same round (above 1×: ours starts faster), the median over the rounds (lowest and highest round in brackets). Wall time is spawn to exit; CPU time is the process's user + system time (GNU time, in the kernel's 10 ms ticks), which other work on the machine inflates less. Load average (1 min) during the rounds: ${
      Math.min(...loads).toFixed(2)
    }–${
      Math.max(...loads).toFixed(2)
    }; the machine is shared (2 cores), so a single round can be off by tens of ms, and only the ratios of one run compare.`,
    "",
    "| runtime | subject | wall time | wall cost over empty | peer ÷ ours, wall | CPU cost over empty | peer ÷ ours, CPU |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  const ratioCell = (rs: number[]) =>
    rs.length ? `${ratio(median(rs))} (${ratio(Math.min(...rs))}–${ratio(Math.max(...rs))})` : "";
  for (const runtime of ["node", "deno"] as const) {
    const empty = `${runtime}/empty`, ours = `${runtime}/ours`;
    for (const s of subjects.filter((x) => x.runtime === runtime)) {
      const k = key(s);
      const peer = s.name !== "empty" && s.name !== "ours";
      const base = s.name === "empty";
      lines.push(
        `| ${runtime === "node" ? "Node 22" : "Deno"} | ${s.name} | ${
          ms(median(times.map((t) => t[k])))
        } | ${base ? "" : ms(over(times, k, empty))} | ${
          peer ? ratioCell(overheadRatios(times, ours, k, empty)) : ""
        } | ${base || !cpuTimes ? "" : ms(over(cpus, k, empty))} | ${
          peer && cpuTimes ? ratioCell(overheadRatios(cpus, ours, k, empty)) : ""
        } |`,
      );
    }
  }
  lines.push("");
  lines.push(
    `Per round, wall ms (${subjects.map(key).join(" / ")}): ` +
      times.map((t, i) => `${i + 1}: ${subjects.map((s) => t[key(s)].toFixed(0)).join("/")}`)
        .join("; "),
  );
  if (beforeDir) await Deno.remove(beforeDir, { recursive: true });
  const section = lines.join("\n");
  if (flag("dry") !== undefined) {
    console.log(section);
    return;
  }
  let text = "";
  try {
    text = await Deno.readTextFile(RESULTS);
  } catch {
    text = "# Benchmarks: @agentkit/testing side by side with the peers\n";
  }
  await Deno.writeTextFile(RESULTS, withSection(text, section));
  await output("deno", ["fmt", RESULTS]);
  log("wrote the cold-start section of bench/RESULTS.md");
}
