import { assert, assertEquals, assertRejects } from "@std/assert";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
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
