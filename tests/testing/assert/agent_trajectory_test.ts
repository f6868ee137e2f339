import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  agentMatchers,
  AssertionError,
  assertTrajectory,
  drainEvents,
  FakeLLM,
  FakeTool,
  makeTestCtx,
} from "@agentkit/testing/testing";

function setup() {
  const search = new FakeTool({ name: "search", responder: "found" });
  const fetch = new FakeTool({ name: "fetch", responder: "<html>" });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "search", { q: "deno" })] },
    { toolCalls: [toolCall("c2", "fetch", { url: "https://deno.com" })] },
    "Done.",
  ]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [search, fetch] }),
  });
  return { search, fetch, llm, agent, ctx: makeTestCtx({ llm }) };
}

const trajectory = [
  { name: "search", args: { q: "deno" } },
  { name: "fetch", args: { url: "https://deno.com" } },
];

Deno.test("assertTrajectory reads a result, a FakeLLM's requests, a FakeTool and events", async () => {
  const { agent, ctx, llm, search } = setup();
  const run = agent.start("find", ctx);
  const events = await drainEvents(run);
  const result = await run.result;
  assertEquals(assertTrajectory(result, trajectory), undefined);
  assertTrajectory(result.messages, trajectory);
  assertTrajectory(events, trajectory);
  assertTrajectory(llm, trajectory);
  assertTrajectory(search, [{ name: "search", args: { q: "deno" } }]);
  assertThrows(
    () => assertTrajectory(search, trajectory),
    AssertionError,
    "1 expected call was not made",
  );
});

Deno.test("assertTrajectory awaits a Run, and a failed run fails it", async () => {
  const { agent, ctx } = setup();
  const run = agent.start("find", ctx);
  const pending = assertTrajectory(run, trajectory);
  assert(pending instanceof Promise);
  await pending;
  await assertRejects(
    () => assertTrajectory(run, [trajectory[1]]),
    AssertionError,
    "1 call was not expected",
  );
  const broken = new Agent("b", { model: "fake-model" }).start(
    "x",
    makeTestCtx({ llm: FakeLLM.script([{ error: new Error("provider down") }]) }),
  );
  await assertRejects(
    () => assertTrajectory(broken, []),
    AssertionError,
    "Expected a finished run, but it failed.",
  );
});

Deno.test("a misuse throws at the call, before a Run is awaited", () => {
  const { agent, ctx } = setup();
  const run = agent.start("find", ctx);
  assertThrows(
    () => assertTrajectory(run, "search" as never),
    TypeError,
    "assertTrajectory() needs the expected trajectory",
  );
  assertThrows(
    () => assertTrajectory(run, [], { order: "any" } as never),
    TypeError,
    'option "order"',
  );
  assertThrows(
    () => agentMatchers.toHaveTrajectory.call({}, run, [{ nme: "x" }] as never),
    TypeError,
    'toHaveTrajectory(): expected[0] has an unknown key "nme"; did you mean "name"?',
  );
  return run.result.then(() => undefined);
});

Deno.test("toHaveTrajectory passes, fails with the diff, and reads either way round", async () => {
  const { agent, ctx } = setup();
  const result = await agent.run("find", ctx);
  const ok = await agentMatchers.toHaveTrajectory.call({}, result, trajectory);
  assert(ok.pass);
  const negated = await agentMatchers.toHaveTrajectory.call({ isNot: true }, result, trajectory, {
    order: "unordered",
  });
  assert(negated.pass);
  assertEquals(
    negated.message(),
    'Expected the tool calls not to follow the trajectory (order "unordered", args "exact"), but they do.\n\n' +
      'Trajectory ("  " matched, "- " expected but not made, "+ " made but not expected):\n' +
      '  search {"q":"deno"}\n' +
      '  fetch {"url":"https://deno.com"}',
  );
  for (const ctx of [{}, { isNot: false }]) {
    const bad = await agentMatchers.toHaveTrajectory.call(ctx, result, [...trajectory].reverse());
    assertEquals(bad.pass, false);
    assertStringIncludes(
      bad.message(),
      'to follow the trajectory (order "strict", args "exact"), but the same calls were made in another order.',
    );
  }
  const sub = await agentMatchers.toHaveTrajectory.call({}, result, [{ name: "search" }], {
    order: "superset",
    args: "ignore",
  });
  assert(sub.pass);
});

Deno.test("toHaveTrajectory uses the framework's equality, on a Run a promise", async () => {
  const { agent, ctx } = setup();
  const run = agent.start("find", ctx);
  const seen: unknown[] = [];
  const equals = (actual: unknown, expected: unknown) => {
    seen.push([actual, expected]);
    return true;
  };
  const pending = agentMatchers.toHaveTrajectory.call({ equals }, run, [{
    name: "search",
    args: { q: "x" },
  }, { name: "fetch" }]);
  assert(pending instanceof Promise);
  assert((await pending).pass);
  assertEquals(seen, [[{ q: "deno" }, { q: "x" }]]);
  const subset = await agentMatchers.toHaveTrajectory.call({ equals: () => false }, run, [{
    name: "search",
    args: { q: "deno" },
  }], {
    order: "superset",
    args: "subset",
  });
  assertEquals(subset.pass, false);
});
