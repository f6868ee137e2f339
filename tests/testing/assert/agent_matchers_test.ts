import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { Agent, Budget } from "@agentkit/testing/runtime";
import { agentMatchers, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const agent = new Agent("a", { model: "fake-model" });

Deno.test("agentMatchers explain a failure either way round, as .not reads it", async () => {
  const result = await agent.run("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
  const plain = await agentMatchers.toHaveStopReason.call({ isNot: false }, result, "stop");
  assert(plain.pass);
  const negated = await agentMatchers.toHaveStopReason.call({ isNot: true }, result, "stop");
  assertStringIncludes(negated.message(), 'Expected the run not to stop for "stop", but it did.');
  assertStringIncludes(negated.message(), "Transcript:\n  user: hi\n  assistant: hello");
});

Deno.test("agentMatchers use the framework's equality for tool args when it offers one", async () => {
  const result = {
    output: "",
    usage: { inputTokens: 0, outputTokens: 0 },
    stopReason: "stop" as const,
    messages: [{
      role: "assistant" as const,
      content: "",
      toolCalls: [{ id: "c", name: "t", args: { a: 1, b: 2 } }],
    }],
  };
  const seen: unknown[] = [];
  const equals = (actual: unknown, expected: unknown) => {
    seen.push([actual, expected]);
    return true;
  };
  const r = await agentMatchers.toHaveCalledTool.call({ equals }, result, "t", { a: 1 });
  assert(r.pass);
  assertEquals(seen, [[{ a: 1, b: 2 }, { a: 1 }]]);
  const noArgs = await agentMatchers.toHaveCalledTool.call({}, result, "t");
  assert(noArgs.pass);
});

Deno.test("agentMatchers call the host's equals with its this, as Bun's expect.extend needs", async () => {
  // Bun's ExpectMatcherContext.equals throws "Expected this to be instanceof
  // ExpectMatcherContext" when called without its context.
  class BunLikeContext {
    readonly isNot = false;
    readonly calls: unknown[] = [];
    equals(actual: unknown, expected: unknown): boolean {
      if (!(this instanceof BunLikeContext)) {
        throw new TypeError("Expected this to be instanceof ExpectMatcherContext");
      }
      this.calls.push([actual, expected]);
      return JSON.stringify(actual) === JSON.stringify(expected);
    }
  }
  const result = {
    output: "",
    usage: { inputTokens: 0, outputTokens: 0 },
    stopReason: "stop" as const,
    messages: [{
      role: "assistant" as const,
      content: "",
      toolCalls: [{ id: "c", name: "t", args: { a: 1 } }],
    }],
  };
  const ctx = new BunLikeContext();
  assert((await agentMatchers.toHaveCalledTool.call(ctx, result, "t", { a: 1 })).pass);
  assert(!(await agentMatchers.toHaveCalledTool.call(ctx, result, "t", { a: 2 })).pass);
  assert(
    (await agentMatchers.toHaveTrajectory.call(ctx, result, [{ name: "t", args: { a: 1 } }])).pass,
  );
  assert(ctx.calls.length >= 3);
});

Deno.test("agentMatchers on a Run return a promise; the others answer at once", async () => {
  const run = agent.start("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
  const pending = agentMatchers.toHaveTranscriptContaining.call({}, run, "assistant: hello");
  assert(pending instanceof Promise);
  assert((await pending).pass);
  const budget = new Budget();
  assertEquals(agentMatchers.toHaveSpent.call({}, budget, 0).pass, true);
  assertThrows(
    () => agentMatchers.toHaveUsedAllTurns.call({}, budget),
    TypeError,
    "toHaveUsedAllTurns needs",
  );
});

Deno.test("agentMatchers read a failure the plain way unless .not says otherwise", async () => {
  const result = await agent.run("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
  for (const ctx of [{}, { isNot: false }]) {
    const r = await agentMatchers.toHaveStopReason.call(ctx, result, "length");
    assertEquals(r.pass, false);
    assertStringIncludes(
      r.message(),
      'Expected the run to stop for "length", but it stopped for "stop".',
    );
  }
});

Deno.test("agentMatchers on a Run settle it first, for each check that reads a result", async () => {
  const run = agent.start("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
  const stopped = agentMatchers.toHaveStopReason.call({}, run, "stop");
  const called = agentMatchers.toHaveCalledTool.call({}, run, "t");
  assert(stopped instanceof Promise && called instanceof Promise);
  assertEquals([(await stopped).pass, (await called).pass], [true, false]);
});

Deno.test("agentMatchers answer a transcript check at once for what is not a Run", () => {
  const messages = [{ role: "user" as const, content: "hi" }];
  const r = agentMatchers.toHaveTranscriptContaining.call({}, messages, "user: hi");
  if (r instanceof Promise) throw new Error("a Promise for messages");
  assert(r.pass);
});

Deno.test("agentMatchers name the matcher when misused", async () => {
  assertThrows(
    () => agentMatchers.toHaveCalledTool.call({}, null, "t"),
    TypeError,
    "toHaveCalledTool needs an AgentResult",
  );
  const result = await agent.run("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
  assertThrows(
    () => agentMatchers.toHaveStopReason.call({}, result, "done" as never),
    TypeError,
    "toHaveStopReason needs one of",
  );
  assertThrows(
    () => agentMatchers.toHaveSpent.call({}, null, 0),
    TypeError,
    "toHaveSpent needs a Budget",
  );
  assertThrows(
    () => agentMatchers.toHaveTranscriptContaining.call({}, 5, "x"),
    TypeError,
    "toHaveTranscriptContaining: Cannot make a transcript of number",
  );
  const run = agent.start("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
  assertThrows(
    () => agentMatchers.toHaveTranscriptContaining.call({}, run, 5 as never),
    TypeError,
    "toHaveTranscriptContaining needs the text to look for, got number",
  );
  await run.result;
});
