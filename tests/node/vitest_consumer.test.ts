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
