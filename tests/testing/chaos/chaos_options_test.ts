// chaos()'s options as a user meets them: each wrong value refused with the
// whole message (what was wrong, what the valid values are), the weights and
// limits doing what they say, and a custom invariant reported by its name.
import { assert, assertEquals, assertRejects } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import {
  chaos,
  ChaosFailure,
  type ChaosOptions,
  type ChaosOutcome,
  type ChaosWorld,
  FakeTool,
  InvalidScript,
} from "@agentkit/testing/testing";

const SCRIPT = [{ toolCalls: [toolCall("c1", "lookup", {})] }, "It is 42."];
const KINDS = [
  "rateLimit",
  "serverError",
  "timeout",
  "midStreamCut",
  "stall",
  "invalidToolJson",
  "schemaViolatingArgs",
  "unknownTool",
  "duplicateCallIds",
  "lengthMidToolCall",
  "emptyAnswer",
  "refusal",
  "contentFilter",
  "reasoningOnly",
  "malformedToolCall",
  "toolError",
  "slowTool",
].join(", ");
const INVARIANTS =
  "terminates, noHarnessError, typedFailure, budgetHeld, toolCallsAnswered, noDuplicateSideEffects";

const ask = (w: ChaosWorld) =>
  w.llm.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] });

Deno.test("chaos() refuses each wrong option with a message that names it and says what it takes", async (t) => {
  const cases: Array<[string, Record<string, unknown>, ErrorConstructor, string]> = [
    [
      "runs not an integer",
      { runs: 2.5 },
      RangeError,
      'chaos(): option "runs" must be an integer 1 or more, got 2.5',
    ],
    [
      "a seed not an integer",
      { seed: 1.5 },
      RangeError,
      'chaos(): option "seed" must be an integer, got 1.5',
    ],
    [
      "maxSteps not an integer",
      { maxSteps: 2.5 },
      RangeError,
      'chaos(): option "maxSteps" must be an integer 1 or more, got 2.5',
    ],
    [
      "a fault kind that is not a string",
      { faults: [3] },
      TypeError,
      "chaos(): faults lists fault kinds (strings), got 3",
    ],
    [
      "faults as one string",
      { faults: "rateLimit" },
      TypeError,
      'chaos(): faults must be a list of kinds or a record of kind to weight, got "rateLimit"',
    ],
    [
      "faults: null",
      { faults: null },
      TypeError,
      "chaos(): faults must be a list of kinds or a record of kind to weight, got null",
    ],
    [
      "a weight that is a fraction",
      { faults: { rateLimit: 1.5 } },
      RangeError,
      'chaos(): faults: the weight of fault kind "rateLimit" must be an integer, 0 or more, got 1.5',
    ],
    [
      "a weight that is a string",
      { faults: { rateLimit: "2" } },
      TypeError,
      'chaos(): faults: the weight of fault kind "rateLimit" must be an integer, 0 or more, got "2"',
    ],
    [
      "a fault kind near no known one",
      { faults: ["zzzzzz"] },
      TypeError,
      `chaos(): faults names an unknown fault kind "zzzzzz"; the kinds are ${KINDS}`,
    ],
    [
      "a misspelt fault kind",
      { faults: ["ratelimit"] },
      TypeError,
      `chaos(): faults names an unknown fault kind "ratelimit"; did you mean "rateLimit"?; the kinds are ${KINDS}`,
    ],
    [
      "a skip near no built-in invariant",
      { skip: ["zzzzzzz"] },
      TypeError,
      `chaos(): skip names an unknown invariant "zzzzzzz"; the built-in invariants are ${INVARIANTS}`,
    ],
    [
      "invariants: a number",
      { invariants: 42 },
      TypeError,
      "chaos(): invariants must be a function, a list of functions, or a record of them by name, got 42",
    ],
    [
      "invariants: null",
      { invariants: null },
      TypeError,
      "chaos(): invariants must be a function, a list of functions, or a record of them by name, got null",
    ],
    [
      "a list of invariants with null in it",
      { invariants: [null] },
      TypeError,
      "chaos(): invariants[0] must be a function (outcome) => void that throws to fail, got null",
    ],
    [
      "a list of invariants with one that is not a function",
      { invariants: [() => {}, "no"] },
      TypeError,
      'chaos(): invariants[1] must be a function (outcome) => void that throws to fail, got "no"',
    ],
  ];
  for (const [name, extra, cls, message] of cases) {
    await t.step(name, async () => {
      const error = await assertRejects(
        () => chaos(ask, { script: SCRIPT, ...extra } as unknown as ChaosOptions),
        cls,
      );
      assertEquals(error.message, message);
    });
  }
});

Deno.test("chaos() names the malformed turn of the script by its place", async () => {
  const error = await assertRejects(
    () => chaos(ask, { script: ["one", { contnet: "two" } as never] }),
    InvalidScript,
  );
  assertEquals(
    error.message,
    'unknown key "contnet" in chaos() script turn 2; did you mean "content"?',
  );
});

