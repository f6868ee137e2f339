// Plain Node ESM tests of the npm build, run by scripts/test_node.ts inside a
// throwaway consumer project where `@jsr/agentkit__testing` was installed
// from a packed dist/npm, so every import below resolves the way it would for
// a Node user. AGENTKIT_REPO points at the repository (for deno.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

import * as root from "@jsr/agentkit__testing";
import * as ports from "@jsr/agentkit__testing/ports";
import * as runtime from "@jsr/agentkit__testing/runtime";
import * as testing from "@jsr/agentkit__testing/testing";

const { Agent, ReActCognition, retry, HarnessError } = runtime;
const { FakeClock, FakeLLM, FakeTool, makeTestCtx, ScriptExhausted } = testing;
const { toolCall } = ports;

const repo = process.env.AGENTKIT_REPO;
// The package exports no "./package.json" (JSR's do not), so find its folder
// from the root entry, which sits at the package root.
const pkgDir = dirname(fileURLToPath(import.meta.resolve("@jsr/agentkit__testing")));

async function walk(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") out.push(...await walk(path));
    } else out.push(relative(pkgDir, path));
  }
  return out;
}

test("the installed package.json mirrors deno.json: name, version, exports, dependency ranges", async () => {
  assert.ok(repo, "AGENTKIT_REPO must point at the repository");
  const deno = JSON.parse(await readFile(join(repo, "deno.json"), "utf8"));
  const pkg = JSON.parse(await readFile(join(pkgDir, "package.json"), "utf8"));
  assert.equal(pkg.name, "@jsr/agentkit__testing");
  assert.equal(pkg.version, deno.version);
  assert.equal(pkg.type, "module");
  assert.deepEqual(pkg.engines, { node: ">=20.16" });
  const [major, minor] = process.versions.node.split(".").map(Number);
  assert.ok(
    major > 20 || (major === 20 && minor >= 16),
    `engines.node says >=20.16 and this is node ${process.version}`,
  );
  // What 20.16 brings and the package relies on (runtime/spawn/_builtin.ts).
  assert.equal(typeof process.getBuiltinModule, "function");
  assert.deepEqual(Object.keys(pkg.exports), Object.keys(deno.exports));
  for (const [key, source] of Object.entries(deno.exports)) {
    const stem = source.replace(/\.ts$/, "");
    assert.deepEqual(pkg.exports[key], { types: `${stem}.d.ts`, default: `${stem}.js` }, key);
  }
  const ranges = Object.fromEntries(
    Object.values(deno.imports)
      .map((target) => /^npm:((?:@[^/@]+\/)?[^/@]+)@([^/]+)/.exec(target))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
  assert.ok(Object.keys(pkg.dependencies).length > 0);
  for (const [name, range] of Object.entries(pkg.dependencies)) {
    assert.equal(range, ranges[name], `${name} keeps deno.json's range`);
  }
  assert.ok("zod" in pkg.dependencies && "@sinonjs/fake-timers" in pkg.dependencies);
  // chaos() runs on fast-check: loaded only when it is called, but a dependency all the same.
  assert.equal(pkg.dependencies["fast-check"], "^4.10.2");
  assert.ok(!("typescript" in pkg.dependencies), "build tools are not dependencies");
});

test("every module ships as .js with a .d.ts beside it, and no specifier names a .ts file or npm:", async () => {
  const files = await walk(pkgDir);
  const js = files.filter((f) => f.endsWith(".js"));
  assert.ok(js.length > 10, `expected the whole graph, got ${js.length} modules`);
  assert.deepEqual(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")), []);
  for (const file of js) {
    assert.ok(files.includes(file.replace(/\.js$/, ".d.ts")), `${file} has declarations`);
  }
  const specifier = /(?:^|\n)\s*(?:import|export)[^;]*?\bfrom\s*"([^"]+)"/g;
  for (const file of files.filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"))) {
    const code = (await readFile(join(pkgDir, file), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const [, spec] of code.matchAll(specifier)) {
      assert.ok(!spec.startsWith("npm:") && !spec.startsWith("jsr:"), `${file}: ${spec}`);
      if (spec.startsWith(".")) assert.match(spec, /\.js$/, `${file}: ${spec}`);
    }
  }
});

test("the root, /testing, /runtime and /ports entries import, sharing one module instance", () => {
  assert.equal(typeof root.FakeLLM, "function");
  assert.equal(typeof root.Agent, "function");
  assert.equal(typeof root.toolCall, "function");
  assert.equal(root.FakeLLM, testing.FakeLLM);
  assert.equal(root.Agent, runtime.Agent);
  assert.equal(root.toolCall, ports.toolCall);
  assert.equal(typeof makeTestCtx, "function");
  assert.equal(typeof retry, "function");
});

test("chaos() loads its implementation on first call, through the built .js of a dynamic import", async () => {
  // The root entry imports only the thin chaos() (testing/chaos/_chaos_entry.js);
  // the implementation is an `await import("./chaos.js")` the build rewrote.
  const entry = await readFile(join(pkgDir, "testing/chaos/_chaos_entry.js"), "utf8");
  assert.match(entry, /import\("\.\/chaos\.js"\)/);
  const summary = await testing.chaos(
    (world) => new Agent("a", { model: "fake-model" }).run("q", world.ctx()),
    { script: ["ok"], seed: 5, runs: 3, maxFaults: 0 },
  );
  assert.deepEqual(summary, { runs: 3, faultsInjected: 0, byKind: {}, seed: 5 });
});

test("FakeLLM + makeTestCtx + Agent.run answer from the script", async () => {
  const llm = new FakeLLM("The cert expired on 2026-08-01.");
  const result = await new Agent("analyst", { model: "fake-model" }).run(
    "Why did the deploy fail?",
    makeTestCtx({ llm }),
  );
  assert.equal(result.output, "The cert expired on 2026-08-01.");
  assert.equal(result.stopReason, "stop");
  assert.equal(llm.calls, 1);
});

test("a scripted ReAct loop calls the tool with the model's arguments, then answers", async () => {
  const tool = new FakeTool({ name: "lookup", responder: "42" });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup", { key: "answer" })] },
    { content: "It is 42." },
  ]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("What is the answer?", makeTestCtx({ llm }));
  assert.equal(result.output, "It is 42.");
  assert.deepEqual(tool.calls, [{ key: "answer" }]);
  assert.equal(llm.calls, 2);
});

