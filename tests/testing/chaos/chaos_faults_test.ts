// Each fault kind chaos() injects, as the agent meets it: the provider's,
// the tools', and the model's own misbehaviour.
import { assert, assertEquals, assertInstanceOf, assertStringIncludes } from "@std/assert";
import { Agent, ReActCognition, retry, timeout } from "@agentkit/testing/runtime";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
  toolCall,
} from "@agentkit/testing/ports";
import {
  chaos,
  type ChaosFaultKind,
  type ChaosOptions,
  type ChaosOutcome,
  type ChaosWorld,
  drainEvents,
  FakeTool,
  misbehave,
  MISBEHAVIOUR_KINDS,
} from "@agentkit/testing/testing";

const tool = () =>
  new FakeTool({
    name: "lookup",
    parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    responder: ({ q }: { q: string }) => `found ${q}`,
  });
const SCRIPT = [{ toolCalls: [toolCall("c1", "lookup", { q: "x" })] }, "It is 42."];

// Every run in which `kind` fired, with the scenario's outcome.
async function hit(
  kind: ChaosFaultKind,
  scenario: (world: ChaosWorld) => unknown,
  options: Partial<ChaosOptions> = {},
): Promise<ChaosOutcome[]> {
  const out: ChaosOutcome[] = [];
  await chaos(scenario, {
    script: SCRIPT,
    faults: [kind],
    maxFaults: 1,
    runs: 30,
    seed: 17,
    skip: ["terminates", "typedFailure", "toolCallsAnswered", "noHarnessError"],
    ...options,
    invariants: (o) => void (o.faults.some((f) => f.kind === kind) && out.push(o)),
  });
  assert(out.length > 0, `${kind} fired in some run`);
  return out;
}

const react = (world: ChaosWorld, lookup = tool(), chatMiddleware = [] as never[]) =>
  new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [world.tool(lookup)] }),
  })
    .run("What is it?", world.ctx({ chatMiddleware }));

Deno.test("rateLimit: a 429 before any token, with retryAfterMs; retry() waits it out on the clock", async () => {
  for (const o of await hit("rateLimit", (w) => react(w))) {
    const e = o.error as RateLimitError;
    assertInstanceOf(e, RateLimitError);
    assertEquals(e.phase, "pre_stream");
    assert([500, 1500, 5000, 30_000].includes(e.retryAfterMs!));
    assertStringIncludes(o.faults[0].label, `rateLimit(retryAfterMs=${e.retryAfterMs})`);
  }
  for (const o of await hit("rateLimit", (w) => react(w, tool(), [retry()] as never[]))) {
    assertEquals(o.status, "returned");
    const ms = Number(/retryAfterMs=(\d+)/.exec(o.faults[0].args)![1]);
    assert(o.virtualMs >= ms, `waited ${o.virtualMs} >= ${ms} virtual ms`);
    assertEquals(
      o.modelCalls,
      3,
      "the fault took a call of its own; the script's turns answered the rest",
    );
  }
});

Deno.test("serverError: a retryable 5xx before any token", async () => {
  for (const o of await hit("serverError", (w) => react(w))) {
    const e = o.error as ProviderError;
    assertInstanceOf(e, ProviderError);
    assertEquals([e.retryable, e.phase], [true, "pre_stream"]);
    assert([500, 502, 503].includes(e.status!));
  }
});

Deno.test("timeout: the call is held on the clock, then fails with ProviderTimeoutError", async () => {
  for (const o of await hit("timeout", (w) => react(w))) {
    const e = o.error as ProviderTimeoutError;
    assertInstanceOf(e, ProviderTimeoutError);
    const ms = Number(/afterMs=(\d+)/.exec(o.faults[0].args)![1]);
    assertEquals(o.virtualMs, ms);
  }
  // An agent's own deadline ends the held call first.
  for (
    const o of await hit("timeout", (w) => react(w, tool(), [timeout({ ms: 2000 })] as never[]))
  ) {
    assertEquals(o.virtualMs, 2000);
  }
});

