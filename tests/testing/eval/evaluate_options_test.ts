import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { evaluate, type Evaluator, FakeLLM, mergeReports } from "../../../testing/mod.ts";

const one = [{ name: "a", input: "x", expected: "x" }];
const echo = (input: string) => input;

Deno.test("evaluate(): each bad option's message names it and what is accepted", async () => {
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ mode: "nope" }, 'evaluate(): option "mode" must be one of "score", "llm", "fallback"'],
    [{ evaluator: 5 }, 'option "evaluator" must be an Evaluator or its name'],
    [{ judge: {} }, "evaluate(): judge must be an LLMPort, got {} without chat(), stream()"],
    [{ config: 5 }, 'option "config" must be a path or false'],
    [{ trials: "3" }, 'option "trials" must be a number of trials or trials options'],
    [{ trials: 1.5 }, 'option "trials"'],
    [{ trials: {} }, 'evaluate(): option "trials": option "n" is required'],
    [
      { trials: { n: 2, name: "x" } },
      'option "trials" takes no name; name the suite with { name }',
    ],
    [{ trials: { n: 2, earlyStop: true } }, 'evaluate(): option "trials": option "earlyStop"'],
  ];
  for (const [options, message] of bad) {
    const e = await assertRejects(() => evaluate(one, echo, options as never));
    assertStringIncludes((e as Error).message, message);
  }
});

Deno.test("evaluate(): each bad case's message names the case and the field", async () => {
  const bad: Array<[unknown, string]> = [
    [{ name: "a", expected: "x" }, 'evaluate(): case 1: option "input" is required'],
    [{ input: 1, expected: "x" }, 'option "name" is required'],
    [{ name: "a", input: 1 }, 'option "expected" is required'],
    [
      { name: "a", input: 1, expected: 5 },
      'option "expected" must be a string or a non-empty array of strings',
    ],
    [
      { name: "a", input: 1, expected: "x", trials: "2" },
      'option "trials" must be a number of trials or { n }',
    ],
    [{ name: "a", input: 1, expected: "x", trials: 2.5 }, 'option "trials"'],
    [
      { name: "a", input: 1, expected: "x", trials: {} },
      'evaluate(): case 1 ("a"), option "trials": option "n" is required',
    ],
    [
      { name: "a", input: 1, expected: "x", trials: { n: 0 } },
      'option "n" must be an integer 1 or more, got 0',
    ],
  ];
  for (const [c, message] of bad) {
    const e = await assertRejects(() =>
      evaluate([{ name: "z", input: 0, expected: "0" }, c] as never, echo as never)
    );
    assertStringIncludes((e as Error).message, message.replace("case 1", "case 2"));
  }
});

Deno.test("evaluate(): shard is exactly i/n", async () => {
  const cases = [{ name: "a", input: "x", expected: "x", trials: 20 }];
  for (const shard of ["a1/2", "1/2x", "1 /2", "-1/2"]) {
    await assertRejects(() => evaluate(cases, echo, { shard }), RangeError, '"i/n"');
  }
  const twelve = await evaluate(cases, echo, {
    shard: "12/20",
    config: false,
    trials: { n: 1, seed: 1 },
  });
  assertEquals(twelve.trials.map((t) => t.index), [11]);
  const whole = await evaluate(cases, echo, {
    shard: "1/1",
    config: false,
    trials: { n: 1, seed: 1 },
  });
  assertEquals(whole.n, 20);
});

Deno.test("evaluate(): the report's order and plan do not depend on concurrency", async () => {
  const cases = [
    { name: "a", input: "x", expected: "x", trials: 3 },
    { name: "b", input: "y", expected: "y", trials: 4 },
  ];
  const slow = async (input: string, trial: { index: number }) => {
    for (let i = 0; i < (5 - trial.index) * 4; i++) await Promise.resolve();
    return input;
  };
  const r = await evaluate(cases, slow, {
    config: false,
    trials: { n: 1, seed: 1, concurrency: 3 },
  });
  assertEquals(r.trials.map((t) => `${t.case}${t.index}`), [
    "a0",
    "a1",
    "a2",
    "b0",
    "b1",
    "b2",
    "b3",
  ]);
  assertEquals([r.planned, r.n], [7, 7]);
});

Deno.test("evaluate(): the judge is asked about the input when it is text", async () => {
  const seen: string[] = [];
  const judge = new FakeLLM(({ user }) => {
    seen.push(user);
    return '{"score": 1}';
  });
  await evaluate<unknown>(
    [{ name: "t", input: "What is 2+2?", expected: "4" }, {
      name: "o",
      input: { q: 1 },
      expected: "4",
    }],
    () => "four",
    { mode: "llm", judge, config: false },
  );
  assertStringIncludes(seen[0], "What is 2+2?");
  assert(!seen[1].includes("[object Object]"), seen[1]);
});

