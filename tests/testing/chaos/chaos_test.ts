// chaos(): the schedule, the runs, shrinking, ChaosFailure and its
// reproduction, and every option checked.
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { Agent, HarnessError, ReActCognition, retry } from "@agentkit/testing/runtime";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
  toolCall,
} from "@agentkit/testing/ports";
import {
  chaos,
  ChaosFailure,
  type ChaosOutcome,
  type ChaosWorld,
  FakeLLM,
  FakeTool,
  InvalidScenario,
  InvalidScript,
  makeTestCtx,
  misbehave,
  MISBEHAVIOUR_KINDS,
} from "@agentkit/testing/testing";

const lookup = new FakeTool({
  name: "lookup",
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  responder: "42",
});
const SCRIPT = [{ toolCalls: [toolCall("c1", "lookup", { q: "x" })] }, "It is 42."];

function agent(world: ChaosWorld): Agent {
  return new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [world.tool(lookup)] }),
  });
}

const answers = (o: ChaosOutcome): void => {
  if (o.status !== "returned") throw new Error(`no answer: ${(o.error as Error)?.message}`);
};

// Evaluates a reproduction's source with the names it uses in scope.
function replayModel(source: string): FakeLLM {
  return new Function(
    "FakeLLM",
    "RateLimitError",
    "ProviderError",
    "ProviderTimeoutError",
    "ProviderResponseError",
    "misbehave",
    `return (\n${source}\n);`,
  )(FakeLLM, RateLimitError, ProviderError, ProviderTimeoutError, ProviderResponseError, misbehave);
}

Deno.test("chaos() returns the runs, the faults injected by kind, and the seed", async () => {
  const seen: string[] = [];
  const summary = await chaos(
    (world) => agent(world).run("What is it?", world.ctx({ chatMiddleware: [retry()] })),
    {
      script: SCRIPT,
      faults: ["rateLimit", "serverError"],
      runs: 40,
      seed: 11,
      invariants: (o) => void seen.push(...o.faults.map((f) => f.kind)),
    },
  );
  assertEquals([summary.runs, summary.seed], [40, 11]);
  assertEquals(summary.faultsInjected, seen.length);
  assert(summary.faultsInjected > 0, "some faults fired");
  assertEquals(
    (summary.byKind.rateLimit ?? 0) + (summary.byKind.serverError ?? 0),
    summary.faultsInjected,
  );
  assertEquals(Object.keys(summary.byKind).sort(), ["rateLimit", "serverError"]);
});

Deno.test("chaos() with the same seed gives the same runs; another seed, others", async () => {
  const schedules = async (seed: number) => {
    const out: string[] = [];
    await chaos((world) => agent(world).run("q", world.ctx({ chatMiddleware: [retry()] })), {
      script: SCRIPT,
      faults: ["rateLimit", "serverError", "timeout", "toolError", "slowTool"],
      runs: 30,
      seed,
      invariants: (o) => void out.push(o.faults.map((f) => f.label).join("; ")),
    });
    return out;
  };
  const a = await schedules(5);
  assertEquals(await schedules(5), a);
  assert(a.some((s) => s !== ""), "the runs had faults");
  assert(JSON.stringify(await schedules(6)) !== JSON.stringify(a));
});

Deno.test("chaos() shrinks a broken run to its one necessary fault and names it", async () => {
  const failure = await assertRejects(
    () =>
      chaos((world) => agent(world).run("What is it?", world.ctx()), {
        script: SCRIPT,
        faults: ["rateLimit"],
        maxFaults: 3,
        seed: 3,
        invariants: { answers },
      }),
    ChaosFailure,
  );
  assertInstanceOf(failure, HarnessError);
  assertEquals(failure.invariant, "answers");
  assertEquals(failure.schedule.length, 1, "shrunk to one fault");
  assertEquals(failure.faults, "call 1: rateLimit(retryAfterMs=1500)");
  assertEquals(failure.seed, 3);
  assertStringIncludes(failure.message, 'invariant "answers" broke: no answer: Rate limit reached');
  assertStringIncludes(failure.message, `seed: 3, path: ${JSON.stringify(failure.path)}`);
  assertInstanceOf(failure.cause, Error);
  assertEquals(failure.outcome.status, "threw");
  assertInstanceOf(failure.outcome.error, RateLimitError);
  assertEquals((failure.outcome.error as RateLimitError).retryAfterMs, 1500);
  assertEquals(
    failure.transcript,
    [
      "user: What is it?",
      "faults: call 1: rateLimit(retryAfterMs=1500)",
      "model calls: 1; tool calls: 0; virtual time: 0 ms",
      "ended: threw RateLimitError: Rate limit reached for requests (chaos rateLimit)",
    ].join("\n"),
  );
});

