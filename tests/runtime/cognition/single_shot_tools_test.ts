import { assertEquals, assertRejects } from "@std/assert";
import { Agent, UnhandledToolCalls } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const turn = {
  content: "Let me check.",
  toolCalls: [toolCall("c1", "lookup_cert", {}), toolCall("c2", "dns", {})],
};

Deno.test("tool calls on an agent whose cognition runs no tools end the run with UnhandledToolCalls", async () => {
  const agent = new Agent("sre", { model: "fake-model" });
  const error = await assertRejects(
    () => agent.run("why?", makeTestCtx({ llm: FakeLLM.script([turn]) })),
    UnhandledToolCalls,
    "give the agent new ReActCognition({ tools: [...] }) as its cognition",
  );
  assertEquals([error.agent, error.tools], ["sre", ["lookup_cert", "dns"]]);
});

Deno.test("the streamed run shows the events, then fails with UnhandledToolCalls", async () => {
  const run = new Agent("sre", { model: "fake-model" }).start(
    "why?",
    makeTestCtx({ llm: FakeLLM.script([turn]) }),
  );
  await assertRejects(() => run.result, UnhandledToolCalls);
});

Deno.test("a length-cut turn with half-written tool calls still ends as a length cut", async () => {
  const llm = FakeLLM.script([{ ...turn, finishReason: "length", error: "max tokens" }]);
  const result = await new Agent("sre", { model: "fake-model" }).run("why?", makeTestCtx({ llm }));
  assertEquals(result.stopReason, "length");
});
