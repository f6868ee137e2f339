import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import { failureOf, settledResult, StreamResult } from "../../../runtime/stream/_stream_result.ts";
import type { Message, StreamEvent } from "@agentkit/testing/ports";
import type { CognitionResult } from "@agentkit/testing/runtime";

const prefix: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "why?" },
];
const call = { id: "c1", name: "lookup", args: { host: "a" } };

function fold(events: StreamEvent[]): StreamResult {
  const r = new StreamResult();
  for (const e of events) r.add(e);
  return r;
}

Deno.test("StreamResult folds a cognition's events into the run's result", () => {
  const r = fold([
    { type: "message_start", messageId: "m1" },
    { type: "text_delta", messageId: "m1", content: "Let me " },
    { type: "text_delta", messageId: "m1", content: "look." },
    { type: "tool_call", messageId: "m1", call },
    {
      type: "message_end",
      messageId: "m1",
      finishReason: "tool_calls",
      usage: { inputTokens: 10, outputTokens: 3 },
    },
    { type: "message_start", messageId: "m2" },
    { type: "text_delta", messageId: "m2", content: "It is DNS." },
    {
      type: "message_end",
      messageId: "m2",
      finishReason: "stop",
      usage: { inputTokens: 20, outputTokens: 4 },
    },
  ]);
  const result = r.result(prefix, undefined, false, false);
  assertEquals(result, {
    output: "It is DNS.",
    usage: { inputTokens: 30, outputTokens: 7 },
    messages: [
      ...prefix,
      { role: "assistant", content: "Let me look.", toolCalls: [call] },
      { role: "assistant", content: "It is DNS." },
    ],
    stopReason: "stop",
  });
  assertEquals(failureOf(result), undefined);
  assertStrictEquals(settledResult(result), result);
});

Deno.test("StreamResult keeps a message with no text, and one that never started", () => {
  const r = fold([
    { type: "message_start", messageId: "m1" },
    { type: "message_end", messageId: "m1", finishReason: "stop", usage: zero() },
    { type: "text_delta", messageId: "m2", content: "no start" },
    { type: "tool_call", messageId: "m3", call },
  ]);
  const result = r.result([], undefined, false, false);
  assertEquals(result.messages, [
    { role: "assistant", content: "" },
    { role: "assistant", content: "no start" },
    { role: "assistant", content: "", toolCalls: [call] },
  ]);
  assertEquals(result.output, "", "the last message's text");
});

Deno.test("StreamResult: the stop reason of the last end, or stop without one", () => {
  assertEquals(fold([]).result(prefix, undefined, false, false), {
    output: "",
    usage: zero(),
    messages: prefix,
    stopReason: "stop",
  });
  const cut = fold([
    { type: "text_delta", messageId: "m", content: "Long" },
    { type: "message_end", messageId: "m", finishReason: "length", usage: zero() },
  ]);
  assertEquals(cut.result([], undefined, false, false).stopReason, "length");
  const filtered = fold([
    { type: "message_end", messageId: "m", finishReason: "content_filter", usage: zero() },
  ]);
  assertEquals(filtered.result([], undefined, false, false).stopReason, "error");
  assertEquals(fold([]).result([], undefined, true, false).stopReason, "halted");
});

