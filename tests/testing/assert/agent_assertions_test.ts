import { assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { Agent, Budget, meter, NullCtx, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import {
  assertCalledTool,
  AssertionError,
  assertSpent,
  assertStopReason,
  assertTranscriptContains,
  assertUsedAllTurns,
  drainEvents,
  FakeAsker,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptedProvider,
} from "@agentkit/testing/testing";

async function toolRun() {
  const tool = new FakeTool({ name: "lookup_cert", responder: { notAfter: "2026-08-01" } });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup_cert", { host: "a.com", port: 443 })] },
    { content: "It expired." },
  ]);
  const agent = new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("why?", makeTestCtx({ llm }));
  return { tool, llm, result, agent };
}

Deno.test("assertCalledTool() passes on a call by name, and with exactly the args given", async () => {
  const { result, tool, llm } = await toolRun();
  assertCalledTool(result, "lookup_cert");
  assertCalledTool(result, "lookup_cert", { host: "a.com", port: 443 });
  assertCalledTool(result.messages, "lookup_cert", { port: 443, host: "a.com" });
  assertCalledTool(tool, "lookup_cert", { host: "a.com", port: 443 });
  assertCalledTool(llm, "lookup_cert", { host: "a.com", port: 443 });
});

Deno.test("assertCalledTool() fails on other args, a missing tool, and partial args", async () => {
  const { result } = await toolRun();
  const e = assertThrows(
    () => assertCalledTool(result, "lookup_cert", { host: "a.com" }),
    AssertionError,
    'Expected a call to lookup_cert with {"host":"a.com"}, but lookup_cert was called with other arguments',
  );
  assertStringIncludes(e.message, 'Calls made:\n  lookup_cert {"host":"a.com","port":443}');
  assertStringIncludes(e.message, "Transcript:\n  user: why?");
  assertThrows(
    () => assertCalledTool(result, "fs_read"),
    AssertionError,
    "fs_read was never called",
  );
});

Deno.test("assertCalledTool() honours an asymmetric matcher for partial args", async () => {
  const { result } = await toolRun();
  const hostIsA = { asymmetricMatch: (v: unknown) => (v as { host?: string }).host === "a.com" };
  assertCalledTool(result, "lookup_cert", hostIsA);
});

Deno.test("assertCalledTool() reads a provider's record and a run's events", async () => {
  const provider = new ScriptedProvider({
    tools: [{ name: "fs_read" }],
    results: { fs_read: "x" },
  });
  await provider.executeToolCalls([toolCall("c", "fs_read", { path: "a" })], new NullCtx());
  assertCalledTool(provider, "fs_read", { path: "a" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c", "t", { a: 1 })] }]);
  const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm }));
  await run.result.catch(() => {});
  assertCalledTool(await drainEvents(run), "t", { a: 1 });
});

Deno.test("assertCalledTool() on a Run awaits it; a failed run fails the assertion with its error", async () => {
  const { agent } = await toolRun();
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "lookup_cert", { host: "b" })] },
    { content: "done" },
  ]);
  await assertCalledTool(agent.start("go", makeTestCtx({ llm })), "lookup_cert", { host: "b" });
  const failing = FakeLLM.script([{ content: "x", error: "provider fell over" }]);
  const run = agent.start("go", makeTestCtx({ llm: failing }));
  await assertRejects(
    () => assertCalledTool(run, "lookup_cert"),
    AssertionError,
    "Expected a finished run, but it failed.\n\nTranscript:",
  );
});

Deno.test("assertCalledTool() names what it accepts when given something else", () => {
  assertThrows(() => assertCalledTool(42 as never, "t"), TypeError, "assertCalledTool needs");
  assertThrows(() => assertCalledTool([] as never, ""), TypeError, "needs a tool name");
});

Deno.test("assertStopReason() compares the stop reason and shows the transcript", async () => {
  const { result } = await toolRun();
  assertStopReason(result, "stop");
  const e = assertThrows(
    () => assertStopReason(result, "max_iterations"),
    AssertionError,
    'Expected the run to stop for "max_iterations", but it stopped for "stop".',
  );
  assertStringIncludes(e.message, "assistant: It expired.");
  assertThrows(() => assertStopReason(result, "done" as never), TypeError, '"max_iterations"');
});

