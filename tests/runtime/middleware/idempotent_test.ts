import { assertEquals, assertRejects, assertThrows } from "@std/assert";
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

Deno.test("idempotent(): separate call ids run separately; a key function and an own store replace the defaults", async () => {
  const charge = new FakeTool({
    name: "charge",
    responder: (a: { cents: number }) => `charged ${a.cents}`,
  });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [charge] }),
  });
  const pay = (id: string, cents: number) => [
    { toolCalls: [toolCall(id, "charge", { cents })] },
    { content: "done" },
  ];
  const ctx = makeTestCtx({
    llm: FakeLLM.script([...pay("pay-1", 100), ...pay("pay-2", 200)]),
    store: new InMemoryStore(),
    toolMiddleware: [idempotent()],
  });
  await agent.run("pay", ctx);
  const second = await agent.run("pay", ctx);
  assertEquals(charge.calls.length, 2);
  assertEquals(second.messages.find((m) => m.role === "tool")?.content, "charged 200");
  // Keyed by the amount instead of the call id, in a store of its own.
  const own = new InMemoryStore();
  const byAmount = makeTestCtx({
    llm: FakeLLM.script([...pay("pay-3", 300), ...pay("pay-4", 300)]),
    toolMiddleware: [idempotent({ store: own, key: (inv) => String(inv.args.cents) })],
  });
  await agent.run("pay", byAmount);
  await agent.run("pay", byAmount);
  assertEquals([charge.calls.length, own.size], [3, 1]);
});

Deno.test("idempotent() is named, and checks its options when built", () => {
  assertEquals(idempotent().name, "idempotent");
  assertThrows(
    () => idempotent({ stor: new InMemoryStore() } as never),
    TypeError,
    'idempotent(): unknown option "stor"',
  );
  assertThrows(() => idempotent({ key: "id" } as never), TypeError, "idempotent()");
});
