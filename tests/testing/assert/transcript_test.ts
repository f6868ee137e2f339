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

// Tool args as the transcript shows them: one line of sorted JSON.
const argsLine = (args: unknown): string =>
  transcript([{
    role: "assistant",
    content: "",
    toolCalls: [{ id: "c", name: "t", args: args as Record<string, unknown> }],
  }]).replace("assistant calls t [call_1] ", "");

Deno.test("transcript() shows args with secrets, clocks, dates and errors scrubbed", () => {
  const shared = { n: 1 };
  const circular: Record<string, unknown> = { name: "loop" };
  circular.self = circular;
  assertEquals(
    argsLine({
      at: 1700000000000,
      createdAt: "2026-08-01T10:00:00Z",
      updated_at: "soon",
      startedAt: "at 2026-08-01T10:00:00Z UTC",
      expiresAt: ["2026-08-01T10:00Z"],
      doneAt: true,
      token: null,
      password: undefined,
      apiKey: "",
      note: "key sk-proj-abcdefghijklmnopqrstuv",
      big: 10n,
      when: new Date(0),
      error: new RangeError("bad Bearer abcdefghijk"),
      list: [{ token: "x" }, "at 2026-08-01T10:00Z", 2],
      twice: [shared, shared],
      circular,
    }),
    '{"apiKey":"[REDACTED]","at":"<time>","big":"10n","circular":{"name":"loop","self":"[Circular]"},' +
      '"createdAt":"<time>","doneAt":true,"error":"RangeError: bad Bearer [REDACTED]",' +
      '"expiresAt":["<time>"],' +
      '"list":[{"token":"[REDACTED]"},"at <time>",2],"note":"key [REDACTED]",' +
      '"startedAt":"<time>","token":null,' +
      '"twice":[{"n":1},{"n":1}],"updated_at":"soon","when":"<time>"}',
  );
});

Deno.test("transcript() shows a tool result that holds JSON as canonical JSON", () => {
  const results = [
    ' {"b": 1, "a": 2} ',
    "[ 1, 2 ]",
    '"\\u0041"',
    "{not json}",
    "",
  ];
  const messages: Message[] = results.map((content, i) => ({
    role: "tool",
    content,
    toolCallId: `c${i}`,
  }));
  assertEquals(
    transcript(messages),
    [
      'tool [call_1]: {"a":2,"b":1}',
      "tool [call_2]: [1,2]",
      'tool [call_3]: "\\u0041"',
      "tool [call_4]: {not json}",
      "tool [call_5]",
    ].join("\n"),
  );
});

Deno.test("transcript() of messages: empty turns, results without a call id, failures, raw args", () => {
  const messages: Message[] = [
    { role: "assistant", content: "" },
    { role: "tool", content: "lost", isError: true },
    {
      role: "assistant",
      content: "",
      toolCalls: [{
        id: "r",
        name: "t",
        args: {},
        rawArgs: '{"a": sk-proj-abcdefghijklmnopqrstuv',
      }],
    },
    { role: "tool", content: "done", toolCallId: "r" },
  ];
  assertEquals(
    transcript(messages),
    [
      "assistant",
      "tool [no call id] failed: lost",
      'assistant calls t [call_1] (raw) {"a": [REDACTED]',
      "tool t [call_1]: done",
    ].join("\n"),
  );
});

Deno.test("transcript() of a result shows its data, and usage only when it has one", () => {
  const result = {
    output: "",
    data: { ok: true },
    stopReason: "stop" as const,
    messages: [{ role: "user" as const, content: "hi" }],
  };
  assertEquals(
    transcript(result as never),
    'user: hi\ndata: {"ok":true}\nstop reason: stop',
  );
  assertEquals(
    transcript({
      ...result,
      data: undefined,
      usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 1, costUsd: 0.5 },
    } as never),
    "user: hi\nstop reason: stop\nusage: 3 input tokens, 2 output tokens, 1 cached, $0.5",
  );
});

Deno.test("transcript() refuses what only looks like a result, naming what it got", () => {
  const cases: [unknown, string][] = [
    [null, "null"],
    [{ messages: [], stopReason: 5 }, "an object (Object)"],
    [{ stopReason: "stop" }, "an object (Object)"],
    [Object.create(null), "an object (no prototype)"],
    [[1], "an array of unknown items"],
    [5, "number"],
  ];
  for (const [x, got] of cases) {
    assertThrows(() => transcript(x as never), TypeError, `Cannot make a transcript of ${got}:`);
  }
});

