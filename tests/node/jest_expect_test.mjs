// agentMatchers under Jest's standalone `expect` package (what Jest itself
// uses), driven by node:test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { expect } from "expect";
import { Agent, Budget, meter, ReActCognition } from "@jsr/agentkit__testing/runtime";
import { toolCall } from "@jsr/agentkit__testing/ports";
import { agentMatchers, FakeLLM, FakeTool, makeTestCtx } from "@jsr/agentkit__testing/testing";

expect.extend(agentMatchers);

async function toolRun() {
  const tool = new FakeTool({ name: "lookup_cert", responder: { notAfter: "2026-08-01" } });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("toolu_01", "lookup_cert", { host: "example.com", port: 443 })] },
    { content: "The certificate expired on 2026-08-01." },
  ]);
  const budget = new Budget({ maxCostUsd: "1.00" });
  const agent = new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const ctx = makeTestCtx({ llm, budget, chatMiddleware: [meter()] });
  const result = await agent.run("Why did the deploy fail?", ctx);
  return { llm, budget, result, agent };
}

test("agentMatchers pass and fail under Jest's expect, .not included", async () => {
  const { result, budget, llm } = await toolRun();
  expect(result).toHaveCalledTool("lookup_cert", { host: "example.com", port: 443 });
  expect(result).toHaveCalledTool("lookup_cert", expect.objectContaining({ port: 443 }));
  expect(result).not.toHaveCalledTool("fs_read");
  expect(result).toHaveStopReason("stop");
  expect(budget).toHaveSpent("0.000200");
  expect(llm).toHaveUsedAllTurns();
  expect(result).toHaveTranscriptContaining("assistant: The certificate expired on 2026-08-01.");
  expect(result).toHaveTrajectory([{ name: "lookup_cert", args: expect.objectContaining({ port: 443 }) }]);
  expect(result).not.toHaveTrajectory([{ name: "fs_read" }], { order: "superset" });
});

test("a failure under Jest's expect shows the transcript", async () => {
  const { result } = await toolRun();
  assert.throws(
    () => expect(result).toHaveStopReason("max_iterations"),
    (error) => {
      assert.match(error.message, /stopped for "stop"/);
      assert.match(error.message, /Transcript:\n {2}user: Why did the deploy fail\?/);
      return true;
    },
  );
  assert.throws(() => expect(result).not.toHaveTranscriptContaining("lookup_cert"), /not to contain/);
});

test("a Run is awaited under Jest's expect", async () => {
  const { agent } = await toolRun();
  const run = agent.start("go", makeTestCtx({ llm: FakeLLM.script(["done"]) }));
  await expect(run).toHaveStopReason("stop");
  await assert.rejects(() => expect(run).toHaveTranscriptContaining("nope"), /Transcript:/);
});
