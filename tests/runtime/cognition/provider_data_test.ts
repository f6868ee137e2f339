// What a port asks to have sent back with a turn (ChatResponse.providerData,
// or message_end's) rides on the assistant message of the transcript, and so
// reaches the next request, through every cognition, blocking and streamed.
import { assertEquals } from "@std/assert";
import type {
  ChatRequest,
  ChatResponse,
  LLMPort,
  Message,
  StreamEvent,
} from "@agentkit/testing/ports";
import { toolCall } from "@agentkit/testing/ports";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { FakeTool, makeTestCtx } from "@agentkit/testing/testing";

// A port whose first answer calls a tool and signs the turn, then answers text.
class SigningPort implements LLMPort {
  readonly seen: ChatRequest[] = [];

  #answer(request: ChatRequest): ChatResponse {
    this.seen.push(request);
    const first = this.seen.length === 1;
    return {
      id: `r${this.seen.length}`,
      model: request.model,
      content: first ? "" : "done",
      toolCalls: first ? [toolCall("c1", "lookup", {})] : [],
      finishReason: first ? "tool_calls" : "stop",
      usage: { inputTokens: 1, outputTokens: 1 },
      providerData: { test: { turn: this.seen.length } },
    };
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    return Promise.resolve(this.#answer(request));
  }

  async *stream(request: ChatRequest): AsyncGenerator<StreamEvent> {
    const r = this.#answer(request);
    yield { type: "message_start", messageId: r.id };
    if (r.content) yield { type: "text_delta", messageId: r.id, content: r.content };
    for (const call of r.toolCalls) yield { type: "tool_call", messageId: r.id, call };
    yield {
      type: "message_end",
      messageId: r.id,
      finishReason: r.finishReason,
      usage: r.usage,
      providerData: r.providerData,
    };
  }

  complete(): Promise<ChatResponse> {
    throw new Error("not used");
  }
}

async function resultOf<T>(events: AsyncGenerator<unknown, T, undefined>): Promise<T> {
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
  }
}

Deno.test("providerData from a port reaches the transcript and the next request, in a ReAct loop", async (t) => {
  for (const streamed of [false, true]) {
    await t.step(streamed ? "streamed" : "blocking", async () => {
      const llm = new SigningPort();
      const agent = new Agent("a", {
        model: "m",
        cognition: new ReActCognition({
          tools: [new FakeTool({ name: "lookup", responder: () => "ok" })],
        }),
      });
      const ctx = makeTestCtx({ llm });
      const result = streamed
        ? await resultOf(agent.stream("go", ctx))
        : await agent.run("go", ctx);
      assertEquals(result.output, "done");
      const assistants = result.messages.filter((m: Message) => m.role === "assistant");
      assertEquals(assistants.map((m: Message) => m.providerData), [
        { test: { turn: 1 } },
        { test: { turn: 2 } },
      ]);
      assertEquals(llm.seen[1].messages[1].providerData, { test: { turn: 1 } });
    });
  }
});

Deno.test("providerData from a port reaches the transcript of a single-shot run", async () => {
  const llm = new SigningPort();
  // The second answer (text) is the one a single-shot run gets after a first call to skip to it.
  llm.seen.push({ model: "m", messages: [] });
  const result = await new Agent("a", { model: "m" }).run("go", makeTestCtx({ llm }));
  assertEquals(result.messages.at(-1)?.providerData, { test: { turn: 2 } });
});
