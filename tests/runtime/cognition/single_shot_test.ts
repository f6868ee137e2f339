import { assert, assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import {
  type CognitionInput,
  type CognitionResult,
  NoInvoker,
  SingleShotCognition,
  UnhandledToolCalls,
} from "@agentkit/testing/runtime";
import type { ChatResponse, LLMPort, Message, StreamEvent } from "@agentkit/testing/ports";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";

const messages: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "why?" },
];
const input = (over: Partial<CognitionInput> = {}): CognitionInput => ({
  agent: { name: "sre", model: "fake-model" },
  task: "why?",
  messages,
  ...over,
});

/** Every event of a cognition's stream, then its result. */
async function drain(
  it: AsyncIterator<StreamEvent, CognitionResult | undefined, undefined>,
): Promise<[StreamEvent[], CognitionResult | undefined]> {
  const events: StreamEvent[] = [];
  for (;;) {
    const step = await it.next();
    if (step.done) return [events, step.value];
    events.push(step.value);
  }
}

/** A model port that streams the given events and records what it was asked. */
function port(events: StreamEvent[]): LLMPort & { asked: string[]; closed: boolean } {
  const p = {
    asked: [] as string[],
    closed: false,
    chat(): Promise<ChatResponse> {
      p.asked.push("chat");
      return Promise.resolve({
        id: "r",
        model: "m",
        content: "blocking",
        toolCalls: [],
        finishReason: "stop",
        usage: { inputTokens: 1, outputTokens: 1 },
      });
    },
    async *stream(): AsyncIterable<StreamEvent> {
      p.asked.push("stream");
      try {
        for (const e of events) yield e;
      } finally {
        p.closed = true;
      }
    },
    complete(): Promise<ChatResponse> {
      return p.chat();
    },
  };
  return p;
}

Deno.test("SingleShotCognition: one model call, its text the output", async () => {
  const llm = new FakeLLM("It is DNS.");
  const cognition = new SingleShotCognition();
  assertEquals(cognition.name, "single-shot");
  const settings = { maxTokens: 64 };
  const [events, result] = await drain(
    cognition.stream(input({ streaming: true, settings }), makeTestCtx({ llm })),
  );
  const text = events.flatMap((e) => e.type === "text_delta" ? [e.content] : []).join("");
  assertEquals(text, "It is DNS.");
  assertEquals(events.at(-1)?.type, "message_end");
  assertEquals(result?.output, "It is DNS.");
  assertEquals(result?.stopReason, "stop");
  assertEquals(result?.usage, (events.at(-1) as { usage: unknown }).usage);
  assertEquals(result?.messages.slice(0, 2), messages);
  const answer = result?.messages[2];
  assertEquals(answer, { role: "assistant", content: "It is DNS.", toolCalls: undefined });
  assert(answer && "toolCalls" in answer, "the key is always there");
  assertEquals(llm.requests.length, 1);
  const asked = llm.requests[0];
  assertEquals([asked.kind, asked.model, asked.messages], ["stream", "fake-model", messages]);
  assertEquals(asked.settings?.maxTokens, 64);
});

Deno.test("SingleShotCognition calls blocking only when the input says streaming: false", async () => {
  for (const [streaming, kind] of [[undefined, "stream"], [true, "stream"], [false, "chat"]]) {
    const p = port([]);
    await drain(
      new SingleShotCognition().stream(
        input({ streaming: streaming as boolean | undefined }),
        makeTestCtx({ llm: p }),
      ),
    );
    assertEquals(p.asked, [kind], `streaming: ${streaming}`);
  }
});

Deno.test("SingleShotCognition returns nothing when the call failed or never ended", async (t) => {
  await t.step("an error event", async () => {
    const boom = new Error("provider down");
    const p = port([
      { type: "text_delta", messageId: "m", content: "Par" },
      { type: "error", messageId: "m", error: boom },
    ]);
    const [events, result] = await drain(
      new SingleShotCognition().stream(input(), makeTestCtx({ llm: p })),
    );
    assertEquals(events.map((e) => e.type), ["text_delta", "error"]);
    assertEquals(result, undefined);
  });
  await t.step("an error event with a finish reason other than a length cut", async () => {
    const p = port([{
      type: "error",
      messageId: "m",
      error: new Error("filtered"),
      finishReason: "content_filter",
      usage: { inputTokens: 2, outputTokens: 1 },
    }]);
    const [, result] = await drain(
      new SingleShotCognition().stream(input(), makeTestCtx({ llm: p })),
    );
    assertEquals(result, undefined);
  });
  await t.step("a stream that just stops", async () => {
    const p = port([{ type: "text_delta", messageId: "m", content: "Par" }]);
    const [, result] = await drain(
      new SingleShotCognition().stream(input(), makeTestCtx({ llm: p })),
    );
    assertEquals(result, undefined);
  });
});

