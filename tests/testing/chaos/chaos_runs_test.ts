// How chaos() drives the runs: their numbers, a scenario misused mid-search,
// what InvalidScenario says in each case, the global timers given back, and
// a slow run that keeps making progress left alone.
import {
  assert,
  assertEquals,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
} from "@std/assert";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  chaos,
  ChaosFailure,
  type ChaosWorld,
  FakeTool,
  InvalidScenario,
} from "@agentkit/testing/testing";

const ask = (w: ChaosWorld) =>
  w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });
const agentRun = (w: ChaosWorld) => new Agent("a", { model: "fake-model" }).run("q", w.ctx());
const lookup = new FakeTool({ name: "lookup", responder: "42" });
const SCRIPT = [{ toolCalls: [toolCall("c1", "lookup", {})] }, "It is 42."];
const react = (w: ChaosWorld) =>
  new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [w.tool(lookup)] }),
  }).run("q", w.ctx());
const NEVER_CALLED =
  "chaos(): the scenario never called the model, so no fault could reach it; build the agent on the world's model: world.ctx() (or world.llm), world.fetch.fetch for a provider client, or world.aiSdkModel()";
// Taken before any run can install its clock over them.
const realSetTimeout = globalThis.setTimeout;

Deno.test("the runs are numbered 1, 2, 3... in world.run and the outcome", async () => {
  const worlds: number[] = [];
  const outcomes: number[] = [];
  await chaos((w) => {
    worlds.push(w.run);
    return ask(w);
  }, {
    script: ["hi"],
    maxFaults: 0,
    runs: 5,
    invariants: (o) => void outcomes.push(o.run),
  });
  assertEquals(worlds, [1, 2, 3, 4, 5]);
  assertEquals(outcomes, [1, 2, 3, 4, 5]);
});

Deno.test("a scenario found misused while a failure is shrunk fails with InvalidScenario, and is run no more", async () => {
  let scenarioRuns = 0;
  await assertRejects(
    () =>
      chaos(async (w) => {
        // Run 1 breaks typedFailure, run 2 is fine, and from then on it never calls the model.
        if (++scenarioRuns > 2) return "no model this time";
        await ask(w).catch(() => {});
        if (scenarioRuns === 1) throw new Error("plain");
        return "fine";
      }, { script: ["hi"], faults: ["rateLimit"], maxFaults: 3, seed: 1, runs: 5 }),
    InvalidScenario,
    NEVER_CALLED,
  );
  // Shrinking run 1's schedule: the empty one passed (run 2), the next smaller one was
  // misused (run 3), and the search went on over smaller ones without running the scenario.
  assertEquals(scenarioRuns, 3);
});

Deno.test("InvalidScenario for a scenario that never called the model: no 'threw first', no cause", async () => {
  const error = await assertRejects(
    () => chaos(() => "no agent", { script: ["hi"] }),
    InvalidScenario,
  );
  assertEquals(error.message, NEVER_CALLED);
  assertEquals("cause" in error, false);
});

Deno.test("InvalidScenario for a scenario whose requests to world.fetch never reached the model says so", async () => {
  const error = await assertRejects(
    () =>
      chaos(async (w) => {
        const res = await w.fetch.fetch("https://api.openai.com/v1/chat/completions", {
          method: "POST",
          headers: { authorization: "Bearer sk-test" },
          body: "{ not json",
        });
        return await res.text();
      }, { script: ["hi"], maxFaults: 0 }),
    InvalidScenario,
  );
  assertEquals(
    error.message,
    `${NEVER_CALLED} (world.fetch got 1 HTTP request(s), but none reached the model)`,
  );
});

Deno.test("a scenario that starts the run on a timer and returns is told it returned early, not that it never called", async () => {
  await assertRejects(
    () =>
      chaos((w) => {
        realSetTimeout(() => void agentRun(w).catch(() => {}), 0);
        return "started";
      }, { script: ["hi"], maxFaults: 0, runs: 1 }),
    InvalidScenario,
    "chaos(): the scenario returned before the agent's run was over (model call 1 came after it returned); return or await the run",
  );
});

Deno.test("InvalidScenario names the first model call that came after the scenario returned", async () => {
  await assertRejects(
    () =>
      chaos(async (w) => {
        await ask(w);
        // Model call 2 begins at once; the agent's next one, after the tool, comes too late.
        void react(w).catch(() => {});
        return "one call awaited, the run not";
      }, { script: ["one", ...SCRIPT], maxFaults: 0, runs: 1 }),
    InvalidScenario,
    "chaos(): the scenario returned before the agent's run was over (model call 3 came after it returned); return or await the run",
  );
});

