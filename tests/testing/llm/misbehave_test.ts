import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import type { ChatRequest, StreamEvent } from "@agentkit/testing/ports";
import {
  FakeClock,
  FakeLLM,
  InvalidScript,
  makeTestCtx,
  misbehave,
  MISBEHAVIOUR_KINDS,
  misbehaviourOf,
  type Turn,
} from "@agentkit/testing/testing";

const request: ChatRequest = {
  model: "m",
  messages: [{ role: "user", content: "go" }],
  tools: [{ name: "lookup", description: "", parameters: { type: "object" } }],
};

async function events(turn: Turn): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of FakeLLM.script([turn]).stream(request)) out.push(e);
  return out;
}

function end(finishReason: string): StreamEvent {
  return {
    type: "message_end",
    messageId: "fake-stream-1",
    finishReason: finishReason as "stop",
    usage: { inputTokens: 10, outputTokens: 0 },
  };
}

const id = "fake-stream-1";
const start: StreamEvent = { type: "message_start", messageId: id };

Deno.test("misbehave: every builder is listed in MISBEHAVIOUR_KINDS, and each kind is a builder", () => {
  assertEquals([...MISBEHAVIOUR_KINDS].sort(), Object.keys(misbehave).sort());
  assert(Object.isFrozen(misbehave) && Object.isFrozen(MISBEHAVIOUR_KINDS));
});

Deno.test("misbehave builders make frozen turns that misbehaviourOf() names with their source", () => {
  const cases: Array<[Turn, string, string]> = [
    [misbehave.invalidToolJson("lookup"), "invalidToolJson", 'misbehave.invalidToolJson("lookup")'],
    [
      misbehave.invalidToolJson("lookup", "{'a': 1}"),
      "invalidToolJson",
      `misbehave.invalidToolJson("lookup", "{'a': 1}")`,
    ],
    [
      misbehave.schemaViolatingArgs("lookup", { host: 42 }),
      "schemaViolatingArgs",
      'misbehave.schemaViolatingArgs("lookup", {"host":42})',
    ],
    [misbehave.unknownTool(), "unknownTool", "misbehave.unknownTool()"],
    [misbehave.unknownTool("lookpu"), "unknownTool", 'misbehave.unknownTool("lookpu")'],
    [
      misbehave.duplicateCallIds("lookup"),
      "duplicateCallIds",
      'misbehave.duplicateCallIds("lookup")',
    ],
    [
      misbehave.duplicateCallIds("lookup", 3),
      "duplicateCallIds",
      'misbehave.duplicateCallIds("lookup", 3)',
    ],
    [
      misbehave.lengthMidToolCall("lookup"),
      "lengthMidToolCall",
      'misbehave.lengthMidToolCall("lookup")',
    ],
    [misbehave.emptyAnswer(), "emptyAnswer", "misbehave.emptyAnswer()"],
    [misbehave.refusal(), "refusal", "misbehave.refusal()"],
    [misbehave.refusal("No."), "refusal", 'misbehave.refusal("No.")'],
    [misbehave.contentFilter(), "contentFilter", "misbehave.contentFilter()"],
    [misbehave.reasoningOnly(), "reasoningOnly", "misbehave.reasoningOnly()"],
    [misbehave.reasoningOnly("Hm."), "reasoningOnly", 'misbehave.reasoningOnly("Hm.")'],
    [misbehave.malformedToolCall(), "malformedToolCall", "misbehave.malformedToolCall()"],
  ];
  for (const [turn, kind, source] of cases) {
    assertEquals(misbehaviourOf(turn), { kind, source });
    assert(Object.isFrozen(turn), source);
    if (turn.toolCalls) assert(Object.isFrozen(turn.toolCalls), source);
    for (const call of turn.toolCalls ?? []) {
      assert(Object.isFrozen(call) && Object.isFrozen(call.args), source);
    }
    assertEquals(misbehaviourOf({ ...turn }), undefined, "a copy is an ordinary turn");
  }
  assertEquals(misbehaviourOf("hi"), undefined);
});

