import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import { Agent, HarnessError, Session } from "@agentkit/testing/runtime";
import {
  AgentTest,
  AssertionError,
  EvaluationFailed,
  type Evaluator,
  FakeLLM,
  makeTestCtx,
  MetricNotSupported,
} from "@agentkit/testing/testing";
import * as quiz from "../../fixtures/agent_test/quiz_agent.ts";

const fixtures = new URL("../../fixtures/agent_test/", import.meta.url);
const off = { config: false } as const;

async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir();
  const cwd = Deno.cwd();
  try {
    return await fn(dir);
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("AgentTest.compare() in score mode with quasiExact: normalised whole-string equality", async (t) => {
  await t.step("case, punctuation, articles and spacing do not matter", async () => {
    const r = await AgentTest.compare("  the ANSWER is: 4! ", ["Answer is 4"], off);
    assertEquals([r.passed, r.code, r.mode, r.evaluator], [true, "passed", "score", "quasiExact"]);
  });
  await t.step("any of several expected answers may match", async () => {
    const r = await AgentTest.compare("four", ["4", "Four."], off);
    assertEquals(r.passed, true);
  });
  await t.step("a partial match fails: no partial credit", async () => {
    const r = await AgentTest.compare("The answer is 4, or 5", ["The answer is 4"], {
      ...off,
      returnMetrics: true,
    });
    assertEquals([r.passed, r.code, r.metrics[0].score], [false, "no_match", 0]);
  });
});

Deno.test("AgentTest.compare() throws an AssertionError showing actual, expected and the scores", async () => {
  const e = await assertRejects(
    () => AgentTest.compare("Australia won.", ["Sri Lanka won.", "It was Sri Lanka."], off),
    EvaluationFailed,
  );
  assertInstanceOf(e, AssertionError);
  assertEquals(e.name, "AssertionError");
  assertStringIncludes(e.message, 'actual:   "Australia won."');
  assertStringIncludes(e.message, 'expected: "Sri Lanka won." or "It was Sri Lanka."');
  assertStringIncludes(e.message, "quasiExact: score 0.00, needs 1.00 (no_match)");
  assertEquals(e.result.code, "no_match");
});

Deno.test("AgentTest.compare() with levenshtein: a similarity ratio against a threshold", async (t) => {
  await t.step("close enough passes at the default 0.8", async () => {
    const r = await AgentTest.compare("Sri Lanka won the cup", ["Sri Lanka won the cup!"], {
      ...off,
      evaluator: "levenshtein",
    });
    assert(r.metrics[0].score > 0.9 && r.metrics[0].score < 1);
    assertEquals(r.metrics[0].threshold, 0.8);
  });
  await t.step("the threshold option decides", async () => {
    const r = await AgentTest.compare("kitten", ["sitting"], {
      ...off,
      evaluator: "levenshtein",
      threshold: 0.6,
      returnMetrics: true,
    });
    assertEquals([r.passed, r.metrics[0].score], [false, 1 - 3 / 7]);
    const lower = await AgentTest.compare("kitten", ["sitting"], {
      ...off,
      evaluator: "levenshtein",
      threshold: 0.5,
    });
    assertEquals(lower.passed, true);
  });
});

Deno.test("AgentTest.compare() in llm mode asks the judge and parses its verdict", async () => {
  const judge = new FakeLLM('{"score": 0.8, "reason": "Same winner."}');
  const r = await AgentTest.compare("Sri Lanka.", ["Sri Lanka won the 1996 world cup."], {
    ...off,
    mode: "llm",
    judge,
    judgeModel: "gpt-judge",
    question: "Who won in 1996?",
  });
  assertEquals(r.metrics, [{
    name: "llmJudge",
    mode: "llm",
    score: 0.8,
    threshold: 0.5,
    passed: true,
    code: "passed",
    reason: "Same winner.",
  }]);
  assertEquals(judge.calls, 1);
  const [system, user] = judge.requests[0].messages;
  assertEquals(judge.requests[0].model, "gpt-judge");
  assertStringIncludes(system.content, "reference answers");
  assertEquals(
    user.content,
    "Question: Who won in 1996?\n\nReference answers:\n1. Sri Lanka won the 1996 world cup.\n\nAnswer to grade:\nSri Lanka.",
  );
});

Deno.test("AgentTest.compare() in llm mode fails on a low or unparseable verdict", async (t) => {
  await t.step("below the judge threshold", async () => {
    const e = await assertRejects(
      () =>
        AgentTest.compare("Australia.", ["Sri Lanka."], {
          ...off,
          mode: "llm",
          judge: new FakeLLM('{"score": 0.6, "reason": "Wrong team."}'),
          judgeThreshold: 0.7,
        }),
      EvaluationFailed,
    );
    assertStringIncludes(
      e.message,
      "llmJudge: score 0.60, needs 0.70 (below_threshold): Wrong team.",
    );
  });
  await t.step("a reply with no score", async () => {
    const r = await AgentTest.compare("x", ["y"], {
      ...off,
      mode: "llm",
      judge: new FakeLLM("Looks good to me!"),
      returnMetrics: true,
    });
    assertEquals([r.passed, r.code], [false, "judge_unparseable"]);
    assertStringIncludes(r.metrics[0].reason!, '"Looks good to me!"');
  });
});

Deno.test("AgentTest.compare() in fallback mode judges only when the score fails", async (t) => {
  await t.step("a passing score: the judge is not called", async () => {
    const judge = new FakeLLM('{"score": 0}');
    const r = await AgentTest.compare("4", ["4"], { ...off, mode: "fallback", judge });
    assertEquals([r.passed, r.metrics.length, judge.calls], [true, 1, 0]);
  });
  await t.step("a failing score: the judge decides", async () => {
    const judge = new FakeLLM('{"score": 1, "reason": "Equivalent."}');
    const r = await AgentTest.compare("It is four.", ["4"], { ...off, mode: "fallback", judge });
    assertEquals(r.metrics.map((m) => [m.name, m.passed]), [["quasiExact", false], [
      "llmJudge",
      true,
    ]]);
    assertEquals([r.passed, r.code, judge.calls], [true, "passed", 1]);
  });
  await t.step("both fail: the judge's code and both scores are reported", async () => {
    const judge = new FakeLLM('{"score": 0.1, "reason": "Different."}');
    const e = await assertRejects(
      () => AgentTest.compare("five", ["4"], { ...off, mode: "fallback", judge }),
      EvaluationFailed,
    );
    assertEquals(e.result.code, "below_threshold");
    assertStringIncludes(e.message, "quasiExact: score 0.00");
    assertStringIncludes(e.message, "llmJudge: score 0.10");
  });
  await t.step("with a judge and no mode, fallback is the default", async () => {
    const judge = new FakeLLM('{"score": 1}');
    const r = await AgentTest.compare("It is four.", ["4"], { ...off, judge });
    assertEquals([r.mode, r.passed], ["fallback", true]);
  });
});

Deno.test("AgentTest.compare() checks the mode's needs before it scores", async (t) => {
  const judgeOnly: Evaluator = {
    name: "judge-only",
    evaluateByLlm: () => {
      throw new Error("never reached");
    },
  };
  await t.step("score mode with an evaluator that cannot score", async () => {
    const e = await assertRejects(
      () => AgentTest.compare("4", ["4"], { ...off, mode: "score", evaluator: judgeOnly }),
      MetricNotSupported,
    );
    assertInstanceOf(e, HarnessError);
    assertEquals([e.evaluator, e.mode], ["judge-only", "score"]);
  });
  await t.step("fallback needs both, even when the score would pass", async () => {
    const scoreOnly: Evaluator = {
      name: "score-only",
      evaluateByScore: () => ({
        name: "x",
        mode: "score",
        score: 1,
        threshold: 1,
        passed: true,
        code: "passed",
      }),
    };
    await assertRejects(
      () =>
        AgentTest.compare("4", ["4"], {
          ...off,
          mode: "fallback",
          evaluator: scoreOnly,
          judge: new FakeLLM("{}"),
        }),
      MetricNotSupported,
      "has no evaluateByLlm()",
    );
  });
  await t.step("returnMetrics does not turn MetricNotSupported into a result", async () => {
    await assertRejects(
      () =>
        AgentTest.compare("4", ["4"], {
          ...off,
          mode: "score",
          evaluator: judgeOnly,
          returnMetrics: true,
        }),
      MetricNotSupported,
    );
  });
  await t.step("llm mode without a judge", async () => {
    await assertRejects(
      () => AgentTest.compare("4", ["4"], { ...off, mode: "llm" }),
      TypeError,
      'Cannot compare in mode "llm" without a judge',
    );
  });
});

Deno.test("AgentTest.compare() rejects bad options and inputs with a clear message", async (t) => {
  await t.step("an unknown option gets a did-you-mean", async () => {
    await assertRejects(
      () => AgentTest.compare("4", ["4"], { ...off, return_metrics: true } as never),
      TypeError,
      'AgentTest.compare(): unknown option "return_metrics"; did you mean "returnMetrics"?',
    );
  });
  await t.step("an unknown evaluator name", async () => {
    await assertRejects(
      () => AgentTest.compare("4", ["4"], { ...off, evaluator: "levenstein" }),
      TypeError,
      'Unknown evaluator "levenstein"; did you mean "levenshtein"?',
    );
  });
  await t.step("no expected answers", async () => {
    await assertRejects(() => AgentTest.compare("4", [], off), TypeError, "non-empty array");
  });
  await t.step("an actual answer that is not a string", async () => {
    await assertRejects(
      () => AgentTest.compare(undefined as never, ["4"], off),
      TypeError,
      "got undefined",
    );
  });
});

Deno.test("AgentTest.compare() loads a custom evaluator from a module specifier", async (t) => {
  await t.step("a class export is constructed", async () => {
    const evaluator = new URL("keyword_evaluator.ts#KeywordEvaluator", fixtures).href;
    const r = await AgentTest.compare("In 1996 Sri Lanka won", ["sri lanka 1996"], {
      ...off,
      evaluator,
    });
    assertEquals([r.evaluator, r.passed], ["keywords", true]);
  });
  await t.step("an object export is used as is", async () => {
    const evaluator = new URL("keyword_evaluator.ts#judgeOnly", fixtures).href;
    await assertRejects(
      () => AgentTest.compare("x", ["x"], { ...off, evaluator, mode: "score" }),
      MetricNotSupported,
    );
  });
  await t.step("a missing export names what the module has", async () => {
    const evaluator = new URL("keyword_evaluator.ts#Nope", fixtures).href;
    await assertRejects(
      () => AgentTest.compare("x", ["x"], { ...off, evaluator }),
      TypeError,
      'has no export "Nope"; it exports "KeywordEvaluator", "judgeOnly"',
    );
  });
});

Deno.test("AgentTest.compare() reads agentkit.test.json from the working directory", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/agentkit.test.json`,
      JSON.stringify({
        mode: "fallback",
        evaluator: `${fixtures.pathname}keyword_evaluator.ts#KeywordEvaluator`,
        judge: `${fixtures.pathname}judge.ts#judge`,
        judgeThreshold: 0.7,
      }),
    );
    Deno.chdir(dir);
    const r = await AgentTest.compare("Australia", ["Sri Lanka"], { returnMetrics: true });
    assertEquals(r.mode, "fallback");
    assertEquals(r.metrics.map((m) => [m.name, m.score, m.threshold]), [
      ["keywords", 0, 1],
      ["llmJudge", 0.75, 0.7],
    ]);
    const overridden = await AgentTest.compare("Australia", ["Sri Lanka"], {
      mode: "score",
      returnMetrics: true,
    });
    assertEquals(overridden.metrics.length, 1, "an option wins over the file");
  });
});

