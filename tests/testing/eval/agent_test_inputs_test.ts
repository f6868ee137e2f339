// AgentTest's inputs: how modules, evaluators, judges and config files are
// named and loaded, what is refused (and how the refusal reads), and how a
// result is written out.
import { assert, assertEquals, assertInstanceOf, assertRejects } from "@std/assert";
import { Agent, Scope } from "@agentkit/testing/runtime";
import {
  AgentTest,
  type EvaluationResult,
  type Evaluator,
  FakeLLM,
  formatEvaluation,
  makeTestCtx,
  type Metric,
  MetricNotSupported,
} from "@agentkit/testing/testing";

const off = { config: false } as const;
const testing = new URL("../../../testing/mod.ts", import.meta.url).href;
const fixtures = new URL("../../fixtures/agent_test/", import.meta.url);

// The evaluator every module below exports: passes everything.
const ALWAYS =
  `{ name: "always", evaluateByScore: () => ({ name: "always", mode: "score", score: 1, threshold: 1, passed: true, code: "passed" }) }`;

async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "agent_test_inputs_" }));
  const cwd = Deno.cwd();
  try {
    return await fn(dir);
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
}

const quizModule = new URL("quiz_agent.ts", fixtures);

Deno.test("AgentTest.start() takes a path relative to the working directory", async () => {
  const cwd = Deno.cwd();
  Deno.chdir(new URL(".", quizModule));
  try {
    await using test = await AgentTest.start("./quiz_agent.ts", off);
    assertEquals(test.agent.name, "quiz");
  } finally {
    Deno.chdir(cwd);
  }
});

Deno.test("AgentTest.start() refuses a module without a usable agent or makeCtx", async (t) => {
  const refuses = async (module: unknown, what: string) => {
    const e = await assertRejects(() => AgentTest.start(module as never, off), TypeError);
    assert(e.message.startsWith(`Cannot start an AgentTest: ${what}`), e.message);
  };
  await t.step("no module at all", async () => {
    await refuses(null, "the module object exports no agent");
  });
  await t.step("an agent without run()", async () => {
    await refuses({ agent: { name: "a" } }, "the module object exports no agent");
  });
  await t.step("a makeCtx that is not a function", async () => {
    await refuses(
      { agent: new Agent("a", { model: "m" }), makeCtx: makeTestCtx() },
      "makeCtx in the module object must be a function",
    );
  });
  await t.step("a bad option names AgentTest.start()", async () => {
    const e = await assertRejects(
      () => AgentTest.start({ agent: new Agent("a", { model: "m" }) }, { mode: "exact" } as never),
      TypeError,
    );
    assert(e.message.startsWith("AgentTest.start()"), e.message);
  });
});

Deno.test("AgentTest.start(): each harness has a session of its own in the context's scope", async () => {
  const scope = new Scope({ orgId: 7, domainId: 2 });
  const module = {
    agent: new Agent("a", { model: "m" }),
    makeCtx: () => makeTestCtx({ llm: new FakeLLM("ok"), scope }),
  };
  await using one = await AgentTest.start(module, off);
  await using two = await AgentTest.start(module, off);
  assertEquals([one.session.scope.key(), two.session.scope.key()], ["org7:dom2", "org7:dom2"]);
  assert(one.session.id !== two.session.id);
});

Deno.test("AgentTest.compare() takes one expected answer as a string", async () => {
  const r = await AgentTest.compare("Lima", "lima", off);
  assertEquals([r.passed, r.expected], [true, ["lima"]]);
});

Deno.test("AgentTest.compare() refuses answers that are not strings", async (t) => {
  await t.step("an actual number", async () => {
    await assertRejects(
      () => AgentTest.compare(4 as never, ["4"], off),
      TypeError,
      "the actual answer must be a string, got number",
    );
  });
  await t.step("an expected list with a number in it", async () => {
    await assertRejects(
      () => AgentTest.compare("4", ["4", 4] as never, off),
      TypeError,
      "expected must be a string or a non-empty array of strings",
    );
  });
});

