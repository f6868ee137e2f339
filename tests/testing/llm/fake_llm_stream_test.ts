import { assert, assertEquals, assertInstanceOf, assertRejects } from "@std/assert";
import {
  Agent,
  Budget,
  isRetryable,
  meter,
  PriceTable,
  RunContext,
  Services,
} from "@agentkit/testing/runtime";
import {
  type ChatRequest,
  type ErrorEvent,
  ProviderError,
  ProviderResponseError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, InvalidScript, makeTestCtx } from "@agentkit/testing/testing";

const req = (user = "x", signal?: AbortSignal): ChatRequest => ({
  model: "fake-model",
  messages: [{ role: "user", content: user }],
  signal,
});

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const shape = (events: readonly StreamEvent[]): string[] =>
  events.map((e) => e.type === "text_delta" ? `text:${e.content}` : e.type);

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("FakeLLM chunks stream as separate text_delta events; chat answers their join", async () => {
  const llm = FakeLLM.script([{ chunks: ["The ", "cert ", "expired."] }, {
    chunks: ["a", "b"],
  }]);
  const events = await collect(llm.stream(req()));
  assertEquals(shape(events), [
    "message_start",
    "text:The ",
    "text:cert ",
    "text:expired.",
    "message_end",
  ]);
  assertEquals((await llm.chat(req())).content, "ab");
});

Deno.test("FakeLLM failAfterChunks emits n chunks, then fails mid-stream (not retryable)", async (t) => {
  await t.step("stream: the chunks, then an error event carrying reason and usage", async () => {
    const llm = FakeLLM.script([{
      chunks: ["I will start by ", "reading the", " file"],
      failAfterChunks: 2,
      finishReason: "length",
      usage: { inputTokens: 198_000, outputTokens: 590 },
    }]);
    const events = await collect(llm.stream(req()));
    assertEquals(shape(events), [
      "message_start",
      "text:I will start by ",
      "text:reading the",
      "error",
    ]);
    const end = events.at(-1) as ErrorEvent;
    assertEquals([end.finishReason, end.usage], ["length", {
      inputTokens: 198_000,
      outputTokens: 590,
    }]);
    assertInstanceOf(end.error, ProviderResponseError);
    const error = end.error as ProviderError;
    assertEquals([error.phase, error.retryable, isRetryable(error)], ["mid_stream", false, false]);
  });
  await t.step("with tool calls: they come before the error (the failure-path order)", async () => {
    const llm = FakeLLM.script([{
      chunks: ["Spawning: "],
      failAfterChunks: 1,
      toolCalls: [{ id: "c1", name: "task", args: {}, rawArgs: '{"prompt":"do the' }],
      finishReason: "length",
    }]);
    assertEquals(shape(await collect(llm.stream(req()))), [
      "message_start",
      "text:Spawning: ",
      "tool_call",
      "error",
    ]);
  });
  await t.step("chat: throws the mid-stream error with usage", async () => {
    const llm = FakeLLM.script([{
      chunks: ["a", "b"],
      failAfterChunks: 1,
      usage: { inputTokens: 3, outputTokens: 4 },
    }]);
    const error = await assertRejects(
      () => llm.chat(req()),
      ProviderResponseError,
      "after 1 chunk",
    );
    assertEquals([error.phase, error.usage], ["mid_stream", { inputTokens: 3, outputTokens: 4 }]);
  });
  await t.step("zero chunks: fails right after message_start", async () => {
    const llm = FakeLLM.script([{ chunks: ["a"], failAfterChunks: 0 }]);
    assertEquals(shape(await collect(llm.stream(req()))), ["message_start", "error"]);
  });
});

