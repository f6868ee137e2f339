// Tenant isolation, seam by seam: org7 never reads what org8 wrote.
import { assertEquals, assertRejects } from "@std/assert";
import {
  Agent,
  idempotent,
  InMemoryCheckpointStore,
  InMemoryStore,
  InMemoryVector,
  memoize,
  meter,
  Quota,
  QuotaExceeded,
  ReActCognition,
  semanticMemoize,
} from "@agentkit/testing/runtime";
import { Scope, toolCall } from "@agentkit/testing/ports";
import {
  FakeEmbedder,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  type TestCtxOptions,
} from "@agentkit/testing/testing";

const org7 = new Scope({ orgId: 7 });
const org8 = new Scope({ orgId: 8 });
// A model whose every answer is different, so a leaked cached answer shows.
const numbered = () => {
  let n = 0;
  return new FakeLLM(() => `answer ${++n}`);
};
const agent = new Agent("a", { model: "fake-model" });
const as = (scope: Scope, options: TestCtxOptions) => makeTestCtx({ ...options, scope });

Deno.test("InMemoryStore: org7 never reads or deletes what org8 wrote", async () => {
  const store = new InMemoryStore();
  await store.set(org8, "secret", "org8's");
  assertEquals(await store.get(org7, "secret"), undefined);
  assertEquals(await store.delete(org7, "secret"), false);
  assertEquals(await store.get(org8, "secret"), "org8's");
});

Deno.test("InMemoryVector: org7 never finds or deletes what org8 indexed", async () => {
  const vector = new InMemoryVector({ embedder: new FakeEmbedder() });
  await vector.upsert(org8, "doc", "org8 quarterly revenue numbers", { owner: 8 });
  assertEquals(await vector.query(org7, "org8 quarterly revenue numbers"), []);
  assertEquals(await vector.delete(org7, "doc"), false);
  assertEquals((await vector.query(org8, "quarterly revenue"))[0].payload, { owner: 8 });
});

Deno.test("InMemoryCheckpointStore: org7 never loads or lists org8's runs", async () => {
  const checkpoints = new InMemoryCheckpointStore();
  await checkpoints.save(org8, "run-1", { step: 4 });
  assertEquals(await checkpoints.load(org7, "run-1"), undefined);
  assertEquals(await checkpoints.list(org7), []);
  assertEquals(await checkpoints.list(org8), ["run-1"]);
});

Deno.test("memoize() never serves org8's cached answer to org7", async () => {
  const llm = numbered();
  const store = new InMemoryStore();
  const options = { llm, store, chatMiddleware: [memoize()] };
  assertEquals((await agent.run("same question", as(org8, options))).output, "answer 1");
  assertEquals((await agent.run("same question", as(org8, options))).output, "answer 1"); // cached
  assertEquals((await agent.run("same question", as(org7, options))).output, "answer 2");
  assertEquals((await agent.run("same question", as(org7, options))).output, "answer 2"); // its own
  assertEquals(llm.calls, 2);
});

Deno.test("idempotent() runs the same call id once per tenant and replays only the tenant's own result", async () => {
  const charge = new FakeTool({
    name: "charge",
    responder: (_: unknown) => `charged ${charge.calls.length}`,
  });
  const turns = [{ toolCalls: [toolCall("pay-1", "charge", { cents: 500 })] }, "done"];
  const llm = FakeLLM.script([...turns, ...turns, ...turns]);
  const store = new InMemoryStore();
  const payer = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [charge] }),
  });
  const options = { llm, store, toolMiddleware: [idempotent()] };
  await payer.run("pay", as(org8, options));
  await payer.run("pay", as(org7, options));
  await payer.run("pay", as(org8, options)); // a replay in org8: served from org8's record
  assertEquals(charge.calls.length, 2);
  const toolResults = llm.requests.filter((r) => r.messages.at(-1)?.role === "tool")
    .map((r) => r.messages.at(-1)?.content);
  assertEquals(toolResults, ["charged 1", "charged 2", "charged 1"]);
});

Deno.test("semanticMemoize() never serves org8's cached answer to org7", async () => {
  const llm = numbered();
  const vector = new InMemoryVector({ embedder: new FakeEmbedder() });
  const options = { llm, vector, chatMiddleware: [semanticMemoize()] };
  assertEquals((await agent.run("What is our Q3 revenue?", as(org8, options))).output, "answer 1");
  assertEquals((await agent.run("what is our Q3 revenue", as(org8, options))).output, "answer 1");
  assertEquals((await agent.run("What is our Q3 revenue?", as(org7, options))).output, "answer 2");
  assertEquals(llm.calls, 2);
});

Deno.test("Quota charges org7 and org8 to separate accounts", async () => {
  const quota = new Quota({ maxCalls: 1 });
  const llm = new FakeLLM("ok");
  const options = { llm, meters: [quota], chatMiddleware: [meter()] };
  await agent.run("go", as(org8, options));
  await assertRejects(() => agent.run("go", as(org8, options)), QuotaExceeded, "org8:dom0");
  await agent.run("go", as(org7, options)); // org8's usage is not org7's
  assertEquals([quota.used(org7).calls, quota.used(org8).calls, llm.calls], [1, 1, 2]);
});
