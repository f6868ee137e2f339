import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import { Agent, HarnessError, ReActCognition, retry } from "@agentkit/testing/runtime";
import {
  type ChatRequest,
  type ChatResponse,
  ProviderError,
  ProviderTimeoutError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import {
  FakeClock,
  FakeLLM,
  FakeTool,
  InvalidScript,
  makeTestCtx,
  type RecordedRequest,
  type ResponderInput,
  ScriptExhausted,
  UnmatchedPrompt,
  UnusedTurns,
} from "@agentkit/testing/testing";
import { CHAT_NOW } from "../../../runtime/_now.ts";
import { pull } from "../../../runtime/stream/_pull.ts";

const agent = new Agent("a", { model: "fake-model" });
const req = (user: string): ChatRequest => ({
  model: "fake-model",
  messages: [{ role: "user", content: user }],
});

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

Deno.test("new FakeLLM(text) answers that text on every call, with 10 input tokens", async () => {
  const llm = new FakeLLM("fixed");
  const ctx = makeTestCtx({ llm });
  for (let i = 0; i < 3; i++) {
    const r = await agent.run(`q${i}`, ctx);
    assertEquals([r.output, r.usage], ["fixed", { inputTokens: 10, outputTokens: 0 }]);
  }
  assertEquals(llm.calls, 3);
});

Deno.test("new FakeLLM(map) answers the first key that is a substring of the user text", async (t) => {
  const llm = new FakeLLM({
    weather: "It is raining.",
    price: "$15/Mtok",
    rain: "never picked first",
  });
  const ctx = makeTestCtx({ llm });
  await t.step("first matching key in insertion order wins", async () => {
    assertEquals((await agent.run("the weather and rain", ctx)).output, "It is raining.");
    assertEquals((await agent.run("what's the price", ctx)).output, "$15/Mtok");
  });
  await t.step("an unmatched prompt answers the literal {}", async () => {
    assertEquals((await agent.run("nothing matches", ctx)).output, "{}");
  });
  await t.step(
    "strict: an unmatched prompt throws UnmatchedPrompt naming prompt and keys",
    async () => {
      const strict = new FakeLLM({ weather: "x" }, { strict: true });
      const e = await assertRejects(
        () => agent.run("nothing", makeTestCtx({ llm: strict })),
        UnmatchedPrompt,
      );
      assert(e.message.includes('"nothing"') && e.message.includes('"weather"'));
    },
  );
  await t.step("the match uses the last user message, not the system prompt", async () => {
    const sys = new Agent("s", { model: "fake-model", system: "talk about the weather" });
    assertEquals((await sys.run("hello", ctx)).output, "{}");
  });
});

Deno.test("new FakeLLM(fn) passes system, user, model, messages and tools to the function", async () => {
  const seen: unknown[] = [];
  const llm = new FakeLLM((input) => {
    seen.push({
      system: input.system,
      user: input.user,
      model: input.model,
      tools: input.tools.map((t) => t.name),
    });
    return input.messages.length > 2 ? "done" : { toolCalls: [toolCall("c1", "t", {})] };
  });
  const tool = new FakeTool({ name: "t", responder: "r" });
  const a = new Agent("a", {
    model: "m1",
    system: "sys",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const r = await a.run("ping", makeTestCtx({ llm }));
  assertEquals(r.output, "done");
  assertEquals(seen, [
    { system: "sys", user: "ping", model: "m1", tools: ["t"] },
    { system: "sys", user: "ping", model: "m1", tools: ["t"] },
  ]);
});

Deno.test("new FakeLLM(fn) validates what the function returns", async () => {
  // deno-lint-ignore no-explicit-any
  const llm = new FakeLLM(() => ({ contents: "typo" }) as any);
  await assertRejects(() => llm.chat(req("x")), InvalidScript, 'did you mean "content"?');
});

Deno.test("FakeLLM.script() plays turns in order and throws ScriptExhausted one turn past the end", async () => {
  const llm = FakeLLM.script([{ content: "one" }, "two"]);
  const ctx = makeTestCtx({ llm });
  assertEquals((await agent.run("go", ctx)).output, "one");
  assertEquals((await agent.run("go", ctx)).output, "two");
  const e = await assertRejects(() => agent.run("go", ctx), ScriptExhausted);
  assert(e.message.includes("has 2 turn(s), but the agent asked for turn 3"), e.message);
  assertEquals([e.scripted, e.requested], [2, 3]);
  assertInstanceOf(e, HarnessError);
});

Deno.test("FakeLLM.script() with repeatLast replays the last turn forever", async () => {
  const llm = FakeLLM.script(["one", "two"], { repeatLast: true });
  const outs = [];
  for (let i = 0; i < 4; i++) outs.push((await llm.chat(req("x"))).content);
  assertEquals(outs, ["one", "two", "two", "two"]);
  llm.verify();
});

Deno.test("FakeLLM chat, stream and complete all read the same script", async () => {
  const llm = FakeLLM.script(["from chat", { chunks: ["from ", "stream"] }, "from complete"]);
  assertEquals((await llm.chat(req("x"))).content, "from chat");
  const events = await collect(llm.stream(req("x")));
  assertEquals(
    events.filter((e) => e.type === "text_delta").map((e) => e.type === "text_delta" && e.content),
    ["from ", "stream"],
  );
  assertEquals(
    (await llm.complete({ system: "s", user: "u", model: "m" })).content,
    "from complete",
  );
  assertEquals(llm.requests.map((r) => [r.kind, r.streaming, r.turn]), [
    ["chat", false, 1],
    ["stream", true, 2],
    ["complete", false, 3],
  ]);
  assertEquals(llm.requests[2].messages, [{ role: "system", content: "s" }, {
    role: "user",
    content: "u",
  }]);
});

Deno.test("a FakeLLM record is a plain object with every key, in a fixed order", async () => {
  const llm = new FakeLLM("ok");
  await llm.chat(req("x"));
  const [record] = llm.requests;
  // Built key by key (not a literal), which the compiler cannot check for a
  // forgotten key: this list must name every key of RecordedRequest (a new
  // key fails to type-check here), and the record must have them all.
  const KEYS = [
    "kind",
    "streaming",
    "turn",
    "model",
    "messages",
    "tools",
    "settings",
  ] as const satisfies readonly (keyof RecordedRequest)[];
  type Missing = Exclude<keyof RecordedRequest, (typeof KEYS)[number]>;
  const everyKey: [Missing] extends [never] ? true : Missing = true;
  assert(everyKey);
  assertEquals(Object.getPrototypeOf(record), Object.prototype);
  assertEquals(Object.keys(record), [...KEYS]);
  assertEquals(record, {
    kind: "chat",
    streaming: false,
    turn: 1,
    model: req("x").model,
    messages: [{ role: "user", content: "x" }],
    tools: [],
    settings: undefined,
  });
});

Deno.test("FakeLLM.requests records tools and settings as detached copies", async () => {
  const schema = { type: "object", properties: { a: { type: "string" } } };
  const llm = new FakeLLM("{}");
  await llm.chat({
    ...req("x"),
    tools: [{ name: "t", description: "d", parameters: { type: "object" } }],
    settings: { jsonSchema: schema, jsonSchemaName: "S", maxTokens: 512 },
  });
  (schema.properties.a as { type: string }).type = "mutated";
  await llm.chat(req("y"));
  const [first, second] = llm.requests;
  assertEquals(first.tools.map((t) => t.name), ["t"]);
  assertEquals(first.settings?.jsonSchema, {
    type: "object",
    properties: { a: { type: "string" } },
  });
  assertEquals([first.settings?.jsonSchemaName, first.settings?.maxTokens], ["S", 512]);
  assertEquals([second.tools, second.settings], [[], undefined]);
});

Deno.test("FakeLLM.requests records each transcript as it was when sent", async (t) => {
  await t.step("a transcript that grows between calls is recorded at each length", async () => {
    const llm = new FakeLLM("ok");
    const messages: { role: "user" | "assistant"; content: string }[] = [
      { role: "user", content: "a" },
    ];
    await llm.chat({ model: "m", messages });
    messages.push({ role: "assistant", content: "b" }, { role: "user", content: "c" });
    await llm.chat({ model: "m", messages });
    assertEquals(llm.requests.map((r) => r.messages.map((m) => m.content)), [["a"], [
      "a",
      "b",
      "c",
    ]]);
  });
  await t.step(
    "a transcript edited in place is recorded as edited, the earlier record unchanged",
    async () => {
      const llm = new FakeLLM("ok");
      const messages = [{ role: "user" as const, content: "a" }, {
        role: "user" as const,
        content: "b",
      }];
      await llm.chat({ model: "m", messages });
      messages[0] = { role: "user", content: "edited" };
      await llm.chat({ model: "m", messages });
      messages.length = 1;
      await llm.chat({ model: "m", messages });
      assertEquals(llm.requests.map((r) => r.messages.map((m) => m.content)), [
        ["a", "b"],
        ["edited", "b"],
        ["edited"],
      ]);
    },
  );
  await t.step("records read before later calls stay right, and so do the later ones", async () => {
    const llm = new FakeLLM("ok");
    const requests = llm.requests;
    const messages = [{ role: "user" as const, content: "a" }];
    await llm.chat({ model: "m", messages });
    messages.push({ role: "user", content: "b" });
    await llm.chat({ model: "m", messages });
    assertEquals(requests.map((r) => r.messages.length), [1, 2]);
    assertEquals(requests[0].messages, [{ role: "user", content: "a" }]);
  });
  await t.step(
    "a 200-step tool loop records 200 requests, each with its own transcript",
    async () => {
      const tool = new FakeTool({ name: "t", responder: "r" });
      const llm = FakeLLM.script([{ toolCalls: [toolCall("c", "t")] }], { repeatLast: true });
      const loop = new Agent("a", {
        model: "fake-model",
        cognition: new ReActCognition({ tools: [tool], maxIterations: 200 }),
      });
      await loop.run("go", makeTestCtx({ llm }));
      assertEquals(llm.requests.length, 200);
      assertEquals(
        llm.requests.map((r) => r.messages.length),
        Array.from({ length: 200 }, (_, i) => 1 + 2 * i),
      );
      assertEquals(llm.requests[199].messages[2], { role: "tool", content: "r", toolCallId: "c" });
    },
  );
});

Deno.test("FakeLLM scripted turns: tool calls finish tool_calls, content finishes stop, finishReason overrides", async () => {
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "t", { a: 1 })] },
    { content: "done" },
    { content: "cut", finishReason: "length", usage: { inputTokens: 5, outputTokens: 7 } },
  ]);
  const a = await llm.chat(req("x"));
  assertEquals([a.finishReason, a.toolCalls], ["tool_calls", [{
    id: "c1",
    name: "t",
    args: { a: 1 },
  }]]);
  assertEquals((await llm.chat(req("x"))).finishReason, "stop");
  const c = await llm.chat(req("x"));
  assertEquals([c.finishReason, c.usage], ["length", { inputTokens: 5, outputTokens: 7 }]);
});

