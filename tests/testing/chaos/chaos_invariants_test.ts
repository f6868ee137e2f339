// The built-in invariants, each breaking on the bug it is for, and skip.
import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import {
  Agent,
  Budget,
  meter,
  ReActCognition,
  type ToolMiddleware,
} from "@agentkit/testing/runtime";
import { type Message, toolCall } from "@agentkit/testing/ports";
import {
  chaos,
  ChaosFailure,
  type ChaosOptions,
  type ChaosWorld,
  FakeTool,
} from "@agentkit/testing/testing";

const lookup = new FakeTool({ name: "lookup", responder: "42" });
const SCRIPT = [{ toolCalls: [toolCall("c1", "lookup", {})] }, "It is 42."];
const react = (world: ChaosWorld, options: Parameters<ChaosWorld["ctx"]>[0] = {}) =>
  new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [world.tool(lookup)], maxIterations: 50 }),
  })
    .run("q", world.ctx(options));

const broken = (
  scenario: (w: ChaosWorld) => unknown,
  options: Partial<ChaosOptions> = {},
): Promise<ChaosFailure> =>
  assertRejects(
    () => chaos(scenario, { script: SCRIPT, seed: 1, runs: 20, maxFaults: 0, ...options }),
    ChaosFailure,
  );

Deno.test("terminates: more than maxSteps model calls stops the run", async () => {
  const f = await broken((w) => react(w), {
    script: () => ({ toolCalls: [toolCall("c1", "lookup", {})] }),
    maxSteps: 6,
  });
  assertEquals([f.invariant, f.outcome.status, f.outcome.modelCalls], ["terminates", "stopped", 7]);
  assertStringIncludes(f.message, "made more than maxSteps (6) model calls");
});

Deno.test("terminates: a run past maxVirtualMs is stopped", async () => {
  const f = await broken(async (w) => {
    const result = await react(w);
    await w.clock.sleep(90_000);
    return result;
  }, { maxVirtualMs: 60_000 });
  assertEquals(f.invariant, "terminates");
  assertStringIncludes(f.message, "ran past maxVirtualMs (60000 ms of virtual time");
});

Deno.test("terminates: a run that never settles, even when stopped, is reported as hung and left", async () => {
  const f = await broken(async (w) => {
    await react(w);
    await new Promise(() => {}); // ignores the stop: nothing settles this
  }, { hangMs: 5, runs: 2 });
  assertEquals([f.invariant, f.outcome.status], ["terminates", "hung"]);
  assertStringIncludes(f.message, "made no progress for 5 ms of real time");
  assertStringIncludes(f.message, "a hang, left behind");
});

Deno.test("noHarnessError: a script that runs out, thrown or swallowed", async () => {
  const thrown = await broken(async (w) => {
    await react(w);
    return await react(w); // a second run: the script has no turns left
  });
  assertEquals(thrown.invariant, "noHarnessError");
  assertStringIncludes(thrown.message, "ScriptExhausted: chaos()'s script has 2 turn(s)");
  assert(!thrown.message.includes("swallowed it"), "thrown, so not swallowed");
  assertStringIncludes(thrown.message, "(a fault takes no turn of the script");
  const swallowed = await broken(async (w) => {
    await react(w);
    return await react(w).catch(() => "swallowed");
  });
  assertStringIncludes(swallowed.message, "and the run swallowed it");
});

Deno.test("typedFailure: a plain Error, a thrown string, or a SyntaxError from inside", async () => {
  const plain = await broken(async (w) => {
    await react(w);
    throw new Error("it broke");
  });
  assertEquals(plain.invariant, "typedFailure");
  assertStringIncludes(plain.message, "a plain Error, not a named error class: it broke");
  const text = await broken(async (w) => {
    await react(w);
    throw "it broke";
  });
  assertStringIncludes(text.message, "which is not an Error");
  const parse = await broken(async (w) => {
    await react(w);
    return JSON.parse("{");
  });
  assertStringIncludes(parse.message, "a SyntaxError from inside");
  class AgentGaveUp extends Error {
    override name = "AgentGaveUp";
  }
  await chaos(async (w) => {
    await react(w);
    throw new AgentGaveUp("named");
  }, { script: SCRIPT, runs: 3, maxFaults: 0 });
});

