import { assert, assertEquals, assertRejects } from "@std/assert";
import {
  Agent,
  type CognitionInput,
  type CognitionResult,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { isAppendOnly } from "../../../runtime/_append_only.ts";
import {
  type ChatResponse,
  type LLMPort,
  type Message,
  ProviderResponseError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

function reactAgent(tools: FakeTool[], maxIterations?: number): Agent {
  return new Agent("sre", {
    model: "fake-model",
    cognition: new ReActCognition({ tools, maxIterations }),
  });
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

Deno.test("ReActCognition.stream() sends the whole transcript: text deltas joined, tool calls, results", async () => {
  const tool = new FakeTool({ name: "lookup", responder: { up: true } });
  const calls = [toolCall("c1", "lookup", { host: "a" }), toolCall("c2", "lookup", { host: "b" })];
  const llm = FakeLLM.script([
    { chunks: ["Checking ", "both."], toolCalls: calls },
    { chunks: ["Both ", "up."] },
  ]);
  await collect(reactAgent([tool]).stream("go", makeTestCtx({ llm })));
  const first = llm.requests[0].messages;
  assertEquals(first.at(-1), { role: "user", content: "go" });
  const second: Message[] = [
    ...first,
    { role: "assistant", content: "Checking both.", toolCalls: calls },
    { role: "tool", content: '{"up":true}', toolCallId: "c1" },
    { role: "tool", content: '{"up":true}', toolCallId: "c2" },
  ];
  assertEquals(llm.requests[1].messages, second);
  assertEquals(llm.requests.map((r) => r.streaming), [true, true]);
  assertEquals(tool.calls, [{ host: "a" }, { host: "b" }]);
});

Deno.test("ReActCognition.stream(): an error event cut at the length limit ends the stream quietly", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = FakeLLM.script([{
    chunks: ["Spawning"],
    toolCalls: [toolCall("c1", "t", {})],
    error: "Hit max tokens",
    finishReason: "length",
  }]);
  const events = await collect(reactAgent([tool]).stream("go", makeTestCtx({ llm })));
  assertEquals(events.map((e) => e.type), ["message_start", "text_delta", "tool_call", "error"]);
  assertEquals([tool.calls.length, llm.calls], [0, 1]);
});

Deno.test("ReActCognition.stream(): any other error event is yielded, then thrown, and nothing runs", async (t) => {
  for (const finishReason of [undefined, "content_filter", "error"] as const) {
    await t.step(String(finishReason), async () => {
      const tool = new FakeTool({ name: "t", responder: "r" });
      const llm = FakeLLM.script([{
        chunks: ["partial"],
        toolCalls: [toolCall("c1", "t", {})],
        error: "connection reset",
        finishReason,
      }, "unreached"], { allowUnused: true });
      const seen: string[] = [];
      const thrown = await assertRejects(async () => {
        for await (const e of reactAgent([tool]).stream("go", makeTestCtx({ llm }))) {
          seen.push(e.type);
        }
      });
      assert(thrown instanceof ProviderResponseError, String(thrown));
      assertEquals(thrown.finishReason, finishReason);
      assertEquals(seen, ["message_start", "text_delta", "tool_call", "error"]);
      assertEquals([tool.calls.length, llm.calls], [0, 1]);
    });
  }
});

Deno.test("ReActCognition.stream(): a finish of length, content_filter or error runs none of the turn's tools", async (t) => {
  for (const finishReason of ["length", "content_filter", "error"] as const) {
    await t.step(finishReason, async () => {
      const tool = new FakeTool({ name: "t", responder: "r" });
      const llm = FakeLLM.script([{
        chunks: ["cut"],
        toolCalls: [toolCall("c1", "t", {})],
        finishReason,
      }]);
      const events = await collect(reactAgent([tool]).stream("go", makeTestCtx({ llm })));
      assertEquals(events.at(-1)?.type, "message_end");
      assertEquals([tool.calls.length, llm.calls], [0, 1]);
    });
  }
});

Deno.test("ReActCognition.stream(): a stream that ends without message_end stops the loop", async () => {
  let calls = 0;
  const llm: LLMPort = {
    chat: (): Promise<ChatResponse> => Promise.reject(new Error("not used")),
    complete: (): Promise<ChatResponse> => Promise.reject(new Error("not used")),
    async *stream(): AsyncGenerator<StreamEvent, void, undefined> {
      calls++;
      yield { type: "message_start", messageId: "m1" };
      yield { type: "tool_call", messageId: "m1", call: toolCall("c1", "t", {}) };
    },
  };
  const tool = new FakeTool({ name: "t", responder: "r" });
  const events = await collect(reactAgent([tool]).stream("go", makeTestCtx({ llm })));
  assertEquals(events.map((e) => e.type), ["message_start", "tool_call"]);
  assertEquals([tool.calls.length, calls], [0, 1]);
});

Deno.test("ReActCognition.stream() stops at maxIterations model calls", async () => {
  const tool = new FakeTool({ name: "fetch", responder: "more" });
  const llm = FakeLLM.script([{ chunks: ["again"], toolCalls: [toolCall("c1", "fetch", {})] }], {
    repeatLast: true,
  });
  const events = await collect(reactAgent([tool], 2).stream("go", makeTestCtx({ llm })));
  assertEquals([llm.calls, tool.calls.length], [2, 2]);
  assertEquals(events.filter((e) => e.type === "message_end").length, 2);
});

Deno.test("ReActCognition.stream() checks for cancellation before each model call", async () => {
  const controller = new AbortController();
  const tool = new FakeTool({
    name: "stop",
    responder: () => {
      controller.abort(new Error("user cancelled"));
      return "stopping";
    },
  });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "stop", {})] }, "unreached"], {
    allowUnused: true,
  });
  const ctx = makeTestCtx({ llm, signal: controller.signal });
  await assertRejects(() => collect(reactAgent([tool]).stream("go", ctx)), Error, "user cancelled");
  assertEquals([tool.calls.length, llm.calls], [1, 1]);
});