Deno.test("assertSpent() compares exact 6-decimal amounts, given as strings or numbers", async () => {
  const budget = new Budget({ maxCostUsd: "1.00" });
  const ctx = makeTestCtx({ llm: new FakeLLM("ok"), budget, chatMiddleware: [meter()] });
  const agent = new Agent("a", { model: "fake-model" });
  await agent.run("hi", ctx);
  await agent.run("hi", ctx);
  for (const same of ["0.000200", "0.0002", "$0.0002", 0.0002]) assertSpent(budget, same);
  assertThrows(
    () => assertSpent(budget, "0.0001"),
    AssertionError,
    "Expected the budget to have spent $0.000100, but it spent $0.000200 over 2 call(s)",
  );
  assertThrows(() => assertSpent(budget, "0.0002000001"), AssertionError);
  assertThrows(() => assertSpent(budget, "ten"), TypeError, 'a decimal amount such as "0.000100"');
  assertThrows(() => assertSpent(budget, -1), RangeError);
  assertThrows(() => assertSpent({}, "0"), TypeError, "needs a Budget");
});

Deno.test("assertUsedAllTurns() checks scripted doubles' unused turns", async () => {
  const llm = FakeLLM.script(["one", "two"], { allowUnused: true });
  await llm.chat({ model: "m", messages: [{ role: "user", content: "hi" }] });
  const e = assertThrows(
    () => assertUsedAllTurns(llm),
    AssertionError,
    "Expected FakeLLM to have used every scripted turn, but 1 were never used",
  );
  assertStringIncludes(e.message, "request 1 (chat, model m)\n    user: hi");
  await llm.chat({ model: "m", messages: [] });
  assertUsedAllTurns(llm);

  const asker = new FakeAsker(["yes"], { allowUnused: true });
  assertThrows(() => assertUsedAllTurns(asker), AssertionError, "1 were never used");
  assertThrows(
    () => assertUsedAllTurns(new FakeTool({ name: "t", responder: 1 })),
    TypeError,
    "scripted double",
  );
});

Deno.test("assertTranscriptContains() searches the transcript, a Run's too", async () => {
  const { result, agent } = await toolRun();
  assertTranscriptContains(result, 'tool lookup_cert [call_1]: {"notAfter":"2026-08-01"}');
  assertThrows(
    () => assertTranscriptContains(result, "fs_read"),
    AssertionError,
    'Expected the transcript to contain "fs_read".\n\nTranscript:\n  user: why?',
  );
  const llm = FakeLLM.script([{ content: "x", error: "provider fell over" }]);
  const run = agent.start("go", makeTestCtx({ llm }));
  await assertTranscriptContains(run, "run failed: ProviderResponseError: provider fell over");
  assertThrows(() => assertTranscriptContains(result, 1 as never), TypeError, "text to look for");
  assertEquals(typeof assertTranscriptContains(result, "why?"), "undefined");
});

Deno.test("each assertion names itself when misused", () => {
  assertThrows(() => assertStopReason(null as never, "stop"), TypeError, "assertStopReason needs");
  assertThrows(() => assertSpent(null, 0), TypeError, "assertSpent needs a Budget");
  assertThrows(() => assertUsedAllTurns(null), TypeError, "assertUsedAllTurns needs");
  assertThrows(
    () => assertTranscriptContains([], 5 as never),
    TypeError,
    "assertTranscriptContains needs the text",
  );
});

Deno.test("assertTranscriptContains() checks the text before it waits on a Run", async () => {
  const run = new Agent("a", { model: "fake-model" }).start(
    "go",
    makeTestCtx({ llm: new FakeLLM("ok") }),
  );
  assertThrows(
    () => assertTranscriptContains(run, 5 as never),
    TypeError,
    "assertTranscriptContains needs the text to look for, got number",
  );
  await run.result;
});
