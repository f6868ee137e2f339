// `deno task test`: every gate of "test:all" in order, one line per stage
// with what it counted, the full output in test-output.log. A failing stage
// prints its whole output, stops the run and sets the exit code; the last
// line is always "N passed, N failed" (stages), which CI reads.
//
// The stages are read from deno.json, so a task added to "test:all" is a
// stage here with no change to this file: "deno task X" is expanded into X's
// own chain, and each plain command of a chain is a stage of its own
// (`deno fmt --check` in "gates" is the stage "gates: fmt").

const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const LOG = "test-output.log";

/** One stage: a label and the command `deno task --eval` runs. */
interface Stage {
  readonly label: string;
  readonly command: string;
}

type Tasks = Record<string, string | { command: string }>;

function commandOf(tasks: Tasks, name: string): string {
  const task = tasks[name];
  if (task === undefined) throw new Error(`deno.json has no task "${name}"`);
  return typeof task === "string" ? task : task.command;
}

/** The leaves of a task's `&&` chain, nested `deno task X` expanded. */
export function stagesOf(tasks: Tasks, name: string): Stage[] {
  const parts = commandOf(tasks, name).split(" && ").map((p) => p.trim());
  const out: Stage[] = [];
  for (const part of parts) {
    const nested = /^deno task ([\w:-]+)$/.exec(part);
    if (nested) {
      const inner = stagesOf(tasks, nested[1]);
      out.push(...inner);
      continue;
    }
    const label = parts.length === 1 ? name : `${name}: ${shortName(part)}`;
    out.push({ label, command: part });
  }
  return out;
}