Deno.test("a scenario in braces that forgot to return the run is told so, even when its model call began at once", async () => {
  const error = await assertRejects(
    () =>
      chaos((w) => {
        void agentRun(w).catch(() => {});
      }, { script: ["hi"], maxFaults: 0, runs: 1 }),
    InvalidScenario,
  );
  assertEquals(
    error.message,
    "chaos(): the scenario returned before the agent's run was over (it returned undefined, not the run, while model call 1 was under way); return or await the run, e.g. (world) => agent.run(task, world.ctx())",
  );
  // The same agent's run returned is fine.
  const summary = await chaos((w) => agentRun(w), { script: ["hi"], maxFaults: 0, runs: 3 });
  assertEquals(summary.runs, 3);
});

Deno.test("the global timers are the world's clock during a run on world.fetch, and are given back after it", async () => {
  const original = globalThis.setTimeout;
  const during: boolean[] = [];
  const scenario = async (w: ChaosWorld) => {
    const res = await w.fetch.fetch("https://api.openai.com/v1/chat/completions", {
      method: "POST",
      headers: { authorization: "Bearer sk-test" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "q" }] }),
    });
    during.push(globalThis.setTimeout !== original);
    return await res.json();
  };
  await chaos(scenario, { script: ["hi"], maxFaults: 0, runs: 3 });
  assertEquals(during, [true, true, true]);
  assertStrictEquals(globalThis.setTimeout, original);
  // Given back after a run that broke, too.
  await assertRejects(
    () =>
      chaos(scenario, {
        script: ["hi"],
        maxFaults: 0,
        runs: 1,
        invariants: { fail: () => void assert(false, "breaks") },
      }),
    ChaosFailure,
  );
  assertStrictEquals(globalThis.setTimeout, original);
});

Deno.test("a run slower than hangMs in real time that keeps making progress is not stopped", async () => {
  // A tool doing real I/O, here one turn of the event loop: each call takes
  // real time, and counts as progress.
  const io = new FakeTool({
    name: "io",
    responder: () => new Promise((resolve) => realSetTimeout(() => resolve("read"), 0)),
  });
  const hangMs = 20;
  const summary = await chaos(async (w) => {
    const tool = w.tool(io);
    await ask(w);
    const start = performance.now();
    let calls = 0;
    while (performance.now() - start < 5 * hangMs) calls += (await tool.call({}, w.ctx())) ? 1 : 0;
    return calls;
  }, {
    script: ["hi"],
    maxFaults: 0,
    runs: 2,
    hangMs,
    invariants: (o) => {
      assertEquals(o.status, "returned");
      assert((o.result as number) > 1);
    },
  });
  assertEquals(summary.runs, 2);
});

Deno.test("what is left of a run when its scenario settles is ended while the global timers are still the world's", async () => {
  const original = globalThis.setTimeout;
  const ended: boolean[] = [];
  await chaos(async (w) => {
    // As an SDK client on world.fetch does: from here on the global timers run on w.clock.
    assert(w.fetch);
    const call = w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });
    // What the leftover does once ended (an SDK would schedule its retry here).
    call.catch(() => ended.push(globalThis.setTimeout !== original));
    // The scenario's own deadline, on the global timers: it gives up on a stalled call.
    await Promise.race([call, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    return "done waiting";
  }, { script: ["hi"], faults: ["stall"], maxFaults: 1, seed: 3, runs: 20 });
  assert(ended.length > 0, "some run stalled at its call");
  assertEquals(ended, ended.map(() => true));
  assertStrictEquals(globalThis.setTimeout, original);
});

Deno.test("a scenario that returns a value, not its run, is told so whatever the value", async (t) => {
  for (const value of [undefined, null, 3, { started: true }]) {
    await t.step(String(JSON.stringify(value)), async () => {
      const error = await assertRejects(
        () =>
          chaos((w) => {
            void agentRun(w).catch(() => {});
            return value;
          }, { script: ["hi"], maxFaults: 0, runs: 1 }),
        InvalidScenario,
      );
      assertStringIncludes(error.message, "not the run, while model call 1 was under way");
    });
  }
});

Deno.test("a scenario that only calls a tool is told it never called the model", async () => {
  const error = await assertRejects(
    () =>
      chaos((w) => {
        void w.tool(lookup).call({}, w.ctx());
        return "the tool alone";
      }, { script: ["hi"], maxFaults: 0, runs: 1 }),
    InvalidScenario,
  );
  assertEquals(error.message, NEVER_CALLED);
});

Deno.test("a scenario that throws while the run it started goes on is told it did not await the run", async () => {
  class SetupFailed extends Error {
    override name = "SetupFailed";
  }
  await assertRejects(
    () =>
      chaos(async (w) => {
        await ask(w);
        void react(w).catch(() => {});
        throw new SetupFailed("gave up");
      }, { script: ["one", ...SCRIPT], maxFaults: 0, runs: 1 }),
    InvalidScenario,
    "(model call 3 came after it returned)",
  );
});
