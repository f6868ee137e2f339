import { assertAlmostEquals, assertEquals } from "@std/assert";
import {
  FakeLLM,
  LevenshteinEvaluator,
  levenshteinRatio,
  LLMJudge,
} from "@agentkit/testing/testing";

Deno.test("levenshteinRatio() is one minus the edit distance over the longer length", () => {
  assertAlmostEquals(levenshteinRatio("kitten", "sitting"), 1 - 3 / 7);
  assertEquals(levenshteinRatio("", ""), 1);
  assertEquals(levenshteinRatio("abc", ""), 0);
  assertEquals(levenshteinRatio("Same  Text ", "same text"), 1);
});

Deno.test("LevenshteinEvaluator.evaluateByScore() takes the best expected answer against the threshold", () => {
  const ev = new LevenshteinEvaluator();
  const m = ev.evaluateByScore({ actual: "kitten", expected: ["dog", "sitting"], threshold: 0.5 });
  assertAlmostEquals(m.score, 1 - 3 / 7);
  assertEquals([m.passed, m.threshold, m.code], [true, 0.5, "passed"]);
  const strict = ev.evaluateByScore({ actual: "kitten", expected: ["sitting"] });
  assertEquals([strict.passed, strict.threshold, strict.code], [false, 0.8, "below_threshold"]);
});

Deno.test("levenshteinRatio() folds runs of spaces and trims both answers", () => {
  assertEquals(levenshteinRatio("new york", "  New   York \n"), 1);
  assertEquals(levenshteinRatio("  New   York \n", "new york"), 1);
});

Deno.test("LevenshteinEvaluator names its score-mode metric, and asks the judge in llm mode", async () => {
  const ev = new LevenshteinEvaluator();
  const m = ev.evaluateByScore({ actual: "a", expected: ["a"] });
  assertEquals([ev.name, m.name, m.mode], ["levenshtein", "levenshtein", "score"]);
  const llm = new FakeLLM('{"score": 0.9, "reason": "Same city."}');
  const judged = await ev.evaluateByLlm({
    actual: "NYC",
    expected: ["New York"],
    question: "Where?",
    judge: new LLMJudge(llm),
  });
  assertEquals([judged.name, judged.score, judged.passed], ["llmJudge", 0.9, true]);
  assertEquals(llm.requests[0].messages[1].content.startsWith("Question: Where?"), true);
});
