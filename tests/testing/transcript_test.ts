import { assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { Agent, NullCtx, ReActCognition } from "@agentkit/testing/runtime";
import { type Message, toolCall } from "@agentkit/testing/ports";
import {
  drainChunks,
  drainEvents,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptedProvider,
  transcript,
} from "@agentkit/testing/testing";

function toolLoop(callId: string, answer: unknown = { notAfter: "2026-08-01" }) {
  const tool = new FakeTool({ name: "lookup_cert", responder: answer });
  const llm = FakeLLM.script([
    { toolCalls: [toolCall(callId, "lookup_cert", { host: "example.com", port: 443 })] },
    { content: "The certificate expired on 2026-08-01." },
  ]);
  const agent = new Agent("sre", {
    model: "fake-model",
    system: "Be terse.",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  return { tool, llm, run: () => agent.run("Why did the deploy fail?", makeTestCtx({ llm })) };
}

Deno.test("transcript() of a result: roles, tool calls with args, tool results, stop reason, usage", async () => {
  const result = await toolLoop("toolu_01").run();
  assertEquals(
    transcript(result),
    [
      "system: Be terse.",
      "user: Why did the deploy fail?",
      'assistant calls lookup_cert [call_1] {"host":"example.com","port":443}',
      'tool lookup_cert [call_1]: {"notAfter":"2026-08-01"}',
      "assistant: The certificate expired on 2026-08-01.",
      "stop reason: stop",
      "usage: 20 input tokens, 0 output tokens",
    ].join("\n"),
  );
});

Deno.test("transcript() is the same for two runs whose call ids and clocks differ", async () => {
  const a = await toolLoop("toolu_01AAA", { checkedAt: 1_700_000_000_000 }).run();
  const b = await toolLoop("call_zz9", { checkedAt: 1_800_000_000_123 }).run();
  assertEquals(transcript(a), transcript(b));
  assertStringIncludes(transcript(a), '{"checkedAt":"<time>"}');
});

Deno.test("transcript() numbers call ids by first appearance and keeps a failed call's marker", () => {
  const messages: Message[] = [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: "Checking both.",
      toolCalls: [toolCall("zz", "a", {}), toolCall("yy", "b", { n: 1 })],
    },
    { role: "tool", toolCallId: "yy", content: "disk on fire", isError: true },
    { role: "tool", toolCallId: "zz", content: "fine" },
    { role: "assistant", content: "line one\nline two" },
  ];
  assertEquals(
    transcript(messages),
    [
      "user: go",
      "assistant: Checking both.",
      "assistant calls a [call_1] {}",
      'assistant calls b [call_2] {"n":1}',
      "tool b [call_2] failed: disk on fire",
      "tool a [call_1]: fine",
      "assistant: line one\n  line two",
    ].join("\n"),
  );
});

Deno.test("transcript() redacts credentials", async (t) => {
  const cases: Array<[string, string]> = [
    ["key sk-proj-abcdefghijklmnopqrstuv", "key [REDACTED]"],
    ["sk-ant-api03-abcdefghijklmnopqrstuv", "[REDACTED]"],
    ["Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer [REDACTED]"],
    ["token ghp_abcdefghijklmnopqrstuvwxyz0123", "token [REDACTED]"],
    ["aws AKIAABCDEFGHIJKLMNOP", "aws [REDACTED]"],
    ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU", "jwt [REDACTED]"],
  ];
  for (const [text, shown] of cases) {
    await t.step(text.slice(0, 20), () => {
      assertEquals(transcript([{ role: "user", content: text }]), `user: ${shown}`);
    });
  }
  await t.step("values under secret keys, at any depth, in args and in JSON results", () => {
    const text = transcript([
      {
        role: "assistant",
        content: "",
        toolCalls: [
          toolCall("c", "login", { user: "ann", password: "hunter2", auth: { apiKey: "k" } }),
        ],
      },
      { role: "tool", toolCallId: "c", content: '{"access_token":"abc","ok":true}' },
    ]);
    assertEquals(
      text,
      'assistant calls login [call_1] {"auth":{"apiKey":"[REDACTED]"},"password":"[REDACTED]","user":"ann"}\n' +
        'tool login [call_1]: {"access_token":"[REDACTED]","ok":true}',
    );
  });
});

Deno.test("transcript() replaces date-times but keeps bare dates, which are content", () => {
  assertEquals(
    transcript([{ role: "user", content: "at 2026-11-30T23:49:13.123Z, due 2026-08-01" }]),
    "user: at <time>, due 2026-08-01",
  );
});

Deno.test("transcript() of a FakeLLM shows each request, and only what is new since the last", async () => {
  const { llm, run } = toolLoop("c1");
  await run();
  const text = transcript(llm);
  assertEquals(text, transcript(llm.requests));
  assertEquals(
    text,
    [
      "request 1 (chat, model fake-model, tools: lookup_cert)",
      "  system: Be terse.",
      "  user: Why did the deploy fail?",
      "request 2 (chat, model fake-model, tools: lookup_cert)",
      "  (2 earlier message(s))",
      '  assistant calls lookup_cert [call_1] {"host":"example.com","port":443}',
      '  tool lookup_cert [call_1]: {"notAfter":"2026-08-01"}',
    ].join("\n"),
  );
  assertEquals(transcript(new FakeLLM("x")), "(no requests)");
});

Deno.test("transcript() marks a request that asked for JSON", async () => {
  const llm = new FakeLLM("{}");
  await llm.chat({
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    settings: { jsonSchema: { type: "object" } },
  });
  assertEquals(transcript(llm), "request 1 (chat, model m, json schema)\n  user: hi");
});

Deno.test("transcript() of a FakeTool lists its calls", async () => {
  const tool = new FakeTool({ name: "search", responder: [] });
  assertEquals(transcript(tool), "tool search: never called");
  await tool.call({ q: "cats", limit: 3 }, new NullCtx());
  assertEquals(transcript(tool), 'tool search: called 1 time(s)\n  call 1: {"limit":3,"q":"cats"}');
});

Deno.test("transcript() of a ScriptedProvider shows each call and its result", async () => {
  const provider = new ScriptedProvider({
    tools: [{ name: "ok" }, { name: "boom" }],
    results: { ok: "fine", boom: () => Promise.reject(new Error("disk on fire")) },
  });
  await provider.executeToolCalls(
    [toolCall("x9", "ok", { a: 1 }), toolCall("x8", "boom")],
    new NullCtx(),
  );
  assertEquals(transcript(provider), transcript(provider.recordedCalls));
  assertEquals(
    transcript(provider),
    [
      'batch 1 calls ok [call_1] {"a":1}',
      "  result [call_1]: fine",
      "batch 1 calls boom [call_2] {}",
      "  result [call_2] failed: disk on fire",
    ].join("\n"),
  );
});

Deno.test("transcript() of a finished Run renders its result", async () => {
  const agent = new Agent("a", { model: "fake-model" });
  const run = agent.start("go", makeTestCtx({ llm: FakeLLM.script([{ chunks: ["o", "k"] }]) }));
  assertEquals(
    await transcript(run),
    "user: go\nassistant: ok\nstop reason: stop\nusage: 10 input tokens, 0 output tokens",
  );
});

Deno.test("transcript() of a failed Run renders the streamed events, then the error", async () => {
  const llm = FakeLLM.script([{
    chunks: ["I will ", "start"],
    failAfterChunks: 2,
    error: "connection reset",
    usage: { inputTokens: 7, outputTokens: 2 },
  }]);
  const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm }));
  assertEquals(
    await transcript(run),
    [
      "assistant [msg_1]: I will start",
      "error [msg_1]: ProviderResponseError: connection reset (usage: 7 input tokens, 2 output tokens)",
      "run failed: ProviderResponseError: connection reset",
    ].join("\n"),
  );
  await assertRejects(() => run.result);
});

Deno.test("transcript() of a run's events and chunks", async () => {
  const llm = FakeLLM.script([{ content: "hi", toolCalls: [toolCall("q", "t", {})] }]);
  const run = new Agent("a", { model: "fake-model" }).start("go", makeTestCtx({ llm }));
  await run.result.catch(() => {});
  const expected = [
    "assistant [msg_1]: hi",
    "assistant [msg_1] calls t [call_1] {}",
    "end [msg_1]: tool_calls; usage: 10 input tokens, 0 output tokens",
  ].join("\n");
  assertEquals(transcript(await drainEvents(run)), expected);
  assertEquals(transcript(await drainChunks(run)), expected);
});

Deno.test("transcript() of something else is a TypeError listing what it accepts", () => {
  assertThrows(() => transcript(42 as never), TypeError, "Cannot make a transcript of number");
  assertThrows(() => transcript([1] as never), TypeError, "an array of unknown items");
  assertEquals(transcript([]), "(nothing recorded)");
});