Deno.test("ChaosFailure.reproduction is a FakeLLM.script that replays the failing run without chaos", async () => {
  const failure = await assertRejects(
    () =>
      chaos((world) => agent(world).run("What is it?", world.ctx()), {
        script: SCRIPT,
        faults: ["serverError", "timeout"],
        seed: 9,
        invariants: { answers },
      }),
    ChaosFailure,
  );
  assertStringIncludes(failure.reproduction, "FakeLLM.script([");
  const llm = replayModel(failure.reproduction);
  const replayed = await new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [lookup] }),
  }).run("What is it?", makeTestCtx({ llm })).then(() => undefined, (e) => e);
  const original = failure.outcome.error as Error;
  assertInstanceOf(replayed, Error);
  assertEquals([replayed.name, replayed.message], [original.name, original.message]);
  assertEquals(llm.calls, failure.outcome.modelCalls);
});

Deno.test("a misbehave fault reads as its builder's call, in .faults and in the reproduction", async () => {
  // The agent must answer in at most two model calls: an invalid tool call costs it a third.
  const twoCalls = (o: ChaosOutcome): void => {
    if (o.modelCalls > 2) throw new Error(`took ${o.modelCalls} model calls`);
  };
  const failure = await assertRejects(
    () =>
      chaos((world) => agent(world).run("What is it?", world.ctx()), {
        script: SCRIPT,
        faults: ["invalidToolJson"],
        maxFaults: 3,
        seed: 5,
        invariants: { twoCalls },
      }),
    ChaosFailure,
  );
  assertEquals(failure.schedule.length, 1, "shrunk to one fault");
  const at = failure.schedule[0].at;
  assertEquals(failure.faults, `call ${at}: invalidToolJson("lookup")`);
  assertStringIncludes(
    failure.reproduction,
    `  misbehave.invalidToolJson("lookup"), // call ${at}: invalidToolJson("lookup")`,
  );
  const llm = replayModel(failure.reproduction);
  assertEquals(llm.requests.length, 0);
  const replayed = await new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [lookup] }),
  }).run("What is it?", makeTestCtx({ llm }));
  assertEquals(llm.calls, failure.outcome.modelCalls);
  assertEquals(replayed.output, (failure.outcome.result as { output: string }).output);
  assertThrows(
    () => twoCalls({ ...failure.outcome, modelCalls: llm.calls }),
    Error,
    "3 model calls",
  );
});

Deno.test("every misbehave kind is a fault kind; a refusal's reproduction replays it", async () => {
  const byKind: Record<string, number> = {};
  const summary = await chaos((world) => agent(world).run("q", world.ctx()), {
    script: SCRIPT,
    faults: [...MISBEHAVIOUR_KINDS],
    seed: 8,
    runs: 200,
    skip: ["terminates", "typedFailure"],
  });
  for (const kind of MISBEHAVIOUR_KINDS) byKind[kind] = summary.byKind[kind] ?? 0;
  for (const kind of MISBEHAVIOUR_KINDS) assert(byKind[kind] > 0, `${kind} fired`);
  const stops = (o: ChaosOutcome): void => {
    const r = o.result as { stopReason?: string } | undefined;
    if (r?.stopReason !== "stop") throw new Error(`stopped with ${r?.stopReason}`);
  };
  const failure = await assertRejects(
    () =>
      chaos((world) => agent(world).run("q", world.ctx()), {
        script: SCRIPT,
        faults: ["refusal"],
        seed: 2,
        invariants: { stops },
      }),
    ChaosFailure,
  );
  assertStringIncludes(failure.faults, ": refusal()");
  assertStringIncludes(failure.reproduction, "misbehave.refusal(),");
  const llm = replayModel(failure.reproduction);
  const replayed = await new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [lookup] }),
  }).run("q", makeTestCtx({ llm }));
  assertEquals([replayed.output, replayed.stopReason], [misbehave.refusal().refusal, "error"]);
});

