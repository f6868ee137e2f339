import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import {
  FakeLLM,
  JUDGE_SYSTEM_PROMPT,
  type LLMInput,
  type LlmInput,
  LLMJudge,
  LlmJudge,
  type LlmJudgeOptions,
} from "@agentkit/testing/testing";
import * as root from "@agentkit/testing";

Deno.test("LLMJudge.prompt() lists the question, the numbered references and the answer", () => {
  const judge = new LLMJudge(new FakeLLM(""));
  const p = judge.prompt("Sri Lanka.", ["Sri Lanka won.", "It was Sri Lanka."], "Who won?");
  assertEquals(p.system, JUDGE_SYSTEM_PROMPT);
  assertEquals(
    p.user,
    "Question: Who won?\n\nReference answers:\n1. Sri Lanka won.\n2. It was Sri Lanka.\n\nAnswer to grade:\nSri Lanka.",
  );
  assertStringIncludes(JUDGE_SYSTEM_PROMPT, "at least one reference answer");
  assertStringIncludes(JUDGE_SYSTEM_PROMPT, '{"score": <a number from 0 to 1>');
});

Deno.test("LLMJudge.parse() reads the verdict forms a model produces", async (t) => {
  const judge = new LLMJudge(new FakeLLM(""));
  const cases: [string, unknown][] = [
    ['{"score": 0.8, "reason": "Same facts."}', { score: 0.8, reason: "Same facts." }],
    ['```json\n{"score": 1}\n```', { score: 1, reason: "" }],
    ['Here is my grade: {"score": "0.4", "reason": "Partly."} Thanks.', {
      score: 0.4,
      reason: "Partly.",
    }],
    ['{"verdict": "PASS", "reason": "ok"}', { score: 1, reason: "ok" }],
    ['{"verdict": "fail"}', { score: 0, reason: "" }],
    ["Score: 0.9", { score: 0.9, reason: "" }],
    ["I like it.", undefined],
    ['{"score": 7}', undefined],
    ['{"score": -0.1}', undefined],
    ["{not json} score = 0.3", { score: 0.3, reason: "" }],
    ["", undefined],
  ];
  for (const [reply, expected] of cases) {
    await t.step(JSON.stringify(reply), () => assertEquals(judge.parse(reply), expected));
  }
});

Deno.test("LLMJudge.evaluate() makes one complete() call with the model asked for", async () => {
  const llm = new FakeLLM('{"score": 0.5, "reason": "Borderline."}');
  const m = await new LLMJudge(llm, { model: "grader", threshold: 0.5 }).evaluate("a", ["b"]);
  assertEquals([m.passed, m.code, m.score, m.reason], [true, "passed", 0.5, "Borderline."]);
  assertEquals([llm.calls, llm.requests[0].kind, llm.requests[0].model], [1, "complete", "grader"]);
  assertEquals(llm.requests[0].messages.map((x) => x.role), ["system", "user"]);
});

Deno.test("new LLMJudge() validates its model and threshold", () => {
  assertThrows(() => new LLMJudge(undefined as never), TypeError, "pass an LLMPort");
  assertThrows(
    () => new LLMJudge(new FakeLLM(""), { threshold: 2 }),
    RangeError,
    'option "threshold" must be a number from 0 to 1, got 2',
  );
});

Deno.test("LlmJudge, LlmJudgeOptions and LlmInput are deprecated spellings of the LLM* names", async () => {
  assert(
    LlmJudge === LLMJudge && root.LlmJudge === root.LLMJudge,
    "the same class, at both entries",
  );
  const options: LlmJudgeOptions = { model: "grader", threshold: 0.7 };
  const judge: LlmJudge = new LlmJudge(new FakeLLM('{"score": 0.8}'), options);
  assert(judge instanceof LLMJudge);
  const input: LlmInput = { actual: "4", expected: ["4"], judge };
  const same: LLMInput = input;
  const m = await same.judge.evaluate(same.actual, same.expected);
  assertEquals([m.passed, m.threshold, judge.model], [true, 0.7, "grader"]);
});