// `deno fmt --check` -> "fmt"; `deno doc --lint ...` -> "doc --lint"; `deno run ... scripts/x.ts` -> "x".
function shortName(command: string): string {
  const words = command.split(/\s+/);
  if (words[1] === "run") {
    const script = words.find((w) => /\.ts$/.test(w));
    if (script) return script.replace(/^.*\//, "").replace(/\.ts$/, "");
  }
  return words[1] + (command.includes(" --lint") ? " --lint" : "");
}

// The publish dry run's warnings we expect, and why they are fine.
const EXPECTED_WARNINGS: Record<string, string> = {
  "unanalyzable-dynamic-import":
    "testing/eval/_load_export.ts and testing/eval/agent_test_harness.ts import the agent module a test names at run time; there is nothing to rewrite at publish",
};

/** What a stage's output counted, in a few words. */
export function summarize(output: string): { summary: string; tests?: [number, number] } {
  // Colour codes, should a tool print them despite NO_COLOR.
  // deno-lint-ignore no-control-regex
  const text = output.replace(/\x1b\[[0-9;]*m/g, "");
  const denoTest = [...text.matchAll(/(\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed/g)].pop();
  if (denoTest) {
    const [, passed, steps, failed] = denoTest;
    return {
      summary: `${passed} passed${steps ? ` (${steps} steps)` : ""}, ${failed} failed`,
      tests: [Number(passed), Number(failed)],
    };
  }
  const nodePass = [...text.matchAll(/^ℹ pass (\d+)$/gm)].map((m) => Number(m[1]));
  const nodeFail = [...text.matchAll(/^ℹ fail (\d+)$/gm)].map((m) => Number(m[1]));
  if (nodePass.length) {
    const versions = [...text.matchAll(/^# node (v\d+)/gm)].map((m) => m[1]);
    const passed = nodePass.reduce((a, b) => a + b, 0);
    const failed = nodeFail.reduce((a, b) => a + b, 0);
    return {
      summary: `${passed} passed, ${failed} failed${
        versions.length ? ` on node ${versions.join(", ")}` : ""
      }`,
      tests: [passed, failed],
    };
  }
  // scripts/mcp_conformance.ts: the official MCP suite's scenario counts.
  const mcp = /^MCP conformance: (.*)$/m.exec(text);
  if (mcp) return { summary: mcp[1] };
  const examples = /(\d+) example\(s\) ran/.exec(text);
  if (examples) return { summary: `${examples[1]} examples ran` };
  const score = /^JSR score .*$/m.exec(text);
  if (score) return { summary: score[0].replace(/^JSR score /, "") };
  const built = /^Built (\S+) in \S+: (.*)$/m.exec(text);
  if (built) return { summary: `${built[1]}: ${built[2]}` };
  if (/Dry run complete/.test(text)) {
    const warnings = [...text.matchAll(/^warning\[([\w-]+)\]/gm)].map((m) => m[1]);
    if (warnings.length === 0) return { summary: "dry run ok, no warnings" };
    const kinds = [...new Set(warnings)];
    const explained = kinds.map((k) =>
      EXPECTED_WARNINGS[k] ? `${k}: expected, ${EXPECTED_WARNINGS[k]}` : `${k}: NOT EXPECTED`
    );
    return {
      summary: `dry run ok, ${warnings.length} warning(s) (${explained.join("; ")})`,
    };
  }
  const checked = [...text.matchAll(/^Checked (\d+) files?/gm)].pop();
  if (checked) return { summary: `${checked[1]} files` };
  const entries = text.match(/^Check /gm)?.length;
  if (entries) return { summary: `${entries} entry points type-checked` };
  return { summary: "ok" };
}

/** The names of the tests a failed stage's runner reported, first ones first. */
export function failingTests(output: string): string[] {
  // deno-lint-ignore no-control-regex
  const text = output.replace(/\x1b\[[0-9;]*m/g, "");
  const names: string[] = [];
  const failures = text.lastIndexOf("\n FAILURES \n");
  if (failures >= 0) {
    for (const m of text.slice(failures).matchAll(/^(.+?) => \S+:\d+:\d+$/gm)) names.push(m[1]);
  }
  for (const m of text.matchAll(/^\s*✖ (.+?) \([\d.]+ms\)$/gm)) names.push(m[1]);
  return [...new Set(names)];
}

/**
 * The part of a failed stage's output that says what failed: from the
 * runner's error section (or the type checker's first error) to the end,
 * else all of it (a formatter's diff), without the type checker's
 * "Check <file>" lines, so it can be printed last.
 */
export function errorBlock(output: string): string {
  // deno-lint-ignore no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n").filter((l) =>
    !/^Check \S/.test(l) && !/^Download /.test(l)
  );
  const at = [
    lines.findIndex((l) => l === " ERRORS "),
    lines.findIndex((l) => /^✖ failing tests:/.test(l)),
    lines.findIndex((l) => /^TS\d+ |\[ERROR\]/.test(l)),
  ].find((i) => i >= 0);
  return lines.slice(at ?? 0).join("\n").replace(/^\n+/, "").trimEnd();
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

if (import.meta.main) {
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const stages = stagesOf(config.tasks, "test:all");
  const width = Math.max(...stages.map((s) => s.label.length));
  const log = await Deno.open(`${root}/${LOG}`, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let passed = 0;
  let failed = 0;
  let tests = 0;
  let testsFailed = 0;
  let code = 0;
  let failure: { stage: Stage; text: string } | undefined;
  console.log(`${stages.length} stages; full output in ${LOG}`);
  try {
    for (const stage of stages) {
      await log.write(encoder.encode(`\n===== ${stage.label}: ${stage.command}\n`));
      // A stage can run for minutes (the doc tests): say which one is running.
      console.log(`...    ${stage.label}`);
      const started = performance.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--eval", stage.command],
        cwd: root,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      await log.write(encoder.encode(text));
      const { summary, tests: counted } = summarize(text);
      if (counted) {
        tests += counted[0];
        testsFailed += counted[1];
      }
      const time = seconds(performance.now() - started);
      if (out.success) {
        passed++;
        console.log(`ok     ${stage.label.padEnd(width)}  ${summary} (${time})`);
        continue;
      }
      failed++;
      code = out.code || 1;
      // "ok" is only what a passing stage's output came to; a failed one says what failed.
      const names = failingTests(text);
      const said = summary !== "ok" ? summary : names.length ? `${names.length} failing` : "failed";
      const which = names.length
        ? `; failing: ${names.slice(0, 3).join("; ")}${
          names.length > 3 ? ` and ${names.length - 3} more` : ""
        }`
        : "";
      console.log(
        `FAILED ${stage.label.padEnd(width)}  ${said} (${time}, exit ${out.code})${which}`,
      );
      failure = { stage, text };
      break;
    }
  } finally {
    log.close();
  }
  const notRun = stages.length - passed - failed;
  if (failure) {
    // What failed comes last, right above the closing lines, where a reader looks.
    console.log(
      `\n----- what failed in ${failure.stage.label} (${failure.stage.command}); the whole output is in ${LOG}\n${
        errorBlock(failure.text)
      }\n-----`,
    );
  }
  console.log(
    `tests: ${tests} passed, ${testsFailed} failed across the test stages; full output in ${LOG}`,
  );
  console.log(`${passed} passed, ${failed} failed${notRun ? ` (${notRun} not run)` : ""}`);
  Deno.exit(code);
}
