import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { AssertionError, type TrialOutcome, TrialReport } from "../../../testing/mod.ts";

const trial = (i: number, outcome: TrialOutcome["outcome"], extra: Partial<TrialOutcome> = {}) => ({
  index: i,
  seed: 100 + i,
  outcome,
  ...(outcome === "pass" ? {} : {
    error: {
      name: outcome === "failure" ? "AssertionError" : "TypeError",
      message: `m${i}\nmore`,
    },
  }),
  ...extra,
});

Deno.test("TrialReport with no trials: a pass rate of 0 and the whole interval", () => {
  const r = new TrialReport({ trials: [] });
  assertEquals([r.n, r.passRate, r.interval, r.spentUsd], [0, 0, { low: 0, high: 1 }, 0]);
});

Deno.test("TrialReport sums what the trials spent, skipping the ones that spent nothing", () => {
  const r = new TrialReport({
    trials: [
      trial(0, "pass", { spentUsd: 0.25 }),
      trial(1, "pass"),
      trial(2, "error", { spentUsd: 0.5 }),
    ],
  });
  assertEquals(r.spentUsd, 0.75);
});

Deno.test("TrialReport.toJSON() holds exactly the fields that were set", () => {
  const bare = new TrialReport({ trials: [trial(0, "pass")] });
  assertEquals(Object.keys(bare.toJSON()), [
    "format",
    "passes",
    "failures",
    "errors",
    "passRate",
    "interval",
    "planned",
    "trials",
  ]);
  const full = new TrialReport({
    name: "s",
    trials: [trial(0, "pass", { case: "a" })],
    planned: 4,
    k: 1,
    threshold: 0.5,
    stoppedBy: "budget",
    shard: "1/2",
    seed: 9,
    cases: [{ name: "a", planned: 4 }],
  });
  const json = full.toJSON();
  assertEquals(
    [
      json.name,
      json.k,
      json.threshold,
      json.stoppedBy,
      json.shard,
      json.seed,
      json.cases,
      json.planned,
    ],
    ["s", 1, 0.5, "budget", "1/2", 9, [{ name: "a", planned: 4 }], 4],
  );
  assertEquals(TrialReport.fromJSON(json).toJSON(), json);
});

Deno.test("TrialReport.fromJSON() says what it got", () => {
  assertThrows(
    () => TrialReport.fromJSON({ trials: [], other: 1 }),
    TypeError,
    "got an object with trials, other",
  );
  assertThrows(() => TrialReport.fromJSON("text"), TypeError, "got string");
  assertThrows(() => TrialReport.fromJSON(null), TypeError, "got object");
  assertThrows(
    () => TrialReport.fromJSON({ format: "agentkit-trials/1" }),
    TypeError,
    "a trials list",
  );
  for (const bad of [null, 5, { index: 1.5, outcome: "pass" }, { outcome: "pass" }]) {
    assertThrows(
      () => TrialReport.fromJSON({ format: "agentkit-trials/1", trials: [bad] }),
      TypeError,
      `got ${JSON.stringify(bad)}`,
    );
  }
});

Deno.test("TrialReport: a missing k names the method it was missing for", () => {
  const r = new TrialReport({ trials: [trial(0, "pass"), trial(1, "failure")] });
  assertThrows(
    () => r.passAtK(),
    TypeError,
    "report.passAtK(): no k: pass one, or give trials() its k ({ n, k: 3 })",
  );
  assertThrows(() => r.passHatK(), TypeError, "report.passHatK(): no k");
  assertThrows(
    () => r.assert({ passHatK: 0.5 }),
    TypeError,
    "report.assert({ passHatK: min }): no k",
  );
});

Deno.test("TrialReport.assert(): a value equal to the minimum passes", () => {
  const r = new TrialReport({
    trials: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => trial(i, i < 8 ? "pass" : "failure")),
  });
  r.assert({ passRate: 0.8, passHatK: { k: 2, min: 28 / 45 } });
  assertThrows(() => r.assert({ passHatK: { k: 2, min: 28 / 45 + 1e-12 } }), AssertionError);
});

Deno.test("TrialReport.assert(): the message names the report, both problems, and at most three failing trials", () => {
  const r = new TrialReport({
    name: "refunds",
    k: 2,
    trials: [
      trial(0, "pass"),
      trial(1, "failure"),
      trial(2, "error"),
      trial(3, "failure"),
      trial(4, "failure"),
      trial(5, "error"),
    ],
  });
  const e = assertThrows(() => r.assert({ passRate: 0.5, passHatK: 0.5 }), AssertionError);
  assertEquals(e.message.split("\n"), [
    '"refunds": pass rate 0.167 is below 0.500; pass^2 0.000 is below 0.500: 1/6 passed (3 failures, 2 errors), pass rate 0.167, 95% CI [0.030, 0.564]',
    "  trial #1 (seed 101) failure: AssertionError: m1",
    "  trial #2 (seed 102) error: TypeError: m2",
    "  trial #3 (seed 103) failure: AssertionError: m3",
    "  ... and 2 more failing trial(s)",
  ]);
  const three = new TrialReport({
    trials: [trial(0, "failure", { case: "c" }), trial(1, "failure"), {
      index: 2,
      seed: 1,
      outcome: "error" as const,
    }],
  });
  const e3 = assertThrows(() => three.assert(), AssertionError);
  assertEquals(e3.message.split("\n").slice(1), [
    "  trial c #0 (seed 100) failure: AssertionError: m0",
    "  trial #1 (seed 101) failure: AssertionError: m1",
    "  trial #2 (seed 1) error: no error",
  ]);
});

Deno.test("TrialReport.summary() says when and why the trials stopped early", () => {
  const r = new TrialReport({
    trials: [trial(0, "pass"), trial(1, "pass")],
    planned: 5,
    stoppedBy: "budget",
  });
  assertStringIncludes(
    r.summary(),
    "2/2 passed (0 failures, 0 errors), pass rate 1.000, 95% CI [0.342, 1.000], stopped by budget after 2 of 5",
  );
  assertStringIncludes(r.toString(), "stopped by budget after 2 of 5 trials");
});
