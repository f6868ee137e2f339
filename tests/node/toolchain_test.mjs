// The consumer's own toolchain against the installed package: `tsc` checks
// the generated .d.ts files (and rejects misuse), Vitest runs a test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";

const cwd = process.cwd();
const bin = (name) => join(cwd, "node_modules", ".bin", name);

// Resolves with the exit status and the output; the three checks run at once.
function run(command, args) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout: 120_000 }, (error, stdout, stderr) => {
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

  test("tsc types the agent matchers on Vitest's expect through the AgentMatchers merge", async () => {
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
      ]);
      assert.equal(status, 0, output);
      const json = JSON.parse(await readFile(report, "utf8"));
      assert.equal(json.numFailedTests, 0, output);
      assert.equal(json.numPassedTests, 7, output);
      assert.equal(json.snapshot?.unmatched ?? 0, 0, output);
      assert.equal(json.snapshot?.added ?? 0, 0, "the snapshot is committed, not written: " + output);
    } finally {
      await rm(report, { force: true });
    }
  });
});