Deno.test("LLMJudge.prompt() leaves the question out when there is none", () => {
  const judge = new LLMJudge(new FakeLLM(""));
  for (const question of [undefined, ""]) {
    assertEquals(
      judge.prompt("4", ["four"], question).user,
      "Reference answers:\n1. four\n\nAnswer to grade:\n4",
    );
  }
});

Deno.test("LLMJudge.parse() reads a score only where it is a number from 0 to 1", async (t) => {
  const judge = new LLMJudge(new FakeLLM(""));
  const cases: [string, unknown][] = [
    ['{"score": 0}', { score: 0, reason: "" }],
    // A score that is not a number gives way to the verdict.
    ['{"score": null, "verdict": "pass"}', { score: 1, reason: "" }],
    ['{"score": "", "verdict": "pass"}', { score: 1, reason: "" }],
    ['{"score": "  ", "verdict": "pass"}', { score: 1, reason: "" }],
    ['{"score": true, "verdict": "fail"}', { score: 0, reason: "" }],
    ['{"score": [], "verdict": "fail"}', { score: 0, reason: "" }],
    // Broken JSON: the looser form reads the number after "score".
    ['{"score": 0.9,}', { score: 0.9, reason: "" }],
    ["score:0.75", { score: 0.75, reason: "" }],
    ["Score = .5", { score: 0.5, reason: "" }],
    ["Score: 1", { score: 1, reason: "" }],
  ];
  for (const [reply, expected] of cases) {
    await t.step(JSON.stringify(reply), () => assertEquals(judge.parse(reply), expected));
  }
});

Deno.test("LLMJudge.evaluate() names its metric and asks the default model", async () => {
  const llm = new FakeLLM('{"score": 0.2, "reason": "No."}');
  const m = await new LLMJudge(llm).evaluate("a", ["b"]);
  assertEquals(m, {
    name: "llmJudge",
    mode: "llm",
    score: 0.2,
    threshold: 0.5,
    passed: false,
    code: "below_threshold",
    reason: "No.",
  });
  assertEquals(llm.requests[0].model, "judge-model");
});

Deno.test("LLMJudge.evaluate() fails an unparseable reply and shows it, cut at 200 characters", async () => {
  const short = await new LLMJudge(new FakeLLM("Looks right to me.")).evaluate("a", ["b"]);
  assertEquals(short, {
    name: "llmJudge",
    mode: "llm",
    score: 0,
    threshold: 0.5,
    passed: false,
    code: "judge_unparseable",
    reason: `the judge's reply has no score: "Looks right to me."`,
  });
  const exact = "y".repeat(200);
  const whole = await new LLMJudge(new FakeLLM(exact)).evaluate("a", ["b"]);
  assertEquals(whole.reason, `the judge's reply has no score: "${exact}"`);
  const long = "x".repeat(201);
  const cut = await new LLMJudge(new FakeLLM(long)).evaluate("a", ["b"]);
  assertEquals(cut.reason, `the judge's reply has no score: "${"x".repeat(200)}..."`);
});

Deno.test("new LLMJudge() refuses a port without complete() and names itself", () => {
  assertThrows(
    () => new LLMJudge({ chat: () => Promise.resolve() } as never),
    TypeError,
    "pass an LLMPort",
  );
  const e = assertThrows(() => new LLMJudge(new FakeLLM(""), { modle: "x" } as never), TypeError);
  assert(e.message.startsWith("new LLMJudge()"), e.message);
});

Deno.test("JUDGE_SYSTEM_PROMPT says what to grade, what does not matter and how to reply, a line each", () => {
  const lines = JUDGE_SYSTEM_PROMPT.split("\n");
  assertEquals(lines.length, 4);
  assertStringIncludes(
    lines[0],
    "grade an AI agent's answer against one or more reference answers",
  );
  assertStringIncludes(lines[1], "the same facts as at least one reference answer");
  assertStringIncludes(lines[2], "Wording, length, order and politeness do not matter");
  assertStringIncludes(lines[3], 'Reply with only a JSON object: {"score"');
});
