// One test per row of SPEC §8 rows 1-8: each trap the seeds document, and what
// this package does instead.
import { assert, assertEquals, assertRejects } from "@std/assert";
import {
  Agent,
  Budget,
  InMemoryStore,
  memoize,
  MisconfiguredMiddleware,
  NoInvoker,
  ReActCognition,
  retry,
  UnmeteredBudget,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptExhausted,
  UnmatchedPrompt,
  UnusedTurns,
} from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("trap 1: a scripted fake that runs out raises ScriptExhausted, past retry and the tool loop", async () => {
  const tool = new FakeTool({ name: "fetch", responder: "page" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "fetch", {})] }, {
    toolCalls: [toolCall("c2", "fetch", {})],
  }]);
  const looping = new Agent("l", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const ctx = makeTestCtx({
    llm,
    chatMiddleware: [retry({ maxAttempts: 3, retryOn: () => true })],
  });
  const e = await assertRejects(() => looping.run("go", ctx), ScriptExhausted);
  assert(e.message.includes("has 2 turn(s), but the agent asked for turn 3"));
  assertEquals(llm.calls, 3, "retry did not re-ask after the harness error");
});

Deno.test("trap 2: memoize() with no store is MisconfiguredMiddleware, not a silent no-op", async () => {
  const llm = new FakeLLM("x");
  await assertRejects(
    () => agent.run("q", makeTestCtx({ llm, chatMiddleware: [memoize()] })),
    MisconfiguredMiddleware,
    "pass memoize({ store })",
  );
  const cached = new FakeLLM("x");
  const ctx = makeTestCtx({ llm: cached, store: new InMemoryStore(), chatMiddleware: [memoize()] });
  await agent.run("q", ctx);
  await agent.run("q", ctx);
  assertEquals(cached.calls, 1);
});

Deno.test("trap 3: a Budget with no meter() fails with UnmeteredBudget instead of never being charged", async () => {
  const budget = new Budget({ maxCostUsd: "0.10" });
  await assertRejects(
    () => agent.run("go", makeTestCtx({ llm: new FakeLLM("ok"), budget })),
    UnmeteredBudget,
  );
  assertEquals(budget.spent(), "0.000000");
});

Deno.test('trap 4: an unmatched dictionary key still answers "{}" (parseable), or UnmatchedPrompt under strict', async () => {
  const loose = new FakeLLM({ weather: "rain" });
  assertEquals(JSON.parse((await agent.run("typo'd key", makeTestCtx({ llm: loose }))).output), {});
  const strict = new FakeLLM({ weather: "rain" }, { strict: true });
  await assertRejects(() => agent.run("typo'd key", makeTestCtx({ llm: strict })), UnmatchedPrompt);
});

Deno.test("trap 5: complete() reads the script", async () => {
  const llm = FakeLLM.script([{ content: "scripted one" }, { content: "scripted two" }]);
  const chatted = await llm.chat({ messages: [{ role: "user", content: "hi" }], model: "m" });
  const completed = await llm.complete({ system: "s", user: "u", model: "m" });
  assertEquals([chatted.content, completed.content], ["scripted one", "scripted two"]);
});

Deno.test("trap 6: the fake records the tools it was offered", async () => {
  const tool = new FakeTool({ name: "lookup", description: "Look up a host", responder: "x" });
  const llm = new FakeLLM("no tools needed");
  await new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) })
    .run("go", makeTestCtx({ llm }));
  assertEquals(llm.requests[0].tools.map((t) => [t.name, t.description]), [[
    "lookup",
    "Look up a host",
  ]]);
});

Deno.test("trap 7: no llm is NoInvoker naming the missing knob, not an error on undefined", async () => {
  const e = await assertRejects(() => agent.run("go", makeTestCtx()), NoInvoker);
  assert(e.message.includes("makeTestCtx({ llm })"));
});

Deno.test("trap 8: a scripted turn never consumed is reported by using and verify()", async () => {
  const run = async () => {
    using llm = FakeLLM.script(["answer", "a turn the test claims but the run never takes"]);
    await agent.run("go", makeTestCtx({ llm }));
  };
  await assertRejects(run, UnusedTurns, "used only 1");
});