test("FakeClock turns a retry backoff into virtual time", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("recovered", { failTimes: 2 });
  const ctx = makeTestCtx({
    llm,
    clock,
    chatMiddleware: [retry({ maxAttempts: 3, backoff: (n) => 60_000 * n })],
  });
  const started = performance.now();
  const result = await new Agent("a", { model: "fake-model" }).run("go", ctx);
  assert.equal(result.output, "recovered");
  assert.equal(llm.calls, 3);
  assert.deepEqual(clock.sleeps, [60_000, 120_000]);
  assert.equal(clock.now(), 180_000);
  assert.ok(performance.now() - started < 5_000, "three minutes of backoff cost no wall time");
});

test("ScriptExhausted is thrown one turn past the script, and is a HarnessError", async () => {
  const llm = FakeLLM.script(["only turn"]);
  const agent = new Agent("a", { model: "fake-model" });
  assert.equal((await agent.run("first", makeTestCtx({ llm }))).output, "only turn");
  await assert.rejects(
    () => agent.run("second", makeTestCtx({ llm })),
    (error) => {
      assert.ok(error instanceof ScriptExhausted);
      assert.ok(error instanceof HarnessError);
      assert.equal(error.name, "ScriptExhausted");
      assert.equal(error.requested, 2);
      return true;
    },
  );
});

test("a cassette mismatch on Node gives the node --test re-record command, not deno test", () => {
  const e = new testing.CassetteMismatch("a.jsonl", 1, "model", "m1", "m2");
  assert.match(e.message, /AGENTKIT_CASSETTE=record node --test <your test file>/);
  assert.doesNotMatch(e.message, /deno test/);
});
