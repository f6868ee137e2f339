// What a FakeProvider's model answered, checked before the wire writes it:
// each field a ChatResponse needs, and a stream's text and finish reason.
import { assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import type { ChatResponse, StreamEvent } from "@agentkit/testing/ports";
import { InvalidScript } from "@agentkit/testing/testing";
import { checkedAnswer, checkedEvent } from "../../../testing/http/_model_answer.ts";

const FINISH = ["stop", "tool_calls", "length", "content_filter", "error"] as const;
const good: ChatResponse = {
  id: "r1",
  model: "m",
  content: "hi",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 1, outputTokens: 2 },
};

Deno.test("checkedAnswer(): a ChatResponse is served as it is, with every finish reason", () => {
  for (const finishReason of FINISH) {
    const answer = { ...good, finishReason };
    assertStrictEquals(checkedAnswer(answer, "3"), answer);
  }
});

Deno.test("checkedAnswer(): each bad field is an InvalidScript naming the request, the field and the fix", () => {
  const cases: Array<[unknown, string]> = [
    [null, "is null, not an object"],
    [5, "is 5, not an object"],
    ["hi", 'is "hi", not an object'],
    [[good], "not an object"],
    [{ ...good, content: 5 }, "has content 5, not a string"],
    [{ ...good, content: undefined }, "has content undefined, not a string"],
    [{ ...good, toolCalls: undefined }, "has toolCalls undefined, not an array"],
    [{ ...good, toolCalls: {} }, "has toolCalls"],
    [
      { ...good, finishReason: "bogus" },
      'has finishReason "bogus", not one of stop, tool_calls, length, content_filter, error',
    ],
    [{ ...good, finishReason: undefined }, "has finishReason undefined"],
    [{ ...good, usage: null }, "has usage null, not { inputTokens, outputTokens } counts"],
    [{ ...good, usage: undefined }, "has usage undefined"],
    [{ ...good, usage: 7 }, "has usage 7"],
    [{ ...good, usage: { inputTokens: 1.5, outputTokens: 2 } }, "has usage"],
    [{ ...good, usage: { inputTokens: 1, outputTokens: "2" } }, "has usage"],
    [{ ...good, usage: { inputTokens: 1 } }, "has usage"],
  ];
  for (const [answer, said] of cases) {
    const e = assertThrows(() => checkedAnswer(answer, "3"), InvalidScript);
    const message = (e as Error).message;
    assertEquals(
      message.startsWith("FakeProvider: the model's answer to request 3 "),
      true,
      message,
    );
    assertEquals(message.includes(said), true, `${message} should say ${said}`);
    assertEquals(message.includes("a model behind a FakeProvider answers a ChatResponse"), true);
  }
});

Deno.test("checkedEvent(): a stream's text must be a string and its end a known finish reason", () => {
  const events: StreamEvent[] = [
    { type: "message_start", messageId: "m" },
    { type: "text_delta", messageId: "m", content: "" },
    { type: "text_delta", messageId: "m", content: "hi" },
    ...FINISH.map((finishReason): StreamEvent => ({
      type: "message_end",
      messageId: "m",
      finishReason,
      usage: { inputTokens: 1, outputTokens: 1 },
    })),
  ];
  for (const event of events) assertStrictEquals(checkedEvent(event, "2"), event);
  const text = assertThrows(
    () => checkedEvent({ type: "text_delta", content: 5 } as unknown as StreamEvent, "2"),
    InvalidScript,
  );
  assertEquals(
    (text as Error).message,
    "FakeProvider: the model's stream for request 2 has a text_delta whose content is 5, not a string",
  );
  const end = assertThrows(
    () =>
      checkedEvent(
        {
          type: "message_end",
          finishReason: "bogus",
          usage: { inputTokens: 1, outputTokens: 1 },
        } as unknown as StreamEvent,
        "4",
      ),
    InvalidScript,
  );
  assertEquals(
    (end as Error).message,
    'FakeProvider: the model\'s stream for request 4 ends with finishReason "bogus", not one of stop, tool_calls, length, content_filter, error',
  );
});
