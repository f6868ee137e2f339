import { assert, assertEquals, assertRejects } from "@std/assert";
import { loadTestConfig } from "@agentkit/testing/testing";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const cwd = Deno.cwd();
  const env = Deno.env.get("AGENTKIT_TEST_CONFIG");
  try {
    await fn(dir);
  } finally {
    Deno.chdir(cwd);
    if (env === undefined) Deno.env.delete("AGENTKIT_TEST_CONFIG");
    else Deno.env.set("AGENTKIT_TEST_CONFIG", env);
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("loadTestConfig() finds agentkit.test.json in the working directory", async () => {
  await withDir(async (dir) => {
    Deno.chdir(dir);
    assertEquals((await loadTestConfig()).config, {}, "no file: no settings");
    await Deno.writeTextFile("agentkit.test.json", '{ "mode": "llm", "judgeModel": "grader" }');
    const loaded = await loadTestConfig();
    assertEquals(loaded.config, { mode: "llm", judgeModel: "grader" });
    assertEquals(loaded.source, `${await Deno.realPath(dir)}/agentkit.test.json`);
  });
});

Deno.test("loadTestConfig() reads the file AGENTKIT_TEST_CONFIG names, which must exist", async () => {
  await withDir(async (dir) => {
    Deno.chdir(dir);
    await Deno.writeTextFile("agentkit.test.json", '{ "mode": "llm" }');
    await Deno.writeTextFile("ci.json", '{ "mode": "score" }');
    Deno.env.set("AGENTKIT_TEST_CONFIG", "ci.json");
    assertEquals((await loadTestConfig()).config, { mode: "score" });
    Deno.env.set("AGENTKIT_TEST_CONFIG", "missing.json");
    await assertRejects(
      () => loadTestConfig(),
      TypeError,
      "(named by AGENTKIT_TEST_CONFIG): the file does not exist",
    );
  });
});

Deno.test("loadTestConfig() rejects an invalid file, naming the problem", async (t) => {
  await withDir(async (dir) => {
    const path = `${dir}/agentkit.test.json`;
    const cases: [string, string][] = [
      ['{ "mode": "score", "test": {} }', 'unknown key "test"'],
      ['{ "evalutor": "levenshtein" }', 'did you mean "evaluator"?'],
      ['{ "mode": "exact" }', "mode:"],
      ['{ "threshold": 1.5 }', "threshold:"],
      ["{ mode: score }", "Cannot read the test config"],
    ];
    for (const [text, message] of cases) {
      await t.step(text, async () => {
        await Deno.writeTextFile(path, text);
        await assertRejects(() => loadTestConfig({ path }), TypeError, message);
      });
    }
  });
});

Deno.test("loadTestConfig() names the missing file it was given, and refuses a non-file specifier", async () => {
  await withDir(async (dir) => {
    const path = `${await Deno.realPath(dir)}/none.json`;
    const e = await assertRejects(() => loadTestConfig({ path }), TypeError);
    assertEquals(e.message, `Cannot read the test config ${path}: the file does not exist`);
    await assertRejects(
      () => loadTestConfig({ path: "npm:agentkit-config" }),
      TypeError,
      'Cannot read the test config "npm:agentkit-config": give a file path',
    );
  });
});

Deno.test("loadTestConfig() resolves from the file's folder and reports every problem", async (t) => {
  await withDir(async (dir) => {
    const real = await Deno.realPath(dir);
    const path = `${real}/agentkit.test.json`;
    await t.step("the base is the folder of the file", async () => {
      await Deno.writeTextFile(path, '{ "mode": "score" }');
      assertEquals((await loadTestConfig({ path })).base.href, `file://${real}/`);
    });
    await t.step("a file that is not an object", async () => {
      await Deno.writeTextFile(path, "[]");
      await assertRejects(
        () => loadTestConfig({ path }),
        TypeError,
        `Invalid test config ${path}: the file: `,
      );
    });
    await t.step("two problems, and a key near no valid one", async () => {
      await Deno.writeTextFile(path, '{ "threshold": 2, "zzzzzz": 1 }');
      const e = await assertRejects(() => loadTestConfig({ path }), TypeError);
      const parts = e.message.slice(`Invalid test config ${path}: `.length).split("; ");
      assertEquals(parts.length, 2, e.message);
      assertEquals(parts.find((p: string) => p.startsWith("unknown")), 'unknown key "zzzzzz"');
      assert(parts.some((p: string) => p.startsWith("threshold: ")), e.message);
    });
  });
});

Deno.test("loadTestConfig() accepts every key at its edges and refuses past them", async (t) => {
  await withDir(async (dir) => {
    const path = `${dir}/agentkit.test.json`;
    const full = {
      mode: "fallback",
      evaluator: "levenshtein",
      threshold: 0,
      judge: "./judge.ts#judge",
      judgeModel: "grader",
      judgeThreshold: 0.7,
    };
    await t.step("all keys", async () => {
      await Deno.writeTextFile(path, JSON.stringify(full));
      assertEquals((await loadTestConfig({ path })).config, full);
      await Deno.writeTextFile(path, JSON.stringify({ ...full, threshold: 1, judgeThreshold: 0 }));
      assertEquals((await loadTestConfig({ path })).config.judgeThreshold, 0);
    });
    const bad: [Record<string, unknown>, string][] = [
      [{ judgeThreshold: 1.5 }, "judgeThreshold:"],
      [{ judgeThreshold: -0.1 }, "judgeThreshold:"],
      [{ threshold: -0.1 }, "threshold:"],
      [{ evaluator: "" }, "evaluator:"],
      [{ judge: "" }, "judge:"],
      [{ judgeModel: "" }, "judgeModel:"],
    ];
    for (const [config, message] of bad) {
      await t.step(JSON.stringify(config), async () => {
        await Deno.writeTextFile(path, JSON.stringify(config));
        await assertRejects(() => loadTestConfig({ path }), TypeError, message);
      });
    }
  });
});