Deno.test("misbehave builders: the turns they make", () => {
  assertEquals(misbehave.invalidToolJson("lookup"), {
    toolCalls: [{
      id: "call_invalid_json",
      name: "lookup",
      args: {},
      rawArgs: '{"query": "unterminated',
    }],
  });
  for (const raw of ["[1, 2]", "null", "42", '"text"', "", "{"]) {
    assertEquals(misbehave.invalidToolJson("lookup", raw).toolCalls?.[0].rawArgs, raw);
  }
  const args = { host: 42, nested: { n: [1] } };
  const violating = misbehave.schemaViolatingArgs("lookup", args);
  assertEquals(violating.toolCalls, [{ id: "call_schema_violation", name: "lookup", args }]);
  args.nested.n.push(2);
  assertEquals(violating.toolCalls?.[0].args, { host: 42, nested: { n: [1] } }, "a copy");
  assertEquals(misbehave.unknownTool().toolCalls, [{
    id: "call_unknown_tool",
    name: "no_such_tool",
    args: {},
  }]);
  assertEquals(misbehave.duplicateCallIds("t").toolCalls?.length, 2);
  assertEquals(misbehave.duplicateCallIds("t", 100).toolCalls?.length, 100);
  assertEquals(misbehave.lengthMidToolCall("t"), {
    toolCalls: [{ id: "call_cut", name: "t", args: {}, rawArgs: '{"query": "the weat' }],
    finishReason: "length",
  });
  assertEquals(misbehave.emptyAnswer(), { content: "", finishReason: "stop" });
  assertEquals(misbehave.refusal(), { refusal: "I'm sorry, but I can't help with that." });
  assertEquals(misbehave.contentFilter(), { content: "", finishReason: "content_filter" });
  assertEquals(misbehave.reasoningOnly("Hm."), {
    content: "",
    reasoning: "Hm.",
    finishReason: "stop",
  });
  assertEquals(misbehave.malformedToolCall(), {
    toolCalls: [{ id: "call_malformed", name: "", args: {} }],
  });
});

Deno.test("misbehave builders refuse bad input with a TypeError naming the builder and the argument", () => {
  const bad: Array<[() => unknown, string]> = [
    [
      () => misbehave.invalidToolJson(42 as never),
      "misbehave.invalidToolJson(): name must be the tool's name (a non-empty string), got 42",
    ],
    [
      () => misbehave.invalidToolJson(""),
      'misbehave.invalidToolJson(): name must be the tool\'s name (a non-empty string), got ""',
    ],
    [
      () => misbehave.invalidToolJson("t", 1 as never),
      "misbehave.invalidToolJson(): raw must be the argument text (a string), got 1",
    ],
    [() => misbehave.invalidToolJson("t", '{"a":1}'), 'raw "{\\"a\\":1}" is a valid JSON object'],
    [
      () => (misbehave.invalidToolJson as (...a: unknown[]) => Turn)("t", "x", "y"),
      "misbehave.invalidToolJson() takes at most 2 argument(s), got 3",
    ],
    [
      () => (misbehave.schemaViolatingArgs as (...a: unknown[]) => Turn)("t", {}, 1),
      "misbehave.schemaViolatingArgs() takes at most 2 argument(s), got 3",
    ],
    [
      () => (misbehave.duplicateCallIds as (...a: unknown[]) => Turn)("t", 2, 1),
      "misbehave.duplicateCallIds() takes at most 2 argument(s), got 3",
    ],
    [
      () => misbehave.schemaViolatingArgs("t", undefined as never),
      "misbehave.schemaViolatingArgs(): args must be the arguments object the tool's schema refuses, got undefined",
    ],
    [() => misbehave.schemaViolatingArgs("t", [] as never), "got an array"],
    [() => misbehave.schemaViolatingArgs("t", null as never), "got null"],
    [
      () => misbehave.schemaViolatingArgs("t", { n: 1n }),
      "misbehave.schemaViolatingArgs(): args.n is a BigInt",
    ],
    [
      () => misbehave.schemaViolatingArgs(undefined as never, {}),
      "misbehave.schemaViolatingArgs(): name must be",
    ],
    [
      () => misbehave.unknownTool(7 as never),
      "misbehave.unknownTool(): name must be the tool's name (a non-empty string), got 7",
    ],
    [
      () => (misbehave.unknownTool as (...a: unknown[]) => Turn)("a", "b"),
      "misbehave.unknownTool() takes at most 1 argument(s), got 2",
    ],
    [
      () => misbehave.duplicateCallIds("t", 1),
      "misbehave.duplicateCallIds(): n must be how many calls share the id (an integer from 2 to 100), got 1",
    ],
    [() => misbehave.duplicateCallIds("t", 101), "got 101"],
    [() => misbehave.duplicateCallIds("t", 2.5), "got 2.5"],
    [() => misbehave.duplicateCallIds("t", "3" as never), 'got "3"'],
    [() => misbehave.duplicateCallIds({} as never), "misbehave.duplicateCallIds(): name must be"],
    [
      () => misbehave.lengthMidToolCall(null as never),
      "misbehave.lengthMidToolCall(): name must be the tool's name (a non-empty string), got null",
    ],
    [
      () => (misbehave.lengthMidToolCall as (...a: unknown[]) => Turn)("t", 1),
      "misbehave.lengthMidToolCall() takes at most 1 argument(s), got 2",
    ],
    [
      () => (misbehave.emptyAnswer as (...a: unknown[]) => Turn)(""),
      "misbehave.emptyAnswer() takes at most 0 argument(s), got 1",
    ],
    [
      () => misbehave.refusal(""),
      'misbehave.refusal(): text must be what the model says instead (a non-empty string), got ""',
    ],
    [() => misbehave.refusal(3 as never), "misbehave.refusal(): text must be"],
    [
      () => (misbehave.refusal as (...a: unknown[]) => Turn)("a", "b"),
      "misbehave.refusal() takes at most 1 argument(s), got 2",
    ],
    [
      () => (misbehave.contentFilter as (...a: unknown[]) => Turn)(1),
      "misbehave.contentFilter() takes at most 0 argument(s), got 1",
    ],
    [
      () => misbehave.reasoningOnly(false as never),
      "misbehave.reasoningOnly(): text must be the model's thinking (a non-empty string), got false",
    ],
    [
      () => (misbehave.reasoningOnly as (...a: unknown[]) => Turn)("a", "b"),
      "misbehave.reasoningOnly() takes at most 1 argument(s), got 2",
    ],
    [
      () => (misbehave.malformedToolCall as (...a: unknown[]) => Turn)("x"),
      "misbehave.malformedToolCall() takes at most 0 argument(s), got 1",
    ],
  ];
  for (const [fn, message] of bad) assertThrows(fn, TypeError, message);
});