Deno.test("SingleShotCognition: a length cut is a result, tool calls and all", async () => {
  const p = port([
    { type: "text_delta", messageId: "m", content: "Long" },
    { type: "tool_call", messageId: "m", call: toolCall("c1", "lookup", {}) },
    { type: "error", messageId: "m", error: new Error("max tokens"), finishReason: "length" },
  ]);
  const [, result] = await drain(
    new SingleShotCognition().stream(input(), makeTestCtx({ llm: p })),
  );
  assertEquals(result, {
    output: "Long",
    usage: { inputTokens: 0, outputTokens: 0 },
    messages: [...messages, {
      role: "assistant",
      content: "Long",
      toolCalls: [toolCall("c1", "lookup", {})],
    }],
    stopReason: "length",
  });
});

Deno.test("SingleShotCognition maps the finish reason to the stop reason", async () => {
  const p = port([{
    type: "message_end",
    messageId: "m",
    finishReason: "content_filter",
    usage: { inputTokens: 3, outputTokens: 0 },
  }]);
  const [, result] = await drain(
    new SingleShotCognition().stream(input(), makeTestCtx({ llm: p })),
  );
  assertEquals([result?.stopReason, result?.usage], ["error", { inputTokens: 3, outputTokens: 0 }]);
});

Deno.test("SingleShotCognition refuses tool calls it would drop", async () => {
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "a", {}), toolCall("c2", "b", {})] }]);
  const it = new SingleShotCognition().stream(input(), makeTestCtx({ llm }));
  const e = await assertRejects(() => drain(it), UnhandledToolCalls);
  assertEquals([e.name, e.agent, e.tools], ["UnhandledToolCalls", "sre", ["a", "b"]]);
  assert(e.message.includes("asked for tool(s) a, b,"), e.message);
});

Deno.test("SingleShotCognition: return() ends the model's stream", async () => {
  const p = port([
    { type: "text_delta", messageId: "m", content: "a" },
    { type: "text_delta", messageId: "m", content: "b" },
  ]);
  const it = new SingleShotCognition().stream(input(), makeTestCtx({ llm: p }));
  assertStrictEquals(it[Symbol.asyncIterator](), it);
  assertEquals((await it.next()).value, { type: "text_delta", messageId: "m", content: "a" });
  assertEquals(await it.return!(), { done: true, value: undefined });
  assert(p.closed, "the port's stream was closed");
});

Deno.test("SingleShotCognition needs an invoker", () => {
  try {
    new SingleShotCognition().stream(input(), makeTestCtx());
    throw new Error("no NoInvoker");
  } catch (e) {
    assert(e instanceof NoInvoker, String(e));
    assert((e as NoInvoker).message.includes('"sre"'));
  }
});

Deno.test("SingleShotCognition keeps what the provider asked to have sent back on the turn's message", async () => {
  const providerData = { gemini: { thoughtSignatures: { text: "sig-1" } } };
  for (const streaming of [true, false]) {
    const p = port([
      { type: "text_delta", messageId: "m", content: "Signed." },
      {
        type: "message_end",
        messageId: "m",
        finishReason: "stop",
        usage: { inputTokens: 2, outputTokens: 1 },
        providerData,
      },
    ]);
    if (!streaming) {
      p.chat = () =>
        Promise.resolve({
          id: "r",
          model: "m",
          content: "Signed.",
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 2, outputTokens: 1 },
          providerData,
        });
    }
    const [, result] = await drain(
      new SingleShotCognition().stream(input({ streaming }), makeTestCtx({ llm: p })),
    );
    assertEquals(
      result?.messages[2],
      { role: "assistant", content: "Signed.", toolCalls: undefined, providerData },
      `streaming: ${streaming}`,
    );
  }
});