Deno.test("FakeLLM error fails the turn after its tool calls, with finish reason and usage, in that order", async (t) => {
  const cut = {
    chunks: ["Spawning: "],
    toolCalls: [toolCall("c1", "task", { prompt: "do the" })],
    finishReason: "length" as const,
    error: "Hit max tokens",
    usage: { inputTokens: 198_000, outputTokens: 590 },
  };
  await t.step("stream", async () => {
    const events = await collect(FakeLLM.script([cut]).stream(req()));
    assertEquals(shape(events), ["message_start", "text:Spawning: ", "tool_call", "error"]);
    const end = events[3] as ErrorEvent;
    assertEquals(end.error.message, "Hit max tokens");
    assertEquals([end.finishReason, end.usage?.outputTokens], ["length", 590]);
  });
  await t.step(
    "chat: a ProviderResponseError that still says length and what was billed",
    async () => {
      const error = await assertRejects(
        () => FakeLLM.script([cut]).chat(req()),
        ProviderResponseError,
        "Hit max tokens",
      );
      assertEquals([error.finishReason, error.usage?.inputTokens], ["length", 198_000]);
    },
  );
  await t.step("an Error instance is thrown as is", async () => {
    const mine = new ProviderError("gateway", { retryable: true });
    const events = await collect(FakeLLM.script([{ content: "x", error: mine }]).stream(req()));
    assertEquals((events.at(-1) as ErrorEvent).error, mine);
  });
  await t.step("meter() bills the failed turn through a real run", async () => {
    const budget = new Budget();
    const ctx = makeTestCtx({ llm: FakeLLM.script([cut]), budget, chatMiddleware: [meter()] });
    const result = await new Agent("a", { model: "fake-model" }).start("go", ctx).result;
    assertEquals([result.stopReason, budget.tokens, budget.calls], ["length", 198_590, 1]);
  });
});

Deno.test("FakeLLM finishReason overrides the derived one on a successful stream", async () => {
  const llm = FakeLLM.script([{ content: "filtered", finishReason: "content_filter" }]);
  const end = (await collect(llm.stream(req()))).at(-1);
  assertEquals(end?.type === "message_end" && end.finishReason, "content_filter");
});

Deno.test("FakeLLM gate holds the call open until it settles, with no clock involved", async (t) => {
  await t.step("resolved: the call completes", async () => {
    const gate = Promise.withResolvers<void>();
    const clock = new FakeClock({ autoAdvance: false });
    const llm = FakeLLM.script([{ content: "done", gate: gate.promise }]);
    let answered = false;
    const call = llm.chat(req(), new RunContext({ services: new Services({ clock }) })).then(
      (r) => {
        answered = true;
        return r;
      },
    );
    await turn();
    assertEquals([answered, llm.calls, clock.pending], [false, 1, 0]);
    gate.resolve();
    assertEquals((await call).content, "done");
  });
  await t.step("rejected: the call fails with the gate's error", async () => {
    const gate = Promise.withResolvers<void>();
    const llm = FakeLLM.script([{ content: "x", gate: gate.promise }]);
    const events = collect(llm.stream(req()));
    gate.reject(new Error("gate says no"));
    await assertRejects(() => events, Error, "gate says no");
  });
  await t.step("cancelled while held: recorded in .cancelled", async () => {
    const controller = new AbortController();
    const llm = FakeLLM.script([{ content: "x", gate: new Promise(() => {}) }]);
    const call = llm.chat(req("x", controller.signal));
    controller.abort(new Error("stop"));
    await assertRejects(() => call, Error, "stop");
    assertEquals(llm.cancelled, ["fake-chat-1"]);
  });
});

Deno.test("FakeLLM stall streams its chunks, then ends only when cancelled", async (t) => {
  await t.step("stream: cancellation ends it and is recorded, in order", async () => {
    const llm = FakeLLM.script([
      { chunks: ["thinking"], stall: true },
      { stall: true },
    ]);
    const first = new AbortController();
    const second = new AbortController();
    const seen: string[] = [];
    const a = (async () => {
      for await (const e of llm.stream(req("x", first.signal))) seen.push(e.type);
    })();
    const b = collect(llm.stream(req("x", second.signal)));
    await turn();
    assertEquals(seen, ["message_start", "text_delta"]);
    second.abort(new Error("second"));
    first.abort(new Error("first"));
    await assertRejects(() => a, Error, "first");
    await assertRejects(() => b, Error, "second");
    assertEquals(llm.cancelled, ["fake-stream-2", "fake-stream-1"]);
  });
  await t.step("a consumer that closes it after the abort cancels the call too", async () => {
    const llm = FakeLLM.script([{ chunks: ["a", "b"], stall: true }, {
      chunks: ["c"],
      stall: true,
    }]);
    const aborted = new AbortController();
    const stream = llm.stream(req("x", aborted.signal))[Symbol.asyncIterator]();
    assertEquals((await stream.next()).value?.type, "message_start");
    aborted.abort(new Error("stop"));
    await stream.return?.();
    // Closed without an abort: the consumer just stopped reading.
    const open = llm.stream(req("x", new AbortController().signal))[Symbol.asyncIterator]();
    await open.next();
    await open.return?.();
    assertEquals(llm.cancelled, ["fake-stream-1"]);
  });
  await t.step("chat on a stall turn throws at once instead of hanging", async () => {
    const llm = FakeLLM.script([{ chunks: ["x"], stall: true }]);
    await assertRejects(() => llm.chat(req()), InvalidScript, "only a stream can play");
    assertEquals(llm.harnessErrors.length, 1);
  });
});

