// agentMatchers under Vitest, and transcript() pinned with toMatchSnapshot.
// Typed through the declaration merge a user writes once: the one in
// docs_agent.spec.ts, docs/testing.md's Vitest file as scripts/test_node.ts
// writes it for this project's Vitest major (Matchers<R, T> on Vitest 5,
// Assertion<T> on 3), which tsconfig.vitest.json checks together with this.
import { expect, test } from "vitest";
import { Agent, Budget, meter, ReActCognition } from "@jsr/agentkit__testing/runtime";
import { toolCall } from "@jsr/agentkit__testing/ports";
import {
  agentMatchers,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  transcript,
} from "@jsr/agentkit__testing/testing";

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
  return { tool, llm, budget, result, agent };
}

test("toHaveCalledTool matches by name, exact args, or expect.objectContaining", async () => {
  const { result, tool } = await toolRun();
  expect(result).toHaveCalledTool("lookup_cert");
  expect(result).toHaveCalledTool("lookup_cert", { host: "example.com", port: 443 });
  expect(result).toHaveCalledTool("lookup_cert", expect.objectContaining({ host: "example.com" }));
  expect(result).not.toHaveCalledTool("lookup_cert", { host: "example.com" });
  expect(result).not.toHaveCalledTool("fs_read");
  expect(tool).toHaveCalledTool("lookup_cert", { host: "example.com", port: 443 });
});

test("a failing matcher's message shows the transcript", async () => {
  const { result } = await toolRun();
  expect(() => expect(result).toHaveCalledTool("fs_read")).toThrow(
    /fs_read was never called[\s\S]*Transcript:\n  user: Why did the deploy fail\?/,
  );
  expect(() => expect(result).not.toHaveStopReason("stop")).toThrow(
    'Expected the run not to stop for "stop", but it did.',
  );
});

test("toHaveStopReason, toHaveSpent, toHaveUsedAllTurns, toHaveTranscriptContaining", async () => {
  const { result, budget, llm } = await toolRun();
  expect(result).toHaveStopReason("stop");
  expect(budget).toHaveSpent("0.000200");
  expect(budget).toHaveSpent(0.0002);
  expect(budget).not.toHaveSpent("0.0001");
  expect(llm).toHaveUsedAllTurns();
  expect(FakeLLM.script(["a"], { allowUnused: true })).not.toHaveUsedAllTurns();
  expect(result).toHaveTranscriptContaining('tool lookup_cert [call_1]: {"notAfter":"2026-08-01"}');
});

test("toHaveTrajectory compares the tool calls, with a diff on failure", async () => {
  const { result, tool } = await toolRun();
  expect(result).toHaveTrajectory([{ name: "lookup_cert", args: { host: "example.com", port: 443 } }]);
  expect(result).toHaveTrajectory([{ name: "lookup_cert", args: { host: "example.com" } }], {
    order: "unordered",
    args: "subset",
  });
  expect(tool).toHaveTrajectory([{ name: "lookup_cert" }], { order: "superset", args: "ignore" });
  expect(result).not.toHaveTrajectory([{ name: "fs_read" }]);
  expect(() => expect(result).toHaveTrajectory([{ name: "fs_read" }])).toThrow(
    /1 expected call was not made[\s\S]*- fs_read \(any args\)\n\+ lookup_cert/,
  );
});

test("given a Run, the matchers are awaited", async () => {
  const { agent } = await toolRun();
  const llm = FakeLLM.script([{ content: "cut", finishReason: "length" }]);
  const run = agent.start("go", makeTestCtx({ llm }));
  await expect(run).toHaveStopReason("length");
  await expect(run).toHaveTranscriptContaining("assistant: cut");
});

test("transcript() pins a run with toMatchSnapshot", async () => {
  const { result } = await toolRun();
  expect(transcript(result)).toMatchSnapshot();
});