Deno.test("midStreamCut: tokens, then a broken stream; retry() does not retry it", async () => {
  const streamed = async (world: ChaosWorld) => {
    const run = new Agent("a", { model: "fake-model" }).start(
      "q",
      world.ctx({ chatMiddleware: [retry()] }),
    );
    const events = await drainEvents(run);
    await run.result.catch(() => {});
    return events;
  };
  const outcomes = await hit("midStreamCut", streamed, { script: ["It is 42."] });
  for (const o of outcomes) {
    assertEquals(o.modelCalls, 1);
    const n = Number(/afterChunks=(\d)/.exec(o.faults[0].args)![1]);
    const types = (o.result as { type: string }[]).map((e) => e.type);
    assertEquals(types.filter((t) => t === "text_delta").length, n);
    assertEquals(types.at(-1), "error");
  }
  for (const o of await hit("midStreamCut", (w) => react(w))) {
    const e = o.error as ProviderResponseError;
    assertInstanceOf(e, ProviderResponseError);
    assertEquals(e.phase, "mid_stream");
  }
});

Deno.test("a streamed call's provider fault comes before any event, so retry() re-opens the stream", async () => {
  for (const kind of ["rateLimit", "serverError"] as const) {
    const outcomes = await hit(kind, async (world) => {
      const run = new Agent("a", { model: "fake-model" }).start(
        "q",
        world.ctx({ chatMiddleware: [retry()] }),
      );
      await drainEvents(run);
      return await run.result;
    }, { script: ["It is 42."] });
    for (const o of outcomes) {
      assertEquals([o.status, (o.result as { output: string }).output], ["returned", "It is 42."]);
    }
  }
});

Deno.test("stall: the call sends nothing until cancelled; a timeout ends it, else chaos() stops the run", async () => {
  for (const o of await hit("stall", (w) => react(w, tool(), [timeout({ ms: 5000 })] as never[]))) {
    assertEquals([o.status, o.virtualMs], ["threw", 5000]);
  }
  for (const o of await hit("stall", (w) => react(w), { hangMs: 5, runs: 5 })) {
    assertEquals(o.status, "stopped");
    assertEquals((o.error as Error).name, "ChaosStopped");
  }
});

Deno.test("toolError: the tool call fails (ReAct shows the model the error); ranFirst fails it after the tool ran", async () => {
  const lookup = tool();
  const outcomes = await hit("toolError", (w) => react(w, lookup), { runs: 60 });
  for (const o of outcomes) {
    assertEquals(o.status, "returned");
    const results = o.requests[1].messages.filter((m) => m.role === "tool");
    assertEquals(results.length, 1);
    assertEquals(results[0].isError, true);
    const ranFirst = o.faults[0].args.includes("ranFirst=true");
    assertStringIncludes(
      results[0].content,
      ranFirst ? "its answer was lost" : "503 Service Unavailable",
    );
    assertEquals(o.toolCalls[0].ran, ranFirst);
    assertEquals(o.toolCalls[0].callId, "c1");
  }
  const flags = new Set(outcomes.map((o) => o.faults[0].args.includes("ranFirst")));
  assertEquals(flags.size, 2, "both flavours fired");
});

Deno.test("slowTool: the tool answers late, on the clock; a tool deadline turns it into an error", async () => {
  for (const o of await hit("slowTool", (w) => react(w))) {
    const ms = Number(/delayMs=(\d+)/.exec(o.faults[0].args)![1]);
    assertEquals([o.status, o.virtualMs], ["returned", ms]);
  }
  const deadline = (w: ChaosWorld) =>
    new Agent("a", {
      model: "fake-model",
      cognition: new ReActCognition({ tools: [w.tool(tool())], toolTimeoutMs: 1000 }),
    }).run("q", w.ctx());
  for (const o of await hit("slowTool", deadline)) {
    const result = o.requests[1].messages.find((m) => m.role === "tool")!;
    assertEquals(result.isError, true);
    assertStringIncludes(result.content, "did not finish within 1000 ms");
  }
});

