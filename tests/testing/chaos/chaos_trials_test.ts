import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { Agent, retry } from "../../../runtime/mod.ts";
import { chaos, type ChaosOutcome, InvalidScenario, TrialReport } from "../../../testing/mod.ts";

const agent = new Agent("a", { model: "fake-model" });
const fragile = (world: Parameters<Parameters<typeof chaos>[0]>[0]) =>
  agent.run("Hi", world.ctx()).then((r) => r.output, () => "gave up");
const answered = { answered: (o: ChaosOutcome) => assertEquals(o.result, "Hello.") };

Deno.test("chaos({ passHatK }) reports the pass rate over the seeded schedules", async () => {
  const options = {
    script: ["Hello."],
    faults: ["rateLimit" as const],
    seed: 11,
    runs: 40,
    invariants: answered,
    passHatK: 2,
  };
  const s = await chaos(fragile, options);
  assertEquals(s.runs, 40);
  assertEquals(s.report.n, 40);
  assertEquals(s.report.passes + s.report.failures, 40);
  assertEquals(s.report.errors, 0);
  assert(s.report.passes > 0 && s.report.failures > 0, s.report.summary());
  // A run fails exactly when a rate limit was injected (no retry()).
  assertEquals(s.report.failures, s.byKind.rateLimit);
  assertEquals(s.report, s); // the summary is the report
  assertEquals(s.report.passRate, s.passes / 40);
  assertEquals([s.k, s.passHatK()], [2, s.passHatK(2)]);
  assert(s.passHatK() < s.passRate);
  assertEquals(TrialReport.fromJSON(JSON.parse(JSON.stringify(s))).toJSON(), s.toJSON());
  assertEquals(s.report.trials.map((t) => t.index), [...Array(40).keys()]);
  const f = s.report.failed[0];
  assertEquals(f.error?.name, "invariant answered");
  assertStringIncludes(f.transcript!, "faults: rateLimit");
  // The same seed gives the same report.
  assertEquals((await chaos(fragile, options)).report.toJSON(), s.report.toJSON());
});

Deno.test("chaos({ passHatK }): the same schedules as without it", async () => {
  const scenario = (world: Parameters<Parameters<typeof chaos>[0]>[0]) =>
    agent.run("Hi", world.ctx({ chatMiddleware: [retry({ maxAttempts: 6 })] }));
  const options = {
    script: ["Hello."],
    faults: ["rateLimit", "serverError"] as const,
    seed: 5,
    runs: 30,
  };
  const plain = await chaos(scenario, { ...options, faults: [...options.faults] });
  const rated = await chaos(scenario, { ...options, faults: [...options.faults], passHatK: 5 });
  assertEquals([rated.runs, rated.faultsInjected, rated.byKind, rated.seed], [
    plain.runs,
    plain.faultsInjected,
    plain.byKind,
    plain.seed,
  ]);
  assertEquals([rated.passRate, rated.passHatK()], [1, 1]);
  rated.report.assert({ passHatK: 0.9 });
});

Deno.test("chaos({ passHatK }): an invariant of yours that breaks by a bug is an error, not a failure", async () => {
  const s = await chaos(fragile, {
    script: ["Hello."],
    faults: ["rateLimit"],
    seed: 2,
    runs: 10,
    invariants: {
      buggy: (o) => {
        if (o.result !== "Hello.") (undefined as unknown as { x: number }).x;
      },
    },
    passHatK: 1,
  });
  assertEquals(s.report.failures, 0);
  assert(s.report.errors > 0);
  assertEquals(s.report.failed[0].error?.name, "invariant buggy");
});

Deno.test("chaos({ passHatK }): options are checked; misuse still throws", async () => {
  const base = { script: ["Hello."], runs: 5 };
  await assertRejects(
    () => chaos(fragile, { ...base, passHatK: 6 }),
    RangeError,
    'option "passHatK" (6) is more than the runs (5)',
  );
  await assertRejects(() => chaos(fragile, { ...base, passHatK: 0 }), RangeError, "passHatK");
  await assertRejects(
    () => chaos(fragile, { ...base, passHatk: 2 } as never),
    TypeError,
    'did you mean "passHatK"?',
  );
  await assertRejects(
    () => chaos(() => "no model", { ...base, passHatK: 2 }),
    InvalidScenario,
    "never called the model",
  );
});