Deno.test("AgentTest.compare() resolves a config's relative specifiers against its folder", async () => {
  await inTempDir(async (dir) => {
    await Deno.mkdir(`${dir}/conf`);
    await Deno.writeTextFile(
      `${dir}/conf/eval.ts`,
      `export class Always { name = "always"; evaluateByScore() { return { name: "always", mode: "score", score: 1, threshold: 1, passed: true, code: "passed" }; } }`,
    );
    await Deno.writeTextFile(
      `${dir}/conf/agentkit.test.json`,
      JSON.stringify({ evaluator: "./eval.ts#Always" }),
    );
    Deno.chdir(dir);
    const env = Deno.env.get("AGENTKIT_TEST_CONFIG");
    Deno.env.set("AGENTKIT_TEST_CONFIG", "conf/agentkit.test.json");
    try {
      const r = await AgentTest.compare("anything", ["else"]);
      assertEquals([r.evaluator, r.passed], ["always", true]);
    } finally {
      if (env === undefined) Deno.env.delete("AGENTKIT_TEST_CONFIG");
      else Deno.env.set("AGENTKIT_TEST_CONFIG", env);
    }
  });
});

Deno.test("AgentTest.start() imports an agent module; send() runs in one session", async () => {
  const before = quiz.llm.calls;
  await using test = await AgentTest.start(new URL("quiz_agent.ts", fixtures), off);
  assertEquals(test.agent.name, "quiz");
  const first = await test.send("Who won the 1996 cricket world cup?");
  assertEquals(first, "Sri Lanka won the 1996 cricket world cup.");
  await test.expect(["Sri Lanka won the 1996 cricket world cup."]);
  await test.send("Whom did they beat in the final?");
  await test.expect(["Sri Lanka beat Australia in the final"]);
  assertEquals(quiz.llm.calls - before, 2);
  assertEquals(test.session.transcript.length, 4);
  assertEquals(test.results.map((r) => r.stopReason), ["stop", "stop"]);
});