Deno.test("StreamResult: a stream that ends on an error failed, a length cut did not", async (t) => {
  await t.step("an error: the run's error, the usage billed before it", () => {
    const boom = new Error("provider down");
    const r = fold([
      { type: "message_end", messageId: "m0", finishReason: "stop", usage: usage(5, 1) },
      { type: "text_delta", messageId: "m1", content: "Part" },
      { type: "error", messageId: "m1", error: boom, usage: usage(7, 2) },
    ]);
    const result = r.result([], undefined, false, false);
    assertEquals([result.stopReason, result.usage], ["error", usage(12, 3)]);
    assertStrictEquals(failureOf(result)?.error, boom);
    const e = assertThrows(() => settledResult(result));
    assertStrictEquals(e, boom);
  });
  await t.step("an error without usage adds none", () => {
    const r = fold([
      { type: "message_end", messageId: "m0", finishReason: "stop", usage: usage(5, 1) },
      { type: "error", messageId: "m1", error: new Error("x") },
    ]);
    assertEquals(r.result([], undefined, false, false).usage, usage(5, 1));
  });
  await t.step("a length cut stops the run without failing it", () => {
    const r = fold([
      { type: "error", messageId: "m1", error: new Error("cut"), finishReason: "length" },
    ]);
    const result = r.result([], undefined, false, false);
    assertEquals(result.stopReason, "length");
    assertEquals(failureOf(result), undefined);
  });
  await t.step("a later message_end clears the error", () => {
    const r = fold([
      { type: "error", messageId: "m1", error: new Error("x") },
      { type: "message_end", messageId: "m2", finishReason: "stop", usage: zero() },
    ]);
    const result = r.result([], undefined, false, false);
    assertEquals([result.stopReason, failureOf(result)], ["stop", undefined]);
  });
});

Deno.test("StreamResult takes a cognition's returned result at its word", () => {
  const returned: CognitionResult = {
    output: "done",
    usage: usage(1, 1),
    messages: [...prefix, { role: "assistant", content: "done" }],
    stopReason: "length",
  };
  const r = fold([{ type: "text_delta", messageId: "m", content: "streamed" }]);
  assertEquals(r.result(prefix, returned, false, false), returned);
});

Deno.test("StreamResult: a hook's rewrite replaces the text of the assistant messages", async (t) => {
  const earlier: Message[] = [
    { role: "user", content: "before" },
    { role: "assistant", content: "an earlier answer" },
  ];
  const returned: CognitionResult = {
    output: "secret 42",
    usage: usage(3, 3),
    messages: [
      ...earlier,
      { role: "user", content: "why?" },
      { role: "assistant", content: "calling", toolCalls: [call] },
      { role: "tool", content: "42", toolCallId: "c1" },
      { role: "assistant", content: "secret 42" },
    ],
    stopReason: "stop",
  };
  const start = [...earlier, { role: "user" as const, content: "why?" }];
  await t.step("one streamed message per assistant message", () => {
    const r = fold([
      { type: "text_delta", messageId: "m1", content: "calling" },
      { type: "text_delta", messageId: "m2", content: "[redacted]" },
    ]);
    const result = r.result(start, returned, false, true);
    assertEquals(result.output, "[redacted]");
    assertEquals(result.messages, [
      ...earlier,
      { role: "user", content: "why?" },
      { role: "assistant", content: "calling", toolCalls: [call] },
      { role: "tool", content: "42", toolCallId: "c1" },
      { role: "assistant", content: "[redacted]" },
    ]);
    assertEquals([result.usage, result.stopReason], [usage(3, 3), "stop"]);
  });
  await t.step("messages that do not line up are kept as returned", () => {
    const r = fold([{ type: "text_delta", messageId: "m1", content: "[one message]" }]);
    const result = r.result(start, returned, false, true);
    assertEquals(result.messages, returned.messages);
    assertEquals(result.output, "[one message]");
  });
  await t.step("nothing streamed: the returned output", () => {
    const result = fold([]).result(start, { ...returned, messages: start }, false, true);
    assertEquals(result.output, "secret 42");
  });
});

function zero() {
  return { inputTokens: 0, outputTokens: 0 };
}

function usage(inputTokens: number, outputTokens: number) {
  return { inputTokens, outputTokens };
}

Deno.test("StreamResult.failure is what failureOf says of the result it built", () => {
  const error = new Error("overloaded");
  const failed = fold([
    { type: "message_start", messageId: "m" },
    { type: "error", messageId: "m", error },
  ]);
  assertEquals(failed.failure, undefined);
  const result = failed.result(prefix, undefined, false, false);
  assertStrictEquals(failed.failure, failureOf(result));
  assertStrictEquals(failed.failure?.error, error);
  const cut = fold([
    { type: "message_start", messageId: "m" },
    { type: "error", messageId: "m", error, finishReason: "length" },
  ]);
  cut.result(prefix, undefined, false, false);
  assertEquals(cut.failure, undefined);
});