Deno.test("FakeLLM.script() takes a misbehave turn as built, and checks a copy like any turn", () => {
  FakeLLM.script([misbehave.malformedToolCall()]);
  assertThrows(
    () => FakeLLM.script([{ ...misbehave.malformedToolCall() }]),
    InvalidScript,
    "misbehave.malformedToolCall() scripts a nameless call on purpose",
  );
  assertThrows(
    () => FakeLLM.script([{ refusal: "No.", content: "x" }]),
    InvalidScript,
    "turn 1: a refusal is the whole answer, so it takes no content, chunks or toolCalls",
  );
  assertThrows(
    () => FakeLLM.script([{ refusal: "No.", chunks: ["x"] }]),
    InvalidScript,
    "a refusal is the whole answer",
  );
  assertThrows(
    () => FakeLLM.script([{ refusal: "No.", toolCalls: [{ id: "c", name: "t", args: {} }] }]),
    InvalidScript,
    "a refusal is the whole answer",
  );
  assertThrows(() => FakeLLM.script([{ refusal: 1 } as never]), InvalidScript, "refusal");
  assertThrows(() => FakeLLM.script([{ reasoning: 1 } as never]), InvalidScript, "reasoning");
  FakeLLM.script([{ refusal: "" }, { reasoning: "", content: "a" }]);
});

