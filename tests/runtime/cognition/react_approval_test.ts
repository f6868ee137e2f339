import { assert, assertEquals, assertRejects } from "@std/assert";
import {
  Agent,
  CollectingObserver,
  NoAsker,
  ReActCognition,
  type RunContext,
} from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  FakeAsker,
  FakeClock,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptedProvider,
  ScriptExhausted,
} from "@agentkit/testing/testing";

const deployTool = () =>
  new FakeTool({ name: "deploy", responder: "deployed v2", requiresApproval: true });

const ops = (tools: FakeTool[], toolTimeoutMs?: number) =>
  new Agent("ops", {
    model: "fake-model",
    cognition: new ReActCognition({ tools, toolTimeoutMs }),
  });

Deno.test("ReActCognition under autonomy manual: a yes runs the tool and the question is recorded", async () => {
  using asker = new FakeAsker(["yes"]);
  const deploy = deployTool();
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "deploy", { env: "prod" })] },
    "Deployed.",
  ]);
  const result = await ops([deploy]).run(
    "ship it",
    makeTestCtx({ llm, asker, autonomy: "manual" }),
  );
  assertEquals(result.output, "Deployed.");
  assertEquals(asker.questions, ['Allow tool "deploy" with {"env":"prod"}? (yes/no)']);
  assertEquals(deploy.calls, [{ env: "prod" }]);
  assertEquals(llm.requests[1].messages.at(-1), {
    role: "tool",
    content: "deployed v2",
    toolCallId: "c1",
  });
});

Deno.test("ReActCognition under autonomy manual: a no becomes a tool message the model sees, and the tool never runs", async () => {
  using asker = new FakeAsker(["no"]);
  const deploy = deployTool();
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "deploy", { env: "prod" })] },
    "Understood, not deploying.",
  ]);
  const result = await ops([deploy]).run(
    "ship it",
    makeTestCtx({ llm, asker, autonomy: "manual" }),
  );
  assertEquals(result.output, "Understood, not deploying.");
  assertEquals(deploy.calls, []);
  const seen = llm.requests[1].messages.at(-1)!;
  assertEquals([seen.role, seen.toolCallId], ["tool", "c1"]);
  assert(seen.content.startsWith('Denied: the user did not approve tool "deploy"'), seen.content);
  assertEquals(asker.questions.length, 1);
});

Deno.test("ReActCognition asks only for tools that need approval, and only under manual autonomy", async (t) => {
  await t.step("a tool without requiresApproval runs without a question", async () => {
    using asker = new FakeAsker([]);
    const status = new FakeTool({ name: "status", responder: "green" });
    const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "status", {})] }, "All green."]);
    await ops([status]).run("status?", makeTestCtx({ llm, asker, autonomy: "manual" }));
    assertEquals([asker.questions, status.calls.length], [[], 1]);
  });
  await t.step("autonomy auto runs an approval tool without asking", async () => {
    using asker = new FakeAsker([]);
    const deploy = deployTool();
    const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", {})] }, "Done."]);
    await ops([deploy]).run("ship", makeTestCtx({ llm, asker }));
    assertEquals([asker.questions, deploy.calls.length], [[], 1]);
  });
});

Deno.test("ReActCognition asks once per call: yes, then no, in the order the model called", async () => {
  using asker = new FakeAsker(["yes", "no"]);
  const deploy = deployTool();
  const llm = FakeLLM.script([
    {
      toolCalls: [
        toolCall("c1", "deploy", { env: "staging" }),
        toolCall("c2", "deploy", { env: "prod" }),
      ],
    },
    "Staging only.",
  ]);
  await ops([deploy]).run("ship", makeTestCtx({ llm, asker, autonomy: "manual" }));
  assertEquals(asker.questions, [
    'Allow tool "deploy" with {"env":"staging"}? (yes/no)',
    'Allow tool "deploy" with {"env":"prod"}? (yes/no)',
  ]);
  assertEquals(deploy.calls, [{ env: "staging" }]);
  const [staging, prod] = llm.requests[1].messages.slice(-2);
  assertEquals(staging.content, "deployed v2");
  assert(prod.content.startsWith("Denied"), prod.content);
});

Deno.test("ReActCognition under manual autonomy without an asker throws NoAsker, which no catch absorbs", async () => {
  const deploy = deployTool();
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", {})] }, "unreached"], {
    allowUnused: true,
  });
  await assertRejects(
    () => ops([deploy]).run("ship", makeTestCtx({ llm, autonomy: "manual" })),
    NoAsker,
    "FakeAsker",
  );
  assertEquals(deploy.calls, []);
});