Deno.test("FakeLLM model names the answering model; withModel() clones share the script and the record", async () => {
  const llm = FakeLLM.script([
    { content: "a", model: "turn-model" },
    "b",
    "c",
  ]);
  const big = llm.withModel("big-model");
  const first = await llm.chat(req());
  const second = await collect(big.stream(req()));
  const third = await llm.withSettings({ maxTokens: 64 }).chat(req());
  assertEquals(first.model, "turn-model");
  assertEquals(second[0].type === "message_start" && second[0].messageId, "fake-stream-2");
  assertEquals(await big.chat({ ...req(), messages: [] }).catch((e) => e.name), "ScriptExhausted");
  assertEquals([third.id, third.model], ["fake-chat-3", "fake-model"]);
  assertEquals(llm.requests.map((r) => [r.kind, r.streaming, r.turn]), [
    ["chat", false, 1],
    ["stream", true, 2],
    ["chat", false, 3],
    ["chat", false, 4],
  ]);
  assertEquals(llm.requests[2].settings, {
    jsonSchema: undefined,
    jsonSchemaName: undefined,
    maxTokens: 64,
    temperature: undefined,
  });
  assertEquals([llm.calls, big.calls, llm.harnessErrors.length], [4, 4, 1]);
});

Deno.test("FakeLLM.withModel() gives two backends different price keys", async () => {
  const prices = PriceTable.default().with("big-model", {
    inputPerMTok: "100",
    outputPerMTok: "300",
  });
  const base = new FakeLLM("ok");
  const small = new Budget();
  const large = new Budget();
  const agent = new Agent("a", { model: "fake-model" });
  await agent.run(
    "go",
    makeTestCtx({ llm: base, budget: small, prices, chatMiddleware: [meter()] }),
  );
  await agent.run(
    "go",
    makeTestCtx({
      llm: base.withModel("big-model"),
      budget: large,
      prices,
      chatMiddleware: [meter()],
    }),
  );
  assertEquals([small.spent(), large.spent()], ["0.000100", "0.001000"]);
  assert(base.calls === 2);
});

Deno.test("FakeLLM stall: what it streams before stalling, and when it does not stall", async (t) => {
  await t.step("content streams as one chunk before the stall", async () => {
    const llm = FakeLLM.script([{ content: "half", stall: true }]);
    const controller = new AbortController();
    const seen: string[] = [];
    const done = (async () => {
      for await (const e of llm.stream(req("x", controller.signal))) seen.push(shape([e])[0]);
    })();
    await turn();
    assertEquals(seen, ["message_start", "text:half"]);
    controller.abort(new Error("stop"));
    await assertRejects(() => done, Error, "stop");
  });
  await t.step("without text, only message_start comes before the stall", async () => {
    const llm = FakeLLM.script([{ stall: true, toolCalls: [toolCall("c", "t", {})] }], {
      strictTools: false,
    });
    const controller = new AbortController();
    const seen: string[] = [];
    const done = (async () => {
      for await (const e of llm.stream(req("x", controller.signal))) seen.push(e.type);
    })();
    await turn();
    assertEquals(seen, ["message_start"]);
    controller.abort(new Error("stop"));
    await assertRejects(() => done, Error, "stop");
  });
  await t.step("with failAfterChunks it fails after those chunks instead of stalling", async () => {
    const llm = FakeLLM.script([{ chunks: ["a", "b"], failAfterChunks: 1, stall: true }]);
    const events: StreamEvent[] = [];
    for await (const e of llm.stream(req("x"))) events.push(e);
    assertEquals(shape(events), ["message_start", "text:a", "error"]);
  });
  await t.step("a signal aborted between its events ends the stall at once", async () => {
    const llm = FakeLLM.script([{ chunks: ["a"], stall: true }]);
    const controller = new AbortController();
    const stream = llm.stream(req("x", controller.signal));
    assertEquals((await stream.next()).value?.type, "message_start");
    controller.abort(new Error("stop"));
    assertEquals((await stream.next()).value?.type, "text_delta");
    await assertRejects(() => stream.next(), Error, "stop");
    assertEquals(llm.cancelled, ["fake-stream-1"]);
  });
  await t.step("with no signal anywhere it never ends, as a stalled provider would", async () => {
    const llm = FakeLLM.script([{ chunks: ["a"], stall: true }]);
    const stream = llm.stream(req("x"));
    await stream.next();
    await stream.next();
    let settled = false;
    stream.next().then(() => settled = true, () => settled = true);
    await turn();
    assertEquals(settled, false);
  });
});

