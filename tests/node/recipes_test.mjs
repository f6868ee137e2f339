// docs/frameworks.md's recipes, as a user runs them: scripts/test_node.ts
// copied each file verbatim into recipes/ of this project (with the runners
// and stacks installed at the versions it pins); here each runs under its own
// runner, in a child process, and tsc --strict type-checks them all (the
// JavaScript files through checkJs). Mastra wants Node 22.13, ai 7 Node 22.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const cwd = process.cwd();
const bin = (name) => join(cwd, "node_modules", ".bin", name);
const [major, minor] = process.versions.node.split(".").map(Number);
const noAi = major < 22 && "ai 7 needs Node 22 or later";
const noMastra = (major < 22 || (major === 22 && minor < 13)) &&
  "@mastra/core 1 needs Node 22.13 or later";

// Resolves with the exit status and the output. A runner started here must
// not think it runs inside this one's test file. One at a time, with room:
// a tsc over these stacks' types takes minutes on a loaded machine.
function run(command, args, { dir = cwd, env = {} } = {}) {
  const childEnv = { ...process.env, ...env };
  delete childEnv.NODE_TEST_CONTEXT;
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: dir, env: childEnv, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(error);
        resolve({ status: error ? error.code : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe("docs/frameworks.md's recipes, verbatim", { concurrency: 1 }, () => {
  for (
    const [file, skip] of [
      ["langchain_agent.test.mjs", false],
      ["langchain_model_string.test.mjs", false],
      ["openai_agents.test.mjs", false],
      ["mastra_agent.test.mjs", noMastra],
    ]
  ) {
    test(`node --test ${file}`, { skip }, async () => {
      const { status, output } = await run(process.execPath, [
        "--test",
        "--test-reporter=tap", // Node 24's default for a pipe is spec
        join("recipes", "node", file),
      ]);
      assert.equal(status, 0, output);
      assert.match(output, /^# fail 0$/m);
      assert.match(output, /^# pass [1-9]/m);
    });
  }

  test("Jest ESM: NODE_OPTIONS=--experimental-vm-modules jest", { skip: noAi }, async () => {
    const { status, output } = await run(process.execPath, [join(cwd, "node_modules", "jest", "bin", "jest.js")], {
      dir: join(cwd, "recipes", "jest"),
      env: { NODE_OPTIONS: "--experimental-vm-modules --no-warnings" },
    });
    assert.equal(status, 0, output);
    assert.match(output, /Tests:\s+1 passed, 1 total/);
  });

  test("Bun: bun test", async () => {
    assert.ok(existsSync(bin("bun")), "the npm package bun installed its binary");
    const { status, output } = await run(bin("bun"), ["test"], {
      dir: join(cwd, "recipes", "bun"),
    });
    assert.equal(status, 0, output);
    assert.match(output, /1 pass/);
    assert.match(output, /0 fail/);
  });

  test("tsc --strict type-checks the recipes (checkJs for the JavaScript ones)", async () => {
    const { status, output } = await run(bin("tsc"), ["-p", "tsconfig.recipes.json"]);
    assert.equal(status, 0, output);
  });

  test("tsc --strict type-checks the Bun recipe with bun:test's types", async () => {
    const { status, output } = await run(bin("tsc"), ["-p", "tsconfig.recipes_bun.json"]);
    assert.equal(status, 0, output);
  });
});
