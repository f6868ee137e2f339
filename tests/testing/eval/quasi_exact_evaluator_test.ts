import { assertEquals } from "@std/assert";
import { FakeLLM, LLMJudge, normalizeAnswer, QuasiExactEvaluator } from "@agentkit/testing/testing";

Deno.test("normalizeAnswer() drops case, punctuation, articles and extra spaces", () => {
  assertEquals(normalizeAnswer("The Answer:  A cat, an owl!"), "answer cat owl");
  assertEquals(normalizeAnswer("Théâtre"), "théâtre");
  assertEquals(normalizeAnswer("then there"), "then there", "only whole-word articles go");
});

Deno.test("QuasiExactEvaluator.evaluateByScore() scores 1 only on an exact normalised match", () => {
  const ev = new QuasiExactEvaluator();
  assertEquals(ev.evaluateByScore({ actual: "The cat.", expected: ["cat"] }), {
    name: "quasiExact",
    mode: "score",
    score: 1,
    threshold: 1,
    passed: true,
    code: "passed",
  });
  const miss = ev.evaluateByScore({ actual: "The cat sat.", expected: ["cat"], threshold: 0.1 });
  assertEquals(
    [miss.score, miss.passed, miss.code],
    [0, false, "no_match"],
    "threshold is ignored",
  );
});

Deno.test("QuasiExactEvaluator.evaluateByLlm() delegates to the judge", async () => {
  const llm = new FakeLLM('{"score": 0.9}');
  const m = await new QuasiExactEvaluator().evaluateByLlm({
    actual: "a",
    expected: ["b"],
    judge: new LLMJudge(llm),
  });
  assertEquals([m.name, m.passed, llm.calls], ["llmJudge", true, 1]);
});
