// The consumer's own toolchain against the installed package: `tsc` checks
// the generated .d.ts files (and rejects misuse), Vitest runs the tests, and
// the README's node:test and Vitest files share a folder without either
// runner collecting the other's. scripts/test_node.ts says which Vitest this
// project has (AGENTKIT_VITEST: 5 on Node 22 and 24, 3 on Node 20).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { basename, join } from "node:path";

const cwd = process.cwd();
const bin = (name) => join(cwd, "node_modules", ".bin", name);
const vitest = process.env.AGENTKIT_VITEST;

// Resolves with the exit status and the output; the checks run at once. A
// runner started here must not think it runs inside this one's test file.
// Five minutes each: the four run at once, and on a loaded 2-core machine a
// tsc took over two.
function run(command, args, dir = cwd) {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: dir, env, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ status: error ? error.code : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe("the consumer's toolchain", { concurrency: true }, () => {
  test("tsc --noEmit --strict type-checks a consumer against the .d.ts files", async () => {
    const { status, output } = await run(bin("tsc"), [
      "--noEmit",
      "--strict",
      "-p",
      "tsconfig.json",
    ]);
    assert.equal(status, 0, output);
  });

  test("tsc rejects a consumer that misuses the API, at each misuse", async () => {
    const source = await readFile(join(cwd, "misuse.ts"), "utf8");
    const expected = source.split("\n").flatMap((line, i) => {
      const m = /\/\/ MISUSE (TS\d+)/.exec(line);
      return m ? [`misuse.ts(${i + 1}) ${m[1]}`] : [];
    });
    assert.ok(expected.length >= 3);
    const { status, output } = await run(bin("tsc"), [
      "--noEmit",
      "--strict",
      "-p",
      "tsconfig.misuse.json",
    ]);
    assert.notEqual(status, 0, output);
    const reported = [
      ...output.matchAll(/^(misuse\.ts)\((\d+),\d+\): error (TS\d+)/gm),
    ]
      .map(([, file, line, code]) => `${file}(${line}) ${code}`);
    assert.deepEqual([...new Set(reported)], expected, output);
  });

  test("the project has the Vitest scripts/test_node.ts installed for this Node line", async () => {
    assert.match(vitest ?? "", /^\d+\.\d+\.\d+$/, "AGENTKIT_VITEST is unset");
    const { version } = JSON.parse(
      await readFile(join(cwd, "node_modules", "vitest", "package.json"), "utf8"),
    );
    assert.equal(version, vitest);
    const { status, output } = await run(bin("vitest"), ["--version"]);
    assert.equal(status, 0, output);
    assert.match(output, new RegExp(`vitest/${vitest.replaceAll(".", "\\.")}`));
  });

  test("tsc --strict types the agent matchers through docs/testing.md's merge for this Vitest", async () => {
    const { status, output } = await run(bin("tsc"), [
      "--noEmit",
      "--strict",
      "-p",
      "tsconfig.vitest.json",
    ]);
    assert.equal(status, 0, output);
  });

  test("Vitest runs the consumer tests: a tool loop, the agent matchers, a snapshot", async () => {
    const report = join(cwd, "vitest-report.json");
    try {
      const { status, output } = await run(bin("vitest"), [
        "run",
        "--reporter=json",
        `--outputFile=${report}`,
        "vitest_consumer.test.ts",
        "vitest_matchers.test.ts",
        "docs_agent.spec.ts",
      ]);
      assert.equal(status, 0, output);
      const json = JSON.parse(await readFile(report, "utf8"));
      assert.equal(json.numFailedTests, 0, output);
      // 2 + 6 + docs/testing.md's one test.
      assert.equal(json.numPassedTests, 9, output);
      assert.deepEqual(
        json.testResults.map((r) => basename(r.name)).sort(),
        ["docs_agent.spec.ts", "vitest_consumer.test.ts", "vitest_matchers.test.ts"],
        output,
      );
      assert.equal(json.snapshot?.unmatched ?? 0, 0, output);
      assert.equal(json.snapshot?.added ?? 0, 0, "the snapshot is committed, not written: " + output);
    } finally {
      await rm(report, { force: true });
    }
  });

  // readme_layout/: the README's agent_test.mjs and agent.spec.ts, verbatim.
  const layout = join(cwd, "readme_layout");

  test("the README's layout: node --test, given no file, runs agent_test.mjs and not the Vitest file", async () => {
    const { status, output } = await run(process.execPath, ["--test", "--test-reporter=tap"], layout);
    assert.equal(status, 0, output);
    assert.match(output, /^# Subtest: the analyst explains the failed deploy$/m, output);
    assert.match(output, /^# tests 1$/m, output);
    assert.match(output, /^# pass 1$/m, output);
    assert.match(output, /^# fail 0$/m, output);
    assert.doesNotMatch(output, /agent\.spec\.ts/, output);
  });

  test("the README's layout: vitest run, given no file, runs agent.spec.ts and not the node:test file", async () => {
    const report = join(cwd, "vitest-layout-report.json");
    try {
      const { status, output } = await run(
        bin("vitest"),
        ["run", "--reporter=json", `--outputFile=${report}`],
        layout,
      );
      assert.equal(status, 0, output);
      const json = JSON.parse(await readFile(report, "utf8"));
      assert.deepEqual(json.testResults.map((r) => basename(r.name)), ["agent.spec.ts"], output);
      assert.equal(json.numPassedTests, 1, output);
      assert.equal(json.numFailedTests, 0, output);
    } finally {
      await rm(report, { force: true });
    }
  });
});