Deno.test("typedFailure: a RangeError or ReferenceError from inside breaks it; a subclass named by its class does not", async () => {
  for (const Bug of [RangeError, ReferenceError, TypeError]) {
    const f = await broken(async (w) => {
      await react(w);
      throw new Bug("deep inside");
    });
    assertEquals(f.invariant, "typedFailure");
    assertStringIncludes(f.message, `a ${Bug.name} from inside: deep inside`);
  }
  // Its name left as "Error", but its class says what it is.
  class QuotaGone extends Error {}
  await chaos(async (w) => {
    await react(w);
    throw new QuotaGone("named by its class");
  }, { script: SCRIPT, runs: 3, maxFaults: 0 });
});

Deno.test("toolCallsAnswered: a turn cut for length owes no results", async () => {
  const cut = [{ toolCalls: [toolCall("c1", "lookup", {})], finishReason: "length" as const }];
  await chaos(async (w) => {
    const res = await w.llm.chat({
      model: "fake-model",
      messages: [{ role: "user", content: "q" }],
    });
    // The model's next request would carry nothing back: the call was cut.
    return res.finishReason;
  }, { script: cut, runs: 3, maxFaults: 0 });
  // A finished turn with the same call owes one.
  const f = await broken(async (w) => {
    const messages: Message[] = [{ role: "user", content: "q" }];
    const res = await w.llm.chat({ model: "fake-model", messages });
    messages.push({ role: "assistant", content: "", toolCalls: res.toolCalls });
    return await w.llm.chat({ model: "fake-model", messages });
  }, { script: [{ toolCalls: [toolCall("c1", "lookup", {})], finishReason: "stop" }, "done"] });
  assertEquals(f.invariant, "toolCallsAnswered");
  assertStringIncludes(f.message, "call c1 (lookup) got 0 result(s) where it needed 1");
});

Deno.test("budgetHeld: a call charged twice (meter() twice in the chain)", async () => {
  const f = await broken((w) =>
    react(w, { budget: new Budget({ maxCalls: 10 }), chatMiddleware: [meter(), meter()] })
  );
  assertEquals(f.invariant, "budgetHeld");
  assertStringIncludes(f.message, "charged for 4 model call(s), but the provider billed only 2");
});

Deno.test("budgetHeld: a model call after the budget was used up", async () => {
  const f = await broken(async (w) => {
    const budget = new Budget({ maxCalls: 1 });
    const ctx = w.ctx({ budget, chatMiddleware: [meter()] });
    await new Agent("a", { model: "fake-model" }).run("q", ctx);
    // Around the invoker: nothing checks the budget on this path.
    return await w.llm.chat({ model: "fake-model", messages: [] }, ctx);
  }, { script: ["one", "two"] });
  assertEquals(f.invariant, "budgetHeld");
  assertStringIncludes(f.message, "model call 2 went to the provider after the budget was used up");
  // Held: the agent meets BudgetExceeded before the provider is called.
  await chaos(async (w) => {
    const ctx = w.ctx({ budget: new Budget({ maxCalls: 1 }), chatMiddleware: [meter()] });
    await react(w, {}).catch(() => {});
    return await new Agent("a", { model: "fake-model" }).run("q", ctx);
  }, { script: [...SCRIPT, "x"], runs: 2, maxFaults: 0 });
});

// A hand-written loop over world.llm, so the test decides what goes back.
// With `rename`, a repeated call id gets a fresh one, as ReAct does.
async function loop(
  world: ChaosWorld,
  answer: (call: { id: string }) => Message[],
  rename = false,
) {
  const messages: Message[] = [{ role: "user", content: "q" }];
  const tools = [{ name: "lookup", description: "", parameters: { type: "object" } }];
  for (;;) {
    const res = await world.llm.chat({ model: "fake-model", messages, tools });
    const seen = new Set<string>();
    const calls = res.toolCalls.map((c) => {
      const id = rename && seen.has(c.id) ? `${c.id}_2` : c.id;
      seen.add(c.id);
      return { ...c, id };
    });
    messages.push({ role: "assistant", content: res.content, toolCalls: calls });
    if (calls.length === 0) return res.content;
    for (const c of calls) messages.push(...answer(c));
  }
}

Deno.test("toolCallsAnswered: a tool call with no result, or two", async () => {
  const none = await broken((w) => loop(w, () => []));
  assertEquals(none.invariant, "toolCallsAnswered");
  assertStringIncludes(
    none.message,
    "model call 1 made tool calls, and call c1 (lookup) got 0 result(s) where it needed 1",
  );
  const two = await broken((w) =>
    loop(w, (c) => [1, 2].map(() => ({ role: "tool", content: "42", toolCallId: c.id })))
  );
  assertStringIncludes(two.message, "got 2 result(s)");
  await chaos((w) => loop(w, (c) => [{ role: "tool", content: "42", toolCallId: c.id }]), {
    script: SCRIPT,
    runs: 3,
    maxFaults: 0,
  });
});

