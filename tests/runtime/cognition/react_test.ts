import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  CollectingObserver,
  HarnessError,
  ReActCognition,
  type RunContext,
} from "@agentkit/testing/runtime";
import {
  type FinishReason,
  type Message,
  type ObserverPort,
  ProviderError,
  toolCall,
} from "@agentkit/testing/ports";
import {
  FakeClock,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptedProvider,
  ScriptExhausted,
} from "@agentkit/testing/testing";
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

Deno.test("ReActCognition lets a model failure other than a length cut fail the run", async (t) => {
  const failures: Array<[string, string | Error, FinishReason | undefined]> = [
    ["a provider error with no finish reason", "overloaded", undefined],
    ["a content filter", "filtered", "content_filter"],
    ["an Error that is not a ProviderError", new TypeError("bug in the adapter"), undefined],
  ];
  for (const [name, error, finishReason] of failures) {
    await t.step(name, async () => {
      const tool = new FakeTool({ name: "t", responder: "r" });
      const llm = FakeLLM.script([
        { content: "Checking.", toolCalls: [toolCall("c1", "t", {})] },
        { error, finishReason },
      ]);
      const thrown = await assertRejects(() => reactAgent([tool]).run("go", makeTestCtx({ llm })));
      if (error instanceof Error) assertEquals(thrown, error);
      else assert(thrown instanceof ProviderError && thrown.finishReason === finishReason);
      assertEquals([tool.calls.length, llm.calls], [1, 2]);
    });
  }
});

Deno.test("ReActCognition: a length cut that reports no usage keeps the usage and output so far", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = FakeLLM.script([
    {
      content: "Checking.",
      toolCalls: [toolCall("c1", "t", {})],
      usage: { inputTokens: 5, outputTokens: 1 },
    },
    { error: new ProviderError("cut", { finishReason: "length" }) },
  ]);
  const r = await reactAgent([tool]).run("go", makeTestCtx({ llm }));
  assertEquals([r.stopReason, r.output, r.usage], ["length", "Checking.", {
    inputTokens: 5,
    outputTokens: 1,
  }]);
  assertEquals(r.messages.at(-1)?.role, "tool", "the cut turn adds nothing to the transcript");
});

Deno.test("ReActCognition sends the whole transcript on each call: the assistant turn with its tool calls, then the results", async () => {
  const lookup = new FakeTool({ name: "lookup", responder: { up: true } });
  const note = new FakeTool({ name: "note", responder: "noted" });
  const calls = [toolCall("c1", "lookup", { host: "a" }), toolCall("c2", "note", { text: "x" })];
  const llm = FakeLLM.script([
    {
      content: "Checking two things.",
      toolCalls: calls,
      usage: { inputTokens: 5, outputTokens: 1 },
    },
    { content: "Both fine.", usage: { inputTokens: 7, outputTokens: 2 } },
  ]);
  const r = await reactAgent([lookup, note]).run("go", makeTestCtx({ llm }));
  const first = llm.requests[0].messages;
  assertEquals(first.at(-1), { role: "user", content: "go" });
  const second: Message[] = [
    ...first,
    { role: "assistant", content: "Checking two things.", toolCalls: calls },
    { role: "tool", content: '{"up":true}', toolCallId: "c1" },
    { role: "tool", content: "noted", toolCallId: "c2" },
  ];
  assertEquals(llm.requests[1].messages, second);
  assertEquals(r.messages, [...second, { role: "assistant", content: "Both fine." }]);
  assertEquals([r.output, r.stopReason, r.usage], ["Both fine.", "stop", {
    inputTokens: 12,
    outputTokens: 3,
  }]);
});

Deno.test("ReActCognition: a turn cut by the content filter or an error ends the run without running its tools", async (t) => {
  for (const finishReason of ["content_filter", "error"] as const) {
    await t.step(finishReason, async () => {
      const tool = new FakeTool({ name: "t", responder: "r" });
      const llm = FakeLLM.script([{
        content: "partial",
        toolCalls: [toolCall("c1", "t", {})],
        finishReason,
      }]);
      const r = await reactAgent([tool]).run("go", makeTestCtx({ llm }));
      assertEquals([r.stopReason, r.output, tool.calls.length, llm.calls], [
        "error",
        "partial",
        0,
        1,
      ]);
    });
  }
});

