import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { Agent } from "../../../runtime/mod.ts";
import {
  AgentTest,
  AssertionError,
  FakeLLM,
  makeTestCtx,
  TrialReport,
} from "../../../testing/mod.ts";

const start = (llm: FakeLLM) =>
  AgentTest.start(
    { agent: new Agent("geo", { model: "fake-model" }), makeCtx: () => makeTestCtx({ llm }) },
    { config: false },
  );

Deno.test("AgentTest.expect({ trials }) reruns the last prompt from the conversation before it", async () => {
  const llm = FakeLLM.script(["Hello.", "Paris.", "Lyon.", "Paris."]);
  await using test = await start(llm);
  await test.send("Hi");
  await test.send("Capital of France?");
  const report = await test.expect("Paris", { trials: { n: 3, threshold: 0.6, seed: 2 } });
  assertEquals(report instanceof TrialReport, true);
  assertEquals([report.passes, report.failures, report.n], [2, 1, 3]);
  // Trials 1 and 2 each saw the first exchange and the prompt, never another trial's turns.
  assertEquals(llm.requests.map((r) => r.messages.length), [1, 3, 3, 3]);
  assertEquals(test.session.transcript.length, 4); // the harness's conversation is untouched
  assertStringIncludes(report.failed[0].transcript!, "assistant: Lyon.");
  assertEquals(report.failed[0].index, 1);
});

Deno.test("AgentTest.expect({ trials }) asserts the threshold, or every trial without one", async () => {
  const llm = FakeLLM.script(["Paris.", "Lyon."]);
  await using test = await start(llm);
  await test.send("Capital of France?");
  const e = await assertRejects(() => test.expect("Paris", { trials: 2 }), AssertionError);
  assertStringIncludes(
    e.message,
    "pass rate 0.500 is below 1.000: 1/2 passed (1 failures, 0 errors), pass rate 0.500, 95% CI [0.095, 0.905]",
  );
});

Deno.test("AgentTest.expect({ trials, returnMetrics }) returns the report without asserting", async () => {
  const llm = FakeLLM.script(["Lyon.", "Lyon."]);
  await using test = await start(llm);
  await test.send("Capital of France?");
  const report = await test.expect("Paris", { trials: 2, returnMetrics: true });
  assertEquals(report.passes, 0);
  await assertRejects(
    () => test.expect("Paris", { trials: { n: 2, trails: 1 } as never }),
    TypeError,
    'unknown option "trails"',
  );
  await assertRejects(() => test.expect("Paris", { trials: 0 }), RangeError, 'option "trials"');
});

Deno.test("AgentTest.compare({ trials }) asks the judge each trial", async () => {
  const judge = FakeLLM.script([
    '{"score": 0.9}',
    '{"score": 0.1}',
    '{"score": 0.9}',
    '{"score": 0.9}',
  ]);
  const report = await AgentTest.compare("four", ["4"], {
    mode: "llm",
    judge,
    config: false,
    trials: { n: 4, k: 2, seed: 3 },
    returnMetrics: true,
  });
  assertEquals([report.passes, report.failures, judge.calls], [3, 1, 4]);
  assertEquals(report.passHatK(), 0.5);
  assertEquals(report.failed[0].error?.name, "AssertionError");
  const once = await AgentTest.compare("4", ["4"], { config: false, trials: 3 });
  assertEquals(once.passes, 3);
  await assertRejects(
    () => AgentTest.compare("5", ["4"], { config: false, trials: 3 }),
    AssertionError,
    "0/3 passed",
  );
  await assertRejects(
    () => AgentTest.compare("4", ["4"], { config: false, trials: "3" as never }),
    TypeError,
    "a number of trials or trials() options",
  );
});
