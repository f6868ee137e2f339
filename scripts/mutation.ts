// Mutation testing: StrykerJS (tools/mutation/, on Node 22) mutates a module
// and runs only that module's targeted tests, so a score says how much of the
// module those tests pin down.
//
//   deno task mutation runtime/money/budget.ts [more modules]   one Stryker run each
//   deno task mutation --changed [--base REF] [--lines] [modules]   modules changed since REF
//                                       (default main; --lines: only the changed lines;
//                                       modules named: only those of them)
//   deno task mutation                                    every module in targets.json
//   deno task mutation --together [modules]               one run for all of them (default:
//                                       every module in runtime/ and testing/), each
//                                       still judged by its own targeted tests
//   --runner command                    the old runner, to cross-check (not with --together)
//   --ignore-static                     leave static mutants out (Stryker's ignoreStatic)
//
// The runner (tools/mutation/deno_runner.ts, a Stryker plugin) keeps one Deno
// process per Stryker worker (deno_harness.ts): it loads the test files once
// with Deno.test replaced by a collector, records which tests reach which
// mutant, and then judges a mutant by setting Stryker's active mutant in
// memory and running only the covering tests, bailing on the first failure
// (tens of milliseconds instead of a `deno test` process). A mutant that runs
// while modules load (static), one the warm process cannot reach (its code ran
// once and was cached), and a kill by a test that fails without the mutant too
// go to a fresh process that loads with the mutant active and runs every
// targeted test, as `deno test` would. `--runner command` is Stryker's command
// runner: one `deno test` of the targeted files per mutant.
//
// Targeted tests: tools/mutation/targets.json, else the mirrored
// tests/<dir>/<name>_test.ts. Reports: reports/mutation/<module or "together">/
// mutation.{html,json} (`_command` appended for the command runner).
import { parseArgs } from "node:util";

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const tools = `${root}/tools/mutation`;
const reports = `${root}/reports/mutation`;
const targets: Record<string, string[]> = JSON.parse(
  await Deno.readTextFile(`${tools}/targets.json`),
);

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    changed: { type: "boolean", default: false },
    base: { type: "string" },
    lines: { type: "boolean", default: false },
    runner: { type: "string", default: "deno" },
    together: { type: "boolean", default: false },
    "ignore-static": { type: "boolean", default: false },
  },
});

function exists(path: string): boolean {
  try {
    Deno.statSync(`${root}/${path}`);
    return true;
  } catch {
    return false;
  }
}

