import { assert, assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import { modelCall } from "../../../runtime/cognition/_model_call.ts";
import { Invoker, RunContext, Services } from "@agentkit/testing/runtime";
import {
  type ChatResponse,
  type LLMPort,
  ProviderError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";

const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

/** A context whose model answers every blocking call with `answer`. */
function ctxAnswering(answer: () => Promise<ChatResponse>): RunContext {
  const llm: LLMPort = {
    chat: answer,
    complete: answer,
    stream: () => {
      throw new Error("not used");
    },
  };
  return new RunContext({ services: new Services({ invoker: new Invoker({ llm }) }) });
}

function blocking(ctx: RunContext): AsyncIterator<StreamEvent> {
  return modelCall(ctx.invoker!, request, ctx, false)[Symbol.asyncIterator]();
}

async function all(it: AsyncIterator<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for (let s = await it.next(); !s.done; s = await it.next()) out.push(s.value);
  return out;
}

const answer = (over: Partial<ChatResponse> = {}): ChatResponse => ({
  id: "r1",
  model: "m",
  content: "Hello",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 2, outputTokens: 1 },
  ...over,
});

Deno.test("modelCall(): a blocking answer as the events of one message", async () => {
  const call = toolCall("c1", "lookup", {});
  const ctx = ctxAnswering(() =>
    Promise.resolve(answer({ toolCalls: [call], finishReason: "tool_calls" }))
  );
  assertEquals(await all(blocking(ctx)), [
    { type: "message_start", messageId: "r1" },
    { type: "text_delta", messageId: "r1", content: "Hello" },
    { type: "tool_call", messageId: "r1", call },
    {
      type: "message_end",
      messageId: "r1",
      finishReason: "tool_calls",
      usage: { inputTokens: 2, outputTokens: 1 },
    },
  ]);
});

Deno.test("modelCall(): an answer without text has no text event", async () => {
  const ctx = ctxAnswering(() => Promise.resolve(answer({ content: "" })));
  assertEquals((await all(blocking(ctx))).map((e) => e.type), ["message_start", "message_end"]);
});

Deno.test("modelCall(): a length cut is a message ending in a length error, billed", async () => {
  const usage = { inputTokens: 5, outputTokens: 9 };
  const ctx = ctxAnswering(() =>
    Promise.reject(new ProviderError("max tokens", { finishReason: "length", usage }))
  );
  const first = await all(blocking(ctx));
  const second = await all(blocking(ctx));
  for (const events of [first, second]) {
    assertEquals(events.map((e) => e.type), ["message_start", "error"]);
    const [start, error] = events as [{ messageId: string }, StreamEvent & { type: "error" }];
    assert(/^length-cut-\d+$/.test(start.messageId), start.messageId);
    assertEquals([error.messageId, error.finishReason, error.usage], [
      start.messageId,
      "length",
      usage,
    ]);
  }
  assert(first[0].messageId !== second[0].messageId, "each cut its own message");
  const noUsage = ctxAnswering(() =>
    Promise.reject(new ProviderError("cut", { finishReason: "length" }))
  );
  const [, error] = await all(blocking(noUsage));
  assert(!("usage" in error), "no usage when the provider gave none");
});

Deno.test("modelCall(): a failed call fails once, then is over", async (t) => {
  await t.step("a provider failure other than a length cut", async () => {
    let calls = 0;
    const boom = new Error("provider down");
    const it = blocking(ctxAnswering(() => {
      calls++;
      return Promise.reject(boom);
    }));
    assertStrictEquals(await assertRejects(() => it.next()), boom);
    assertEquals(await it.next(), { done: true, value: undefined });
    assertEquals(calls, 1);
  });
  await t.step("an answer that cannot be read", async () => {
    const it = blocking(
      ctxAnswering(() => Promise.resolve({ ...answer(), toolCalls: undefined } as never)),
    );
    await assertRejects(() => it.next(), TypeError);
    assertEquals(await it.next(), { done: true, value: undefined });
  });
});

Deno.test("modelCall(): return() ends a blocking call's events", async () => {
  const it = blocking(ctxAnswering(() => Promise.resolve(answer())));
  assertEquals((await it.next()).value, { type: "message_start", messageId: "r1" });
  assertEquals(await it.return!(), { done: true, value: undefined });
  assertEquals(await it.next(), { done: true, value: undefined });
  let calls = 0;
  const unread = blocking(ctxAnswering(() => {
    calls++;
    return Promise.resolve(answer());
  }));
  await unread.return!();
  assertEquals(await unread.next(), { done: true, value: undefined });
  assertEquals(calls, 0, "ended before its first step, it never calls the model");
});