Deno.test("FakeLLM failTimes fails the first n calls before any event, counted on the instance", async (t) => {
  await t.step("chat: retried to success; calls include the failures", async () => {
    const clock = new FakeClock();
    const llm = new FakeLLM("recovered", { failTimes: 2 });
    const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 3 })] });
    assertEquals((await agent.run("go", ctx)).output, "recovered");
    assertEquals([llm.calls, clock.sleeps.length], [3, 2]);
    assert(clock.now() > 0);
  });
  await t.step("stream: the failure comes before message_start", async () => {
    const llm = new FakeLLM("x", {
      failTimes: 1,
      failWith: new ProviderError("down", { retryable: true }),
    });
    const it = llm.stream(req("x"))[Symbol.asyncIterator]();
    await assertRejects(() => it.next(), ProviderError, "down");
    assertEquals((await collect(llm.stream(req("x"))))[0].type, "message_start");
  });
  await t.step("a shared fake fails n times in total, not per run", async () => {
    const llm = new FakeLLM("ok", { failTimes: 1 });
    const ctx = makeTestCtx({ llm });
    await assertRejects(() => agent.run("a", ctx), ProviderTimeoutError, "upstream timeout");
    assertEquals((await agent.run("b", ctx)).output, "ok");
  });
  await t.step("failed calls do not consume scripted turns", async () => {
    const llm = FakeLLM.script(["first"], { failTimes: 1 });
    await assertRejects(() => llm.chat(req("x")));
    assertEquals((await llm.chat(req("x"))).content, "first");
  });
});