// ReActCognition.stream() is hand-written (ReActLoop); these drive it
// directly, as a consumer other than the agent would.

// A model whose streamed calls come as they would over a wire (each event a
// promise), recording the transcript array each call was sent and how many
// of its streams were closed.
function wireModel(turns: StreamEvent[][]): LLMPort & {
  sent: (readonly Message[])[];
  closed: number;
} {
  let call = 0;
  const model = {
    sent: [] as (readonly Message[])[],
    closed: 0,
    chat: (): Promise<ChatResponse> => Promise.reject(new Error("not used")),
    complete: (): Promise<ChatResponse> => Promise.reject(new Error("not used")),
    async *stream(request: { messages: readonly Message[] }) {
      model.sent.push(request.messages);
      const events = turns[Math.min(call++, turns.length - 1)];
      try {
        for (const e of events) {
          await Promise.resolve();
          if (e.type === "error" && !e.finishReason) throw e.error;
          yield e;
        }
      } finally {
        model.closed++;
      }
    },
  };
  return model;
}

const turnWithTool: StreamEvent[] = [
  { type: "message_start", messageId: "m1" },
  { type: "text_delta", messageId: "m1", content: "Checking." },
  { type: "tool_call", messageId: "m1", call: toolCall("c1", "t", {}) },
  {
    type: "message_end",
    messageId: "m1",
    finishReason: "tool_calls",
    usage: { inputTokens: 1, outputTokens: 1 },
  },
];
const answerTurn: StreamEvent[] = [
  { type: "message_start", messageId: "m2" },
  { type: "text_delta", messageId: "m2", content: "Done." },
  {
    type: "message_end",
    messageId: "m2",
    finishReason: "stop",
    usage: { inputTokens: 1, outputTokens: 1 },
  },
];

function loopInput(): CognitionInput {
  return {
    agent: { name: "sre", model: "fake-model" },
    task: "go",
    messages: [{ role: "user", content: "go" }],
    streaming: true,
  };
}

Deno.test("ReActCognition.stream() driven directly: every event, then the result, then done", async () => {
  const model = wireModel([turnWithTool, answerTurn]);
  const tool = new FakeTool({ name: "t", responder: "r" });
  const loop = new ReActCognition({ tools: [tool] }).stream(
    loopInput(),
    makeTestCtx({ llm: model }),
  );
  const types: string[] = [];
  let step = await loop.next();
  for (; !step.done; step = await loop.next()) types.push(step.value.type);
  assertEquals(types, [...turnWithTool, ...answerTurn].map((e) => e.type));
  assertEquals([step.value.output, step.value.stopReason], ["Done.", "stop"]);
  assertEquals(step.value.messages.length, 4);
  assertEquals(await loop.next(), { done: true, value: undefined });
  assertEquals([model.sent.length, tool.calls.length], [2, 1]);
  // The transcript is the caller's once returned: no longer marked append-only.
  assertEquals(isAppendOnly(model.sent[0]), false);
});