Deno.test("transcript() of a FakeLLM lists the tool calls it made to tools it was not offered", async () => {
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("g", "ghost", {})] },
    { toolCalls: [toolCall("h", "ghost", {})] },
  ]);
  const messages: Message[] = [{ role: "user", content: "go" }];
  const tools = [{ name: "a", description: "", parameters: {} }, {
    name: "b",
    description: "",
    parameters: {},
  }];
  await llm.chat({ model: "m", messages, tools }, new NullCtx());
  await llm.chat({ model: "m", messages, tools: [] }, new NullCtx());
  const text = transcript(llm);
  assertStringIncludes(
    text,
    "\nunknown tool call in request 1: ghost [call_1] (offered: a, b)\n" +
      "unknown tool call in request 2: ghost [call_2] (offered: no tools)",
  );
});

Deno.test("transcript() of requests shows all of a request that does not extend the last", () => {
  const request = (turn: number, messages: Message[], tools: string[] = []) => ({
    kind: "chat" as const,
    streaming: false,
    turn,
    model: "m",
    messages,
    tools: tools.map((name) => ({ name, description: "", parameters: {} })),
    settings: {},
  });
  const q: Message = { role: "user", content: "q" };
  const text = transcript([
    request(1, [q, { role: "tool", content: "r", toolCallId: "x" }], ["a", "b"]),
    request(2, [q, { role: "tool", content: "r", toolCallId: "y" }]),
    request(3, [q, { role: "user", content: "other" }]),
    request(4, [{ role: "assistant", content: "q" }]),
    request(5, [q, { role: "user", content: "other" }, { role: "user", content: "more" }]),
    request(6, [q, { role: "user", content: "else" }]),
    request(7, [q]),
    request(8, [q, { role: "user", content: "two\nlines" }]),
  ] as never);
  assertEquals(
    text,
    [
      "request 1 (chat, model m, tools: a, b)",
      "  user: q",
      "  tool [call_1]: r",
      "request 2 (chat, model m)",
      "  (1 earlier message(s))",
      "  tool [call_2]: r",
      "request 3 (chat, model m)",
      "  (1 earlier message(s))",
      "  user: other",
      "request 4 (chat, model m)",
      "  assistant: q",
      "request 5 (chat, model m)",
      "  user: q",
      "  user: other",
      "  user: more",
      "request 6 (chat, model m)",
      "  (1 earlier message(s))",
      "  user: else",
      "request 7 (chat, model m)",
      "  (1 earlier message(s))",
      "request 8 (chat, model m)",
      "  (1 earlier message(s))",
      "  user: two",
      "    lines",
    ].join("\n"),
  );
});

Deno.test("transcript() of a ScriptedProvider: no calls, and a call not answered yet", async () => {
  const idle = new ScriptedProvider({ tools: [{ name: "t" }], results: { t: "ok" } });
  assertEquals(transcript(idle), "(no tool calls)");
  let open!: () => void;
  const provider = new ScriptedProvider({
    tools: [{ name: "t" }],
    results: { t: "ok" },
    blockCall: { t: new Promise<void>((resolve) => open = resolve) },
  });
  const pending = provider.executeToolCalls([toolCall("c", "t", { a: 1 })], new NullCtx());
  await Promise.resolve();
  const text = transcript(provider);
  open();
  await pending;
  assertEquals(text, 'batch 1 calls t [call_1] {"a":1}\n  (no result yet)');
});

Deno.test("transcript() of events: each message's text, calls, ends and errors", () => {
  const usage = { inputTokens: 1, outputTokens: 2 };
  const events = [
    { type: "message_start", messageId: "m0" },
    { type: "message_start", messageId: "m1" },
    { type: "text_delta", messageId: "m1", content: "Hel" },
    { type: "text_delta", messageId: "m1", content: "lo" },
    { type: "message_start", messageId: "m2" },
    { type: "text_delta", messageId: "m2", content: "Hi" },
    { type: "tool_call", messageId: "m2", call: { id: "c", name: "t", args: {} } },
    { type: "text_delta", messageId: "m2", content: "after" },
    { type: "message_end", messageId: "m2", finishReason: "tool_calls", usage },
    { type: "message_start", messageId: "m3" },
    { type: "text_delta", messageId: "m3", content: "cut" },
    { type: "error", messageId: "m3", error: new Error("boom"), finishReason: "length", usage },
    { type: "error", messageId: "m3", error: "plain" },
    { type: "text_delta", messageId: "m4", content: "tail" },
  ];
  assertEquals(
    transcript(events as never),
    [
      "assistant [msg_2]: Hello",
      "assistant [msg_3]: Hi",
      "assistant [msg_3] calls t [call_1] {}",
      "assistant [msg_3]: after",
      "end [msg_3]: tool_calls; usage: 1 input tokens, 2 output tokens",
      "assistant [msg_4]: cut",
      "error [msg_4]: Error: boom (finish reason length; usage: 1 input tokens, 2 output tokens)",
      "error [msg_4]: plain",
      "assistant [msg_5]: tail",
    ].join("\n"),
  );
});