Deno.test("FakeLLM delayMs waits on the context clock, not the wall clock", async () => {
  const clock = new FakeClock();
  const llm = new FakeLLM("late", { delayMs: 60_000 });
  const started = performance.now();
  const r = await agent.run("go", makeTestCtx({ llm, clock }));
  assertEquals([r.output, clock.now(), clock.sleeps], ["late", 60_000, [60_000]]);
  assert(performance.now() - started < 1_000, "a minute of virtual time cost real time");
});

Deno.test("FakeLLM delayMs honours cancellation and records the cancelled response", async () => {
  const clock = new FakeClock({ autoAdvance: false });
  const controller = new AbortController();
  const llm = new FakeLLM("never", { delayMs: 1_000 });
  const pending = llm.chat(req("x"), makeTestCtx({ clock, signal: controller.signal }));
  controller.abort(new Error("stop"));
  await assertRejects(() => pending, Error, "stop");
  assertEquals(llm.cancelled, ["fake-chat-1"]);
  assertEquals(clock.pending, 0, "the delay timer was dropped");
});

Deno.test("FakeLLM usage option sets the default usage of turns that script none", async () => {
  const llm = FakeLLM.script(["a", { content: "b", usage: { inputTokens: 1, outputTokens: 2 } }], {
    usage: { inputTokens: 100, outputTokens: 5 },
  });
  assertEquals((await llm.chat(req("x"))).usage, { inputTokens: 100, outputTokens: 5 });
  assertEquals((await llm.chat(req("x"))).usage, { inputTokens: 1, outputTokens: 2 });
});

Deno.test("FakeLLM.script() validates turns when built, naming the bad key and the nearest good one", async (t) => {
  const bad = (turns: unknown[]) => () => FakeLLM.script(turns as never);
  await t.step("snake_case key", () => {
    assertThrows(
      bad([{ content: "a" }, { tool_calls: [] }]),
      InvalidScript,
      'unknown key "tool_calls" in turn 2; did you mean "toolCalls"?',
    );
  });
  await t.step("a typo inside a tool call", () => {
    assertThrows(
      bad([{ toolCalls: [{ id: "c1", name: "t", arguments: {} }] }]),
      InvalidScript,
      'unknown key "arguments" in turn 1 toolCalls[0]; did you mean "args"?',
    );
  });
  await t.step("a wrong type", () => {
    assertThrows(bad([{ content: 42 }]), InvalidScript, "turn 1 content");
  });
  await t.step("content that contradicts chunks", () => {
    assertThrows(bad([{ content: "ab", chunks: ["a", "c"] }]), InvalidScript, "join of chunks");
  });
  await t.step("an empty script", () => {
    assertThrows(bad([]), InvalidScript, "at least one turn");
  });
  await t.step("an unknown option", () => {
    assertThrows(
      () => new FakeLLM("x", { failtimes: 2 } as never),
      TypeError,
      'did you mean "failTimes"?',
    );
  });
  await t.step("an array passed to the constructor", () => {
    assertThrows(() => new FakeLLM(["a"] as never), InvalidScript, "FakeLLM.script");
  });
});

Deno.test("FakeLLM.verify() and using report unused turns and swallowed harness errors", async (t) => {
  await t.step("unused turns", async () => {
    const llm = FakeLLM.script(["a", "b", "c"]);
    await llm.chat(req("x"));
    const e = assertThrows(
      () => llm.verify(),
      UnusedTurns,
      "has 3 turn(s), but the run used only 1",
    );
    assertEquals(e.unused, 2);
  });
  await t.step("allowUnused opts out", async () => {
    const llm = FakeLLM.script(["a", "b"], { allowUnused: true });
    await llm.chat(req("x"));
    llm.verify();
  });
  await t.step("a ScriptExhausted caught by user code resurfaces at scope exit", async () => {
    const run = async () => {
      using llm = FakeLLM.script(["only"]);
      await agent.run("go", makeTestCtx({ llm }));
      try {
        await llm.chat(req("again"));
      } catch {
        // user code that swallows every error
      }
    };
    await assertRejects(run, ScriptExhausted);
  });
  await t.step(
    "a run that failed on it: scope exit leaves the run's error; verify() still throws",
    async () => {
      // The dispose cannot tell a failed run the test caught from one leaving
      // the scope, and a throw would hide the latter behind a SuppressedError.
      const llm = FakeLLM.script(["only"]);
      const run = async () => {
        using scoped = llm;
        const ctx = makeTestCtx({ llm: scoped });
        await agent.run("go", ctx);
        await agent.run("go", ctx);
      };
      const error = await assertRejects(run, ScriptExhausted);
      assert(!(error instanceof SuppressedError));
      assertThrows(() => llm.verify(), ScriptExhausted);
    },
  );
  await t.step("a fully used script disposes cleanly", async () => {
    using llm = FakeLLM.script(["only"]);
    await agent.run("go", makeTestCtx({ llm }));
  });
});