Deno.test("ReActCognition: a failing tool is observed as tool_error with the tool and call id", async () => {
  const observer = new CollectingObserver();
  const tool = new FakeTool({ name: "flaky", failWith: "disk full" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c9", "flaky", {})] }, "ok"]);
  await reactAgent([tool]).run("go", makeTestCtx({ llm, observer }));
  const errors = observer.items.filter((o) => o.kind === "tool_error");
  assertEquals(errors.map((o) => [o.payload, o.agent]), [[{ tool: "flaky", callId: "c9" }, "sre"]]);
  assert(errors[0].text.includes("disk full"), errors[0].text);
});

Deno.test("ReActCognition hands the model a tool's value: strings as they are, others as JSON, nothing as empty", async () => {
  const tools = [
    new FakeTool({ name: "text", responder: "plain text" }),
    new FakeTool({ name: "json", responder: { n: 1, s: "a" } }),
    new FakeTool({ name: "nothing", responder: () => undefined }),
  ];
  const llm = FakeLLM.script([
    { toolCalls: tools.map((t, i) => toolCall(`c${i}`, t.name, {})) },
    "done",
  ]);
  await reactAgent(tools).run("go", makeTestCtx({ llm }));
  assertEquals(toolMessages(llm.requests[1].messages).map((m) => m.content), [
    "plain text",
    '{"n":1,"s":"a"}',
    "",
  ]);
});

Deno.test("ReActCognition reads the raw JSON arguments when a call carries them", async () => {
  const tool = new FakeTool({ name: "lookup", responder: "ok" });
  const llm = FakeLLM.script([
    {
      toolCalls: [{
        id: "c1",
        name: "lookup",
        args: { host: "parsed" },
        rawArgs: '{"host":"raw"}',
      }],
    },
    "done",
  ]);
  await reactAgent([tool]).run("go", makeTestCtx({ llm }));
  assertEquals(tool.calls, [{ host: "raw" }]);
});

Deno.test("ReActCognition defaults to 10 iterations and reports its limits", async () => {
  const tool = new FakeTool({ name: "fetch", responder: "more" });
  const cognition = new ReActCognition({ tools: [tool], toolTimeoutMs: 250 });
  assertEquals([cognition.name, cognition.maxIterations, cognition.toolTimeoutMs], [
    "react",
    10,
    250,
  ]);
  assertEquals((cognition.specs() as readonly { name: string }[]).map((s) => s.name), ["fetch"]);
  assertEquals(new ReActCognition().specs(), []);
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "fetch", {})] }], { repeatLast: true });
  const r = await new Agent("a", { model: "fake-model", cognition }).run(
    "go",
    makeTestCtx({ llm }),
  );
  assertEquals([r.stopReason, llm.calls, tool.calls.length], ["max_iterations", 10, 10]);
});

Deno.test("ReActCognition rejects contradictory or out-of-range options", () => {
  const t = new FakeTool({ name: "t", responder: 1 });
  const provider = new ScriptedProvider({ tools: [{ name: "x" }], results: { x: "y" } });
  assertThrows(() => new ReActCognition({ tools: [t], provider }), TypeError, "provider");
  for (const maxIterations of [1.5, -1, NaN]) {
    assertThrows(() => new ReActCognition({ maxIterations }), RangeError, "maxIterations");
  }
  for (const toolTimeoutMs of [0, NaN, -1]) {
    assertThrows(() => new ReActCognition({ toolTimeoutMs }), RangeError, "toolTimeoutMs");
  }
  assertEquals(new ReActCognition({ maxIterations: 1, toolTimeoutMs: 0.5 }).maxIterations, 1);
});

Deno.test("ReActCognition: cancelling the run while a tool with toolTimeoutMs runs cancels the tool and drops both timers", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  const toolSignals: AbortSignal[] = [];
  const tool = new FakeTool({
    name: "scan",
    responder: async (_args: unknown, ctx: RunContext) => {
      toolSignals.push(ctx.signal);
      await ctx.clock.sleep(10_000, ctx.signal);
      return "scanned";
    },
  });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "scan", {})] }, "unreached"], {
    allowUnused: true,
  });
  const agent = new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool], toolTimeoutMs: 5_000 }),
  });
  const run = agent.run("go", makeTestCtx({ llm, clock, signal: controller.signal }));
  for (let i = 0; i < 100 && clock.pending < 2; i++) await Promise.resolve();
  assertEquals(clock.pending, 2, "the tool's wait and the deadline");
  const reason = new Error("user cancelled");
  controller.abort(reason);
  assertEquals(await assertRejects(() => run), reason);
  assertEquals(toolSignals.map((s) => [s.aborted, s.reason]), [[true, reason]]);
  assertEquals([clock.pending, clock.now(), llm.calls], [0, 0, 1]);
});

Deno.test("ReActCognition: a tool that beats its deadline leaves no deadline timer behind", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const tool = new FakeTool({ name: "t", responder: "quick" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }, "done"]);
  const agent = new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool], toolTimeoutMs: 5_000 }),
  });
  const r = await agent.run("go", makeTestCtx({ llm, clock }));
  assertEquals([r.output, clock.pending, toolMessages(r.messages)[0].content], [
    "done",
    0,
    "quick",
  ]);
});

Deno.test("ReActCognition: a first call cut at the length limit ends with no output and its own usage", async () => {
  const llm = FakeLLM.script([{
    error: "Hit max tokens",
    finishReason: "length",
    usage: { inputTokens: 9, outputTokens: 4 },
  }]);
  const r = await reactAgent([]).run("go", makeTestCtx({ llm }));
  assertEquals([r.stopReason, r.output, r.usage], ["length", "", {
    inputTokens: 9,
    outputTokens: 4,
  }]);
});

