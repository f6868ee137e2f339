import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  type ChatMiddleware,
  Invoker,
  NullCtx,
  RunContext,
  Services,
} from "@agentkit/testing/runtime";
import { Scope } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

Deno.test("Agent.run() composes system prompt, earlier context and the task, and returns an AgentResult", async () => {
  const llm = new FakeLLM("answer");
  const agent = new Agent("analyst", { model: "fake-model", system: "Be brief." });
  const context = [{ role: "user" as const, content: "earlier" }, {
    role: "assistant" as const,
    content: "reply",
  }];
  const r = await agent.run("now", makeTestCtx({ llm }), { context });
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Be brief." },
    ...context,
    { role: "user", content: "now" },
  ]);
  assertEquals(r.messages.at(-1), { role: "assistant", content: "answer", toolCalls: undefined });
  assertEquals([r.output, r.stopReason, r.usage], ["answer", "stop", {
    inputTokens: 10,
    outputTokens: 0,
  }]);
});

Deno.test("Agent.run() maps a length finish to stopReason length", async () => {
  const llm = FakeLLM.script([{ content: "cut", finishReason: "length" }]);
  assertEquals(
    (await new Agent("a", { model: "m" }).run("go", makeTestCtx({ llm }))).stopReason,
    "length",
  );
});

Deno.test("Agent rejects a missing model and a non-string task clearly", async () => {
  assertThrows(
    () => new Agent("a", {} as never),
    TypeError,
    'new Agent("a", { model: "fake-model" })',
  );
  assertThrows(
    () => new Agent("a", { model: "m", sytem: "Be brief." } as never),
    TypeError,
    'unknown option "sytem"; did you mean "system"?',
  );
  await assertRejects(
    () => new Agent("a", { model: "m" }).run(42 as never, makeTestCtx()),
    TypeError,
    "must be a string",
  );
});

Deno.test("Agent.run() checks cancellation before calling the model", async () => {
  const llm = new FakeLLM("x");
  const controller = new AbortController();
  controller.abort(new Error("user cancelled"));
  await assertRejects(
    () => new Agent("a", { model: "m" }).run("go", makeTestCtx({ llm, signal: controller.signal })),
    Error,
    "user cancelled",
  );
  assertEquals(llm.calls, 0);
});

Deno.test("Invoker runs chat middleware outermost first, around the model call", async () => {
  const order: string[] = [];
  const mw = (name: string): ChatMiddleware => ({
    name,
    async chat(req, ctx, next) {
      order.push(`${name}>`);
      const res = await next(req, ctx);
      order.push(`<${name}`);
      return res;
    },
  });
  const llm = new FakeLLM(() => (order.push("llm"), "ok"));
  await new Agent("a", { model: "m" }).run(
    "go",
    makeTestCtx({ llm, chatMiddleware: [mw("outer"), mw("inner")] }),
  );
  assertEquals(order, ["outer>", "inner>", "llm", "<inner", "<outer"]);
});

Deno.test("Invoker rejects a middleware factory passed uncalled", () => {
  assertThrows(
    () => new Invoker({ llm: new FakeLLM("x"), chatMiddleware: [(() => {}) as never] }),
    TypeError,
    "retry()",
  );
});

Deno.test("RunContext.emit() stamps observations with the clock's time; checkCancelled() throws once aborted", async () => {
  const seen: unknown[] = [];
  const controller = new AbortController();
  const ctx = makeTestCtx({
    observer: { emit: (o) => void seen.push(o), close() {} },
    signal: controller.signal,
  });
  await ctx.emit("step", "planning", { agent: "a", payload: { n: 1 } });
  assertEquals(seen, [{ kind: "step", text: "planning", agent: "a", payload: { n: 1 }, at: 0 }]);
  ctx.checkCancelled();
  controller.abort(new Error("stop"));
  assertThrows(() => ctx.checkCancelled(), Error, "stop");
});

Deno.test("RunContext.with() replaces fields and shares the rest", () => {
  const ctx = new RunContext({ services: new Services(), correlationId: "r1" });
  const other = ctx.with({ scope: new Scope({ orgId: 9 }) });
  assertEquals([other.scope.key(), other.correlationId, other.services === ctx.services], [
    "org9:dom0",
    "r1",
    true,
  ]);
  assertThrows(() => new RunContext({ autonomy: "yolo" as never }), TypeError, "autonomy");
});

Deno.test("new Services() is fully usable with no arguments", async () => {
  const ctx = new RunContext();
  ctx.trace.span("s", "internal").end();
  await ctx.emit("k", "t");
  await ctx.clock.sleep(0);
  assert(ctx.correlationId.startsWith("run-"));
  await new NullCtx().emit("k", "t");
});