Deno.test("FakeLLM serves each misbehaviour as the port's result, blocking", async (t) => {
  const usage = { inputTokens: 10, outputTokens: 0 };
  const cases: Array<[string, Turn, Record<string, unknown>]> = [
    ["invalidToolJson", misbehave.invalidToolJson("lookup"), {
      content: "",
      toolCalls: [{
        id: "call_invalid_json",
        name: "lookup",
        args: {},
        rawArgs: '{"query": "unterminated',
      }],
      finishReason: "tool_calls",
    }],
    ["lengthMidToolCall", misbehave.lengthMidToolCall("lookup"), {
      content: "",
      toolCalls: [{ id: "call_cut", name: "lookup", args: {}, rawArgs: '{"query": "the weat' }],
      finishReason: "length",
    }],
    ["emptyAnswer", misbehave.emptyAnswer(), { content: "", toolCalls: [], finishReason: "stop" }],
    ["refusal", misbehave.refusal("No."), {
      content: "No.",
      toolCalls: [],
      finishReason: "content_filter",
      refusal: true,
    }],
    ["contentFilter", misbehave.contentFilter(), {
      content: "",
      toolCalls: [],
      finishReason: "content_filter",
    }],
    ["reasoningOnly", misbehave.reasoningOnly("Hm."), {
      content: "",
      toolCalls: [],
      finishReason: "stop",
      reasoning: "Hm.",
    }],
    ["malformedToolCall", misbehave.malformedToolCall(), {
      content: "",
      toolCalls: [{ id: "call_malformed", name: "", args: {} }],
      finishReason: "tool_calls",
    }],
  ];
  for (const [name, turn, expected] of cases) {
    await t.step(name, async () => {
      const res = await FakeLLM.script([turn]).chat(request);
      assertEquals(res, { id: "fake-chat-1", model: "m", usage, ...expected } as never);
    });
  }
});

Deno.test("FakeLLM streams each misbehaviour as the port's events", async (t) => {
  await t.step("refusal: its text flagged, then content_filter", async () => {
    assertEquals(await events(misbehave.refusal("No.")), [
      start,
      { type: "text_delta", messageId: id, content: "No.", refusal: true },
      end("content_filter"),
    ]);
  });
  await t.step("reasoningOnly: the thinking, then stop", async () => {
    assertEquals(await events(misbehave.reasoningOnly("Hm.")), [
      start,
      { type: "reasoning_delta", messageId: id, content: "Hm." },
      end("stop"),
    ]);
  });
  await t.step("lengthMidToolCall: the cut call, then length", async () => {
    assertEquals(await events(misbehave.lengthMidToolCall("lookup")), [
      start,
      {
        type: "tool_call",
        messageId: id,
        call: { id: "call_cut", name: "lookup", args: {}, rawArgs: '{"query": "the weat' },
      },
      end("length"),
    ]);
  });
  await t.step("emptyAnswer and contentFilter: no text at all", async () => {
    assertEquals(await events(misbehave.emptyAnswer()), [start, end("stop")]);
    assertEquals(await events(misbehave.contentFilter()), [start, end("content_filter")]);
  });
  await t.step("a scripted refusal in chunks, with thinking first", async () => {
    const got = await events({
      reasoning: "Think.",
      refusal: "No.",
      usage: { inputTokens: 10, outputTokens: 0 },
    });
    assertEquals(got.map((e) => e.type), [
      "message_start",
      "reasoning_delta",
      "text_delta",
      "message_end",
    ]);
  });
});

Deno.test("FakeLLM paces a thinking turn: the thinking comes before the first chunk's delay", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{
    reasoning: "Hm.",
    chunks: ["a", "b"],
    firstChunkDelayMs: 100,
    chunkDelayMs: 10,
  }]);
  const ctx = makeTestCtx({ llm, clock });
  const seen: Array<[string, number]> = [];
  for await (const e of llm.stream(request, ctx)) seen.push([e.type, clock.now()]);
  assertEquals(seen, [
    ["message_start", 0],
    ["reasoning_delta", 0],
    ["text_delta", 100],
    ["text_delta", 110],
    ["message_end", 110],
  ]);
  const blocking = FakeLLM.script([{
    reasoning: "Hm.",
    chunks: ["a", "b"],
    firstChunkDelayMs: 100,
    chunkDelayMs: 10,
  }]);
  const res = await blocking.chat(request, makeTestCtx({ llm: blocking, clock }));
  assertEquals([res.content, res.reasoning, clock.now()], ["ab", "Hm.", 220]);
});

Deno.test("FakeLLM plays misbehave.unknownTool() under strictTools, and does not list it as a script mistake", async () => {
  const turn = misbehave.unknownTool("nope");
  const llm = FakeLLM.script([turn, turn], { strictTools: true });
  const res = await llm.chat(request);
  assertEquals(res.toolCalls[0].name, "nope");
  const streamed: StreamEvent[] = [];
  for await (const e of llm.stream(request)) streamed.push(e);
  assertEquals(streamed[1].type, "tool_call");
  assertEquals(llm.unknownToolCalls, []);
  assertStrictEquals(llm.harnessErrors.length, 0);
});
