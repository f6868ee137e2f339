import {
  assert,
  assertEquals,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  Agent,
  checkStreamEvent,
  type Cognition,
  HarnessError,
  InvalidStreamEvent,
  isStreamEvent,
  ReActCognition,
  streamEventIssues,
} from "@agentkit/testing/runtime";
import type { StreamEvent } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const usage = { inputTokens: 1, outputTokens: 2 };

// A cognition that streams exactly what it is given, and notes whether its
// generator was closed.
function streaming(items: unknown[], name = "scripted"): Cognition & { closed: boolean } {
  const c = {
    name,
    closed: false,
    run: () => Promise.reject(new Error("not used")),
    async *stream(): AsyncGenerator<StreamEvent> {
      try {
        for (const item of items) yield item as StreamEvent;
      } finally {
        c.closed = true;
      }
    },
  };
  return c;
}

const VALID: unknown[] = [
  { type: "message_start", messageId: "m" },
  { type: "text_delta", messageId: "m", content: "" },
  { type: "text_delta", messageId: "m", content: "Hi", extra: 1 },
  { type: "text_delta", messageId: "m", content: "No.", refusal: true },
  { type: "text_delta", messageId: "m", content: "Hi", refusal: false },
  { type: "reasoning_delta", messageId: "m", content: "Hm." },
  { type: "tool_call", messageId: "m", call: { id: "c", name: "t", args: {} } },
  { type: "tool_call", messageId: "m", call: { id: "c", name: "t", args: {}, rawArgs: "{" } },
  { type: "message_end", messageId: "m", finishReason: "stop", usage },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "length",
    usage: {
      ...usage,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      reasoningTokens: 3,
      costUsd: 0.5,
    },
  },
  { type: "error", messageId: "m", error: new Error("x") },
  { type: "error", messageId: "m", error: new TypeError("x"), finishReason: "length", usage },
  { type: "message_end", messageId: "m", finishReason: "stop", usage: { ...usage, costUsd: 0 } },
];

const INVALID: unknown[] = [
  "Hello",
  42,
  null,
  undefined,
  [],
  {},
  { type: "text_delta", content: "no id" },
  { type: "text_delta", messageId: 1, content: "x" },
  { type: "text_delta", messageId: "m", text: "wrong key" },
  { type: "text_delta", messageId: "m", content: 5 },
  { type: "text_delta", messageId: "m", content: "No.", refusal: "yes" },
  { type: "reasoning_delta", messageId: "m" },
  { type: "reasoning_delta", content: "Hm." },
  { type: "reasoning_delta", messageId: "m", content: 1 },
  { type: "text", messageId: "m", content: "x" },
  { type: "tool_call", messageId: "m" },
  { type: "tool_call", messageId: "m", call: { id: "c", name: "t" } },
  { type: "tool_call", messageId: "m", call: { id: "c", name: "t", args: [] } },
  { type: "tool_call", messageId: "m", call: { id: "c", name: "t", args: {}, rawArgs: 1 } },
  { type: "message_end", messageId: "m", finishReason: "done", usage },
  { type: "message_end", messageId: "m", finishReason: "stop" },
  { type: "message_end", messageId: "m", finishReason: "stop", usage: { inputTokens: 1 } },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { ...usage, outputTokens: -1 },
  },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { ...usage, inputTokens: 1.5 },
  },
  { type: "message_end", messageId: "m", finishReason: "stop", usage: { ...usage, costUsd: -1 } },
  { type: "message_end", messageId: "m", finishReason: "stop", usage: { ...usage, costUsd: NaN } },
  { type: "error", messageId: "m", error: "a string, not an Error" },
  { type: "error", messageId: "m", error: new Error("x"), finishReason: "nope" },
  { type: "error", messageId: "m", error: new Error("x"), usage: {} },
  { type: "message_end", messageId: "m", finishReason: "stop", usage: null },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { ...usage, cachedInputTokens: -1 },
  },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { ...usage, reasoningTokens: -1 },
  },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { ...usage, cacheWriteInputTokens: 1.5 },
  },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { ...usage, costUsd: Infinity },
  },
  {
    type: "message_end",
    messageId: "m",
    finishReason: "stop",
    usage: { ...usage, costUsd: "0.1" },
  },
  { type: "tool_call", messageId: "m", call: null },
  { type: "tool_call", messageId: "m", call: { id: 5, name: "t", args: {} } },
  { type: "tool_call", messageId: "m", call: { id: "c", name: 5, args: {} } },
  { type: "tool_call", messageId: "m", call: { id: "c", name: "t", args: null } },
];

Deno.test("isStreamEvent() agrees with the zod schema on valid and malformed events", () => {
  for (const v of VALID) {
    assertEquals(streamEventIssues(v), [], `zod rejects ${JSON.stringify(v)}`);
    assert(isStreamEvent(v), `the structural check rejects ${JSON.stringify(v)}`);
  }
  for (const v of INVALID) {
    assert(streamEventIssues(v).length > 0, `zod accepts ${JSON.stringify(v)}`);
    assertStrictEquals(
      isStreamEvent(v),
      false,
      `the structural check accepts ${JSON.stringify(v)}`,
    );
  }
});