Deno.test("FakeLLM response ids are numbered across the fake and its clones", async () => {
  const llm = FakeLLM.script(["a", "b", "c"]);
  const big = llm.withModel("big-model");
  const ids = [
    (await llm.chat(req("x"))).id,
    (await collect(big.stream(req("x"))))[0].messageId,
    (await big.chat(req("x"))).id,
  ];
  assertEquals(ids, ["fake-chat-1", "fake-stream-2", "fake-chat-3"]);
  assertEquals([llm.calls, big.calls, llm.requests.length], [3, 3, 3]);
});

Deno.test("FakeLLM follows the request's own signal before the context's", async (t) => {
  const stopped = () => {
    const c = new AbortController();
    c.abort(new Error("stopped"));
    return c.signal;
  };
  await t.step("an aborted request signal cancels chat, stream and complete", async () => {
    const llm = new FakeLLM("x");
    await assertRejects(() => llm.chat({ ...req("a"), signal: stopped() }), Error, "stopped");
    await assertRejects(
      () => collect(llm.stream({ ...req("a"), signal: stopped() })),
      Error,
      "stopped",
    );
    await assertRejects(
      () => llm.complete({ system: "", user: "a", model: "m", signal: stopped() }),
      Error,
      "stopped",
    );
    assertEquals(llm.cancelled, ["fake-chat-1", "fake-stream-2", "fake-chat-3"]);
  });
  await t.step("a live request signal wins over an aborted context", async () => {
    const llm = new FakeLLM("answered");
    const ctx = makeTestCtx({ signal: stopped() });
    const live = new AbortController().signal;
    assertEquals((await llm.chat({ ...req("a"), signal: live }, ctx)).content, "answered");
    await assertRejects(() => llm.chat(req("a"), ctx), Error, "stopped");
    assertEquals(llm.cancelled, ["fake-chat-2"]);
  });
  await t.step("a gate that fails on its own is not a cancellation", async () => {
    const llm = FakeLLM.script([{ content: "x", gate: Promise.reject(new Error("gate says no")) }]);
    const live = new AbortController().signal;
    await assertRejects(() => llm.chat({ ...req("a"), signal: live }), Error, "gate says no");
    assertEquals(llm.cancelled, []);
  });
});

Deno.test("FakeLLM.complete() sends the system prompt only when there is one", async () => {
  const llm = new FakeLLM("ok");
  await llm.complete({ system: "", user: "just the user", model: "m" });
  await llm.complete({ system: "be brief", user: "u", model: "m" });
  assertEquals(llm.requests.map((r) => r.messages), [
    [{ role: "user", content: "just the user" }],
    [{ role: "system", content: "be brief" }, { role: "user", content: "u" }],
  ]);
});

Deno.test("FakeLLM.complete() rejects what is not a CompleteRequest, naming it, and records nothing", async () => {
  const llm = new FakeLLM("ok");
  for (const [bad, got] of [[undefined, "undefined"], [null, "null"], ["hi", '"hi"']] as const) {
    const e = await assertRejects(() => llm.complete(bad as never), TypeError);
    assertEquals(
      e.message,
      `FakeLLM.complete(): the request must be a CompleteRequest ({ system, user, model }), got ${got}`,
    );
  }
  // An object without a string user prompt is refused too, and one with it is served.
  await assertRejects(() => llm.complete({ system: "s", model: "m" } as never), TypeError, "got {");
  await assertRejects(() => llm.complete({ user: 7 } as never), TypeError, "CompleteRequest");
  assertEquals(llm.requests.length, 0);
  assertEquals((await llm.complete({ user: "u" } as never)).content, "ok");
});

Deno.test("FakeLLM names the model: the turn's, else the fake's, else the request's", async () => {
  const script = [{ content: "a", model: "turn-model" }, "b"];
  const plain = FakeLLM.script(script);
  assertEquals((await plain.chat(req("x"))).model, "turn-model");
  assertEquals((await plain.chat(req("x"))).model, "fake-model");
  const named = FakeLLM.script(script, { model: "option-model" });
  assertEquals((await named.chat(req("x"))).model, "turn-model");
  assertEquals((await named.chat(req("x"))).model, "option-model");
});

Deno.test("FakeLLM.unusedTurns counts the turns left, never below zero, and 0 for the other forms", async () => {
  const llm = FakeLLM.script(["a", "b", "c"], { repeatLast: true });
  assertEquals(llm.unusedTurns, 3);
  await llm.chat(req("x"));
  assertEquals(llm.unusedTurns, 2);
  for (let i = 0; i < 4; i++) await llm.chat(req("x"));
  assertEquals(llm.unusedTurns, 0);
  llm.verify();
  assertEquals(new FakeLLM("x").unusedTurns, 0);
  assertEquals(new FakeLLM({ a: "b" }).unusedTurns, 0);
  assertEquals(new FakeLLM(() => "x").unusedTurns, 0);
});

