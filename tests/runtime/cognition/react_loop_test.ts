// The iterator ReActCognition.stream() returns, driven directly, and the
// loop's smaller paths (grants, provider results, denials, deadlines). Its
// ending early mid-call or before the start is in react_stream_test.ts.
import { assert, assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import {
  type CognitionInput,
  type CognitionResult,
  CollectingObserver,
  ReActCognition,
} from "@agentkit/testing/runtime";
import {
  type ChatResponse,
  type LLMPort,
  type Message,
  type StreamEvent,
  toolCall,
  type ToolProvider,
} from "@agentkit/testing/ports";
import {
  FakeAsker,
  FakeClock,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptExhausted,
} from "@agentkit/testing/testing";
import { isAppendOnly } from "../../../runtime/_append_only.ts";
import { trackedSignal } from "../../fixtures/tracked_signal.ts";

const input: CognitionInput = {
  agent: { name: "sre", model: "fake-model" },
  task: "why?",
  messages: [{ role: "user", content: "why?" }],
};

const end = (finishReason: "stop" | "tool_calls" = "stop"): StreamEvent => ({
  type: "message_end",
  messageId: "m",
  finishReason,
  usage: { inputTokens: 1, outputTokens: 1 },
});
const text = (content: string): StreamEvent => ({ type: "text_delta", messageId: "m", content });

/**
 * A model port that streams one scripted turn per call, through an iterator
 * that counts return() calls, and keeps each request's transcript.
 */
function port(turns: StreamEvent[][]) {
  const p = {
    transcripts: [] as (readonly Message[])[],
    returned: 0,
    chat: (): Promise<ChatResponse> => Promise.reject(new Error("not used")),
    complete: (): Promise<ChatResponse> => Promise.reject(new Error("not used")),
    stream(request: { messages: readonly Message[] }): AsyncIterable<StreamEvent> {
      p.transcripts.push(request.messages);
      const events = turns[p.transcripts.length - 1] ?? [];
      let i = 0;
      return {
        [Symbol.asyncIterator]: () => ({
          next: () =>
            Promise.resolve(
              i < events.length
                ? { done: false as const, value: events[i++] }
                : { done: true as const, value: undefined },
            ),
          return: () => {
            p.returned++;
            i = events.length;
            return Promise.resolve({ done: true as const, value: undefined });
          },
        }),
      };
    },
  };
  return p as typeof p & LLMPort;
}

Deno.test("ReActLoop: return(value) hands back the value given", async () => {
  const it = new ReActCognition().stream(input, makeTestCtx({ llm: port([[end()]]) }));
  const value: CognitionResult = {
    output: "x",
    usage: { inputTokens: 0, outputTokens: 0 },
    messages: [],
    stopReason: "stop",
  };
  assertEquals(await it.return(Promise.resolve(value)), { done: true, value });
});

Deno.test("ReActLoop: a run cancelled during a tool fails with the reason and releases the transcript", async () => {
  const controller = new AbortController();
  const cancel = new Error("user left");
  const tool = new FakeTool({
    name: "t",
    responder: () => {
      controller.abort(cancel);
      return "late";
    },
  });
  const llm = port([[
    { type: "tool_call", messageId: "m", call: toolCall("c1", "t", {}) },
    end(
      "tool_calls",
    ),
  ]]);
  const it = new ReActCognition({ tools: [tool] }).stream(
    input,
    makeTestCtx({ llm, signal: controller.signal }),
  );
  assertStrictEquals(await assertRejects(() => drain(it)), cancel);
  assertEquals(llm.returned, 0);
  assert(!isAppendOnly(llm.transcripts[0]), "the transcript is released on failure too");
});

Deno.test("ReActLoop: an error event that arrives on a pending step fails the run with its error", async () => {
  // This port's steps are promises; react_stream_test.ts covers ready ones.
  const boom = new Error("provider down");
  const llm = port([[text("Par"), { type: "error", messageId: "m", error: boom }]]);
  const it = new ReActCognition().stream(input, makeTestCtx({ llm }));
  assertStrictEquals(await assertRejects(() => drain(it)), boom);
  assertEquals(await it.next(), { done: true, value: undefined });
});

Deno.test("ReActLoop: a length cut with no text keeps the earlier turn's text as the output", async () => {
  const call = toolCall("c1", "t", {});
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = port([
    [text("Checking."), { type: "tool_call", messageId: "m", call }, end("tool_calls")],
    [{ type: "error", messageId: "m", error: new Error("max tokens"), finishReason: "length" }],
  ]);
  const result = await drain(
    new ReActCognition({ tools: [tool] }).stream(input, makeTestCtx({ llm })),
  );
  assertEquals([result.output, result.stopReason], ["Checking.", "length"]);
});

Deno.test("ReActCognition observes its grants, or none", async () => {
  const provider: ToolProvider = {
    listTools: () => [],
    executeToolCalls: () => Promise.resolve([]),
    grants: () => [],
  };
  const observer = new CollectingObserver();
  await drain(
    new ReActCognition({ provider }).stream(
      input,
      makeTestCtx({ llm: port([[end()]]), observer }),
    ),
  );
  const grants = observer.items.filter((o) => o.kind === "grants");
  assertEquals(grants.map((o) => [o.text, o.payload]), [["tool grants: none", []]]);
  const two = new CollectingObserver();
  await drain(
    new ReActCognition({ provider: { ...provider, grants: () => ["fs_read", "net"] } }).stream(
      input,
      makeTestCtx({ llm: port([[end()]]), observer: two }),
    ),
  );
  assertEquals(two.items.filter((o) => o.kind === "grants").map((o) => o.text), [
    "tool grants: fs_read, net",
  ]);
});

Deno.test("ReActCognition: a provider that returns no result is a tool error the model sees", async () => {
  const provider: ToolProvider = {
    listTools: () => [{ name: "t", description: "", parameters: { type: "object" } }],
    executeToolCalls: () => Promise.resolve([]),
  };
  const llm = port([
    [{ type: "tool_call", messageId: "m", call: toolCall("c9", "t", {}) }, end("tool_calls")],
    [text("ok"), end()],
  ]);
  await drain(new ReActCognition({ provider }).stream(input, makeTestCtx({ llm })));
  // One transcript, appended to: the tool message follows the call.
  assertEquals(llm.transcripts[1].find((m) => m.role === "tool"), {
    role: "tool",
    content: 'Error: The tool provider returned no result for call "c9"',
    toolCallId: "c9",
    isError: true,
  });
});

Deno.test("ReActCognition: a denied tool is observed, naming the tool", async () => {
  const tool = new FakeTool({ name: "deploy", responder: "done", requiresApproval: true });
  const observer = new CollectingObserver();
  const llm = port([
    [{ type: "tool_call", messageId: "m", call: toolCall("c1", "deploy", {}) }, end("tool_calls")],
    [text("ok"), end()],
  ]);
  const ctx = makeTestCtx({ llm, observer, autonomy: "manual", asker: new FakeAsker(["no"]) });
  await drain(new ReActCognition({ tools: [tool] }).stream(input, ctx));
  const denied = observer.items.filter((o) => o.kind === "approval_denied");
  assertEquals(denied.map((o) => [o.text, o.payload]), [[
    'tool "deploy" was not approved',
    { tool: "deploy", answer: "no" },
  ]]);
});

Deno.test("ReActCognition: a tool under a deadline leaves no listener on the run's signal", async () => {
  const signal = trackedSignal();
  const clock = new FakeClock();
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = port([
    [{ type: "tool_call", messageId: "m", call: toolCall("c1", "t", {}) }, end("tool_calls")],
    [text("ok"), end()],
  ]);
  const ctx = makeTestCtx({ llm, clock, signal: signal.signal });
  const result = await drain(
    new ReActCognition({ tools: [tool], toolTimeoutMs: 1_000 }).stream(input, ctx),
  );
  assertEquals(result.output, "ok");
  assertEquals(signal.live(), 0);
});

Deno.test("new ReActCognition() names itself when an option is wrong", () => {
  assertThrows(
    () => new ReActCognition({ maxIterations: 0 }),
    RangeError,
    'new ReActCognition(): option "maxIterations"',
  );
  assertThrows(
    () => new ReActCognition({ toolTimeoutMs: 0 }),
    RangeError,
    'new ReActCognition(): option "toolTimeoutMs"',
  );
});

Deno.test("ReActLoop: a model call that fails at once fails the run with that error", async () => {
  const call = toolCall("c1", "t", {});
  const llm = FakeLLM.script([{ toolCalls: [call] }]);
  const tool = new FakeTool({ name: "t", responder: "r" });
  const it = new ReActCognition({ tools: [tool] }).stream(input, makeTestCtx({ llm }));
  await assertRejects(() => drain(it), ScriptExhausted);
  assertEquals(await it.next(), { done: true, value: undefined });
});

/** Every step of the loop, then its result. */
async function drain(
  it: AsyncIterator<StreamEvent, CognitionResult, undefined>,
): Promise<CognitionResult> {
  for (;;) {
    const step = await it.next();
    if (step.done) return step.value;
  }
}
