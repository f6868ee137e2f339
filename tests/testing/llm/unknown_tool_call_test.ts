import { assert, assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { Agent, CollectingObserver, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  FakeLLM,
  FakeTool,
  makeTestCtx,
  transcript,
  UnknownToolCall,
} from "@agentkit/testing/testing";

function setup(options: { strictTools?: boolean } = {}) {
  const lookup = new FakeTool({ name: "lookup", responder: "42" });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "fs_read", { path: "a" }), toolCall("c2", "lookup", {})] },
    "done",
  ], { ...options, allowUnused: true });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [lookup] }),
  });
  return { lookup, llm, agent };
}

Deno.test("a scripted call to a tool the agent was not given is recorded and observed on the run", async () => {
  const { llm, agent, lookup } = setup();
  const observer = new CollectingObserver();
  const result = await agent.run("go", makeTestCtx({ llm, observer }));
  assertEquals(result.output, "done");
  assertEquals(lookup.calls.length, 1);
  assertEquals(llm.unknownToolCalls.length, 1);
  const [unknown] = llm.unknownToolCalls;
  assert(unknown instanceof UnknownToolCall);
  assertEquals(
    [unknown.turn, unknown.callId, unknown.toolName, unknown.args, unknown.offered],
    [1, "c1", "fs_read", { path: "a" }, ["lookup"]],
  );
  const observed = observer.items.filter((o) => o.kind === "unknown_tool_call");
  assertEquals(observed.length, 1);
  assertStringIncludes(
    observed[0].text,
    'turn 1 calls tool "fs_read" (call c1), but the request offered "lookup"',
  );
  assertStringIncludes(
    transcript(llm),
    "unknown tool call in request 1: fs_read [call_1] (offered: lookup)",
  );
  llm.verify(); // recorded, not a harness error
});

Deno.test("strictTools: true makes it a harness error that escapes the tool loop", async () => {
  const { llm, agent, lookup } = setup({ strictTools: true });
  const error = await assertRejects(
    () => agent.run("go", makeTestCtx({ llm })),
    UnknownToolCall,
    "give the agent the tool (new ReActCognition({ tools: [...] })) or fix the script",
  );
  assertEquals(error.toolName, "fs_read");
  assertEquals(lookup.calls.length, 0);
  assertEquals(llm.harnessErrors, [error]);
});

Deno.test("strictTools checks the streamed path too", async () => {
  const { llm, agent } = setup({ strictTools: true });
  const run = agent.start("go", makeTestCtx({ llm }));
  await assertRejects(() => run.result, UnknownToolCall);
});