Deno.test("FakeLLM.verify() names how many turns were used, and accepts the forms without a script", async () => {
  const llm = FakeLLM.script(["a", "b", "c"]);
  await llm.chat(req("x"));
  const e = assertThrows(() => llm.verify(), UnusedTurns);
  assertEquals(e.unused, 2);
  for (const form of [new FakeLLM("x"), new FakeLLM({ a: "b" }), new FakeLLM(() => "x")]) {
    form.verify();
  }
  FakeLLM.script(["a", "b"], { allowUnused: true }).verify();
  FakeLLM.script(["a", "b"], { repeatLast: true }).verify();
});

Deno.test("new FakeLLM(fn) joins every system message and reads an empty user and no tools as such", async () => {
  const inputs: ResponderInput[] = [];
  const llm = new FakeLLM((input) => (inputs.push(input), "ok"));
  await llm.chat({
    model: "m",
    messages: [
      { role: "system", content: "one" },
      { role: "system", content: "two" },
      { role: "assistant", content: "earlier" },
    ],
  });
  assertEquals([inputs[0].system, inputs[0].user, inputs[0].tools], ["one\ntwo", "", []]);
});

Deno.test("FakeLLM keeps every harness error it threw, and verify() throws the first one", async () => {
  const strict = new FakeLLM({ weather: "rain" }, { strict: true });
  const e = await assertRejects(() => strict.chat(req("stocks?")), UnmatchedPrompt);
  assertEquals(e.prompt, "stocks?");
  assertEquals(strict.harnessErrors, [e]);
  assertThrows(() => strict.verify(), UnmatchedPrompt);

  const script = FakeLLM.script(["a"]);
  await script.chat(req("x"));
  const first = await assertRejects(() => script.chat(req("x")), ScriptExhausted);
  await assertRejects(() => script.chat(req("x")), ScriptExhausted);
  assertEquals(script.harnessErrors.length, 2);
  assertEquals(assertThrows(() => script.verify(), ScriptExhausted), first);
});

Deno.test("FakeLLM streams a turn without text as message_start then message_end", async () => {
  const llm = FakeLLM.script([{ content: "" }, { toolCalls: [toolCall("c1", "t", {})] }]);
  assertEquals((await collect(llm.stream(req("x")))).map((e) => e.type), [
    "message_start",
    "message_end",
  ]);
  assertEquals((await collect(llm.stream(req("x")))).map((e) => e.type), [
    "message_start",
    "tool_call",
    "message_end",
  ]);
});

Deno.test("FakeLLM.chat() plays a failAfterChunks turn as its mid-stream failure, with usage", async () => {
  const llm = FakeLLM.script([
    { chunks: ["a", "b"], failAfterChunks: 1, usage: { inputTokens: 3, outputTokens: 1 } },
    { chunks: ["a"], failAfterChunks: 0, error: "reset by peer", finishReason: "length" },
  ]);
  const cut = await assertRejects(() => llm.chat(req("x")), ProviderError);
  assertEquals([cut.phase, cut.retryable, cut.usage], ["mid_stream", false, {
    inputTokens: 3,
    outputTokens: 1,
  }]);
  const named = await assertRejects(() => llm.chat(req("x")), ProviderError, "reset by peer");
  assertEquals([named.phase, named.finishReason, named.usage], ["mid_stream", "length", {
    inputTokens: 10,
    outputTokens: 0,
  }]);
});

Deno.test("FakeLLM.chat() answers a chunked turn with the join of its chunks", async () => {
  const llm = FakeLLM.script([{ chunks: ["Hel", "lo"] }]);
  const r = await llm.chat(req("x"));
  assertEquals([r.content, r.toolCalls, r.finishReason], ["Hello", [], "stop"]);
});

Deno.test("FakeLLM plays text and tool turns the same way through chat and stream", async () => {
  const llm = FakeLLM.script([
    { toolCalls: [toolCall("c1", "t", {})] },
    { content: "hi" },
    { toolCalls: [toolCall("c2", "t", {})] },
  ]);
  const chat = await llm.chat(req("x"));
  assertEquals([chat.content, chat.finishReason], ["", "tool_calls"]);
  const text = await collect(llm.stream(req("x")));
  assertEquals(text.map((e) => e.type === "text_delta" ? e.content : e.type), [
    "message_start",
    "hi",
    "message_end",
  ]);
  const ends = [text.at(-1), (await collect(llm.stream(req("x")))).at(-1)];
  assertEquals(ends.map((e) => e?.type === "message_end" && e.finishReason), [
    "stop",
    "tool_calls",
  ]);
});

Deno.test("FakeLLM fails a scripted error before the stream in chat and mid-stream in stream", async () => {
  const llm = FakeLLM.script([{ error: "upstream said no" }, { error: "upstream said no" }]);
  const blocking = await assertRejects(() => llm.chat(req("x")), ProviderError);
  assertEquals(blocking.phase, "pre_stream");
  const event = (await collect(llm.stream(req("x")))).at(-1);
  const streamed = event?.type === "error" ? event.error : undefined;
  assertInstanceOf(streamed, ProviderError);
  assertEquals((streamed as ProviderError).phase, "mid_stream");
});

Deno.test("FakeLLM holds a gate with no signal anywhere, and answers once it opens", async () => {
  const gate = Promise.withResolvers<void>();
  const llm = FakeLLM.script([{ content: "opened", gate: gate.promise }]);
  const call = llm.chat(req("x"));
  gate.resolve();
  assertEquals((await call).content, "opened");
  assertEquals(llm.cancelled, []);
});

