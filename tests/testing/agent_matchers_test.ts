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