Deno.test("ChaosFailure's seed and path replay exactly the shrunk run", async () => {
  const options = {
    script: SCRIPT,
    faults: ["rateLimit", "serverError", "toolError"] as const,
    seed: 21,
    invariants: { answers },
  };
  const scenario = (world: ChaosWorld) => agent(world).run("What is it?", world.ctx());
  const first = await assertRejects(
    () => chaos(scenario, { ...options, faults: [...options.faults] }),
    ChaosFailure,
  );
  const runs: number[] = [];
  const again = await assertRejects(
    () =>
      chaos(scenario, {
        ...options,
        faults: [...options.faults],
        path: first.path,
        invariants: {
          answers: (o) => {
            runs.push(o.run);
            answers(o);
          },
        },
      }),
    ChaosFailure,
  );
  assertEquals(again.faults, first.faults);
  assertEquals(again.transcript, first.transcript);
  assert(runs.length <= 2, `the path replays the run itself, not a search (${runs.length} runs)`);
});

Deno.test("chaos() runs the script alone too: a bug without faults is reported with faults: none", async () => {
  const failure = await assertRejects(
    () =>
      chaos(async (world) => {
        await agent(world).run("q", world.ctx());
        throw new TypeError("Cannot read properties of undefined (reading 'text')");
      }, { script: SCRIPT, seed: 1, runs: 5 }),
    ChaosFailure,
  );
  assertEquals([failure.invariant, failure.faults], ["typedFailure", "none"]);
  assertStringIncludes(failure.message, "a TypeError from inside: Cannot read properties");
});

Deno.test("chaos() takes a responder as the script", async () => {
  let asked = 0;
  const summary = await chaos(
    (world) => agent(world).run("q", world.ctx({ chatMiddleware: [retry()] })),
    {
      script: ({ messages }) => {
        asked++;
        return messages.some((m) => m.role === "tool")
          ? "It is 42."
          : { toolCalls: [toolCall("c1", "lookup", { q: "x" })] };
      },
      faults: ["rateLimit"],
      runs: 10,
      seed: 2,
    },
  );
  assertEquals(summary.runs, 10);
  assert(asked >= 20, "the responder answered the calls no fault took");
});

Deno.test("chaos() default: every fault kind, 100 runs", async () => {
  const kinds = new Set<string>();
  const summary = await chaos(
    (world) => agent(world).run("q", world.ctx({ chatMiddleware: [retry()] })),
    {
      script: SCRIPT,
      seed: 4,
      skip: ["terminates", "typedFailure", "toolCallsAnswered"],
      hangMs: 5,
      invariants: (o) => void o.faults.forEach((f) => kinds.add(f.kind)),
    },
  );
  assertEquals(summary.runs, 100);
  assert(kinds.size >= 10, `most kinds fired: ${[...kinds].join(", ")}`);
});

Deno.test("chaos() checks its scenario and every option, naming what is wrong", async (t) => {
  const ok = (world: ChaosWorld) => agent(world).run("q", world.ctx());
  const cases: Array<
    [string, () => Promise<unknown>, ErrorConstructor | typeof InvalidScript, string]
  > = [
    [
      "a scenario that is not a function",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos("agent" as any, { script: SCRIPT }),
      TypeError,
      "the scenario must be a function",
    ],
    [
      "no options",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, undefined as any),
      TypeError,
      '"script"',
    ],
    [
      "an unknown option",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, { script: SCRIPT, run: 3 } as any),
      TypeError,
      'did you mean "runs"?',
    ],
    ["runs: 0", () => chaos(ok, { script: SCRIPT, runs: 0 }), RangeError, "runs"],
    [
      "an unknown fault kind",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, { script: SCRIPT, faults: ["ratelimit" as any] }),
      TypeError,
      'unknown fault kind "ratelimit"; did you mean "rateLimit"?',
    ],
    [
      "an unknown weighted kind",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, { script: SCRIPT, faults: { stal: 1 } as any }),
      TypeError,
      'did you mean "stall"?',
    ],
    [
      "a bad weight",
      () => chaos(ok, { script: SCRIPT, faults: { stall: -1 } }),
      RangeError,
      'weight of fault kind "stall"',
    ],
    [
      "all weights 0",
      () => chaos(ok, { script: SCRIPT, faults: { stall: 0 } }),
      RangeError,
      "weight 0",
    ],
    ["no kinds", () => chaos(ok, { script: SCRIPT, faults: [] }), RangeError, "empty list"],
    [
      "an unknown invariant in skip",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, { script: SCRIPT, skip: ["terminate" as any] }),
      TypeError,
      'unknown invariant "terminate"; did you mean "terminates"?',
    ],
    [
      "an invariant that is not a function",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, { script: SCRIPT, invariants: { mine: 1 as any } }),
      TypeError,
      'invariant "mine" must be a function',
    ],
    [
      "a custom invariant named like a built-in",
      () => chaos(ok, { script: SCRIPT, invariants: { terminates: () => {} } }),
      TypeError,
      "is a built-in one",
    ],
    [
      "a script that is not one",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, { script: "hi" as any }),
      TypeError,
      "script must be the model's turns",
    ],
    ["an empty script", () => chaos(ok, { script: [] }), InvalidScript, "at least one turn"],
    [
      "a malformed turn",
      () =>
        // deno-lint-ignore no-explicit-any
        chaos(ok, { script: [{ contnet: "hi" } as any] }),
      InvalidScript,
      'did you mean "content"?',
    ],
    ["maxSteps: 0", () => chaos(ok, { script: SCRIPT, maxSteps: 0 }), RangeError, "maxSteps"],
    ["a negative hangMs", () => chaos(ok, { script: SCRIPT, hangMs: -1 }), RangeError, "hangMs"],
  ];
  for (const [name, run, cls, text] of cases) {
    await t.step(name, async () => {
      await assertRejects(run, cls as ErrorConstructor, text);
    });
  }
});

