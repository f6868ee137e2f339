import { assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import { Agent, ReActCognition, retry } from "@agentkit/testing/runtime";
import { RateLimitError, toolCall } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

// Lets every pending microtask run, so the code under test reaches its wait.
async function settle(): Promise<void> {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

const sre = (tool: FakeTool) =>
  new Agent("sre", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });

Deno.test("makeTestCtx({ signal }): aborting cancels the model call in flight (delayMs on a FakeClock)", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  const llm = new FakeLLM("too late", { delayMs: 5_000 });
  const ctx = makeTestCtx({ llm, clock, signal: controller.signal });
  const run = new Agent("a", { model: "fake-model" }).run("go", ctx);
  await settle();
  assertEquals([llm.calls, clock.pending], [1, 1]); // waiting in the model's delay
  const reason = new Error("user pressed stop");
  controller.abort(reason);
  const error = await assertRejects(() => run);
  assertStrictEquals(error, reason);
  assertEquals(clock.now(), 0); // promptly: no virtual time had to pass
  assertEquals(clock.pending, 0); // the delay's timer was dropped
  assertEquals(llm.cancelled, ["fake-chat-1"]);
  clock.advance(60_000);
  await settle();
  assertEquals(llm.calls, 1);
});

Deno.test("makeTestCtx({ signal }): aborting cancels a tool call in flight and nothing runs after it", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  let sawAbort = false;
  const tool = new FakeTool({
    name: "slow_scan",
    responder: async (_args: unknown, ctx: { clock: FakeClock; signal: AbortSignal }) => {
      try {
        await ctx.clock.sleep(30_000, ctx.signal);
      } finally {
        sawAbort = ctx.signal.aborted;
      }
      return "scanned";
    },
  });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "slow_scan", {}), toolCall("c2", "slow_scan", {})] },
    "never asked",
  ], { allowUnused: true });
  const run = sre(tool).run("scan", makeTestCtx({ llm, clock, signal: controller.signal }));
  await settle();
  assertEquals([llm.calls, tool.calls.length], [1, 1]);
  const reason = new Error("cancelled");
  controller.abort(reason);
  assertStrictEquals(await assertRejects(() => run), reason);
  assertEquals(sawAbort, true);
  clock.advance(60_000);
  await settle();
  assertEquals([llm.calls, tool.calls.length], [1, 1]); // no second tool call, no second model call
});

Deno.test("makeTestCtx({ signal }): aborting cancels a tool that ignores the signal", async () => {
  const controller = new AbortController();
  const never = new Promise<never>(() => {});
  const tool = new FakeTool({ name: "stuck", responder: () => never });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "stuck", {})] }, "never asked"], {
    allowUnused: true,
  });
  const run = sre(tool).run("go", makeTestCtx({ llm, signal: controller.signal }));
  await settle();
  const reason = new Error("cancelled");
  controller.abort(reason);
  assertStrictEquals(await assertRejects(() => run), reason);
  assertEquals([llm.calls, tool.calls.length], [1, 1]);
});

Deno.test("makeTestCtx({ signal }): aborting cancels a clock sleep", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  const ctx = makeTestCtx({ clock, signal: controller.signal });
  const sleeping = ctx.clock.sleep(10_000, ctx.signal);
  assertEquals(clock.pending, 1);
  const reason = new Error("stop");
  controller.abort(reason);
  assertStrictEquals(await assertRejects(() => sleeping), reason);
  assertEquals([clock.now(), clock.pending], [0, 0]);
});

Deno.test("makeTestCtx({ signal }): aborting cancels a retry backoff and no attempt follows", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  const llm = new FakeLLM("recovered", { failTimes: 1, failWith: new RateLimitError("slow down") });
  const ctx = makeTestCtx({
    llm,
    clock,
    signal: controller.signal,
    chatMiddleware: [retry({ maxAttempts: 3, backoff: () => 10_000 })],
  });
  const run = new Agent("a", { model: "fake-model" }).run("go", ctx);
  await settle();
  assertEquals([llm.calls, clock.sleeps, clock.pending], [1, [10_000], 1]); // in the backoff
  const reason = new Error("stop");
  controller.abort(reason);
  assertStrictEquals(await assertRejects(() => run), reason);
  assertEquals(clock.now(), 0);
  clock.advance(60_000);
  await settle();
  assertEquals(llm.calls, 1);
});

Deno.test("RunContext.checkCancelled() throws the abort reason once aborted, and not before", () => {
  const controller = new AbortController();
  const ctx = makeTestCtx({ signal: controller.signal });
  ctx.checkCancelled();
  const reason = new Error("stop");
  controller.abort(reason);
  assertStrictEquals(assertThrows(() => ctx.checkCancelled()), reason);
});

Deno.test("Agent.run() on an already-aborted signal calls nothing", async () => {
  const controller = new AbortController();
  controller.abort(new Error("before start"));
  const llm = new FakeLLM("x");
  await assertRejects(
    () =>
      new Agent("a", { model: "fake-model" }).run(
        "go",
        makeTestCtx({ llm, signal: controller.signal }),
      ),
    Error,
    "before start",
  );
  assertEquals(llm.calls, 0);
});