// Every fault each run injected, in runs where every planned fault fires:
// the scenario makes `modelCalls` model calls and `toolCalls` tool calls,
// whatever they meet (a responder, the default script, answers any number).
async function schedules(
  options: Partial<ChaosOptions> & { modelCalls: number; toolCalls: number },
): Promise<ChaosOutcome["faults"][]> {
  const { modelCalls, toolCalls, ...rest } = options;
  const probe = new FakeTool({ name: "probe", responder: "ok" });
  const seen: ChaosOutcome["faults"][] = [];
  await chaos(async (w) => {
    const tool = w.tool(probe);
    for (let i = 0; i < modelCalls; i++) await ask(w).catch(() => {});
    for (let i = 0; i < toolCalls; i++) await tool.call({}, w.ctx()).catch(() => {});
    return "done";
  }, {
    script: () => "ok",
    seed: 12,
    runs: 60,
    skip: ["terminates", "typedFailure"],
    invariants: (o) => void seen.push(o.faults),
    ...rest,
  });
  assertEquals(seen.length, 60);
  return seen;
}

Deno.test("a weight of 0 turns its kind off; the others still fire", async () => {
  const runs = await schedules({
    faults: { rateLimit: 1, toolError: 0 },
    maxSteps: 4,
    modelCalls: 4,
    toolCalls: 4,
  });
  assertEquals([...new Set(runs.flat().map((f) => f.kind))], ["rateLimit"]);
});

Deno.test("a run gets up to maxFaults faults, at most one per model call and one per tool call", async () => {
  const runs = await schedules({
    faults: ["rateLimit", "toolError"],
    maxSteps: 3,
    modelCalls: 3,
    toolCalls: 3,
  });
  for (const faults of runs) {
    assert(faults.length <= 3, `at most maxFaults: ${faults.map((f) => f.label)}`);
    const places = faults.map((f) => `${f.target} ${f.at}`);
    assertEquals(new Set(places).size, places.length, `one fault per call: ${places}`);
    for (const f of faults) assert(f.at >= 1 && f.at <= 3, `within maxSteps: ${f.label}`);
  }
  assert(runs.some((faults) => faults.length === 3), "some run has maxFaults faults");
  // Model call 2 and tool call 2 are different calls: both may get a fault.
  assert(
    runs.some((faults) =>
      faults.some((m) =>
        m.target === "model" && faults.some((t) => t.target === "tool" && t.at === m.at)
      )
    ),
    "some run has a model fault and a tool fault of the same number",
  );
});

Deno.test("a tool fault lands on one of the script's tool calls, or one of maxFaults more", async () => {
  // Two tool calls in the script and one fault: tool calls 1 to 3 are where it can land.
  const runs = await schedules({
    script: [{ toolCalls: [toolCall("c1", "probe", {}), toolCall("c2", "probe", {})] }, "done"],
    faults: ["toolError"],
    maxFaults: 1,
    modelCalls: 1,
    toolCalls: 5,
  });
  assertEquals([...new Set(runs.flat().map((f) => f.at))].sort(), [1, 2, 3]);
});

Deno.test("maxSteps defaults to the script's length plus maxFaults when that is over 20", async () => {
  const script = Array.from({ length: 22 }, (_, i) => `turn ${i + 1}`);
  const f = await assertRejects(
    () =>
      chaos(async (w) => {
        while (!w.signal.aborted) await ask(w).catch(() => {});
        return "stopped";
      }, {
        script,
        faults: ["rateLimit"],
        maxFaults: 1,
        seed: 1,
        runs: 1,
        skip: ["noHarnessError"],
      }),
    ChaosFailure,
  );
  assertEquals([f.invariant, f.outcome.status, f.outcome.modelCalls], [
    "terminates",
    "stopped",
    24,
  ]);
  assertEquals(
    f.message.split("\n")[0],
    'chaos(): invariant "terminates" broke: the run did not settle by itself: chaos() stopped it because it made more than maxSteps (23) model calls',
  );
});

Deno.test("a custom invariant breaks under its own name: the function's, its index, or its key", async (t) => {
  const fail = (): void => {
    throw new Error("no");
  };
  const [anonymous] = [(): void => fail()];
  assertEquals(anonymous.name, "");
  function mustAnswer(): void {
    fail();
  }
  const cases: Array<[string, ChaosOptions["invariants"], string]> = [
    ["a named function", mustAnswer, "mustAnswer"],
    ["an anonymous function", anonymous, "invariants"],
    ["a list: the named one", [mustAnswer], "mustAnswer"],
    ["a list: an anonymous one, by its index", [() => {}, anonymous], "invariants[1]"],
    ["a record: its key", { answers: anonymous }, "answers"],
  ];
  for (const [name, invariants, expected] of cases) {
    await t.step(name, async () => {
      const f = await assertRejects(
        () => chaos(ask, { script: ["hi"], maxFaults: 0, runs: 1, invariants }),
        ChaosFailure,
      );
      assertEquals(f.invariant, expected);
      assertEquals(f.message.split("\n")[0], `chaos(): invariant "${expected}" broke: no`);
    });
  }
});