Deno.test("the model's misbehaviour: each kind's turn, as ReAct answers it", async (t) => {
  const cases: Array<[ChaosFaultKind, (o: ChaosOutcome) => void]> = [
    ["emptyAnswer", (o) => {
      assertEquals(o.turns[o.faults[0].at - 1], misbehave.emptyAnswer());
      assertEquals((o.result as { stopReason: string }).stopReason, "error");
    }],
    ["contentFilter", (o) => {
      assertEquals(o.turns[o.faults[0].at - 1].finishReason, "content_filter");
      assertEquals((o.result as { stopReason: string }).stopReason, "error");
    }],
    ["refusal", (o) => {
      assertEquals(o.faults[0].label, `call ${o.faults[0].at}: refusal()`);
      const { output, stopReason } = o.result as { output: string; stopReason: string };
      assertEquals([output, stopReason], [misbehave.refusal().refusal, "error"]);
    }],
    ["reasoningOnly", (o) => {
      assertEquals(o.turns[o.faults[0].at - 1].reasoning, misbehave.reasoningOnly().reasoning);
      assertEquals((o.result as { stopReason: string }).stopReason, "error");
    }],
    ["malformedToolCall", (o) => {
      assertEquals(o.turns[o.faults[0].at - 1].toolCalls![0].name, "");
      const answer = o.requests[o.faults[0].at].messages.at(-1)!;
      assertEquals([answer.role, answer.isError], ["tool", true]);
    }],
    ["unknownTool", (o) => {
      assertEquals(o.faults[0].args, "");
      assertEquals(o.faults[0].label, `call ${o.faults[0].at}: unknownTool()`);
      const answer = o.requests[o.faults[0].at].messages.at(-1)!;
      assertEquals([answer.role, answer.isError], ["tool", true]);
      assertStringIncludes(answer.content, "no_such_tool");
    }],
    ["invalidToolJson", (o) => {
      assertEquals(o.faults[0].label, `call ${o.faults[0].at}: invalidToolJson("lookup")`);
      assertEquals(o.turns[o.faults[0].at - 1], misbehave.invalidToolJson("lookup"));
      const call = o.turns[o.faults[0].at - 1].toolCalls![0];
      assert(call.rawArgs !== undefined);
      assert(!isJson(call.rawArgs!), `${call.rawArgs} is not JSON`);
      assertStringIncludes(o.requests[o.faults[0].at].messages.at(-1)!.content, "not valid JSON");
    }],
    ["schemaViolatingArgs", (o) => {
      assertEquals(o.faults[0].args, '"lookup", {"q":12345}');
      assertEquals(o.requests[o.faults[0].at].messages.at(-1)!.isError, true);
    }],
    ["duplicateCallIds", (o) => {
      const [a, b] = o.turns[o.faults[0].at - 1].toolCalls!;
      assertEquals(a.id, b.id);
      // ReAct gives the repeated id a fresh one, and answers each call once.
      const next = o.requests[o.faults[0].at].messages;
      const carried = next.findLast((m) => m.role === "assistant")!.toolCalls!.map((c) => c.id);
      assertEquals(carried, [a.id, `${a.id}_2`]);
      const results = next.filter((m) => m.role === "tool").slice(-2).map((m) => m.toolCallId);
      assertEquals(results, carried);
    }],
    ["lengthMidToolCall", (o) => {
      const turn = o.turns[o.faults[0].at - 1];
      assertEquals(turn.finishReason, "length");
      assertEquals((o.result as { stopReason: string }).stopReason, "length");
      assertEquals(o.toolCalls.length, o.faults[0].at === 1 ? 0 : 1, "the cut call was not run");
    }],
  ];
  assertEquals(cases.map(([kind]) => kind).sort(), [...MISBEHAVIOUR_KINDS].sort());
  for (const [kind, check] of cases) {
    await t.step(kind, async () => {
      for (const o of await hit(kind, (w) => react(w))) check(o);
    });
  }
});

Deno.test("a model fault that needs a tool is not injected into a call that offers none", async () => {
  const kinds: ChaosFaultKind[] = [
    "invalidToolJson",
    "schemaViolatingArgs",
    "duplicateCallIds",
    "lengthMidToolCall",
  ];
  const fired: string[] = [];
  await chaos((w) => new Agent("a", { model: "fake-model" }).run("q", w.ctx()), {
    script: ["hi"],
    faults: kinds,
    runs: 30,
    seed: 1,
    invariants: (o) => void fired.push(...o.faults.map((f) => f.kind)),
  });
  assertEquals(fired, []);
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
