import { assertEquals, assertRejects } from "@std/assert";
import {
  Agent,
  idempotent,
  InMemoryStore,
  MisconfiguredMiddleware,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { Scope, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const turns = [{ toolCalls: [toolCall("pay-1", "charge", { cents: 500 })] }, { content: "done" }];

Deno.test("idempotent() runs a tool call once per call id; a replay gets the stored result", async () => {
  const charge = new FakeTool({
    name: "charge",
    responder: (a: { cents: number }) => `charged ${a.cents}`,
  });
  const llm = FakeLLM.script([...turns, ...turns]);
  const ctx = makeTestCtx({ llm, store: new InMemoryStore(), toolMiddleware: [idempotent()] });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [charge] }),
  });
  await agent.run("pay", ctx);
  const second = await agent.run("pay", ctx);
  assertEquals(charge.calls.length, 1);
  assertEquals(second.messages.find((m) => m.role === "tool")?.content, "charged 500");
});

Deno.test("idempotent() is partitioned by tenant", async () => {
  const charge = new FakeTool({ name: "charge", responder: "ok" });
  const store = new InMemoryStore();
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [charge] }),
  });
  for (const orgId of [7, 8]) {
    const ctx = makeTestCtx({
      llm: FakeLLM.script(turns),
      store,
      scope: new Scope({ orgId }),
      toolMiddleware: [idempotent()],
    });
    await agent.run("pay", ctx);
  }
  assertEquals(charge.calls.length, 2);
});

Deno.test("idempotent() without a store fails loudly rather than running the tool unguarded", async () => {
  const charge = new FakeTool({ name: "charge", responder: "ok" });
  const ctx = makeTestCtx({
    llm: FakeLLM.script(turns, { allowUnused: true }),
    toolMiddleware: [idempotent()],
  });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [charge] }),
  });
  await assertRejects(
    () => agent.run("pay", ctx),
    MisconfiguredMiddleware,
    "Cannot idempotent without a store",
  );
  assertEquals(charge.calls.length, 0);
});