Deno.test("ReActCognition.stream(): return(), throw() or disposal mid-call closes the call and releases the transcript", async (t) => {
  const ways: Array<
    [string, (l: AsyncGenerator<StreamEvent, CognitionResult>) => Promise<unknown>]
  > = [
    [
      "return()",
      async (l) =>
        assertEquals(await l.return(undefined as never), { done: true, value: undefined }),
    ],
    ["throw()", (l) => assertRejects(() => l.throw(new Error("gave up")), Error, "gave up")],
    ["asyncDispose", (l) => l[Symbol.asyncDispose]()],
  ];
  for (const [name, stop] of ways) {
    await t.step(name, async () => {
      const model = wireModel([turnWithTool, answerTurn]);
      const tool = new FakeTool({ name: "t", responder: "r" });
      const loop = new ReActCognition({ tools: [tool] }).stream(
        loopInput(),
        makeTestCtx({ llm: model }),
      );
      assertEquals((await loop.next()).value, turnWithTool[0]);
      assertEquals(isAppendOnly(model.sent[0]), true);
      await stop(loop);
      assertEquals([model.closed, isAppendOnly(model.sent[0])], [1, false]);
      assertEquals(await loop.next(), { done: true, value: undefined });
      assertEquals([model.sent.length, tool.calls.length], [1, 0]);
    });
  }
});

Deno.test("ReActCognition.stream(): return() or throw() before the first step calls no model", async () => {
  const model = wireModel([answerTurn]);
  const cognition = new ReActCognition();
  const returned = cognition.stream(loopInput(), makeTestCtx({ llm: model }));
  assertEquals(await returned.return(undefined as never), { done: true, value: undefined });
  assertEquals(await returned.next(), { done: true, value: undefined });
  const thrown = cognition.stream(loopInput(), makeTestCtx({ llm: model }));
  await assertRejects(() => thrown.throw(new Error("never mind")), Error, "never mind");
  assertEquals(await thrown.next(), { done: true, value: undefined });
  assertEquals(model.sent.length, 0);
});

Deno.test("ReActCognition.stream(): a model failure arriving late fails the loop and releases the transcript", async () => {
  const model = wireModel([[
    { type: "message_start", messageId: "m1" },
    { type: "error", messageId: "m1", error: new Error("connection reset") },
  ]]);
  const events: string[] = [];
  await assertRejects(
    async () => {
      for await (const e of reactAgent([]).stream("go", makeTestCtx({ llm: model }))) {
        events.push(e.type);
      }
    },
    Error,
    "connection reset",
  );
  assertEquals(events, ["message_start"]);
  assertEquals(isAppendOnly(model.sent[0]), false);
});

Deno.test("ReActCognition.stream(): a stream that stops without message_end keeps its text as the answer", async () => {
  const model = wireModel([[
    { type: "message_start", messageId: "m1" },
    { type: "text_delta", messageId: "m1", content: "Let me " },
  ]]);
  const s = reactAgent([]).stream("go", makeTestCtx({ llm: model }));
  let step = await s.next();
  while (!step.done) step = await s.next();
  assertEquals([step.value.output, step.value.stopReason], ["Let me ", "stop"]);
  assertEquals(step.value.messages.at(-1), { role: "assistant", content: "Let me " });
});

Deno.test("ReActCognition.stream(): a turn cut at the length limit answers with the text it streamed", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = FakeLLM.script([{
    chunks: ["Spawning"],
    toolCalls: [toolCall("c1", "t", {})],
    error: "Hit max tokens",
    finishReason: "length",
  }]);
  const s = reactAgent([tool]).stream("go", makeTestCtx({ llm }));
  let step = await s.next();
  while (!step.done) step = await s.next();
  assertEquals([step.value.output, step.value.stopReason], ["Spawning", "length"]);
  assertEquals(tool.calls.length, 0);
});