Deno.test("toolCallsAnswered: a repeated call id the agent renames is still answered, once each", async () => {
  // ReAct carries duplicateCallIds back as call_dup and call_dup_2, one result each.
  const summary = await chaos((w) => react(w), {
    script: SCRIPT,
    faults: ["duplicateCallIds"],
    seed: 3,
    runs: 20,
    skip: ["terminates", "typedFailure", "noHarnessError", "budgetHeld", "noDuplicateSideEffects"],
  });
  assert(summary.byKind.duplicateCallIds! > 0, "the fault fired");
  // A loop that drops the renamed call's result is caught.
  const dropped = await broken(
    (w) =>
      loop(
        w,
        (c) => c.id.endsWith("_2") ? [] : [{ role: "tool", content: "42", toolCallId: c.id }],
        true,
      ),
    { faults: ["duplicateCallIds"], maxFaults: 1 },
  );
  assertEquals(dropped.invariant, "toolCallsAnswered");
  assertStringIncludes(dropped.message, "got 0 result(s) where it needed 1");
});

Deno.test("noDuplicateSideEffects: a tool marked idempotent: false run twice for one call", async () => {
  const charge = new FakeTool({ name: "charge", responder: "charged", idempotent: false });
  // Retries a failed tool call: fine for a read, a double charge here.
  const retryTools: ToolMiddleware = {
    name: "retryTools",
    call: (inv, ctx, next) => next(inv, ctx).catch(() => next(inv, ctx)),
  };
  const scenario = (w: ChaosWorld) =>
    new Agent("a", {
      model: "fake-model",
      cognition: new ReActCognition({ tools: [w.tool(charge)] }),
    })
      .run("pay", w.ctx({ toolMiddleware: [retryTools] }));
  const f = await assertRejects(
    () =>
      chaos(scenario, {
        script: [{ toolCalls: [toolCall("c1", "charge", {})] }, "Paid."],
        faults: ["toolError"],
        seed: 2,
      }),
    ChaosFailure,
  );
  assertEquals(f.invariant, "noDuplicateSideEffects");
  assertEquals(f.faults, 'tool call 1: toolError("charge", ranFirst=true)');
  assertStringIncludes(
    f.message,
    'tool "charge" is marked idempotent: false, but it ran 2 times for the model\'s call c1',
  );
  // The same tool without the flag claims nothing.
  const free = new FakeTool({ name: "charge", responder: "charged" });
  await chaos(
    (w) =>
      new Agent("a", {
        model: "fake-model",
        cognition: new ReActCognition({ tools: [w.tool(free)] }),
      })
        .run("pay", w.ctx({ toolMiddleware: [retryTools] })),
    {
      script: [{ toolCalls: [toolCall("c1", "charge", {})] }, "Paid."],
      faults: ["toolError"],
      seed: 2,
    },
  );
});

Deno.test("noDuplicateSideEffects matches a call by its arguments on another stack", async () => {
  const charge = new FakeTool({ name: "charge", responder: "ok", idempotent: false });
  const f = await broken(async (w) => {
    const res = await w.llm.chat({
      model: "fake-model",
      messages: [{ role: "user", content: "q" }],
    });
    const t = w.tool(charge);
    await t.call(res.toolCalls[0].args as Record<string, unknown>, w.ctx());
    await t.call(res.toolCalls[0].args as Record<string, unknown>, w.ctx());
    return "done";
  }, {
    script: [{ toolCalls: [toolCall("c9", "charge", { amount: 5 })] }],
    skip: ["toolCallsAnswered"],
  });
  assertEquals(f.invariant, "noDuplicateSideEffects");
  assertEquals(f.outcome.toolCalls.map((c) => c.callId), ["c9", "c9"]);
});

Deno.test("skip turns a built-in invariant off", async () => {
  const summary = await chaos(async (w) => {
    await react(w);
    throw new Error("plain");
  }, { script: SCRIPT, runs: 3, maxFaults: 0, skip: ["typedFailure"] });
  assertEquals(summary.runs, 3);
  assert(summary.faultsInjected === 0);
});
