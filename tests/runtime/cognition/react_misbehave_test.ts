// What ReActCognition does with each way a model goes wrong (misbehave), in
// agent.run (blocking calls) and agent.stream (streamed calls) alike.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import fc from "fast-check";
import { z } from "zod";
import {
  Agent,
  type AgentResult,
  CollectingObserver,
  ReActCognition,
} from "@agentkit/testing/runtime";
import { type Message, toolCall } from "@agentkit/testing/ports";
import {
  FakeLLM,
  FakeTool,
  makeTestCtx,
  misbehave,
  MISBEHAVIOUR_KINDS,
  type MisbehaviourKind,
  type Turn,
} from "@agentkit/testing/testing";

function lookupTool(): FakeTool {
  return new FakeTool({
    name: "lookup",
    parameters: z.object({ host: z.string().optional() }),
    responder: "found",
  });
}

interface Ran {
  readonly result: AgentResult;
  readonly llm: FakeLLM;
  readonly tool: FakeTool;
  readonly observer: CollectingObserver;
}

const MODES = ["run", "stream"] as const;

async function run(mode: (typeof MODES)[number], turns: Array<Turn | string>): Promise<Ran> {
  const tool = lookupTool();
  const llm = FakeLLM.script(turns);
  const observer = new CollectingObserver();
  const agent = new Agent("a", {
    model: "m",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const ctx = makeTestCtx({ llm, observer });
  if (mode === "run") return { result: await agent.run("go", ctx), llm, tool, observer };
  const stream = agent.stream("go", ctx);
  for (;;) {
    const step = await stream.next();
    if (step.done) return { result: step.value, llm, tool, observer };
  }
}

function toolMessages(messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.role === "tool");
}

function each(name: string, body: (mode: (typeof MODES)[number]) => Promise<void>): void {
  Deno.test(name, async (t) => {
    for (const mode of MODES) await t.step(mode, () => body(mode));
  });
}

each(
  "ReAct reflects arguments that are not JSON back to the model as a tool error; the tool never runs",
  async (mode) => {
    const { result, llm, tool } = await run(mode, [
      misbehave.invalidToolJson("lookup"),
      "Gave up.",
    ]);
    assertEquals(tool.calls, []);
    const [reply] = toolMessages(llm.requests[1].messages);
    assertEquals([reply.toolCallId, reply.isError], ["call_invalid_json", true]);
    assertStringIncludes(
      reply.content,
      'Invalid arguments for tool "lookup": the arguments are not valid JSON',
    );
    assertStringIncludes(reply.content, '{"query": "unterminated');
    assertEquals([result.output, result.stopReason], ["Gave up.", "stop"]);
  },
);

each(
  "ReAct reflects arguments that break the schema back to the model; the tool never runs",
  async (mode) => {
    const { result, llm, tool } = await run(mode, [
      misbehave.schemaViolatingArgs("lookup", { host: 42 }),
      "Gave up.",
    ]);
    assertEquals(tool.calls, []);
    const [reply] = toolMessages(llm.requests[1].messages);
    assert(reply.isError);
    assertStringIncludes(reply.content, 'Invalid arguments for tool "lookup"');
    assertStringIncludes(reply.content, "host");
    assertEquals(result.stopReason, "stop");
  },
);

each("ReAct reflects an unknown tool and a nameless call back to the model", async (mode) => {
  const { result, llm } = await run(mode, [
    misbehave.unknownTool("lookpu"),
    misbehave.malformedToolCall(),
    "Done.",
  ]);
  const [unknown] = toolMessages(llm.requests[1].messages);
  assertEquals(unknown.isError, true);
  assertStringIncludes(
    unknown.content,
    'Unknown tool "lookpu"; the tools on offer are "lookup"; did you mean "lookup"?',
  );
  const nameless = toolMessages(llm.requests[2].messages)[1];
  assertEquals([nameless.toolCallId, nameless.isError], ["call_malformed", true]);
  assertEquals(
    nameless.content,
    'Error: The tool call names no tool (a malformed call); the tools on offer are "lookup"',
  );
  assertEquals(result.output, "Done.");
});

each(
  "ReAct gives each call of a turn that repeats an id its own id: each runs once and gets exactly one result",
  async (mode) => {
    const { result, llm, tool, observer } = await run(mode, [
      misbehave.duplicateCallIds("lookup", 3),
      "Done.",
    ]);
    assertEquals(tool.calls.length, 3);
    const sent = llm.requests[1].messages;
    const assistant = sent.find((m) => m.role === "assistant")!;
    assertEquals(assistant.toolCalls?.map((c) => c.id), ["call_dup", "call_dup_2", "call_dup_3"]);
    assertEquals(toolMessages(sent).map((m) => [m.toolCallId, m.content]), [
      ["call_dup", "found"],
      ["call_dup_2", "found"],
      ["call_dup_3", "found"],
    ]);
    assertEquals(
      observer.items.filter((o) => o.kind === "duplicate_call_id").map((o) => [o.payload, o.text]),
      [
        [
          { callId: "call_dup", renamed: "call_dup_2", tool: "lookup" },
          'the model gave call 2 of the turn the id "call_dup" of an earlier call; it runs as "call_dup_2"',
        ],
        [
          { callId: "call_dup", renamed: "call_dup_3", tool: "lookup" },
          'the model gave call 3 of the turn the id "call_dup" of an earlier call; it runs as "call_dup_3"',
        ],
      ],
    );
    assertEquals(result.stopReason, "stop");
  },
);

each("ReAct's new id for a repeated one skips the ids the turn already uses", async (mode) => {
  const calls = [toolCall("a", "lookup"), toolCall("a", "lookup"), toolCall("a_2", "lookup")];
  const { llm, tool } = await run(mode, [{ toolCalls: calls }, "Done."]);
  const ids = llm.requests[1].messages.find((m) => m.role === "assistant")!.toolCalls!.map((c) =>
    c.id
  );
  assertEquals(ids, ["a", "a_3", "a_2"]);
  assertEquals(toolMessages(llm.requests[1].messages).map((m) => m.toolCallId), ids);
  assertEquals(tool.calls.length, 3);
});

each(
  "ReAct dispatches nothing from a turn cut at the token limit, and records it without the cut call",
  async (mode) => {
    const { result, llm, tool } = await run(mode, [misbehave.lengthMidToolCall("lookup")]);
    assertEquals([tool.calls.length, llm.calls, result.stopReason], [0, 1, "length"]);
    assertEquals(result.messages.at(-1), { role: "assistant", content: "" });
  },
);

each(
  "ReAct ends an empty answer with stopReason error and an empty_answer observation",
  async (mode) => {
    const { result, observer } = await run(mode, [misbehave.emptyAnswer()]);
    assertEquals([result.output, result.stopReason], ["", "error"]);
    const seen = observer.items.filter((o) => o.kind === "empty_answer");
    assertEquals(seen.map((o) => [o.text, o.payload, o.agent]), [
      ["the model gave no answer and called no tool", { reasoning: false }, "a"],
    ]);
  },
);

each(
  "ReAct ends a turn that only thought like an empty answer, saying it thought",
  async (mode) => {
    const { result, observer } = await run(mode, [misbehave.reasoningOnly()]);
    assertEquals([result.output, result.stopReason], ["", "error"]);
    const seen = observer.items.filter((o) => o.kind === "empty_answer");
    assertEquals(seen.map((o) => [o.text, o.payload]), [
      ["the model thought but gave no answer and called no tool", { reasoning: true }],
    ]);
  },
);

each(
  "ReAct ends a refusal with stopReason error, the refusal as output, and a model_refusal observation",
  async (mode) => {
    const { result, observer } = await run(mode, [misbehave.refusal("I can't do that.")]);
    assertEquals([result.output, result.stopReason], ["I can't do that.", "error"]);
    assertEquals(
      observer.items.filter((o) => o.kind === "model_refusal").map((o) => [o.text, o.agent]),
      [["the model refused to answer: I can't do that.", "a"]],
    );
    assertEquals(observer.items.filter((o) => o.kind === "content_filter"), []);
  },
);

each(
  "ReAct ends a filtered answer with stopReason error and a content_filter observation",
  async (mode) => {
    const { result, observer } = await run(mode, [misbehave.contentFilter()]);
    assertEquals([result.output, result.stopReason], ["", "error"]);
    assertEquals(
      observer.items.filter((o) => o.kind === "content_filter").map((o) => o.text),
      ["the provider's content filter withheld the answer"],
    );
  },
);

each(
  "ReAct ends a turn that failed with finish error as error, not as an empty answer",
  async (mode) => {
    const { result, observer } = await run(mode, [{ finishReason: "error" }]);
    assertEquals([result.output, result.stopReason], ["", "error"]);
    assertEquals(observer.items.filter((o) => o.kind === "empty_answer"), []);
  },
);

each(
  "ReAct records a filtered turn's calls nowhere: none runs, the transcript stays answerable",
  async (mode) => {
    const { result, tool } = await run(mode, [{
      content: "partial",
      toolCalls: [toolCall("c1", "lookup")],
      finishReason: "content_filter",
    }]);
    assertEquals([tool.calls.length, result.stopReason], [0, "error"]);
    assertEquals(result.messages.at(-1), { role: "assistant", content: "partial" });
  },
);

// Any mix of misbehaviours before a final answer: the run settles with an
// outcome (never a crash), every tool call in the transcript has exactly one
// result right after it, and no call id runs the tool twice.
const ENDING: ReadonlySet<MisbehaviourKind> = new Set([
  "lengthMidToolCall",
  "emptyAnswer",
  "refusal",
  "contentFilter",
  "reasoningOnly",
]);

function build(kind: MisbehaviourKind): Turn {
  switch (kind) {
    case "schemaViolatingArgs":
      return misbehave.schemaViolatingArgs("lookup", { host: 1 });
    case "invalidToolJson":
    case "duplicateCallIds":
    case "lengthMidToolCall":
      return misbehave[kind]("lookup");
    default:
      return misbehave[kind]();
  }
}

Deno.test("ReAct settles any script of misbehaviours: typed outcome, one result per call, one run per call id", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...MISBEHAVIOUR_KINDS), { maxLength: 6 }),
      fc.constantFrom(...MODES),
      async (kinds, mode) => {
        const turns: Turn[] = kinds.map(build);
        const { result, tool, llm } = await run(mode, [...turns, "Done."]);
        const ended = kinds.findIndex((k) => ENDING.has(k));
        const expected = ended === -1 ? { calls: kinds.length + 1, stop: "stop" } : {
          calls: ended + 1,
          stop: kinds[ended] === "lengthMidToolCall" ? "length" : "error",
        };
        assertEquals([llm.calls, result.stopReason], [expected.calls, expected.stop]);
        const messages = result.messages;
        for (let i = 0; i < messages.length; i++) {
          const calls = messages[i].toolCalls ?? [];
          const answers = messages.slice(i + 1, i + 1 + calls.length);
          assertEquals(
            answers.map((m) => [m.role, m.toolCallId]),
            calls.map((c) => ["tool", c.id]),
          );
          assertEquals(new Set(calls.map((c) => c.id)).size, calls.length);
        }
        const runs = kinds.slice(0, ended === -1 ? undefined : ended)
          .filter((k) => k === "duplicateCallIds").length * 2;
        assertEquals(tool.calls.length, runs);
      },
    ),
    { numRuns: 60, seed: 2626 },
  );
});