Deno.test("evaluate(): reads agentkit.test.json once when config is not given", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/agentkit.test.json`;
  await Deno.writeTextFile(path, JSON.stringify({ evaluator: "levenshtein", threshold: 0.7 }));
  Deno.env.set("AGENTKIT_TEST_CONFIG", path);
  try {
    const r = await evaluate([{ name: "a", input: "x", expected: "abcd" }], () => "abce", {
      trials: 2,
    });
    assertEquals(r.passes, 2); // levenshtein 0.75 ≥ 0.7 from the file; quasiExact would fail
    const off = await evaluate([{ name: "a", input: "x", expected: "abcd" }], () => "abce", {
      config: false,
    });
    assertEquals(off.passes, 0);
  } finally {
    Deno.env.delete("AGENTKIT_TEST_CONFIG");
    await Deno.remove(dir, { recursive: true });
  }
  // No file: the defaults.
  assertEquals((await evaluate(one, echo)).passes, 1);
});

Deno.test("evaluate(): budgetUsd stops the suite", async () => {
  const r = await evaluate(
    [{ name: "a", input: "x", expected: "x", trials: 10 }],
    (input, trial) => {
      trial.charge(0.1);
      return input;
    },
    { config: false, trials: { n: 1, budgetUsd: "0.3", seed: 1 } },
  );
  assertEquals([r.n, r.stoppedBy], [3, "budget"]);
  assertEquals(mergeReports([r.toJSON()]).stoppedBy, "budget");
});

Deno.test("evaluate(): the cache keys verdicts by the evaluator and replays failing ones", async () => {
  const dir = await Deno.makeTempDir();
  const cache = `${dir}/c.json`;
  try {
    let calls = 0;
    const strict: Evaluator = {
      name: "strict",
      evaluateByScore: ({ actual }) => {
        calls++;
        const passed = actual === "yes";
        return {
          name: "strict",
          mode: "score",
          score: passed ? 1 : 0,
          threshold: 1,
          passed,
          code: passed ? "passed" : "no_match",
        };
      },
    };
    const lenient: Evaluator = {
      ...strict,
      name: "lenient",
      evaluateByScore: () => ({
        name: "lenient",
        mode: "score",
        score: 1,
        threshold: 0,
        passed: true,
        code: "passed",
      }),
    };
    const cases = [{ name: "a", input: "q", expected: "yes" }];
    const first = await evaluate(cases, () => "no", {
      config: false,
      evaluator: strict,
      cache,
      trials: 2,
    });
    const again = await evaluate(cases, () => "no", {
      config: false,
      evaluator: strict,
      cache,
      trials: 2,
    });
    assertEquals([first.failures, again.failures, calls], [2, 2, 2]); // the failing verdicts replayed
    assertStringIncludes(again.failed[0].error!.message, 'actual:   "no"');
    const other = await evaluate(cases, () => "no", {
      config: false,
      evaluator: lenient,
      cache,
      trials: 2,
    });
    assertEquals(other.passes, 2); // another evaluator is another verdict
    const before = await Deno.stat(cache);
    await evaluate(cases, () => "no", { config: false, evaluator: lenient, cache, trials: 2 });
    assertEquals((await Deno.stat(cache)).mtime, before.mtime); // nothing new: not rewritten
    const text = await Deno.readTextFile(cache);
    assert(text.startsWith('{\n "format": "agentkit-eval-cache/1"'), text.slice(0, 40));
    for (const bad of ["null", '{"format": "agentkit-eval-cache/1", "entries": 5}']) {
      await Deno.writeTextFile(cache, bad);
      await assertRejects(
        () => evaluate(cases, () => "no", { config: false, cache }),
        TypeError,
        "not an evaluate() cache",
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluate(): a task's result without output, or null, is an error naming the case", async () => {
  const r = await evaluate(
    [{ name: "n", input: 0, expected: "x" }, { name: "o", input: 1, expected: "x" }],
    (i) => (i ? { text: "x" } : null) as never,
    { config: false },
  );
  assertEquals(r.errors, 2);
  assertStringIncludes(r.failed[0].error!.message, 'the task for case "n" returned null');
});

Deno.test("mergeReports(): a duplicate trial of trials() (no case) is named by its index", () => {
  const t = {
    format: "agentkit-trials/1" as const,
    passes: 1,
    failures: 0,
    errors: 0,
    passRate: 1,
    interval: { low: 0, high: 1 },
    trials: [{ index: 0, seed: 0, outcome: "pass" as const }],
  };
  const e = assertThrows(() => mergeReports([t, t]), TypeError);
  assertEquals(e.message, "mergeReports(): trial 0 is in two reports; is a shard given twice?");
});