Deno.test("ReActCognition lets a FakeAsker that ran out of answers fail the run with ScriptExhausted", async () => {
  const asker = new FakeAsker(["yes"]);
  const deploy = deployTool();
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "deploy", {}), toolCall("c2", "deploy", {})] },
    "unreached",
  ], { allowUnused: true });
  await assertRejects(
    () => ops([deploy]).run("ship", makeTestCtx({ llm, asker, autonomy: "manual" })),
    ScriptExhausted,
    "FakeAsker has 1 answer(s), but the agent asked for answer 2",
  );
  assertEquals(deploy.calls.length, 1);
});

Deno.test("ReActCognition: the human's thinking time does not count against toolTimeoutMs", async () => {
  const clock = new FakeClock();
  using asker = new FakeAsker(["yes"], { delayMs: 5_000 });
  const deploy = deployTool();
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", {})] }, "Deployed."]);
  const ctx: RunContext = makeTestCtx({ llm, asker, clock, autonomy: "manual" });
  const result = await ops([deploy], 1_000).run("ship", ctx);
  assertEquals(deploy.calls.length, 1);
  assertEquals(llm.requests[1].messages.at(-1)?.content, "deployed v2");
  assertEquals(result.output, "Deployed.");
  assertEquals(clock.now(), 5_000);
});

Deno.test("ReActCognition: cancelling while the human thinks cancels the run and runs nothing", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  using asker = new FakeAsker(["yes"], { delayMs: 60_000 });
  const deploy = deployTool();
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", {})] }, "unreached"], {
    allowUnused: true,
  });
  const run = ops([deploy]).run(
    "ship",
    makeTestCtx({ llm, asker, clock, signal: controller.signal, autonomy: "manual" }),
  );
  for (let i = 0; i < 100; i++) await Promise.resolve();
  assertEquals(asker.questions.length, 1);
  const reason = new Error("stop");
  controller.abort(reason);
  const error = await assertRejects(() => run);
  assertEquals(error, reason);
  assertEquals([deploy.calls.length, llm.calls, clock.pending], [0, 1, 0]);
});

async function answerOnce(answer: string): Promise<{ ran: boolean; denied: unknown[] }> {
  using asker = new FakeAsker([answer]);
  const observer = new CollectingObserver();
  const deploy = deployTool();
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", { env: "prod" })] }, "ok"]);
  await ops([deploy]).run("ship", makeTestCtx({ llm, asker, observer, autonomy: "manual" }));
  const denied = observer.items.filter((o) => o.kind === "approval_denied");
  return { ran: deploy.calls.length === 1, denied: denied.map((o) => [o.payload, o.agent]) };
}

Deno.test("ReActCognition approves only a plain yes-like answer", async (t) => {
  for (const answer of ["yes", "y", "YES", "Yes.", " ok! ", "OK", "approve", "approved", "Allow"]) {
    await t.step(JSON.stringify(answer), async () => {
      assertEquals(await answerOnce(answer), { ran: true, denied: [] });
    });
  }
});

Deno.test("ReActCognition denies every other answer, and observes the denial with the answer", async (t) => {
  const answers = [
    "no",
    "do not allow",
    "not approved",
    "don't approve",
    "yes, but not prod",
    "yes no",
    "yesterday",
    "allowance",
    "okay?",
    "y.!",
    "",
    " ",
    "n",
  ];
  for (const answer of answers) {
    await t.step(JSON.stringify(answer), async () => {
      assertEquals(await answerOnce(answer), {
        ran: false,
        denied: [[{ tool: "deploy", answer }, "ops"]],
      });
    });
  }
});

Deno.test("ReActCognition asks with the arguments read from the call's raw JSON", async () => {
  using asker = new FakeAsker(["yes"]);
  const deploy = deployTool();
  const llm = FakeLLM.script([
    { toolCalls: [{ id: "c1", name: "deploy", args: {}, rawArgs: '{"env":"raw"}' }] },
    "ok",
  ]);
  await ops([deploy]).run("ship", makeTestCtx({ llm, asker, autonomy: "manual" }));
  assertEquals(asker.questions, ['Allow tool "deploy" with {"env":"raw"}? (yes/no)']);
  assertEquals(deploy.calls, [{ env: "raw" }]);
});

Deno.test("ReActCognition does not ask about a provider's tools (the provider owns its grants)", async () => {
  using asker = new FakeAsker([]);
  const provider = new ScriptedProvider({
    tools: [{ name: "deploy" }],
    results: { deploy: "done" },
  });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "deploy", {})] }, "ok"]);
  const agent = new Agent("ops", {
    model: "fake-model",
    cognition: new ReActCognition({ provider }),
  });
  await agent.run("ship", makeTestCtx({ llm, asker, autonomy: "manual" }));
  assertEquals([asker.questions, provider.recordedCalls.length], [[], 1]);
});