Deno.test("FakeLLM.turnsTaken counts the scripted turns asked for, and is 0 for the other forms", async () => {
  const llm = FakeLLM.script(["a", "b"]);
  assertEquals(llm.turnsTaken, 0);
  await llm.chat(req("x"));
  await llm.chat(req("x"));
  assertEquals(llm.turnsTaken, 2);
  await assertRejects(() => llm.chat(req("x")), ScriptExhausted);
  assertEquals(llm.turnsTaken, 3);
  const text = new FakeLLM("x");
  await text.chat(req("x"));
  assertEquals(text.turnsTaken, 0);
});

Deno.test("FakeLLM errors name where the bad value came from", async (t) => {
  await t.step("the constructor, FakeLLM.auto() and the usage option", () => {
    assertThrows(() => new FakeLLM("x", { delay: 1 } as never), TypeError, "new FakeLLM()");
    assertThrows(() => FakeLLM.auto({ delay: 1 } as never), TypeError, "FakeLLM.auto()");
    assertThrows(
      () => new FakeLLM("x", { usage: { inputTokens: -1, outputTokens: 0 } }),
      InvalidScript,
      "FakeLLM options",
    );
  });
  await t.step("a script that is not an array says what it got", () => {
    assertThrows(() => FakeLLM.script(null as never), InvalidScript, "got null");
    assertThrows(() => FakeLLM.script("a" as never), InvalidScript, "got string");
  });
  await t.step("a script past its 32nd turn names the turn by number", () => {
    const turns: unknown[] = Array.from({ length: 40 }, () => "ok");
    turns[39] = { contnet: "typo" };
    assertThrows(() => FakeLLM.script(turns as string[]), InvalidScript, "turn 40");
    turns[39] = "ok";
    turns[32] = { contnet: "typo" };
    assertThrows(() => FakeLLM.script(turns as string[]), InvalidScript, "turn 33");
  });
  await t.step("a script run out or left unused names FakeLLM.script", async () => {
    const llm = FakeLLM.script(["a", "b"]);
    assertThrows(() => llm.verify(), UnusedTurns, "FakeLLM.script");
    await llm.chat(req("x"));
    await llm.chat(req("x"));
    await assertRejects(() => llm.chat(req("x")), ScriptExhausted, "FakeLLM.script");
  });
  await t.step("a responder's bad answer names the call", async () => {
    const llm = new FakeLLM((input) => input.user === "bad" ? { contnet: "x" } as never : "fine");
    assertEquals((await llm.chat(req("ok"))).content, "fine");
    await assertRejects(() => llm.chat(req("bad")), InvalidScript, "answer to call 2");
  });
});

Deno.test("new FakeLLM(fn) awaits an async responder, in chat and in stream", async () => {
  const llm = new FakeLLM(async ({ user }) => {
    await Promise.resolve();
    return user === "tool" ? { toolCalls: [toolCall("c1", "t", { a: 1 })] } : `async ${user}`;
  });
  assertEquals((await llm.chat(req("one"))).content, "async one");
  const events = await collect(llm.stream(req("two")));
  assertEquals(
    events.map((e) => e.type === "text_delta" ? e.content : e.type),
    ["message_start", "async two", "message_end"],
  );
  const tools = await collect(
    llm.stream({ ...req("tool"), tools: [{ name: "t", description: "", parameters: {} }] }),
  );
  assertEquals(tools.map((e) => e.type), ["message_start", "tool_call", "message_end"]);
  // Any thenable counts, not only a Promise.
  const thenable = new FakeLLM(() =>
    ({
      then(resolve: (v: string) => void) {
        resolve("from a thenable");
      },
    }) as unknown as Promise<string>
  );
  assertEquals((await thenable.chat(req("x"))).content, "from a thenable");
});

Deno.test("new FakeLLM(fn) refuses a responder answer of null or undefined as a script error", async () => {
  for (const answer of [null, undefined]) {
    const llm = new FakeLLM(() => answer as never);
    await assertRejects(() => llm.chat(req("x")), InvalidScript, "answer to call 1");
    const stream = llm.stream(req("x"));
    await assertRejects(() => stream.next(), InvalidScript, "answer to call 2");
    // A stream that failed to open is over.
    assertEquals(await stream.next(), { done: true, value: undefined });
  }
});

Deno.test("FakeLLM stream that failed to open, async or not, is over: next() is done, not a crash", async () => {
  const sync = FakeLLM.script(["a"], { failTimes: 1 });
  const first = sync.stream(req("x"));
  await assertRejects(() => first.next(), ProviderTimeoutError);
  assertEquals(await first.next(), { done: true, value: undefined });
  const rejecting = new FakeLLM(() => Promise.reject(new Error("responder broke")));
  const second = rejecting.stream(req("x"));
  await assertRejects(() => second.next(), Error, "responder broke");
  assertEquals(await second.next(), { done: true, value: undefined });
});

Deno.test("FakeLLM stream closed early by its consumer yields nothing more", async () => {
  const llm = FakeLLM.script([{ chunks: ["a", "b", "c"] }]);
  const stream = llm.stream(req("x"));
  assertEquals((await stream.next()).value?.type, "message_start");
  assertEquals(await stream.return(), { done: true, value: undefined });
  assertEquals(await stream.next(), { done: true, value: undefined });
  // Closing a stream never started makes no call.
  const unopened = llm.stream(req("x"));
  await unopened.return();
  assertEquals(await unopened.next(), { done: true, value: undefined });
  assertEquals([llm.calls, llm.cancelled], [1, []]);
});

