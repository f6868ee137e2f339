// One Vitest test in the consumer project, since most Node users test with
// Vitest: the scripted tool loop, with Vitest's own expect.
import { expect, test } from "vitest";
import { Agent, ReActCognition } from "@jsr/agentkit__testing/runtime";
import { toolCall } from "@jsr/agentkit__testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@jsr/agentkit__testing/testing";

test("a scripted ReAct loop runs under Vitest", async () => {
  const tool = new FakeTool({ name: "lookup", responder: "42" });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup", { key: "answer" })] },
    { content: "It is 42." },
  ]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("What is the answer?", makeTestCtx({ llm }));
  expect(result.output).toBe("It is 42.");
  expect(tool.calls).toEqual([{ key: "answer" }]);
  expect(llm.calls).toBe(2);
});

// A run that fails inside `using` (which Vitest's transform lowers on Node
// 20 and 22): the run's error leaves the scope, not a SuppressedError, with
// the script's unused turn on it.
test("a run that fails inside using: the run's error, with the unused turns on it", async () => {
  const guard = {
    name: "guard",
    afterRun: () => {
      throw new Error("the guard rejects the answer");
    },
  };
  const agent = new Agent("a", { model: "fake-model", hooks: { afterRun: [guard] } });
  const failing = async () => {
    using llm = FakeLLM.script(["one", "two"]);
    await agent.run("hi", makeTestCtx({ llm }));
  };
  const error = await failing().then(() => undefined, (e: unknown) => e as Error);
  expect(error?.name).toBe("HookFailed");
  expect(error?.message).toMatch(/^The afterRun hook "guard" threw: the guard rejects the answer;/);
  expect(error?.message).toContain(
    "The scripted double's dispose found, after this failure: UnusedTurns: FakeLLM.script has 2 turn(s), but the run used only 1",
  );
});