Deno.test("Agent.stream() rejects a bare string with InvalidStreamEvent naming the cognition", async () => {
  const cognition = streaming([{ type: "message_start", messageId: "m" }, "Hel", "lo"], "bare");
  const agent = new Agent("a", { model: "m", cognition });
  const seen: StreamEvent[] = [];
  const error = await assertRejects(async () => {
    for await (const e of agent.stream("hi", makeTestCtx())) seen.push(e);
  }, InvalidStreamEvent);
  assertStringIncludes(error.message, 'cognition "bare" yielded "Hel"');
  assertStringIncludes(error.message, "expected object, received string");
  assertEquals([error.source, error.value], ['cognition "bare"', "Hel"]);
  assert(error instanceof HarnessError, "a broken cognition is a harness error");
  assertEquals(seen.map((e) => e.type), ["message_start"]);
  assert(cognition.closed, "the cognition's stream was closed");
});

Deno.test("Agent.stream() names the field of a malformed event", async (t) => {
  await t.step("a text_delta with text instead of content", async () => {
    const agent = new Agent("a", {
      model: "m",
      cognition: streaming([{ type: "text_delta", messageId: "m", text: "Hi" }]),
    });
    const error = await assertRejects(
      () => Array.fromAsync(agent.stream("hi", makeTestCtx())),
      InvalidStreamEvent,
    );
    assertStringIncludes(error.message, '"text":"Hi"');
    assertStringIncludes(error.message, "content:");
  });
  await t.step("a message_end without usage", async () => {
    const agent = new Agent("a", {
      model: "m",
      cognition: streaming([{ type: "message_end", messageId: "m", finishReason: "stop" }]),
    });
    await assertRejects(
      () => Array.fromAsync(agent.stream("hi", makeTestCtx())),
      InvalidStreamEvent,
      "usage:",
    );
  });
});

Deno.test("Agent.stream() lets valid events through unchanged, in order", async () => {
  const events = VALID.slice(0, 6) as StreamEvent[];
  const agent = new Agent("a", { model: "m", cognition: streaming(events) });
  const out = await Array.fromAsync(agent.stream("hi", makeTestCtx()));
  assertEquals(out.length, events.length);
  out.forEach((e, i) => assert(e === events[i], `event ${i} is the same object`));
});

Deno.test("Agent.stream() validates the events of the built-in cognitions without complaint", async () => {
  const llm = FakeLLM.script([
    { toolCalls: [{ id: "c1", name: "lookup", args: {} }] },
    { chunks: ["The cert ", "expired."] },
  ]);
  const tool = new FakeTool({ name: "lookup", responder: "2026-08-01" });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const events = await Array.fromAsync(agent.stream("why?", makeTestCtx({ llm })));
  assertEquals(
    events.flatMap((e) => e.type === "text_delta" ? [e.content] : []).join(""),
    "The cert expired.",
  );
  assertEquals(tool.calls.length, 1);
});

Deno.test("Agent.start() projects only text_delta into delta; accumulate by filtering on delta", async () => {
  const agent = new Agent("a", {
    model: "m",
    cognition: streaming([
      { type: "message_start", messageId: "m-1" },
      { type: "text_delta", messageId: "m-1", content: "Hel" },
      { type: "text_delta", messageId: "m-1", content: "lo" },
      { type: "message_end", messageId: "m-1", finishReason: "stop", usage },
    ]),
  });
  const run = agent.start("hi", makeTestCtx());
  const chunks = [];
  for await (const chunk of run.events) chunks.push(chunk);
  assertEquals(chunks.map((c) => "delta" in c), [true, true, true, true]);
  assertEquals(chunks.map((c) => c.delta), [undefined, "Hel", "lo", undefined]);
  const text = chunks.filter((c) => c.delta !== undefined).map((c) => c.delta).join("");
  assertEquals(text, "Hello");
});

Deno.test("streamEventIssues() prefixes each problem with its path, none at the root", () => {
  assertEquals(streamEventIssues("Hello"), ["Invalid input: expected object, received string"]);
  const issues = streamEventIssues({ type: "text_delta", messageId: 5, content: 1 });
  assertEquals(issues.map((i) => i.slice(0, i.indexOf(":"))), ["messageId", "content"]);
});

Deno.test("checkStreamEvent() returns a valid event and refuses anything else, naming the source", () => {
  const event = { type: "message_start", messageId: "m" };
  assertStrictEquals(checkStreamEvent(event, 'cognition "c"'), event);
  const bad = {
    type: "message_end",
    messageId: 5,
    finishReason: "x",
    usage: { inputTokens: -1, outputTokens: "a" },
  };
  const e = assertThrows(() => checkStreamEvent(bad, 'cognition "c"'), InvalidStreamEvent);
  assertEquals([e.source, e.value], ['cognition "c"', bad]);
  assert(e.message.startsWith('cognition "c" yielded {"type":"message_end"'), e.message);
  // The first three of its four problems, joined.
  assertStringIncludes(
    e.message,
    "(messageId: Invalid input: expected string, received number; finishReason: ",
  );
  assertStringIncludes(e.message, "; usage.inputTokens: Too small: expected number to be >=0);");
  assert(!e.message.includes("usage.outputTokens"), e.message);
});
