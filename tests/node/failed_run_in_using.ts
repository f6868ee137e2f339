// A node:test file that fails as a user's would: its run fails inside the
// `using` scope of a FakeLLM script with a turn left. failed_run_test.mjs
// compiles it with tsc (which lowers `using` for Node 20 and 22) and reads
// what `node --test` prints for it.
import { test } from "node:test";
import { Agent, FakeLLM, makeTestCtx } from "@agentkit/testing";

test("the analyst explains the failed deploy", async () => {
  using llm = FakeLLM.script(["The cert expired.", "A second answer the run never asks for."]);
  const guard = {
    name: "guard",
    afterRun: (): void => {
      throw new Error("the guard rejects the answer");
    },
  };
  const agent = new Agent("analyst", { model: "fake-model", hooks: { afterRun: [guard] } });
  await agent.run("Why did the deploy fail?", makeTestCtx({ llm }));
});