Deno.test("FakeLLM copies a message once: the records of a growing transcript share the copies", async () => {
  const llm = new FakeLLM("ok");
  const messages: { role: "user" | "assistant"; content: string }[] = [
    { role: "user", content: "a" },
  ];
  await llm.chat({ model: "m", messages });
  await llm.chat({ model: "m", messages }); // sent again unchanged (a retry)
  messages.push({ role: "assistant", content: "b" });
  await llm.chat({ model: "m", messages });
  const [one, again, grown] = llm.requests;
  assertEquals(grown.messages.map((m) => m.content), ["a", "b"]);
  assert(one.messages[0] === again.messages[0] && again.messages[0] === grown.messages[0]);
  assert(one.messages[0] !== messages[0]);
  // Another transcript gets its own copies, even one with the same length.
  const other = [{ role: "user" as const, content: "z" }, { role: "user" as const, content: "y" }];
  await llm.chat({ model: "m", messages: other });
  assertEquals(llm.requests[3].messages.map((m) => m.content), ["z", "y"]);
});

Deno.test("FakeLLM records the transcript of each run, not the last run's, through a tool loop", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  // The first run answers at once; the second sends a transcript as long,
  // then calls the tool.
  const llm = new FakeLLM(({ user, messages }) =>
    user === "first" || messages.at(-1)?.role === "tool"
      ? "done"
      : { toolCalls: [toolCall("c", "t")] }
  );
  const loop = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  await loop.run("first", makeTestCtx({ llm }));
  await loop.run("second", makeTestCtx({ llm }));
  const users = llm.requests.map((r) => r.messages.filter((m) => m.role === "user")[0].content);
  assertEquals(users, ["first", "second", "second"]);
  assertEquals(llm.requests.map((r) => r.messages.length), [1, 1, 3]);
});

Deno.test("FakeLLM shares one copy of a tool list sent again unchanged, and copies a changed one", async () => {
  const llm = new FakeLLM("ok");
  const spec = () => ({ name: "t", description: "d", parameters: { type: "object" } });
  const tools: Array<{ name: string; description?: string; parameters: object }> = [spec()];
  const send = () => llm.chat({ ...req("x"), tools: tools as never });
  await send();
  await send();
  tools[0] = { ...spec(), description: "changed" }; // a spec replaced in place
  await send();
  tools.push({ ...spec(), name: "u" }); // a tool added
  await send();
  delete tools[0].description; // a key removed from a spec
  await send();
  const r = llm.requests;
  assert(r[0].tools === r[1].tools, "an unchanged list shares its copies");
  assert(r[0].tools[0] !== tools[0], "the copies are not the caller's objects");
  assertEquals(r.map((x) => x.tools.map((t) => `${t.name}:${t.description}`)), [
    ["t:d"],
    ["t:d"],
    ["t:changed"],
    ["t:changed", "u:d"],
    ["t:undefined", "u:d"],
  ]);
});

Deno.test("FakeLLM records a call to an unknown tool with what was offered, and observes it on the run", async () => {
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "ghost", {})] }]);
  const emitted: unknown[] = [];
  const ctx = makeTestCtx({ llm });
  const emit = ctx.emit.bind(ctx);
  ctx.emit = (kind, text, options) => {
    emitted.push({ kind, payload: options?.payload });
    return emit(kind, text, options);
  };
  await llm.chat(req("x"), ctx);
  assertEquals(llm.unknownToolCalls.map((u) => u.offered), [[]]);
  assertEquals(emitted, [{
    kind: "unknown_tool_call",
    payload: { turn: 1, callId: "c1", name: "ghost", offered: [] },
  }]);
});

Deno.test("FakeLLM's ready path: a turn that waits on nothing answers as is, recorded as a chat; a replaced chat() is called through", async () => {
  const llm = FakeLLM.script(["one", "two"]);
  const req: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };
  const ready = (llm as unknown as { [CHAT_NOW](r: ChatRequest): unknown })[CHAT_NOW](req);
  assert(!(ready instanceof Promise), "a scripted turn with no delay, gate or abort is ready");
  assertEquals((ready as ChatResponse).content, "one");
  assertEquals(llm.requests.map((r) => [r.kind, r.streaming]), [["chat", false]]);
  const seen: string[] = [];
  const own = llm.chat;
  Object.defineProperty(llm, "chat", {
    value: (r: ChatRequest) => {
      seen.push("spy");
      return own.call(llm, r);
    },
    configurable: true,
  });
  const through = (llm as unknown as { [CHAT_NOW](r: ChatRequest): unknown })[CHAT_NOW](req);
  assertInstanceOf(through, Promise);
  assertEquals([((await through) as ChatResponse).content, seen], ["two", ["spy"]]);
});

Deno.test("FakeLLM.stream(): a turn that waits on nothing hands over its steps ready; a paced turn does not", async () => {
  const llm = FakeLLM.script([{ chunks: ["a"] }, { chunks: ["b", "c"], chunkDelayMs: 5 }]);
  const req: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };
  const ctx = makeTestCtx({ llm, clock: new FakeClock() });
  const ready = llm.stream(req, ctx);
  const first = pull(ready);
  assert(!(first instanceof Promise), "a ready turn's first step is ready");
  assertEquals((first as IteratorResult<StreamEvent>).value?.type, "message_start");
  assertEquals((await Array.fromAsync(ready)).map((e) => e.type), [
    "text_delta",
    "message_end",
  ]);
  const paced = llm.stream(req, ctx);
  const waiting = pull(paced);
  assertInstanceOf(waiting, Promise);
  assertEquals((await waiting).value?.type, "message_start");
  const rest = await Array.fromAsync(paced);
  assertEquals(rest.map((e) => e.type === "text_delta" ? e.content : e.type), [
    "b",
    "c",
    "message_end",
  ]);
});