async function git(...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd: root, stderr: "inherit" }).output();
  if (!out.success) throw new Error(`git ${args.join(" ")} failed`);
  return new TextDecoder().decode(out.stdout);
}

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(`${root}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else yield path;
  }
}

const isModule = (path: string) =>
  /^(runtime|testing)\/.*\.ts$/.test(path) && !path.endsWith("_test.ts") && exists(path);

function testsOf(module: string): string[] {
  const listed = targets[module] ?? [`tests/${module.replace(/\.ts$/, "_test.ts")}`];
  return listed.filter(exists);
}

// Changed line ranges per module, against the merge base with REF (main by
// default), working tree included.
async function changed(base: string): Promise<Map<string, string[]>> {
  const from = (await git("merge-base", "HEAD", base)).trim();
  const diff = await git("diff", "--unified=0", "--no-color", from, "--", "runtime", "testing");
  const ranges = new Map<string, string[]>();
  let file = "";
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ ")) file = line.slice(4).replace(/^b\//, "");
    const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && isModule(file) && hunk[2] !== "0") {
      const start = Number(hunk[1]);
      const end = start + Number(hunk[2] ?? 1) - 1;
      ranges.set(file, [...ranges.get(file) ?? [], `${file}:${start}-${end}`]);
    }
  }
  // A new module git does not track yet is changed as a whole.
  const untracked = await git("ls-files", "--others", "--exclude-standard", "runtime", "testing");
  for (const file of untracked.split("\n").filter(isModule)) ranges.set(file, [file]);
  return ranges;
}

let runs: Array<{ module: string; mutate: string[] }>;
if (values.changed) {
  const ranges = await changed(values.base ?? "main");
  // Modules named too: only those of the changed ones.
  if (positionals.length) {
    for (const m of [...ranges.keys()]) if (!positionals.includes(m)) ranges.delete(m);
  }
  runs = [...ranges].map(([module, lines]) => ({
    module,
    mutate: values.lines ? lines : [module],
  }));
  if (runs.length === 0) console.log("No module under runtime/ or testing/ changed.");
} else {
  const modules = positionals.length
    ? positionals
    : values.together
    ? [...walk("runtime"), ...walk("testing")].filter(isModule).sort()
    : Object.keys(targets);
  for (const m of modules) if (!isModule(m)) throw new TypeError(`Not a module: ${m}`);
  runs = modules.map((module) => ({ module, mutate: [module] }));
}

// The dependencies live in a committed lockfile; install them on first use.
const node = ["npx", "--yes", "node@22"];
if (!exists("tools/mutation/node_modules/@stryker-mutator/core")) {
  const ci = await new Deno.Command("npm", { args: ["ci", "--no-audit", "--no-fund"], cwd: tools })
    .spawn().status;
  if (!ci.success) throw new Error("npm ci in tools/mutation failed");
}
const stryker = `${tools}/node_modules/@stryker-mutator/core/bin/stryker.js`;
const base = JSON.parse(await Deno.readTextFile(`${tools}/stryker.config.json`));

if (values.runner !== "deno" && values.runner !== "command") {
  throw new TypeError(`--runner takes "deno" or "command", not "${values.runner}"`);
}
// What test:unit and test:net grant (loopback only: tests/http serve on 127.0.0.1).
const permissions = [
  "--unstable-kv",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-sys=hostname,homedir",
  "--allow-net=127.0.0.1",
  `--allow-run=${Deno.execPath()}`,
];

// The runner's part of the config: the command runner starts `deno test` per
// mutant; the deno runner (tools/mutation/deno_runner.ts) keeps one Deno
// process per worker and switches mutants in it, running only the tests that
// cover each one.
function runnerConfig(tests: string[]): Record<string, unknown> {
  if (values.runner === "command") {
    const command = [
      "deno test --no-check --sanitize-ops --sanitize-resources --fail-fast",
      ...permissions,
      ...tests,
    ].join(" ");
    return { testRunner: "command", coverageAnalysis: "off", commandRunner: { command } };
  }
  return {
    testRunner: "deno",
    coverageAnalysis: "perTest",
    plugins: [`${tools}/deno_runner.ts`],
    denoRunner: {
      testFiles: tests,
      denoArgs: ["--no-check", ...permissions],
      deno: Deno.execPath(),
    },
  };
}

// One Stryker run per module; with --together, one run over all of them in
// which the deno runner still judges each module by its own targeted tests
// (one Stryker start, one sandbox, one warm process for the whole core).
const jobs = values.together
  ? [{ name: "together", runs }]
  : runs.map((run) => ({ name: run.module, runs: [run] }));
if (values.together && values.runner !== "deno") {
  throw new TypeError("--together needs the deno runner");
}

const scores: string[] = [];
let failed = false;
for (const job of jobs) {
  const targets: Record<string, string[]> = {};
  for (const { module } of job.runs) {
    const tests = testsOf(module);
    if (tests.length) {
      targets[module] = tests;
    } else {
      console.log(`Skipping ${module}: no targeted tests (add it to tools/mutation/targets.json)`);
    }
  }
  const included = job.runs.filter(({ module }) => targets[module]);
  if (included.length === 0) continue;
  const tests = [...new Set(Object.values(targets).flat())];
  const suffix = values.runner === "command" ? "_command" : "";
  const dir = `${reports}/${job.name.replace(/\.ts$/, "").replaceAll("/", "_")}${suffix}`;
  await Deno.mkdir(dir, { recursive: true });
  const runner = runnerConfig(tests);
  if (values.together) (runner.denoRunner as Record<string, unknown>).targets = targets;
  const config = {
    ...base,
    ...runner,
    // Static mutants (run while modules load) each need a fresh process and
    // every targeted test; this leaves them out of the score (Stryker marks
    // them Ignored) where they would dominate the time.
    ...(values["ignore-static"] ? { ignoreStatic: true } : {}),
    mutate: included.flatMap((run) => run.mutate),
    htmlReporter: { fileName: `${dir}/mutation.html` },
    jsonReporter: { fileName: `${dir}/mutation.json` },
  };
  await Deno.writeTextFile(`${dir}/stryker.config.json`, JSON.stringify(config, null, 2));
  console.log(
    values.together
      ? `\n== ${included.length} modules together, ${tests.length} test files`
      : `\n== ${job.name} (${config.mutate.length} range(s)), tests: ${tests.join(" ")}`,
  );
  const status = await new Deno.Command(node[0], {
    args: [...node.slice(1), stryker, "run", `${dir}/stryker.config.json`],
    cwd: root,
  }).spawn().status;
  if (!status.success) {
    failed = true;
    continue;
  }
  const report = JSON.parse(await Deno.readTextFile(`${dir}/mutation.json`));
  for (const [file, result] of Object.entries(report.files as Record<string, FileResult>)) {
    scores.push(`${file}: ${score(result)}`);
  }
}

type FileResult = { mutants: { status: string }[] };

// The score as Stryker counts it: timeouts are kills; compile errors and
// ignored mutants are left out.
function score(file: FileResult): string {
  const count: Record<string, number> = {};
  for (const m of file.mutants) count[m.status] = (count[m.status] ?? 0) + 1;
  const caught = (count.Killed ?? 0) + (count.Timeout ?? 0);
  const valid = caught + (count.Survived ?? 0) + (count.NoCoverage ?? 0);
  const pct = valid ? (100 * caught / valid).toFixed(1) : "n/a";
  return `${pct}% (${caught}/${valid} caught, ${count.Survived ?? 0} survived)`;
}

if (scores.length) console.log(`\nMutation scores (targeted tests):\n  ${scores.join("\n  ")}`);
if (failed) Deno.exit(1);
