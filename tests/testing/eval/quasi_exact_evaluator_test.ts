import { assertEquals } from "@std/assert";
import { FakeLLM, LLMJudge, normalizeAnswer, QuasiExactEvaluator } from "@agentkit/testing/testing";

Deno.test("normalizeAnswer() drops case, punctuation, articles and extra spaces", () => {
  assertEquals(normalizeAnswer("The Answer:  A cat, an owl!"), "answer cat owl");
  assertEquals(normalizeAnswer("Théâtre"), "théâtre");
  assertEquals(normalizeAnswer("then there"), "then there", "only whole-word articles go");
});

Deno.test("normalizeAnswer() takes articles as whole words in any script", () => {
  assertEquals(normalizeAnswer("Aéroport"), "aéroport");
  assertEquals(normalizeAnswer("anécdota"), "anécdota");
  assertEquals(normalizeAnswer("thé à la menthe"), "thé à la menthe");
  assertEquals(normalizeAnswer("ça a1 the2 an"), "ça a1 the2");
  assertEquals(
    normalizeAnswer("a\u0301 tout"),
    "a\u0301 tout",
    "an accent that follows is part of it",
  );
  assertEquals(normalizeAnswer("An apple, the pear and a plum"), "apple pear and plum");
});

Deno.test("normalizeAnswer() makes punctuation a space between words", () => {
  assertEquals(normalizeAnswer("rock-n-roll"), "rock n roll");
  assertEquals(normalizeAnswer("AC/DC"), "ac dc");
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
  const any = ev.evaluateByScore({ actual: "Lima", expected: ["Cusco", "lima"] });
  assertEquals([any.passed, any.score], [true, 1], "one expected answer is enough");
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
