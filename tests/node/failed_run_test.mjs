// What `node --test` prints for a test whose run fails inside `using`: the
// run's own error, with the script's unused turns on it, and no
// "SuppressedError: An error was suppressed during disposal" (SPEC §19).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";

const cwd = process.cwd();

function run(command, args) {
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ status: error ? error.code : 0, output: `${stdout}${stderr}` });
    });
  });
}

test("node --test shows the failed run's error first, then the unused turns, never only SuppressedError", async () => {
  // Inside the project, so that the compiled file finds the package.
  const out = await mkdtemp(join(cwd, "compiled-"));
  try {
    const tsc = await run(join(cwd, "node_modules", ".bin", "tsc"), [
      "--strict",
      "--target",
      "ES2022",
      "--lib",
      "ES2022,ESNext.Disposable",
      "--module",
      "NodeNext",
      "--moduleResolution",
      "NodeNext",
      "--types",
      "node",
      "--skipLibCheck",
      "--outDir",
      out,
      "failed_run_in_using.ts",
    ]);
    assert.equal(tsc.status, 0, tsc.output);
    const { status, output } = await run(process.execPath, [
      "--test",
      "--test-reporter=spec",
      join(out, "failed_run_in_using.js"),
    ]);
    assert.equal(status, 1, output);
    assert.doesNotMatch(output, /SuppressedError|suppressed during disposal/, output);
    const cause = output.indexOf(
      'The afterRun hook "guard" threw: the guard rejects the answer;',
    );
    const unused = output.indexOf(
      "UnusedTurns: FakeLLM.script has 2 turn(s), but the run used only 1",
    );
    assert.ok(cause >= 0 && unused > cause, output);
    assert.match(output, /name: 'HookFailed'|HookFailed/, output);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