Deno.test("AgentTest.compare(): config false ignores the working directory's file, a path reads another", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/agentkit.test.json`, JSON.stringify({ mode: "llm" }));
    await Deno.writeTextFile(`${dir}/other.json`, JSON.stringify({ evaluator: "levenshtein" }));
    Deno.chdir(dir);
    const ignored = await AgentTest.compare("colour", ["color"], {
      config: false,
      returnMetrics: true,
    });
    assertEquals([ignored.mode, ignored.evaluator, ignored.passed], ["score", "quasiExact", false]);
    const other = await AgentTest.compare("colour", ["color"], { config: "other.json" });
    assertEquals([other.evaluator, other.passed], ["levenshtein", true]);
  });
});

Deno.test("AgentTest.compare() in llm mode needs no score from the evaluator", async () => {
  const judgeOnly: Evaluator = {
    name: "judge-only",
    evaluateByLlm: ({ actual, expected, judge }) => judge.evaluate(actual, expected),
  };
  const judge = new FakeLLM('{"score": 1, "reason": "Same."}');
  const r = await AgentTest.compare("4", ["four"], {
    ...off,
    mode: "llm",
    evaluator: judgeOnly,
    judge,
  });
  assertEquals([r.passed, r.metrics.map((m) => m.name)], [true, ["llmJudge"]]);
});

Deno.test("MetricNotSupported names the missing method and the mode to use instead", async () => {
  const judgeOnly = { name: "judge-only", evaluateByLlm: () => ({}) as Metric };
  const noJudge = { name: "score-only", evaluateByScore: () => ({}) as Metric };
  const a = await assertRejects(
    () => AgentTest.compare("4", ["4"], { ...off, mode: "score", evaluator: judgeOnly }),
    MetricNotSupported,
  );
  assertEquals([a.evaluator, a.mode], ["judge-only", "score"]);
  assert(a.message.includes('it has no evaluateByScore(); choose a mode it supports ("llm")'));
  const judge = new FakeLLM('{"score": 1}');
  const b = await assertRejects(
    () => AgentTest.compare("4", ["4"], { ...off, mode: "llm", evaluator: noJudge, judge }),
    MetricNotSupported,
  );
  assert(b.message.includes('it has no evaluateByLlm(); choose a mode it supports ("score")'));
});

Deno.test("AgentTest.compare() tells an evaluator name from a module specifier", async (t) => {
  await inTempDir(async (dir) => {
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/eval.ts`, `export default ${ALWAYS};\n`);
    Deno.chdir(`${dir}/sub`);
    const loads = async (evaluator: string) => {
      const r = await AgentTest.compare("x", ["y"], { ...off, evaluator });
      assertEquals([r.evaluator, r.passed], ["always", true]);
    };
    await t.step("a relative path without # is its default export", async () => {
      await loads("../eval.ts");
      Deno.chdir(dir);
      await loads("./eval.ts");
      Deno.chdir(`${dir}/sub`);
    });
    await t.step("an absolute path and a file URL", async () => {
      await loads(`${dir}/eval.ts`);
      await loads(new URL(`file://${dir}/eval.ts`).href);
    });
    await t.step("a bare path is an unknown name, not a module", async () => {
      await assertRejects(
        () => AgentTest.compare("x", ["y"], { ...off, evaluator: "evals/eval.ts" }),
        TypeError,
        'Unknown evaluator "evals/eval.ts"; the built-in ones are',
      );
    });
    await t.step("a name near no built-in one gets no suggestion", async () => {
      await assertRejects(
        () => AgentTest.compare("x", ["y"], { ...off, evaluator: "bleu" }),
        TypeError,
        'Unknown evaluator "bleu"; the built-in ones are "quasiExact" and "levenshtein"',
      );
    });
  });
});

