// Mutation testing: StrykerJS (tools/mutation/, on Node 22) mutates one module
// at a time and runs only that module's targeted tests under `deno test`, so a
// score says how much of the module those tests pin down.
//
//   deno task mutation runtime/budget.ts [more modules]
//   deno task mutation --changed [--base REF] [--lines]   modules changed since REF
//                                       (default main; --lines: only the changed lines)
//   deno task mutation                                    every module in targets.json
//
// Targeted tests: tools/mutation/targets.json, else the mirrored
// tests/<dir>/<name>_test.ts. Reports: reports/mutation/<module>/mutation.{html,json}.
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
  runs = [...ranges].map(([module, lines]) => ({
    module,
    mutate: values.lines ? lines : [module],
  }));
  if (runs.length === 0) console.log("No module under runtime/ or testing/ changed.");
} else {
  const modules = positionals.length ? positionals : Object.keys(targets);
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
const permissions = [
  "--unstable-kv",
  "--allow-read",
  "--allow-write",
  "--allow-env",
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

const scores: string[] = [];
let failed = false;
for (const { module, mutate } of runs) {
  const tests = testsOf(module);
  if (tests.length === 0) {
    console.log(`Skipping ${module}: no targeted tests (add it to tools/mutation/targets.json)`);
    continue;
  }
  const suffix = values.runner === "command" ? "_command" : "";
  const dir = `${reports}/${module.replace(/\.ts$/, "").replaceAll("/", "_")}${suffix}`;
  await Deno.mkdir(dir, { recursive: true });
  const config = {
    ...base,
    ...runnerConfig(tests),
    mutate,
    htmlReporter: { fileName: `${dir}/mutation.html` },
    jsonReporter: { fileName: `${dir}/mutation.json` },
  };
  await Deno.writeTextFile(`${dir}/stryker.config.json`, JSON.stringify(config, null, 2));
  console.log(`\n== ${module} (${mutate.length} range(s)), tests: ${tests.join(" ")}`);
  const status = await new Deno.Command(node[0], {
    args: [...node.slice(1), stryker, "run", `${dir}/stryker.config.json`],
    cwd: root,
  }).spawn().status;
  if (!status.success) {
    failed = true;
    continue;
  }
  scores.push(`${module}: ${score(JSON.parse(await Deno.readTextFile(`${dir}/mutation.json`)))}`);
}

// The score as Stryker counts it: timeouts are kills; compile errors and
// ignored mutants are left out.
function score(report: { files: Record<string, { mutants: { status: string }[] }> }): string {
  const count: Record<string, number> = {};
  for (const file of Object.values(report.files)) {
    for (const m of file.mutants) count[m.status] = (count[m.status] ?? 0) + 1;
  }
  const caught = (count.Killed ?? 0) + (count.Timeout ?? 0);
  const valid = caught + (count.Survived ?? 0) + (count.NoCoverage ?? 0);
  const pct = valid ? (100 * caught / valid).toFixed(1) : "n/a";
  return `${pct}% (${caught}/${valid} caught, ${count.Survived ?? 0} survived)`;
}

if (scores.length) console.log(`\nMutation scores (targeted tests):\n  ${scores.join("\n  ")}`);
if (failed) Deno.exit(1);