Deno.test("new FakeLLM(fn): a responder that answers at once answers ready; only an async one pays for a promise", async () => {
  const req: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };
  const now = (llm: FakeLLM) =>
    (llm as unknown as { [CHAT_NOW](r: ChatRequest): unknown })[CHAT_NOW](req);
  const ready = now(new FakeLLM(() => ({ content: "at once" })));
  assert(!(ready instanceof Promise), "a turn object answered at once is ready");
  assertEquals((ready as ChatResponse).content, "at once");
  const later = now(new FakeLLM(() => Promise.resolve({ content: "later" })));
  assertInstanceOf(later, Promise);
  assertEquals(((await later) as ChatResponse).content, "later");
});

Deno.test("FakeLLM.requests read between calls keeps each record's transcript, a later shorter one included", async () => {
  const llm = new FakeLLM("ok");
  const long: ChatRequest = {
    model: "m",
    messages: [
      { role: "user", content: "one" },
      { role: "assistant", content: "two" },
      { role: "user", content: "three" },
    ],
  };
  await llm.chat(long);
  assertEquals(llm.requests.map((r) => r.messages.length), [3]);
  await llm.chat({ model: "m", messages: [{ role: "user", content: "again" }] });
  assertEquals(llm.requests.map((r) => r.messages.map((m) => m.content)), [
    ["one", "two", "three"],
    ["again"],
  ]);
});

Deno.test("new FakeLLM({ '': ... }) is refused: the empty key would answer every prompt", () => {
  assertThrows(() => new FakeLLM({ "": "x" }), InvalidScript, 'the key "" matches every prompt');
  assertThrows(() => new FakeLLM({ cert: "a", "": "x" }), InvalidScript, "non-empty");
  assertEquals(new FakeLLM({ " ": "space" }).unusedTurns, 0, "a space is a key like any other");
});

Deno.test("FakeLLM refuses tool-call arguments that are not JSON, naming the call or turn", async () => {
  const cyc: Record<string, unknown> = {};
  cyc.self = cyc;
  const request: ChatRequest = { model: "m", messages: [{ role: "user", content: "go" }] };
  const big = new FakeLLM(() => ({ toolCalls: [toolCall("c1", "t", { n: 1n as never })] }));
  await assertRejects(
    () => big.chat(request),
    InvalidScript,
    "FakeLLM: the responder's answer to call 1: toolCalls[0].args.n is a BigInt (1n)",
  );
  const loop = new FakeLLM(() => Promise.resolve({ toolCalls: [toolCall("c1", "t", cyc)] }));
  await assertRejects(
    () => loop.chat(request),
    InvalidScript,
    "toolCalls[0].args.self refers back",
  );
  assertThrows(
    () => FakeLLM.script(["a", { toolCalls: [toolCall("c", "t", { at: NaN })] }]),
    InvalidScript,
    "turn 2: toolCalls[0].args.at is NaN",
  );
  assertThrows(
    () => new FakeLLM({ go: { toolCalls: [toolCall("c", "t", { m: new Map() as never })] } }),
    InvalidScript,
    'the answer for key "go": toolCalls[0].args.m is a Map',
  );
});

Deno.test("FakeLLM.chat(), complete() and stream() refuse a request that is not a ChatRequest", async () => {
  const llm = new FakeLLM("ok");
  for (const bad of [undefined, null, "hi", { model: "m", messages: "hi" }]) {
    await assertRejects(
      () => llm.chat(bad as never),
      TypeError,
      "FakeLLM.chat(): the request must be a ChatRequest ({ model, messages: [...] }), got",
    );
    await assertRejects(
      async () => {
        for await (const _ of llm.stream(bad as never)) { /* drain */ }
      },
      TypeError,
      "FakeLLM.stream(): the request must be a ChatRequest",
    );
  }
  assertEquals(llm.calls, 0, "a refused request is not a call");
});

Deno.test("FakeLLM: a scripted error without words says so, in chat and in stream", async () => {
  const empty =
    "a FakeLLM turn's scripted error with an empty message (give the turn's error words, e.g. { error: \"overloaded\" })";
  const llm = FakeLLM.script([
    { error: "" },
    { error: " \n\t" },
    { error: "" },
    { error: " x " },
    { error: "", finishReason: "length", usage: { inputTokens: 2, outputTokens: 1 } },
  ]);
  for (let i = 0; i < 2; i++) {
    const e = await assertRejects(() => llm.chat(req("x")), ProviderError);
    assertEquals([e.name, e.message, e.phase], ["ProviderResponseError", empty, "pre_stream"]);
  }
  const event = (await collect(llm.stream(req("x")))).at(-1);
  const streamed = event?.type === "error" ? event.error : undefined;
  assertInstanceOf(streamed, ProviderError);
  assertEquals([(streamed as ProviderError).message, (streamed as ProviderError).phase], [
    empty,
    "mid_stream",
  ]);
  // Words, even with space around them, are the message as scripted.
  assertEquals((await assertRejects(() => llm.chat(req("x")), ProviderError)).message, " x ");
  const kept = await assertRejects(() => llm.chat(req("x")), ProviderError);
  assertEquals([kept.message, kept.finishReason, kept.usage], [empty, "length", {
    inputTokens: 2,
    outputTokens: 1,
  }]);
});