Deno.test("AgentTest.compare() explains a module specifier it cannot use", async (t) => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/empty.ts`, "export {};\n");
    await Deno.writeTextFile(`${dir}/eval.ts`, `export const Always = ${ALWAYS};\n`);
    await Deno.writeTextFile(
      `${dir}/bad.ts`,
      [
        "export const nameless = { evaluateByScore() {} };",
        "export const numbered = { name: 7, evaluateByScore() {} };",
        'export const idle = { name: "idle" };',
        "export const nothing = null;",
        'export const judgeless = { name: "j" };',
        `export class Judge extends (await import("${testing}")).FakeLLM {`,
        `  constructor() { super('{"score": 1, "reason": "Built."}'); }`,
        "}",
      ].join("\n"),
    );
    Deno.chdir(dir);
    const refused = async (options: Record<string, unknown>, message: string) => {
      const e = await assertRejects(
        () => AgentTest.compare("x", ["y"], { returnMetrics: true, ...options }),
        TypeError,
      );
      assert(e.message.includes(message), e.message);
      return e;
    };
    await t.step("a # with no path or no name", async () => {
      await refused(
        { ...off, evaluator: "#Always" },
        'Cannot load the evaluator "#Always": write it as "./module.ts#ExportName"',
      );
      await refused({ ...off, evaluator: "./eval.ts#" }, 'write it as "./module.ts#ExportName"');
    });
    await t.step("a module that does not load", async () => {
      const e = await refused(
        { ...off, evaluator: "./missing.ts#X" },
        'Cannot load the evaluator "./missing.ts#X": importing',
      );
      assert(e.cause instanceof Error);
    });
    await t.step("a module with no exports", async () => {
      await refused({ ...off, evaluator: "./empty.ts#X" }, "it exports nothing");
    });
    await t.step("exports that are not evaluators", async () => {
      for (const name of ["nameless", "numbered", "idle", "nothing"]) {
        await refused(
          { ...off, evaluator: `./bad.ts#${name}` },
          `Cannot use "./bad.ts#${name}" as an evaluator`,
        );
      }
      await refused({ ...off, evaluator: { name: "idle" } }, "Cannot use the object given");
    });
    await t.step("a judge named in the config file", async () => {
      const judged = async (judge: string) => {
        await Deno.writeTextFile(`${dir}/agentkit.test.json`, JSON.stringify({ judge }));
        return await AgentTest.compare("x", ["y"], { mode: "llm", returnMetrics: true });
      };
      const r = await judged("./bad.ts#Judge");
      assertEquals([r.passed, r.metrics[0].reason], [true, "Built."]);
      for (const judge of ["./bad.ts#judgeless", "./bad.ts#nothing"]) {
        await Deno.writeTextFile(`${dir}/agentkit.test.json`, JSON.stringify({ judge }));
        await refused({ mode: "llm" }, `Cannot use "${judge}" as the judge: it is not an LLMPort`);
      }
      await Deno.writeTextFile(
        `${dir}/agentkit.test.json`,
        JSON.stringify({ judge: "./bad.ts#Nope" }),
      );
      await refused({ mode: "llm" }, 'Cannot load the judge "./bad.ts#Nope"');
    });
  });
});

Deno.test("AgentTest.compare() refuses what an evaluator returns that is not a Metric", async () => {
  const ok: Metric = {
    name: "m",
    mode: "score",
    score: 1,
    threshold: 1,
    passed: true,
    code: "passed",
  };
  const { name: _, ...rest } = ok;
  const fn = Object.assign(() => {}, rest);
  const returns: unknown[] = [
    undefined,
    null,
    "passed",
    fn,
    { ...ok, score: "1" },
    { ...ok, passed: "yes" },
    { ...ok, code: undefined },
  ];
  for (const value of returns) {
    const evaluator: Evaluator = { name: "odd", evaluateByScore: () => value as Metric };
    const e = await assertRejects(
      () => AgentTest.compare("x", ["x"], { ...off, evaluator }),
      TypeError,
    );
    assert(e.message.startsWith('Evaluator "odd" returned '), e.message);
    assert(e.message.includes("which is not a Metric"), e.message);
  }
  const good: Evaluator = { name: "odd", evaluateByScore: () => ok };
  assertEquals((await AgentTest.compare("x", ["x"], { ...off, evaluator: good })).passed, true);
});

Deno.test("formatEvaluation() writes the verdict, the answers and each metric on its own line", async () => {
  const judge = new FakeLLM('{"score": 0.25, "reason": "Wrong city."}');
  const failed = await AgentTest.compare("Cusco", ["Lima", "lima, peru"], {
    ...off,
    judge,
    returnMetrics: true,
  });
  assertEquals(
    formatEvaluation(failed).split("\n"),
    [
      "The answer did not pass (mode fallback, evaluator quasiExact)",
      '  actual:   "Cusco"',
      '  expected: "Lima" or "lima, peru"',
      "  quasiExact: score 0.00, needs 1.00 (no_match)",
      "  llmJudge: score 0.25, needs 0.50 (below_threshold): Wrong city.",
    ],
  );
  const passed: EvaluationResult = await AgentTest.compare("Lima", ["Lima"], off);
  assertEquals(
    formatEvaluation(passed).split("\n")[0],
    "The answer passed (mode score, evaluator quasiExact)",
  );
  assertInstanceOf(passed.metrics[0], Object);
});

Deno.test("AgentTest.compare() says what evaluator and config take", async () => {
  const evaluator = await assertRejects(
    () => AgentTest.compare("x", ["x"], { ...off, evaluator: 5 as never }),
    TypeError,
  );
  assert(evaluator.message.includes("an Evaluator or its name"), evaluator.message);
  const config = await assertRejects(
    () => AgentTest.compare("x", ["x"], { config: 5 as never }),
    TypeError,
  );
  assert(config.message.includes("a path or false"), config.message);
});