Deno.test("chaos() refuses a scenario that never calls the model", async () => {
  await assertRejects(
    () => chaos(() => "no agent", { script: SCRIPT }),
    InvalidScenario,
    "the scenario never called the model, so no fault could reach it",
  );
});

Deno.test("chaos() refuses a scenario that does not await the run", async () => {
  await assertRejects(
    () =>
      chaos((world) => {
        agent(world).run("q", world.ctx()).catch(() => {});
      }, { script: SCRIPT, seed: 1 }),
    InvalidScenario,
    "returned before the agent's run was over",
  );
});

Deno.test("world.ctx() refuses the knobs the world owns, and checks the rest as makeTestCtx does", async () => {
  for (const knob of ["llm", "clock"] as const) {
    const failure = await assertRejects(
      () =>
        chaos((world) => agent(world).run("q", world.ctx({ [knob]: new FakeLLM("x") } as never)), {
          script: SCRIPT,
          runs: 1,
        }),
      InvalidScenario,
      "the scenario never called the model, so no fault could reach it (it threw first: TypeError:",
    );
    assertStringIncludes(failure.message, `world.ctx(): do not pass ${knob}`);
    assertInstanceOf(failure.cause, TypeError);
  }
  const failure = await assertRejects(
    () =>
      chaos((world) => agent(world).run("q", world.ctx({ budgte: 1 } as never)), {
        script: SCRIPT,
        runs: 1,
      }),
    InvalidScenario,
  );
  assertStringIncludes(failure.message, 'did you mean "budget"?');
});

Deno.test("ChaosFailure's message: the problem, the faults (none), the replay, the reproduction, the run", async () => {
  const fail = (): void => {
    throw new Error("always");
  };
  const f = await assertRejects(
    () =>
      chaos((world) => agent(world).run("What is it?", world.ctx()), {
        script: SCRIPT,
        seed: 6,
        runs: 1,
        maxFaults: 0,
        invariants: { fail },
      }),
    ChaosFailure,
  );
  assertEquals(f.faults, "none");
  assertEquals(
    f.message,
    [
      'chaos(): invariant "fail" broke: always',
      "shrunk to the faults: none",
      `replay it: chaos(scenario, { ...options, seed: 6, path: ${JSON.stringify(f.path)} })`,
      `or without chaos(), with this model:\n${f.reproduction}`,
      `the run:\n${f.transcript}`,
    ].join("\n"),
  );
  assertInstanceOf(f.cause, Error);
});

Deno.test("world.tool(t) keeps the tool's approval and idempotency, and leaves them unset when the tool has none", async () => {
  const seen: unknown[] = [];
  const charge = new FakeTool({
    name: "charge",
    responder: "ok",
    requiresApproval: true,
    idempotent: false,
  });
  await chaos(async (world) => {
    const wrapped = world.tool(charge);
    const plain = world.tool({
      name: "bare",
      description: "a ToolPort with neither flag",
      parameters: { type: "object" },
      call: () => Promise.resolve("x"),
    });
    seen.push(
      [wrapped.requiresApproval, wrapped.idempotent],
      [plain.requiresApproval, plain.idempotent],
    );
    return await agent(world).run("q", world.ctx());
  }, { script: SCRIPT, runs: 1, maxFaults: 0 });
  assertEquals(seen, [[true, false], [undefined, undefined]]);
});
