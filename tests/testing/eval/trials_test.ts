import {
  assert,
  assertEquals,
  assertInstanceOf,
  AssertionError as StdAssertionError,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { Agent, Budget, meter } from "../../../runtime/mod.ts";
import {
  AgentTest,
  AssertionError,
  EvaluationFailed,
  FakeLLM,
  ScriptExhausted,
  TrialReport,
  trials,
} from "../../../testing/mod.ts";

const agent = new Agent("t", { model: "fake-model" });

Deno.test("trials() keeps passes, failures and errors apart", async () => {
  const report = await trials(async (trial) => {
    switch (trial.index % 5) {
      case 0:
        return;
      case 1:
        throw new StdAssertionError("std failed");
      case 2:
        throw new AssertionError("ours failed");
      case 3:
        await AgentTest.compare("5", ["4"], { config: false }); // EvaluationFailed
        return;
      default:
        throw new TypeError("x is undefined");
    }
  }, { n: 10, seed: 3 });
  assertEquals([report.n, report.passes, report.failures, report.errors], [10, 2, 6, 2]);
  assertEquals(report.passRate, 0.2);
  assertEquals(report.failed.length, 8);
  assertEquals(report.failed.map((t) => t.index), [1, 2, 3, 4, 6, 7, 8, 9]);
  assertInstanceOf(report.failed[3].error, TypeError);
  assertInstanceOf(report.failed[2].error, EvaluationFailed);
  assertEquals(report.toJSON().trials[4], {
    index: 4,
    seed: report.trials[4].seed,
    outcome: "error",
    error: { name: "TypeError", message: "x is undefined" },
  });
  assertEquals(report.failed[2].error?.name, "AssertionError");
  assertStringIncludes(report.failed[2].error!.message, "did not pass");
});

Deno.test("trials() counts a thrown non-Error and Jest's matcher errors rightly", async () => {
  const report = await trials((trial) => {
    if (trial.index === 0) throw "a string";
    const e = Object.assign(new Error("expect(received).toBe(expected)"), { matcherResult: {} });
    throw e;
  }, { n: 2, seed: 1 });
  assertEquals(report.trials.map((t) => t.outcome), ["error", "failure"]);
  assertEquals(report.trials[0].error, { name: "string", message: "a string" });
});

Deno.test("trials() rethrows a harness error: the test itself is wrong", async () => {
  const llm = FakeLLM.script(["one"]);
  let ran = 0;
  await assertRejects(
    () =>
      trials(async (trial) => {
        ran++;
        await agent.run("hi", trial.ctx({ llm }));
      }, { n: 5, seed: 1 }),
    ScriptExhausted,
  );
  assertEquals(ran, 2);
});

Deno.test("trials(): a failing trial keeps the transcript of its FakeLLM, secrets redacted", async () => {
  const report = await trials(async (trial) => {
    const llm = new FakeLLM(trial.index === 1 ? "wrong" : "right");
    const { output } = await agent.run("use key sk-abcdefghijklmnop1234", trial.ctx({ llm }));
    if (output !== "right") {
      throw new StdAssertionError(`got ${output} with sk-abcdefghijklmnop1234`);
    }
  }, { n: 3, seed: 9 });
  assertEquals(report.failed.length, 1);
  const [t] = report.failed;
  assertEquals(t.error?.message, "got wrong with [REDACTED]");
  assertEquals(t.transcript, "request 1 (chat, model fake-model)\n  user: use key [REDACTED]");
  assertEquals(report.trials[0].transcript, undefined); // passing trials keep none
});

Deno.test("trials(): record() chooses the transcript; an error's own transcript comes first", async () => {
  const report = await trials(async (trial) => {
    const llm = new FakeLLM("ok");
    const result = await agent.run("hello", trial.ctx({ llm }));
    trial.record(result);
    trial.record("note: extra");
    throw Object.assign(new Error("boom"), { transcript: "from the error" });
  }, { n: 1, seed: 9 });
  assertEquals(
    report.failed[0].transcript,
    [
      "from the error",
      "user: hello",
      "assistant: ok",
      "stop reason: stop",
      "usage: 10 input tokens, 0 output tokens",
      "note: extra",
    ].join("\n"),
  );
});

Deno.test("trials(): seeds derive from the seed and the index alone", async () => {
  const seen = async (seed: number, concurrency = 1) => {
    const r = await trials((trial) => {
      if (trial.random() < 0) throw new Error("never");
    }, { n: 8, seed, concurrency });
    return r.trials.map((t) => t.seed);
  };
  const a = await seen(42);
  assertEquals(await seen(42), a);
  assertEquals(await seen(42, 3), a);
  assertEquals(new Set(a).size, 8);
  assert((await seen(43)).every((s, i) => s !== a[i]));
  const r = await trials(() => {}, { n: 2 });
  assert(Number.isInteger(r.seed), "a random seed is kept in the report");
  const again = await trials(() => {}, { n: 2, seed: r.seed });
  assertEquals(again.trials, r.trials);
});

Deno.test("trials(): trial.random() is the same sequence for the same seed", async () => {
  const draws = async () =>
    (await trials((trial) => {
      throw new Error(String(trial.random()));
    }, { n: 3, seed: 5 })).trials.map((t) => t.error?.message);
  const a = await draws();
  assertEquals(await draws(), a);
  assertEquals(new Set(a).size, 3);
});

Deno.test("trials(): concurrency runs that many at once, and the report is in index order", async () => {
  let inFlight = 0;
  let most = 0;
  const report = await trials(async (trial) => {
    inFlight++;
    most = Math.max(most, inFlight);
    for (let i = 0; i < (7 - trial.index) * 3; i++) await Promise.resolve();
    inFlight--;
    if (trial.index === 2) throw new StdAssertionError("no");
  }, { n: 7, concurrency: 3, seed: 1 });
  assertEquals(most, 3);
  assertEquals(report.trials.map((t) => t.index), [0, 1, 2, 3, 4, 5, 6]);
  assertEquals(report.failed.map((t) => t.index), [2]);
});

Deno.test("trials(): earlyStop stops once the interval is wholly above or below the threshold", async () => {
  const above = await trials(() => {}, { n: 50, threshold: 0.5, earlyStop: true, seed: 1 });
  assertEquals([above.n, above.planned, above.stoppedBy], [4, 50, "earlyStop"]);
  assert(above.interval.low > 0.5);
  const below = await trials(() => {
    throw new StdAssertionError("no");
  }, { n: 50, threshold: 0.9, earlyStop: true, seed: 1 });
  assertEquals([below.n, below.stoppedBy], [1, "earlyStop"]); // 0/1: [0, 0.793]
  // An undecided interval runs every trial and reports no stop.
  const mixed = await trials((t) => {
    if (t.index % 2) throw new StdAssertionError("no");
  }, { n: 10, threshold: 0.5, earlyStop: true, seed: 1 });
  assertEquals([mixed.n, mixed.stoppedBy], [10, undefined]);
  const off = await trials(() => {}, { n: 10, threshold: 0.5, seed: 1 });
  assertEquals(off.n, 10);
});

Deno.test("trials(): budgetUsd stops starting trials once the spend reaches it", async () => {
  const charged = await trials((trial) => trial.charge("0.01"), {
    n: 100,
    budgetUsd: 0.05,
    seed: 1,
  });
  assertEquals([charged.n, charged.stoppedBy], [5, "budget"]);
  assertEquals(charged.spentUsd.toFixed(2), "0.05");
  assertEquals(charged.trials[0].spentUsd, 0.01);
  // Spend a meter() charged to the trial's context budget counts too.
  const metered = await trials(async (trial) => {
    const llm = new FakeLLM("ok", { usage: { inputTokens: 1000, outputTokens: 0 } });
    await agent.run("hi", trial.ctx({ llm, chatMiddleware: [meter()] }));
  }, { n: 100, budgetUsd: "0.03", seed: 1 });
  assertEquals(metered.stoppedBy, "budget");
  assert(metered.n > 1 && metered.n < 100, String(metered.n));
  const given = new Budget();
  await trials(async (trial) => {
    await agent.run(
      "hi",
      trial.ctx({ llm: new FakeLLM("ok"), budget: given, chatMiddleware: [meter()] }),
    );
  }, { n: 2, seed: 1 });
  assertEquals(given.spent() !== "0.000000", true);
});

Deno.test("trials(): trial.charge() rejects a bad amount as the trial's error", async () => {
  const r = await trials((trial) => trial.charge(-1), { n: 1, seed: 1 });
  assertEquals(r.trials[0].outcome, "error");
  assertStringIncludes(r.trials[0].error!.message, "non-negative number of USD, got -1");
});

Deno.test("trials(): options are checked where they are given", async (t) => {
  const fn = () => {};
  await t.step("unknown key with a did-you-mean", async () => {
    await assertRejects(
      () => trials(fn, { n: 3, earlystop: true } as never),
      TypeError,
      'trials(): unknown option "earlystop"; did you mean "earlyStop"?',
    );
  });
  await t.step("n is required and a positive integer", async () => {
    await assertRejects(() => trials(fn, {} as never), TypeError, 'option "n" is required');
    await assertRejects(() => trials(fn, { n: 0 }), RangeError, 'option "n"');
    await assertRejects(() => trials(fn, { n: 2.5 }), RangeError);
  });
  await t.step("threshold, concurrency, budgetUsd, k", async () => {
    await assertRejects(() => trials(fn, { n: 3, threshold: 1.5 }), RangeError, "threshold");
    await assertRejects(() => trials(fn, { n: 3, concurrency: 0 }), RangeError, "concurrency");
    await assertRejects(() => trials(fn, { n: 3, budgetUsd: -1 }), RangeError, "budgetUsd");
    await assertRejects(
      () => trials(fn, { n: 3, k: 4 }),
      RangeError,
      'option "k" (4) is more than the trials (3)',
    );
  });
  await t.step("earlyStop needs a threshold", async () => {
    await assertRejects(
      () => trials(fn, { n: 3, earlyStop: true }),
      TypeError,
      "no threshold was given",
    );
  });
  await t.step("the trial must be a function", async () => {
    await assertRejects(
      () => trials("x" as never, { n: 1 }),
      TypeError,
      "the first argument must be the trial",
    );
  });
});

const mk = (pattern: string, extra: Partial<ConstructorParameters<typeof TrialReport>[0]> = {}) =>
  new TrialReport({
    trials: [...pattern].map((ch, i) => ({
      index: i,
      seed: i,
      outcome: ch === "p" ? "pass" : ch === "f" ? "failure" : "error",
      ...(ch === "p"
        ? {}
        : { error: { name: ch === "f" ? "AssertionError" : "Error", message: `m${i}` } }),
    })),
    ...extra,
  });

Deno.test("TrialReport.assert() checks the pass rate and pass^k and shows the interval", () => {
  const r = mk("ppppppppfe", { k: 2 });
  r.assert({ passRate: 0.8 });
  const e = assertThrows(() => r.assert({ passRate: 0.9 }), AssertionError);
  assertStringIncludes(
    e.message,
    "pass rate 0.800 is below 0.900: 8/10 passed (1 failures, 1 errors), pass rate 0.800, 95% CI [0.490, 0.943]",
  );
  assertStringIncludes(e.message, "trial #8 (seed 8) failure: AssertionError: m8");
  assertStringIncludes(e.message, "trial #9 (seed 9) error: Error: m9");
  r.assert({ passHatK: 0.6 }); // 28/45 = 0.622
  assertThrows(() => r.assert({ passHatK: 0.7 }), AssertionError, "pass^2 0.622 is below 0.700");
  assertThrows(() => r.assert({ passHatK: { k: 3, min: 0.5 } }), AssertionError, "pass^3 0.467");
  // No expectations: the threshold, else every trial.
  assertThrows(() => r.assert(), AssertionError, "below 1.000");
  mk("ppppppppfe", { threshold: 0.8 }).assert();
  assertThrows(() => mk("pf").assert({ passHatK: 0.5 }), TypeError, "no k");
  assertEquals(mk("pppp").assert(), mk("pppp").assert()); // returns the report
});

Deno.test("TrialReport: passAtK and passHatK use the report's k, or the k given", () => {
  const r = mk("pfff", { k: 2 });
  assertEquals(r.passAtK(), 0.5);
  assertEquals(r.passHatK(), 0);
  assertEquals(r.passAtK(1), 0.25);
  assertThrows(() => mk("pf").passAtK(), TypeError, "give trials() its k");
  assertThrows(
    () => r.passHatK(5),
    RangeError,
    "k must be an integer from 1 to the number of trials (4)",
  );
});

Deno.test("TrialReport: toJSON() round-trips through fromJSON(); bad JSON is refused", () => {
  const r = mk("ppfe", { k: 2, threshold: 0.5, name: "x", seed: 12 });
  const back = TrialReport.fromJSON(JSON.parse(JSON.stringify(r)));
  assertEquals(back.toJSON(), r.toJSON());
  assertEquals(r.toJSON().interval, r.interval);
  assertThrows(() => TrialReport.fromJSON({ trials: [] }), TypeError, "agentkit-trials/1");
  assertThrows(() => TrialReport.fromJSON(null), TypeError);
  assertThrows(
    () =>
      TrialReport.fromJSON({ format: "agentkit-trials/1", trials: [{ index: 0, outcome: "ok" }] }),
    TypeError,
    "every trial needs an index and an outcome",
  );
});

Deno.test("TrialReport.toString() is a table with the interval and the failing trials", () => {
  const text = mk("ppfe", { k: 2 }).toString();
  assertEquals(text.split("\n").slice(0, 3), [
    "case    passed  failures  errors   rate          95% CI  pass^2",
    "------  ------  --------  ------  -----  --------------  ------",
    "trials     2/4         1       1  0.500  [0.150, 0.850]   0.167",
  ]);
  assertStringIncludes(text, "failure #2 (seed 2): AssertionError: m2");
  assertStringIncludes(text, "error #3 (seed 3): Error: m3");
});

Deno.test("TrialReport.toJUnit() escapes every special character and drops illegal ones", () => {
  const r = new TrialReport({
    name: `a "suite" & <co>`,
    trials: [
      { index: 0, seed: 0, outcome: "pass" },
      {
        index: 1,
        seed: 1,
        outcome: "failure",
        error: { name: "AssertionError", message: `expected <b> & 'c' "d"\u0001` },
        transcript: "user: ]]> <x>",
      },
      { index: 2, seed: 2, outcome: "error", error: { name: "TypeError", message: "bad" } },
    ],
  });
  const xml = r.toJUnit();
  assertStringIncludes(
    xml,
    `<testsuite name="a &quot;suite&quot; &amp; &lt;co&gt;" tests="3" failures="1" errors="1"`,
  );
  assertStringIncludes(
    xml,
    "expected &lt;b&gt; &amp; &apos;c&apos; &quot;d&quot;</failure>".replace("</failure>", ""),
  );
  assertStringIncludes(xml, "user: ]]&gt; &lt;x&gt;");
  assert(!xml.includes("\u0001"));
  assertStringIncludes(
    xml,
    `<testcase classname="a &quot;suite&quot; &amp; &lt;co&gt;" name="trial #0"></testcase>`,
  );
  assertStringIncludes(
    xml,
    `<error message="1 trial(s) broke" type="TypeError">trial #2 (seed 2): error\nTypeError: bad</error>`,
  );
  // Well formed: every open tag is closed, in order.
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([a-z-]+)[^>]*?(\/?)>/g)) {
    if (m[3]) continue;
    if (m[1]) assertEquals(stack.pop(), m[2]);
    else stack.push(m[2]);
  }
  assertEquals(stack, []);
});