Deno.test("FakeLLM records a paced call cancelled while it waits, once, in chat and stream", async (t) => {
  await t.step("chat", async () => {
    const clock = new FakeClock({ autoAdvance: false });
    const llm = FakeLLM.script([{ chunks: ["a", "b"], firstChunkDelayMs: 100 }]);
    const controller = new AbortController();
    const ctx = makeTestCtx({ llm, clock, signal: controller.signal });
    const call = llm.chat(req("x"), ctx);
    await turn();
    controller.abort(new Error("stop"));
    await assertRejects(() => call, Error, "stop");
    assertEquals(llm.cancelled, ["fake-chat-1"]);
  });
  await t.step("stream", async () => {
    const clock = new FakeClock({ autoAdvance: false });
    const llm = FakeLLM.script([{ chunks: ["a", "b"], chunkDelayMs: 100 }]);
    const controller = new AbortController();
    const ctx = makeTestCtx({ llm, clock, signal: controller.signal });
    const stream = llm.stream(req("x"), ctx);
    await stream.next();
    await stream.next();
    const next = stream.next();
    await turn();
    controller.abort(new Error("stop"));
    await assertRejects(() => next, Error, "stop");
    assertEquals(llm.cancelled, ["fake-stream-1"]);
  });
});

Deno.test("FakeLLM chat() on a paced one-chunk turn waits only for the first chunk", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([
    { content: "one", chunkDelayMs: 50 },
    { content: "two", firstChunkDelayMs: 70, chunkDelayMs: 50 },
  ]);
  const ctx = makeTestCtx({ llm, clock });
  assertEquals((await llm.chat(req("x"), ctx)).content, "one");
  assertEquals([clock.now(), clock.sleeps], [0, []]);
  assertEquals((await llm.chat(req("x"), ctx)).content, "two");
  assertEquals([clock.now(), clock.sleeps], [70, [70]]);
});

Deno.test("FakeLLM stream read to its end is not a cancelled call, though the signal aborts late", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ chunks: ["a"], firstChunkDelayMs: 10 }]);
  const controller = new AbortController();
  const stream = llm.stream(req("x", controller.signal), makeTestCtx({ llm, clock }));
  const types: string[] = [];
  for (let step = await stream.next(); !step.done; step = await stream.next()) {
    types.push(step.value.type);
    if (step.value.type === "message_end") controller.abort(new Error("late"));
  }
  assertEquals([types, llm.cancelled], [["message_start", "text_delta", "message_end"], []]);
  // A ready turn read to its end and closed after the abort is not cancelled either.
  const ready = FakeLLM.script(["done"]);
  const late = new AbortController();
  const events = ready.stream(req("x", late.signal));
  assertEquals((await collect(events)).length, 3);
  late.abort(new Error("late"));
  await events.return();
  assertEquals(ready.cancelled, []);
});

Deno.test("FakeLLM failAfterChunks with no error fails saying how many chunks came", async () => {
  const llm = FakeLLM.script([{ chunks: ["a", "b", "c"], failAfterChunks: 2 }]);
  const end = (await collect(llm.stream(req()))).at(-1) as ErrorEvent;
  assertEquals(end.type, "error");
  assertInstanceOf(end.error, ProviderResponseError);
  assert(end.error.message.includes("2 chunk(s)"), end.error.message);
});

Deno.test("FakeLLM stream closed after the signal aborted is a cancelled call, ready or paced", async () => {
  const clock = new FakeClock();
  const llm = FakeLLM.script([{ chunks: ["a", "b"] }, { chunks: ["a", "b"], chunkDelayMs: 5 }]);
  for (const _ of [1, 2]) {
    const controller = new AbortController();
    const stream = llm.stream(req("x", controller.signal), makeTestCtx({ llm, clock }));
    await stream.next();
    controller.abort(new Error("stop"));
    await stream.return();
  }
  assertEquals(llm.cancelled, ["fake-stream-1", "fake-stream-2"]);
});
