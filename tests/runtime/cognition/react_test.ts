import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { Agent, HarnessError, ReActCognition } from "@agentkit/testing/runtime";
import { type Message, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx, ScriptExhausted } from "@agentkit/testing/testing";
import { z } from "zod";

function reactAgent(tools: FakeTool[], maxIterations?: number): Agent {
  return new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools, maxIterations }),
  });
}
const toolMessages = (messages: readonly Message[]) => messages.filter((m) => m.role === "tool");

Deno.test("ReActCognition runs a tool call, feeds the result back, and returns the final answer", async () => {
  const tool = new FakeTool({ name: "lookup_cert", responder: { notAfter: "2026-08-01" } });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup_cert", { host: "example.com" })] },
    { content: "The certificate expired on 2026-08-01." },
  ]);
  const r = await reactAgent([tool]).run("Why did the deploy fail?", makeTestCtx({ llm }));
  assertEquals([r.output, r.stopReason, llm.calls], [
    "The certificate expired on 2026-08-01.",
    "stop",
    2,
  ]);
  assertEquals(tool.calls, [{ host: "example.com" }]);
  assertEquals(llm.requests[1].messages.at(-1), {
    role: "tool",
    content: '{"notAfter":"2026-08-01"}',
    toolCallId: "c1",
  });
  assertEquals(llm.requests[0].tools.map((t) => t.name), ["lookup_cert"]);
  assertEquals(r.usage, { inputTokens: 20, outputTokens: 0 });
});

Deno.test("ReActCognition turns a failing tool into a tool message the model sees", async () => {
  const tool = new FakeTool({ name: "flaky", failWith: "disk full" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "flaky", {})] }, {
    content: "Could not read the disk.",
  }]);
  const r = await reactAgent([tool]).run("go", makeTestCtx({ llm }));
  assertEquals(r.output, "Could not read the disk.");
  assertEquals(toolMessages(llm.requests[1].messages), [
    { role: "tool", content: "Error: disk full", toolCallId: "c1", isError: true },
  ]);
});

Deno.test("ReActCognition reflects bad arguments, unknown tools and malformed JSON back to the model", async () => {
  const tool = new FakeTool({
    name: "lookup",
    parameters: z.object({ host: z.string() }),
    responder: "ok",
  });
  const llm = FakeLLM.script([
    {
      toolCalls: [
        toolCall("c1", "lookup", { host: 1 }),
        toolCall("c2", "lookpu", {}),
        { id: "c3", name: "lookup", args: {}, rawArgs: '{"host": "a' },
      ],
    },
    { content: "done" },
  ]);
  await reactAgent([tool]).run("go", makeTestCtx({ llm }));
  const [bad, unknown, malformed] = toolMessages(llm.requests[1].messages);
  assertEquals(
    bad.content,
    'Error: Invalid arguments for tool "lookup": host: Invalid input: expected string, received number',
  );
  assert(
    unknown.content.includes('Unknown tool "lookpu"') &&
      unknown.content.includes('did you mean "lookup"?'),
  );
  assert(malformed.content.includes("not valid JSON"), malformed.content);
  assertEquals(tool.calls.length, 0, "invalid calls never reach the tool");
});

Deno.test("ReActCognition stops at maxIterations with stopReason max_iterations", async () => {
  const tool = new FakeTool({ name: "fetch", responder: "more" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "fetch", {})] }], { repeatLast: true });
  const r = await reactAgent([tool], 3).run("go", makeTestCtx({ llm }));
  assertEquals([r.stopReason, llm.calls, tool.calls.length], ["max_iterations", 3, 3]);
});

Deno.test("ReActCognition: a length-truncated turn dispatches nothing and ends with stopReason length", async (t) => {
  await t.step("finishReason length with a tool call", async () => {
    const tool = new FakeTool({ name: "task", responder: "x" });
    const llm = FakeLLM.script([{
      content: "Spawning: ",
      toolCalls: [toolCall("c1", "task", {})],
      finishReason: "length",
    }]);
    const r = await reactAgent([tool]).run("go", makeTestCtx({ llm }));
    assertEquals([r.stopReason, tool.calls.length, r.output], ["length", 0, "Spawning: "]);
  });
  await t.step(
    "a provider error that reports finishReason length is billed and ends with length",
    async () => {
      const tool = new FakeTool({ name: "task", responder: "x" });
      const llm = FakeLLM.script([{
        toolCalls: [toolCall("c1", "task", {})],
        finishReason: "length",
        error: "Hit max tokens",
        usage: { inputTokens: 198_000, outputTokens: 590 },
      }]);
      const r = await reactAgent([tool]).run("go", makeTestCtx({ llm }));
      assertEquals([r.stopReason, tool.calls.length, r.usage.outputTokens], ["length", 0, 590]);
    },
  );
});

Deno.test("ReActCognition lets harness errors escape the failing-tool catch", async (t) => {
  await t.step("a tool that throws a HarnessError", async () => {
    const tool = new FakeTool({
      name: "t",
      responder: () => {
        throw new ScriptExhausted("FakeAsker", 1, 2, "answer");
      },
    });
    const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }, "unreachable"], {
      allowUnused: true,
    });
    await assertRejects(() => reactAgent([tool]).run("go", makeTestCtx({ llm })), ScriptExhausted);
  });
  await t.step("the model's script running out mid-loop", async () => {
    const tool = new FakeTool({ name: "t", responder: "r" });
    const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }]);
    const e = await assertRejects(
      () => reactAgent([tool]).run("go", makeTestCtx({ llm })),
      HarnessError,
    );
    assert(e instanceof ScriptExhausted);
  });
});

Deno.test("ReActCognition validates its options when built", () => {
  const t = new FakeTool({ name: "t", responder: 1 });
  assertThrows(() => new ReActCognition({ tools: [t, t] }), TypeError, "unique");
  assertThrows(() => new ReActCognition({ maxIterations: 0 }), RangeError);
  assertThrows(() => new ReActCognition({ toolTimeoutMs: -5 }), RangeError);
});

Deno.test("ReActCognition.stream() yields every model event across the loop", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = FakeLLM.script([{ chunks: ["Let me look. "], toolCalls: [toolCall("c1", "t", {})] }, {
    chunks: ["Found ", "it."],
  }]);
  const types: string[] = [];
  let text = "";
  for await (const e of reactAgent([tool]).stream("go", makeTestCtx({ llm }))) {
    types.push(e.type);
    if (e.type === "text_delta") text += e.content;
  }
  assertEquals(text, "Let me look. Found it.");
  assertEquals(types, [
    "message_start",
    "text_delta",
    "tool_call",
    "message_end",
    "message_start",
    "text_delta",
    "text_delta",
    "message_end",
  ]);
  assertEquals(tool.calls.length, 1);
});
