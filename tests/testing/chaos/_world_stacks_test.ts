// The world as other stacks meet it: world.fetch (a FakeProvider on the
// faulty model) and world.aiSdkModel(), which put the global timers on the
// run's clock from their first use until the run ends; and what chaos()
// says about a run on them.
import { assert, assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import { Agent, Budget, meter } from "@agentkit/testing/runtime";
import {
  chaos,
  ChaosFailure,
  type ChaosWorld,
  InvalidScenario,
  InvalidScript,
} from "@agentkit/testing/testing";

const CHAT = "https://api.openai.com/v1/chat/completions";
const post = (world: ChaosWorld, url = CHAT): Promise<Response> =>
  world.fetch.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
  });
const answer = async (world: ChaosWorld): Promise<string> => {
  const body = await (await post(world)).json();
  return body.choices[0].message.content;
};

Deno.test("world.fetch serves the world's model on the wire, one FakeProvider for the run", async () => {
  const seen: unknown[] = [];
  await chaos(async (world) => {
    assertStrictEquals(world.fetch, world.fetch);
    return await answer(world);
  }, {
    script: ["It is 42."],
    runs: 1,
    maxFaults: 0,
    invariants: (o) => void seen.push([o.status, o.result, o.modelCalls]),
  });
  assertEquals(seen, [["returned", "It is 42.", 1]]);
});

Deno.test("from the first use of world.fetch, the global timers run on the world's clock; after the run, on the system's again", async () => {
  const realSetTimeout = globalThis.setTimeout;
  const realNow = Date.now;
  const seen: unknown[] = [];
  await chaos(async (world) => {
    // Before: the world's clock is not installed (it costs a run).
    seen.push(globalThis.setTimeout === realSetTimeout);
    world.fetch;
    seen.push(globalThis.setTimeout === realSetTimeout);
    // A client's own 30 s backoff costs no wall time.
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    seen.push(world.clock.now(), Date.now() - world.clock.now() === new Date(0).getTime());
    return await answer(world);
  }, { script: ["ok"], runs: 1, maxFaults: 0 });
  assertEquals(seen, [true, false, 30_000, true]);
  assertStrictEquals(globalThis.setTimeout, realSetTimeout);
  assertStrictEquals(Date.now, realNow);
  assert(Date.now() > 1_000_000_000_000, "Date is the system's again");
});

Deno.test("world.aiSdkModel() takes the model's options, answers from the script, and puts the timers on the clock", async () => {
  const realSetTimeout = globalThis.setTimeout;
  const seen: unknown[] = [];
  await chaos(async (world) => {
    const model = world.aiSdkModel({ modelId: "my-model", specificationVersion: "v3" });
    seen.push(model.modelId, model.specificationVersion, globalThis.setTimeout === realSetTimeout);
    const result = await model.doGenerate({
      prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    } as never);
    return (result.content as { type: string; text?: string }[]).find((c) => c.type === "text")
      ?.text;
  }, {
    script: ["It is 42."],
    runs: 1,
    maxFaults: 0,
    invariants: (o) => void seen.push(o.result, o.requests[0].model),
  });
  assertEquals(seen, ["my-model", "v3", false, "It is 42.", "my-model"]);
  assertStrictEquals(globalThis.setTimeout, realSetTimeout);
});

Deno.test("a scenario whose wire requests never reach the model is refused, counting them", async () => {
  const e = await assertRejects(
    () =>
      chaos(async (world) => {
        const res = await post(world, "https://api.openai.com/v1/nowhere");
        await res.body?.cancel();
        return res.status;
      }, { script: ["ok"], runs: 1 }),
    InvalidScenario,
  );
  assertEquals(
    e.message,
    "chaos(): the scenario never called the model, so no fault could reach it; build the agent on the world's model: world.ctx() (or world.llm), world.fetch.fetch for a provider client, or world.aiSdkModel() (world.fetch got 1 HTTP request(s), but none reached the model)",
  );
});

Deno.test("a scenario that never used world.fetch is refused without a word about the wire", async () => {
  const e = await assertRejects(
    () => chaos((world) => world.clock.sleep(5), { script: ["ok"], runs: 1 }),
    InvalidScenario,
  );
  assertEquals(
    e.message,
    "chaos(): the scenario never called the model, so no fault could reach it; build the agent on the world's model: world.ctx() (or world.llm), world.fetch.fetch for a provider client, or world.aiSdkModel()",
  );
});

// A client that gives up on a call and returns leaves the call under way;
// chaos() ends it after the run. That end is chaos()'s own, on the wire as
// on world.llm, never "the test's setup broke".
Deno.test("a call the agent gave up on, ended by chaos() after the run, is no harness error on the wire either", async () => {
  const givesUp = (viaWire: boolean) => async (world: ChaosWorld) => {
    const call = viaWire ? answer(world) : world.llm.chat({
      model: "fake-model",
      messages: [{ role: "user", content: "hi" }],
    }).then((r) => r.content);
    call.catch(() => {});
    return await Promise.race([call, world.clock.sleep(10_000).then(() => "gave up")]);
  };
  for (const viaWire of [false, true]) {
    const summary = await chaos(givesUp(viaWire), {
      script: ["ok"],
      faults: ["stall"],
      seed: 1,
      runs: 10,
    });
    assert(summary.byKind.stall > 0, "some run stalled");
  }
});

Deno.test("a responder's bad answer that the agent swallows breaks noHarnessError, on world.llm and on the wire", async () => {
  const swallows = (viaWire: boolean) => async (world: ChaosWorld) => {
    try {
      return viaWire
        ? await answer(world)
        : (await world.llm.chat({ model: "m", messages: [{ role: "user", content: "q" }] }))
          .content;
    } catch {
      return "carried on";
    }
  };
  for (const viaWire of [false, true]) {
    const f = await assertRejects(
      // No faults: a random one (a malformed tool call, say) would answer in the responder's place.
      () =>
        chaos(swallows(viaWire), {
          script: () => ({ contnet: "typo" }) as never,
          runs: 1,
          maxFaults: 0,
        }),
      ChaosFailure,
    );
    assertEquals(f.invariant, "noHarnessError");
    assert(f.message.includes(`the test's setup broke: ${InvalidScript.name}:`), f.message);
    assert(f.message.includes("and the run swallowed it"), f.message);
  }
});

Deno.test("budgetHeld counts the cached input tokens the provider billed, as the Budget does", async () => {
  const usage = { inputTokens: 7, outputTokens: 3, cachedInputTokens: 5 };
  const seen: number[] = [];
  await chaos(async (world) => {
    const budget = new Budget({ maxTokens: 1000 });
    await new Agent("a", { model: "fake-model" }).run(
      "q",
      world.ctx({ budget, chatMiddleware: [meter()] }),
    );
    seen.push(budget.tokens);
    return budget.tokens;
  }, { script: [{ content: "ok", usage }], runs: 1, maxFaults: 0 });
  assertEquals(seen, [15]);
});
