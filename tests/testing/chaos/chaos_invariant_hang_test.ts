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
  assertEquals(
    error.message,
    `chaos(): invariant "waitsForever" did not settle: it sat idle for twice hangMs (5 ms of real time each) with nothing left to wait for on the world's clock; an invariant must return, throw, or resolve: await only what settles by itself (the outcome, the world's clock), or raise hangMs if it waits on real work`,
  );
});

Deno.test("an invariant given up on may reject later without an unhandled rejection", async () => {
  let reject: (e: Error) => void = () => {};
  const late = () => new Promise<void>((_, r) => reject = r);
  await assertRejects(
    () => chaos(run, { script: ["ok"], runs: 1, seed: 1, hangMs: 5, invariants: { late } }),
    InvalidScenario,
    'invariant "late" did not settle',
  );
  reject(new Error("too late"));
  // A macrotask: an unhandled rejection would be reported by now and fail the test.
  await new Promise((resolve) => setTimeout(resolve, 0));
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

Deno.test("chaos() still reports a throwing invariant, sync or async, as a ChaosFailure", async () => {
  for (
    const [label, invariant] of [
      ["sync", () => {
        throw new Error("no");
      }],
      ["async", () => Promise.reject(new Error("no"))],
    ] as const
  ) {
    const error = await assertRejects(() =>
      chaos(run, {
        script: ["ok"],
        runs: 1,
        seed: 1,
        maxFaults: 0,
        invariants: { mine: invariant },
      })
    );
    assertEquals((error as Error).name, "ChaosFailure", label);
    assertStringIncludes((error as Error).message, 'invariant "mine" broke: no');
    // No fault was injected (maxFaults: 0): the schedule says so.
    assertStringIncludes((error as Error).message, "\nshrunk to the faults: none\n");
  }
});
