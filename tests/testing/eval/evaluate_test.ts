import {
  assert,
  assertEquals,
  AssertionError as StdAssertionError,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { Agent } from "../../../runtime/mod.ts";
import {
  AssertionError,
  evaluate,
  FakeLLM,
  mergeReports,
  readBaseline,
  ScriptExhausted,
  TrialReport,
  writeBaseline,
} from "../../../testing/mod.ts";

const agent = new Agent("geo", { model: "fake-model" });

// A task that passes with a chance set per case, decided by the trial's seed.
const chances: Record<string, number> = { easy: 0.95, coin: 0.5, hard: 0.1 };
const cases = Object.keys(chances).map((name) => ({ name, input: name, expected: "yes" }));
const flaky = (input: string, trial: { random(): number }) =>
  trial.random() < chances[input] ? "yes" : "no";

Deno.test("evaluate() reports per case and per suite, with per-case trials", async () => {
  const report = await evaluate(
    [...cases, { name: "many", input: "easy", expected: ["yes", "YES!"], trials: { n: 7 } }],
    flaky,
    { trials: { n: 20, k: 2, seed: 11 }, config: false, name: "suite" },
  );
  assertEquals(report.cases.map((c) => [c.name, c.n, c.planned]), [
    ["easy", 20, 20],
    ["coin", 20, 20],
    ["hard", 20, 20],
    ["many", 7, 7],
  ]);
  assertEquals(report.n, 67);
  assertEquals(report.passes, report.cases.reduce((s, c) => s + c.passes, 0));
  assert(report.case("easy")!.passes > report.case("hard")!.passes);
  assertEquals(report.case("hard")!.k, 2);
  const failing = report.case("coin")!.failed[0];
  assertEquals([failing.case, failing.answer, failing.error?.name], [
    "coin",
    "no",
    "AssertionError",
  ]);
  assertStringIncludes(failing.error!.message, 'actual:   "no"');
  assertEquals(report.name, "suite");
  // The same seed gives the same trials.
  const again = await evaluate(
    [...cases, { name: "many", input: "easy", expected: ["yes", "YES!"], trials: 7 }],
    flaky,
    { trials: { n: 20, k: 2, seed: 11 }, config: false, name: "suite" },
  );
  assertEquals(again.toJSON(), report.toJSON());
});

Deno.test("evaluate(): an agent's result is its answer and its transcript", async () => {
  const llm = new FakeLLM({ France: "Paris", Chad: "Abuja" });
  const report = await evaluate(
    [
      { name: "france", input: "Capital of France?", expected: "Paris" },
      { name: "chad", input: "Capital of Chad?", expected: "N'Djamena" },
    ],
    (input, trial) => agent.run(input, trial.ctx({ llm })),
    { trials: 2, config: false },
  );
  assertEquals(report.cases.map((c) => c.passes), [2, 0]);
  assertEquals(
    report.case("chad")!.failed[0].transcript,
    "user: Capital of Chad?\nassistant: Abuja\nstop reason: stop\nusage: 10 input tokens, 0 output tokens",
  );
});

Deno.test("evaluate(): a task's thrown assertion is a failure, other throws errors, a harness error stops", async () => {
  const report = await evaluate(
    [
      { name: "asserts", input: 1, expected: "x" },
      { name: "throws", input: 2, expected: "x" },
      { name: "wrong type", input: 3, expected: "x" },
    ],
    (input) => {
      if (input === 1) throw new StdAssertionError("checked inside");
      if (input === 2) throw new Error("network down");
      return 42 as never;
    },
    { trials: 2, config: false },
  );
  assertEquals(report.cases.map((c) => [c.failures, c.errors]), [[2, 0], [0, 2], [0, 2]]);
  assertStringIncludes(report.case("wrong type")!.failed[0].error!.message, "returned 42");
  const llm = FakeLLM.script(["one"]);
  await assertRejects(
    () =>
      evaluate(
        [{ name: "a", input: "q", expected: "one" }],
        (q, trial) => agent.run(q, trial.ctx({ llm })),
        { trials: 3, config: false },
      ),
    ScriptExhausted,
  );
});

Deno.test("evaluate(): the comparison's options apply (evaluator, threshold, judge)", async () => {
  const judge = new FakeLLM('{"score": 0.9, "reason": "same"}');
  const report = await evaluate(
    [{ name: "a", input: "q", expected: "The answer is 4" }],
    () => "It's four.",
    { trials: 3, mode: "fallback", evaluator: "levenshtein", judge, config: false },
  );
  assertEquals(report.passes, 3);
  assertEquals(judge.calls, 3); // each trial judged: verdicts are not shared between trials
  const strict = await evaluate([{ name: "a", input: "q", expected: "abcd" }], () => "abce", {
    evaluator: "levenshtein",
    threshold: 0.9,
    config: false,
  });
  assertEquals(strict.failures, 1);
});

Deno.test("evaluate(): shards split the case-trials alike on every machine and merge into the unsharded report", async () => {
  const options = { trials: { n: 9, seed: 3, k: 3 }, config: false as const };
  const whole = await evaluate(cases, flaky, options);
  for (const count of [2, 3, 5]) {
    const shards = [];
    for (let i = 1; i <= count; i++) {
      shards.push(await evaluate(cases, flaky, { ...options, shard: `${i}/${count}` }));
    }
    assertEquals(shards.reduce((s, r) => s + r.n, 0), 27);
    const sizes = shards.map((r) => r.n);
    assert(Math.max(...sizes) - Math.min(...sizes) <= 1, `balanced: ${sizes}`);
    assertEquals(shards[0].shard, `1/${count}`);
    // Given as reports or as JSON, in any order.
    const merged = mergeReports([...shards].reverse().map((r, i) => i % 2 ? r : r.toJSON()));
    assertEquals(merged.toJSON(), whole.toJSON());
    assertEquals(merged.passHatK(), whole.passHatK());
    assertEquals(merged.case("coin")!.interval, whole.case("coin")!.interval);
  }
  const again = await evaluate(cases, flaky, { ...options, shard: "2/3" });
  assertEquals(
    again.toJSON(),
    (await evaluate(cases, flaky, { ...options, shard: "2/3" })).toJSON(),
  );
});

Deno.test("mergeReports() refuses shards of different suites and a shard given twice", async () => {
  const options = { trials: { n: 4, seed: 3 }, config: false as const };
  const a = await evaluate(cases, flaky, { ...options, shard: "1/2" });
  const other = await evaluate(cases.slice(1), flaky, { ...options, shard: "2/2" });
  assertThrows(
    () => mergeReports([a, other]),
    TypeError,
    "report 2 (shard 2/2) is of another suite",
  );
  const reseeded = await evaluate(cases, flaky, {
    trials: { n: 4, seed: 4 },
    config: false,
    shard: "2/2",
  });
  assertThrows(() => mergeReports([a, reseeded]), TypeError, "another suite");
  assertThrows(() => mergeReports([a, a]), TypeError, 'trial 0 of case "easy" is in two reports');
  assertThrows(() => mergeReports([]), TypeError, "non-empty array");
});

Deno.test("evaluate(): options and cases are checked where they are given", async (t) => {
  const task = () => "x";
  await t.step("unknown option", async () => {
    await assertRejects(
      () => evaluate(cases, task, { shards: "1/2" } as never),
      TypeError,
      'evaluate(): unknown option "shards"; did you mean "shard"?',
    );
    await assertRejects(
      () => evaluate(cases, task, { trials: { n: 2, earlystop: true } } as never),
      TypeError,
      'did you mean "earlyStop"?',
    );
  });
  await t.step("bad shard", async () => {
    for (const shard of ["3/2", "0/2", "1-2", "1/0"]) {
      await assertRejects(
        () => evaluate(cases, task, { shard }),
        RangeError,
        '"i/n" with i from 1 to n',
      );
    }
    await assertRejects(
      () =>
        evaluate(cases, task, { shard: "1/2", trials: { n: 4, threshold: 0.5, earlyStop: true } }),
      TypeError,
      "earlyStop and shard do not mix",
    );
  });
  await t.step("bad cases", async () => {
    await assertRejects(() => evaluate([], task), TypeError, "non-empty array");
    await assertRejects(
      () => evaluate([{ name: "a", input: 1, expectd: "x" } as never], task),
      TypeError,
      'evaluate(): case 1: unknown option "expectd"; did you mean "expected"?',
    );
    await assertRejects(
      () => evaluate([{ name: "a", input: 1, expected: [] }], task),
      RangeError,
      "expected",
    );
    await assertRejects(
      () =>
        evaluate(
          [{ name: "a", input: 1, expected: "x" }, { name: "a", input: 2, expected: "y" }],
          task,
        ),
      TypeError,
      'case 2: the name "a" is taken by an earlier case',
    );
    await assertRejects(
      () => evaluate([{ name: "a", input: 1, expected: "x", trials: 0 }], task),
      RangeError,
    );
    await assertRejects(
      () =>
        evaluate([{ name: "a", input: 1, expected: "x", trials: 2 }], task, {
          trials: { n: 5, k: 3 },
        }),
      RangeError,
      'case "a": option "k" (3) is more than the trials (2)',
    );
    await assertRejects(
      () => evaluate(cases, "task" as never),
      TypeError,
      "the task must be a function",
    );
  });
});

Deno.test("evaluate(): earlyStop decides each case apart", async () => {
  const report = await evaluate(
    [{ name: "always", input: "yes", expected: "yes" }, {
      name: "never",
      input: "no",
      expected: "yes",
    }],
    (input) => input,
    { trials: { n: 50, threshold: 0.5, earlyStop: true, seed: 1 }, config: false },
  );
  assertEquals(report.cases.map((c) => c.n), [4, 4]);
  assertEquals(report.stoppedBy, "earlyStop");
});

Deno.test("evaluate(): the cache replays answers and verdicts per trial index", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cache = `${dir}/cache.json`;
    let calls = 0;
    const judge = new FakeLLM('{"score": 1, "reason": "it said sk-abcdefghijklmnop1234 too"}');
    const task = (input: string, trial: { index: number }) => {
      calls++;
      return `${input} ${trial.index % 2 ? "odd" : "even"} sk-abcdefghijklmnop1234`;
    };
    const options = {
      trials: { n: 4, seed: 2 },
      mode: "llm" as const,
      judge,
      config: false as const,
      cache,
    };
    const first = await evaluate([{ name: "a", input: "q", expected: "q" }], task, options);
    assertEquals([calls, judge.calls, first.passes], [4, 4, 4]);
    const text = await Deno.readTextFile(cache);
    assert(!text.includes("sk-abcdefghijklmnop1234"), "no secret in the cache file");
    assert(text.includes("it said [REDACTED] too"), "the judge's reason kept, redacted");
    const second = await evaluate([{ name: "a", input: "q", expected: "q" }], task, options);
    assertEquals([calls, judge.calls], [4, 4]); // free
    assertEquals(second.passes, 4);
    assertEquals(JSON.parse(text).format, "agentkit-eval-cache/1");
    assertEquals(Object.keys(JSON.parse(text).entries).length, 8); // 4 answers + 4 verdicts, one per trial
    // More trials: only the new indexes run.
    await evaluate([{ name: "a", input: "q", expected: "q" }], task, {
      ...options,
      trials: { n: 6, seed: 2 },
    });
    assertEquals([calls, judge.calls], [6, 6]);
    await Deno.writeTextFile(cache, "{}");
    await assertRejects(
      () => evaluate([{ name: "a", input: "q", expected: "q" }], task, options),
      TypeError,
      "not an evaluate() cache",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const report = (passes: Record<string, [number, number]>) =>
  new TrialReport({
    trials: Object.entries(passes).flatMap(([name, [c, n]]) =>
      Array.from(
        { length: n },
        (_, i) => ({
          index: i,
          seed: i,
          case: name,
          outcome: i < c ? "pass" as const : "failure" as const,
        }),
      )
    ),
    cases: Object.entries(passes).map(([name, [, n]]) => ({ name, planned: n })),
  });

Deno.test("TrialReport.compare() labels cases by Fisher's exact test, not by a bare difference", () => {
  const base = report({
    stable: [18, 20],
    fell: [19, 20],
    rose: [4, 20],
    noisy: [10, 20],
    gone: [5, 5],
  });
  const now = report({
    stable: [18, 20],
    fell: [8, 20],
    rose: [17, 20],
    noisy: [13, 20],
    added: [3, 3],
  });
  const c = now.compare(base);
  assertEquals(c.cases.map((r) => [r.name, r.label]), [
    ["stable", "unchanged"],
    ["fell", "regressed"],
    ["rose", "improved"],
    ["noisy", "unchanged"], // 10/20 → 13/20 is noise (p = 0.52)
    ["added", "new"],
    ["gone", "missing"],
  ]);
  assertEquals(c.regressed, ["fell"]);
  assertEquals(c.improved, ["rose"]);
  assertEquals(c.unchanged, ["stable", "noisy"]);
  assert(c.cases[1].pValue < 0.05 && c.cases[3].pValue > 0.05);
  assertEquals(c.cases[1].before, { passes: 19, n: 20, passRate: 0.95 });
  const e = assertThrows(() => c.assert(), AssertionError);
  assertStringIncludes(e.message, "1 case(s) regressed");
  assertStringIncludes(e.message, "regressed fell: 19/20 -> 8/20 (Fisher p = ");
  assertStringIncludes(c.toString(), "1 regressed, 1 improved, 2 unchanged");
  base.compare(base).assert();
  // A stricter alpha calls fewer changes.
  assertEquals(now.compare(base, { alpha: 0.0001 }).regressed, []);
  assertThrows(() => now.compare(base, { alpha: 2 }), RangeError, "alpha");
  // JSON, and a report without cases is one case.
  assertEquals(now.compare(base.toJSON()).regressed, ["fell"]);
  const single = (c: number) =>
    new TrialReport({
      trials: Array.from(
        { length: 30 },
        (_, i) => ({ index: i, seed: i, outcome: i < c ? "pass" : "error" }),
      ),
    });
  assertEquals(single(10).compare(single(29)).cases.map((r) => [r.name, r.label]), [[
    "all",
    "regressed",
  ]]);
});

Deno.test("writeBaseline() / readBaseline() and AGENTKIT_UPDATE_BASELINE=1", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/nested/baseline.json`;
  try {
    const base = report({ a: [19, 20], b: [5, 20] });
    writeBaseline(path, base);
    assertEquals(readBaseline(path).toJSON(), base.toJSON());
    assertEquals(readBaseline(new URL(`file://${path}`)).passes, 24);
    const now = report({ a: [6, 20], b: [5, 20] });
    assertEquals(now.compare(path).regressed, ["a"]);
    Deno.env.set("AGENTKIT_UPDATE_BASELINE", "1");
    try {
      const c = now.compare(path);
      assertEquals([c.updated, c.regressed], [true, []]);
      assertStringIncludes(c.toString(), "baseline rewritten");
    } finally {
      Deno.env.delete("AGENTKIT_UPDATE_BASELINE");
    }
    assertEquals(readBaseline(path).toJSON(), now.toJSON());
    assertEquals(now.compare(path).regressed, []);
    assertThrows(() => readBaseline(`${dir}/none.json`), Error, "AGENTKIT_UPDATE_BASELINE=1");
    await Deno.writeTextFile(`${dir}/bad.json`, "{nope");
    assertThrows(() => readBaseline(`${dir}/bad.json`), TypeError, "it is not JSON");
    await Deno.writeTextFile(`${dir}/other.json`, '{"a": 1}');
    assertThrows(() => readBaseline(`${dir}/other.json`), TypeError, "agentkit-trials/1");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an evaluate() report's table and JUnit have one row and one testcase per case", async () => {
  const r = await evaluate(cases, flaky, {
    trials: { n: 10, seed: 3, k: 2 },
    config: false,
    name: "geo",
  });
  const lines = r.toString().split("\n");
  assertEquals(lines[0].split(/\s{2,}/), [
    "case",
    "passed",
    "failures",
    "errors",
    "rate",
    "95% CI",
    "pass^2",
  ]);
  assertEquals(lines.slice(2, 6).map((l) => l.split(/\s+/)[0]), ["easy", "coin", "hard", "(all)"]);
  const xml = r.toJUnit();
  assertEquals([...xml.matchAll(/<testcase /g)].length, 3);
  assertStringIncludes(xml, `<testcase classname="geo" name="hard">`);
  assertStringIncludes(xml, `<testsuite name="geo" tests="3"`);
});

Deno.test("BaselineComparison: its text and its assertion list the cases that moved", () => {
  const base = report({ a: [19, 20], b: [2, 20], c: [10, 20] });
  const now = report({ a: [5, 20], b: [18, 20], c: [11, 20], d: [1, 1] });
  const c = now.compare(base);
  assertEquals(c.toString().split("\n"), [
    "1 regressed, 1 improved, 1 unchanged (Fisher's exact test, α 0.05)",
    `regressed a: 19/20 -> 5/20 (Fisher p = ${c.cases[0].pValue.toFixed(4)})`,
    `improved  b: 2/20 -> 18/20 (Fisher p = ${c.cases[1].pValue.toFixed(4)})`,
    "new       d: - -> 1/1 (Fisher p = 1.0000)",
  ]);
  const e = assertThrows(() => c.assert(), AssertionError);
  assertEquals(e.message.split("\n"), [
    "1 case(s) regressed against the baseline (Fisher's exact test, α 0.05):",
    `regressed a: 19/20 -> 5/20 (Fisher p = ${c.cases[0].pValue.toFixed(4)})`,
    "If the change is intended, rerun with AGENTKIT_UPDATE_BASELINE=1 and commit the baseline",
  ]);
  assertEquals(
    report({ a: [1, 1] }).compare(report({ b: [1, 1] })).toString().split("\n")[1],
    "new       a: - -> 1/1 (Fisher p = 1.0000)",
  );
  for (const alpha of [0, 1, -0.5, NaN]) {
    assertThrows(
      () => now.compare(base, { alpha }),
      RangeError,
      'option "alpha" must be a number between 0 and 1',
    );
  }
  now.compare(base, { alpha: 0.999 });
});

Deno.test("readBaseline(): a missing file keeps its cause; other read errors pass through", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const e = assertThrows(
      () => readBaseline(`${dir}/none.json`),
      Error,
      `Cannot read the baseline ${dir}/none.json: there is no such file`,
    );
    assertEquals((e.cause as { code?: string }).code, "ENOENT");
    const other = assertThrows(() => readBaseline(dir)); // a folder: EISDIR
    assert(!(other as Error).message.includes("no such file"), (other as Error).message);
    writeBaseline(new URL(`file://${dir}/from_url.json`), report({ a: [1, 2] }).toJSON());
    const text = await Deno.readTextFile(`${dir}/from_url.json`);
    assert(text.endsWith("}\n") && text.includes('\n  "format": "agentkit-trials/1"'), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluate(): an answer that repeats a secret is masked in the report and its baseline", async () => {
  const r = await evaluate(
    [{ name: "leak", input: "q", expected: "no" }],
    () => "the key is sk-abcdefghijklmnop1234",
    { config: false },
  );
  assertEquals(r.failed[0].answer, "the key is [REDACTED]");
  assert(!JSON.stringify(r.toJSON()).includes("sk-abcdefghijklmnop1234"));
});
