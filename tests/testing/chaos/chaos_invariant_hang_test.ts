// An invariant of yours is awaited under the run's watchdog: one that never
// settles fails chaos() with a named error, with no wall-clock wait in the
// test (the watchdog's idle time is hangMs, set small here).
import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { Agent } from "@agentkit/testing/runtime";
import { chaos, type ChaosWorld, InvalidScenario } from "@agentkit/testing/testing";

const run = (w: ChaosWorld) => new Agent("a", { model: "fake-model" }).run("q", w.ctx());

Deno.test("chaos() fails with InvalidScenario when an async invariant never settles", async () => {
  const error = await assertRejects(
    () =>
      chaos(run, {
        script: ["ok"],
        runs: 3,
        seed: 1,
        hangMs: 5,
        invariants: { waitsForever: () => new Promise<void>(() => {}) },
      }),
    InvalidScenario,
  );
  assertStringIncludes(error.message, 'invariant "waitsForever" did not settle');
  assertStringIncludes(error.message, "hangMs (5 ms");
});

Deno.test("chaos() awaits an async invariant that settles, and the runs pass", async () => {
  let checked = 0;
  const summary = await chaos(run, {
    script: ["ok"],
    runs: 2,
    seed: 1,
    maxFaults: 0,
    hangMs: 5,
    invariants: async (outcome) => {
      await Promise.resolve();
      assertEquals(outcome.status, "returned");
      checked++;
    },
  });
  assertEquals([summary.runs, checked], [2, 2]);
});

Deno.test("chaos() still reports a throwing invariant, sync or async, as a ChaosFailure", async (t) => {
  for (
    const [label, invariant] of [
      ["sync", () => {
        throw new Error("no");
      }],
      ["async", () => Promise.reject(new Error("no"))],
    ] as const
  ) {
    await t.step(label, async () => {
      const error = await assertRejects(() =>
        chaos(run, {
          script: ["ok"],
          runs: 1,
          seed: 1,
          maxFaults: 0,
          invariants: { mine: invariant },
        })
      );
      assertEquals((error as Error).name, "ChaosFailure");
      assertStringIncludes((error as Error).message, 'invariant "mine" broke: no');
    });
  }
});