Deno.test("ReActCognition hands back a transcript the caller may edit: a recording double sees the edit", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }, "done", "again"]);
  const r = await reactAgent([tool]).run("go", makeTestCtx({ llm }));
  const transcript = r.messages as Message[];
  transcript[0] = { role: "user", content: "edited" };
  await llm.chat({ model: "fake-model", messages: transcript });
  assertEquals(llm.requests[2].messages[0], { role: "user", content: "edited" });
  assertEquals(llm.requests[2].messages.length, transcript.length);
});

// Cancels the run while the loop reports a failing tool: after the tool, before what comes next.
function abortOnToolError(controller: AbortController, reason: Error): ObserverPort {
  return {
    emit: (o) => {
      if (o.kind === "tool_error") controller.abort(reason);
    },
    close: () => {},
  };
}

Deno.test("ReActCognition stops before the next model call or tool once the run is cancelled", async (t) => {
  for (const calls of [1, 2]) {
    await t.step(`${calls} tool call(s) in the turn`, async () => {
      const controller = new AbortController();
      const reason = new Error("user cancelled");
      const observer = abortOnToolError(controller, reason);
      const broken = new FakeTool({ name: "broken", failWith: "down" });
      const llm = FakeLLM.script([
        { toolCalls: Array.from({ length: calls }, (_, i) => toolCall(`c${i}`, "broken", {})) },
        "unreached",
      ], { allowUnused: true });
      const ctx = makeTestCtx({ llm, observer, signal: controller.signal });
      assertEquals(await assertRejects(() => reactAgent([broken]).run("go", ctx)), reason);
      assertEquals([broken.calls.length, llm.calls, llm.cancelled], [1, 1, []]);
      const streamed = FakeLLM.script([
        { toolCalls: Array.from({ length: calls }, (_, i) => toolCall(`c${i}`, "broken", {})) },
        "unreached",
      ], { allowUnused: true });
      const again = new AbortController();
      const streamObserver = abortOnToolError(again, reason);
      const streamCtx = makeTestCtx({
        llm: streamed,
        observer: streamObserver,
        signal: again.signal,
      });
      await assertRejects(async () => {
        for await (const _ of reactAgent([broken]).stream("go", streamCtx)) { /* drain */ }
      });
      assertEquals([streamed.calls, streamed.cancelled], [1, []]);
    });
  }
});

Deno.test("ReActCognition under manual autonomy still tells the model about an unknown tool", async () => {
  const tool = new FakeTool({ name: "lookup", responder: "ok", requiresApproval: true });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "lookpu", {})] }, "done"]);
  await reactAgent([tool]).run("go", makeTestCtx({ llm, autonomy: "manual" }));
  const [unknown] = toolMessages(llm.requests[1].messages);
  assert(unknown.isError && unknown.content.includes('"lookpu"'), unknown.content);
  assertEquals(tool.calls, []);
});

Deno.test("ReActCognition: a tool loop of scripted turns and a tool that answers at once is over when run() returns", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }, "done"]);
  const pending = reactAgent([tool]).run("go", makeTestCtx({ llm }));
  // Nothing awaited yet: the tool ran and the second model call was made.
  assertEquals([tool.calls.length, llm.calls], [1, 2]);
  assertEquals((await pending).output, "done");
});

Deno.test("ReActCognition: a tool that answers at once after the run was cancelled does not count, even on the last iteration", async () => {
  const controller = new AbortController();
  const reason = new Error("user cancelled");
  const tool = new FakeTool({
    name: "t",
    responder: () => {
      controller.abort(reason);
      return "late";
    },
  });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }]);
  const ctx = makeTestCtx({ llm, signal: controller.signal });
  assertEquals(await assertRejects(() => reactAgent([tool], 1).run("go", ctx)), reason);
  assertEquals([tool.calls.length, llm.calls], [1, 1]);
});

Deno.test("ReActCognition with toolTimeoutMs asks for approval only under manual autonomy", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const tool = new FakeTool({ name: "t", responder: "ran", requiresApproval: true });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }, "done"]);
  const agent = new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool], toolTimeoutMs: 5_000 }),
  });
  // No asker: asking would fail the run.
  const r = await agent.run("go", makeTestCtx({ llm, clock }));
  assertEquals([r.output, tool.calls.length, toolMessages(r.messages)[0].content], [
    "done",
    1,
    "ran",
  ]);
});

Deno.test("ReActCognition under manual autonomy without toolTimeoutMs waits for a slow tool with no deadline", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const tool = new FakeTool({
    name: "t",
    responder: async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      return "slow";
    },
  });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "t", {})] }, "done"]);
  const r = await reactAgent([tool]).run("go", makeTestCtx({ llm, clock, autonomy: "manual" }));
  assertEquals([r.output, toolMessages(r.messages)[0].content, clock.sleeps], ["done", "slow", []]);
});
