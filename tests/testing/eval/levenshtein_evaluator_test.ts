import { assertAlmostEquals, assertEquals } from "@std/assert";
import { LevenshteinEvaluator, levenshteinRatio } from "@agentkit/testing/testing";

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