Deno.test("AgentTest.expect() throws on a wrong reply and shows the judge the last prompt", async () => {
  const judge = new FakeLLM('{"score": 0.2, "reason": "Wrong."}');
  await using test = await AgentTest.start(new URL("quiz_agent.ts", fixtures), {
    ...off,
    judge,
  });
  await test.send("What is the capital of Peru?");
  const e = await assertRejects(() => test.expect(["Lima"]), EvaluationFailed);
  assertEquals(e.result.mode, "fallback");
  assertStringIncludes(
    judge.requests[0].messages[1].content,
    "Question: What is the capital of Peru?",
  );
  const r = await test.expect(["Lima"], { mode: "score", returnMetrics: true });
  assertEquals([r.passed, judge.calls], [false, 1]);
});

Deno.test("AgentTest.stop() ends the harness and calls the module's stop", async () => {
  const before = quiz.stopped;
  const test = await AgentTest.start(new URL("quiz_agent.ts", fixtures), off);
  await test.stop();
  await test.stop();
  assertEquals(quiz.stopped - before, 1);
  await assertRejects(() => test.send("hi"), Error, "this AgentTest was stopped");
  {
    await using _disposed = await AgentTest.start(new URL("quiz_agent.ts", fixtures), off);
  }
  assertEquals(quiz.stopped - before, 2, "await using stops it too");
});

Deno.test("AgentTest.start() takes a module object and a session of your own", async () => {
  const session = new Session("mine");
  const llm = new FakeLLM("ok");
  await using test = await AgentTest.start(
    { agent: new Agent("a", { model: "fake-model" }), makeCtx: () => makeTestCtx({ llm }) },
    { ...off, session },
  );
  await test.send("hi");
  assert(test.session === session);
  assertEquals(session.transcript.length, 2);
});

Deno.test("AgentTest.start() and expect() explain misuse", async (t) => {
  await t.step("a module without an agent", async () => {
    await assertRejects(
      () => AgentTest.start(new URL("judge.ts", fixtures)),
      TypeError,
      "exports no agent",
    );
  });
  await t.step("expect before send", async () => {
    await using test = await AgentTest.start({ agent: new Agent("a", { model: "m" }) }, off);
    await assertRejects(() => test.expect(["x"]), Error, "call send(prompt) first");
  });
  await t.step("an unknown start option", async () => {
    await assertRejects(
      () =>
        AgentTest.start({ agent: new Agent("a", { model: "m" }) }, { sesion: undefined } as never),
      TypeError,
      'did you mean "session"?',
    );
  });
});
