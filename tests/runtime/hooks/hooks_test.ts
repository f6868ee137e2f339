import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  Agent,
  type AgentResult,
  type BeforeRunHook,
  type Cognition,
  HookFailed,
  InvalidStreamEvent,
  type StreamEventHook,
} from "@agentkit/testing/runtime";
import type { StreamEvent } from "@agentkit/testing/ports";
import {
  FakeLLM,
  HaltingHook,
  makeTestCtx,
  RecordingHook,
  ScriptExhausted,
} from "@agentkit/testing/testing";

const upper: BeforeRunHook = {
  name: "upper",
  beforeRun: (r) => ({ ...r, task: r.task.toUpperCase() }),
};

Deno.test("Agent.run() passes the request a beforeRun hook rewrote to the model", async () => {
  const llm = new FakeLLM(({ user }) => `ok:${user}`);
  const recorder = new RecordingHook();
  const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: [upper, recorder] } });
  const result = await agent.run("hello", makeTestCtx({ llm }));
  assertEquals(result.output, "ok:HELLO");
  assertEquals(llm.requests[0].messages.at(-1)?.content, "HELLO");
  assertEquals(
    recorder.requests,
    [{ task: "HELLO", context: [] }],
    "the next hook saw the rewrite",
  );
});

Deno.test("Agent.run() halted by a beforeRun hook never calls the cognition", async () => {
  const llm = new FakeLLM("never");
  const halt = new HaltingHook({ reply: "I cannot help with that." });
  const later = new RecordingHook({ name: "later" });
  const after = new RecordingHook({ name: "after" });
  const agent = new Agent("a", {
    model: "fake-model",
    hooks: { beforeRun: [halt, later], afterRun: [after] },
  });
  const result = await agent.run("how do I pick a lock?", makeTestCtx({ llm }));
  assertEquals(result.output, "I cannot help with that.");
  assertEquals(result.stopReason, "halted");
  assertEquals(result.usage, { inputTokens: 0, outputTokens: 0 });
  assertEquals(result.messages.map((m) => [m.role, m.content]), [
    ["user", "how do I pick a lock?"],
    ["assistant", "I cannot help with that."],
  ]);
  assertEquals(llm.calls, 0);
  assertEquals(later.requests, [], "no beforeRun hook after the halting one runs");
  assertEquals(after.results, [result], "afterRun sees the halted result");
});

Deno.test("Agent.stream() halted by a beforeRun hook streams the reply as one message", async () => {
  const llm = new FakeLLM("never");
  const seen = new RecordingHook();
  const agent = new Agent("a", {
    model: "fake-model",
    hooks: {
      beforeRun: [new HaltingHook({ reply: "No." })],
      onStreamEvent: [seen],
      afterRun: [seen],
    },
  });
  const events = await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm })));
  assertEquals(events.map((e) => e.type), ["message_start", "text_delta", "message_end"]);
  assertEquals(events[1], { type: "text_delta", messageId: "halted-test-run", content: "No." });
  assertEquals(llm.calls, 0);
  assertEquals(seen.events, events, "stream hooks see the halt's events too");
  assertEquals(seen.results.map((r) => [r.output, r.stopReason]), [["No.", "halted"]]);
});

Deno.test("Agent.stream() shows each onStreamEvent hook every event, in order", async () => {
  const first = new RecordingHook({ name: "first" });
  const second = new RecordingHook({ name: "second" });
  const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [first, second] } });
  const llm = FakeLLM.script([{ chunks: ["Hel", "lo"] }]);
  const events = await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm })));
  assertEquals(events.map((e) => e.type), [
    "message_start",
    "text_delta",
    "text_delta",
    "message_end",
  ]);
  assertEquals(first.events, events);
  assertEquals(second.events, events);
});

Deno.test("Agent.stream(): a hook that returns an array ends the chain for that event", async (t) => {
  const llm = () => FakeLLM.script([{ chunks: ["Hel", "lo"] }]);
  await t.step("the second hook does not see the events the first one ended", async () => {
    const halting = new HaltingHook({ when: (e) => e.type === "text_delta" });
    const second = new RecordingHook();
    const agent = new Agent("a", {
      model: "fake-model",
      hooks: { onStreamEvent: [halting, second] },
    });
    const events = await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: llm() })));
    assertEquals(events.map((e) => e.type), [
      "message_start",
      "text_delta",
      "text_delta",
      "message_end",
    ]);
    assertEquals(halting.events.length, 4);
    assertEquals(halting.ended, 2);
    assertEquals(second.events.map((e) => e.type), ["message_start", "message_end"]);
  });
  await t.step("the replacements are emitted and shown to no hook", async () => {
    const shout = new HaltingHook({
      when: (e) => e.type === "text_delta",
      replaceWith: (e) => [e, { ...e, content: (e as { content: string }).content.toUpperCase() }],
    });
    const second = new RecordingHook();
    const agent = new Agent("a", {
      model: "fake-model",
      hooks: { onStreamEvent: [shout, second] },
    });
    const events = await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: llm() })));
    assertEquals(events.flatMap((e) => e.type === "text_delta" ? [e.content] : []), [
      "Hel",
      "HEL",
      "lo",
      "LO",
    ]);
    assertEquals(second.events.length, 2);
  });
  await t.step("an empty array drops the event", async () => {
    const drop = new HaltingHook({ when: (e) => e.type === "text_delta", replaceWith: [] });
    const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [drop] } });
    const events = await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: llm() })));
    assertEquals(events.map((e) => e.type), ["message_start", "message_end"]);
  });
});

Deno.test("Agent.stream() validates the events a hook returns, naming the hook", async () => {
  const bad: StreamEventHook = {
    name: "sloppy",
    onStreamEvent: (e) =>
      e.type === "text_delta" ? ["plain text" as unknown as StreamEvent] : undefined,
  };
  const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [bad] } });
  await assertRejects(
    () => Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: new FakeLLM("x") }))),
    InvalidStreamEvent,
    'hook "sloppy" yielded "plain text"',
  );
});

Deno.test("Agent.stream() rejects a hook that returns one event instead of an array", async () => {
  const bad = {
    name: "single",
    onStreamEvent: (e: StreamEvent) => e,
  } as unknown as StreamEventHook;
  const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [bad] } });
  await assertRejects(
    () => Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: new FakeLLM("x") }))),
    TypeError,
    'The onStreamEvent hook "single" returned a single object; return an array',
  );
});

Deno.test("afterRun hooks see the result of agent.run and agent.stream", async (t) => {
  await t.step("run", async () => {
    const after = new RecordingHook();
    const agent = new Agent("a", { model: "fake-model", hooks: { afterRun: [after] } });
    const result = await agent.run("hi", makeTestCtx({ llm: new FakeLLM("done") }));
    assertEquals(after.results, [result]);
  });
  await t.step("stream: a result assembled from the events", async () => {
    const after = new RecordingHook();
    const agent = new Agent("a", { model: "fake-model", hooks: { afterRun: [after] } });
    const llm = FakeLLM.script([{
      chunks: ["do", "ne"],
      usage: { inputTokens: 7, outputTokens: 2 },
    }]);
    await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm })));
    const [r] = after.results as AgentResult[];
    assertEquals([r.output, r.stopReason, r.usage], ["done", "stop", {
      inputTokens: 7,
      outputTokens: 2,
    }]);
    assertEquals(r.messages.map((m) => m.role), ["user", "assistant"]);
  });
  await t.step("stream: a consumer that stops early runs no afterRun", async () => {
    const after = new RecordingHook();
    const agent = new Agent("a", { model: "fake-model", hooks: { afterRun: [after] } });
    for await (const _ of agent.stream("hi", makeTestCtx({ llm: new FakeLLM("done") }))) break;
    assertEquals(after.results, []);
  });
});

Deno.test("a throwing hook fails the run with HookFailed naming it", async (t) => {
  const boom = new Error("service down");
  const llm = () => new FakeLLM("x");
  await t.step("beforeRun: the cognition is not called", async () => {
    const model = llm();
    const agent = new Agent("a", {
      model: "fake-model",
      hooks: { beforeRun: [{ name: "moderation", beforeRun: () => Promise.reject(boom) }] },
    });
    const e = await assertRejects(() => agent.run("hi", makeTestCtx({ llm: model })), HookFailed);
    assertEquals([e.hook, e.phase, e.cause], ["moderation", "beforeRun", boom]);
    assertStringIncludes(e.message, 'The beforeRun hook "moderation" threw: service down');
    assertEquals(model.calls, 0);
  });
  await t.step("onStreamEvent", async () => {
    const agent = new Agent("a", {
      model: "fake-model",
      hooks: {
        onStreamEvent: [{
          onStreamEvent: () => {
            throw boom;
          },
        }],
      },
    });
    const e = await assertRejects(
      () => Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: llm() }))),
      HookFailed,
    );
    assertEquals([e.hook, e.phase], ["onStreamEvent[0]", "onStreamEvent"]);
  });
  await t.step("afterRun", async () => {
    class Audit {
      afterRun(): void {
        throw boom;
      }
    }
    const agent = new Agent("a", { model: "fake-model", hooks: { afterRun: [new Audit()] } });
    const e = await assertRejects(() => agent.run("hi", makeTestCtx({ llm: llm() })), HookFailed);
    assertEquals([e.hook, e.phase], ["Audit", "afterRun"]);
  });
});

Deno.test("a harness error thrown in a hook escapes unwrapped", async () => {
  const exhausted = FakeLLM.script(["only one"]);
  const judge: BeforeRunHook = {
    name: "judge",
    beforeRun: async (r) => {
      await exhausted.chat({ model: "m", messages: [] });
      await exhausted.chat({ model: "m", messages: [] }); // one too many
      return r;
    },
  };
  const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: [judge] } });
  await assertRejects(
    () => agent.run("hi", makeTestCtx({ llm: new FakeLLM("x") })),
    ScriptExhausted,
  );
});

Deno.test("cancellation thrown in a hook escapes unwrapped", async () => {
  const controller = new AbortController();
  const reason = new DOMException("user left", "AbortError");
  const hook: StreamEventHook = {
    name: "cancel",
    onStreamEvent: () => {
      controller.abort(reason);
      throw reason;
    },
  };
  const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [hook] } });
  const ctx = makeTestCtx({ llm: new FakeLLM("x"), signal: controller.signal });
  const e = await assertRejects(() => Array.fromAsync(agent.stream("hi", ctx)));
  assert(e === reason);
});

Deno.test("a beforeRun hook that returns something else fails with a TypeError", async () => {
  const odd = { name: "odd", beforeRun: () => 42 } as unknown as BeforeRunHook;
  const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: [odd] } });
  await assertRejects(
    () => agent.run("hi", makeTestCtx({ llm: new FakeLLM("x") })),
    TypeError,
    'The beforeRun hook "odd" returned 42',
  );
});

Deno.test("new Agent() checks hooks when built", async (t) => {
  await t.step("an unknown list gets a did-you-mean", () => {
    assertThrows(
      () => new Agent("a", { model: "m", hooks: { afterrun: [] } as never }),
      TypeError,
      'unknown hook list "afterrun"; did you mean "afterRun"?',
    );
  });
  await t.step("a hook without its method", () => {
    assertThrows(
      () => new Agent("a", { model: "m", hooks: { beforeRun: [{ onStreamEvent() {} }] as never } }),
      TypeError,
      "hooks.beforeRun[0] has no beforeRun() method",
    );
  });
  await t.step("a list that is not an array", () => {
    assertThrows(
      () => new Agent("a", { model: "m", hooks: { afterRun: new RecordingHook() as never } }),
      TypeError,
      "hooks.afterRun must be an array",
    );
  });
});

Deno.test("HookFailed carries the hook, the phase and the cause", () => {
  const cause = new Error("x");
  const e = new HookFailed("guard", "beforeRun", cause);
  assertInstanceOf(e, Error);
  assertEquals([e.name, e.hook, e.phase, e.cause], ["HookFailed", "guard", "beforeRun", cause]);
});

Deno.test("HookFailed shows what a hook threw, even when it was not an Error", () => {
  assertStringIncludes(new HookFailed("h", "afterRun", new Error("boom")).message, "threw: boom;");
  assertStringIncludes(new HookFailed("h", "afterRun", "a string").message, "threw: a string;");
  assertStringIncludes(new HookFailed("h", "afterRun", null).message, "threw: null;");
  assertStringIncludes(new HookFailed("h", "afterRun", undefined).message, "threw: undefined;");
});

Deno.test("Agent.stream() without hooks or session keeps its events identical", async () => {
  const events: StreamEvent[] = [
    { type: "message_start", messageId: "m" },
    {
      type: "message_end",
      messageId: "m",
      finishReason: "stop",
      usage: { inputTokens: 0, outputTokens: 0 },
    },
  ];
  const cognition: Cognition = {
    name: "fixed",
    run: () => Promise.reject(new Error("unused")),
    async *stream() {
      yield* events;
    },
  };
  const out = await Array.fromAsync(
    new Agent("a", { model: "m", cognition }).stream("x", makeTestCtx()),
  );
  assert(out[0] === events[0] && out[1] === events[1]);
});

Deno.test("a beforeRun rewrite without context keeps the request's context", async () => {
  const earlier = [{ role: "user" as const, content: "before" }];
  const retask: BeforeRunHook = {
    name: "retask",
    beforeRun: () => ({ task: "new task" }) as never,
  };
  const recorder = new RecordingHook();
  const llm = new FakeLLM("ok");
  const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: [retask, recorder] } });
  await agent.run("old task", makeTestCtx({ llm }), { context: earlier });
  assertEquals(recorder.requests, [{ task: "new task", context: earlier }]);
  assertEquals(llm.requests[0].messages.map((m) => m.content), ["before", "new task"]);
});

Deno.test("a beforeRun hook's outcome must be a request, a reply or nothing", async (t) => {
  const refused = async (out: unknown, shown: string) => {
    const hook = { name: "odd", beforeRun: () => out } as unknown as BeforeRunHook;
    const llm = new FakeLLM("never");
    const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: [hook] } });
    await assertRejects(
      () => agent.run("hi", makeTestCtx({ llm })),
      TypeError,
      `The beforeRun hook "odd" returned ${shown};`,
    );
    assertEquals(llm.requests.length, 0);
  };
  await t.step("null", () => refused(null, "null"));
  await t.step("an object without a task", () => refused({ text: "hi" }, '{"text":"hi"}'));
  await t.step("a task that is not text", () => refused({ task: 5 }, '{"task":5}'));
  await t.step(
    "a context that is not a list",
    () => refused({ task: "x", context: "earlier" }, '{"task":"x","context":"earlier"}'),
  );
  await t.step("a value JSON cannot show", () => refused(Symbol("odd"), "Symbol(odd)"));
  await t.step(
    "a function, even one with a reply",
    () => refused(Object.assign(function odd() {}, { reply: "no" }), "function odd() {}"),
  );
});

Deno.test("an async onStreamEvent hook's replacement is awaited", async () => {
  const swap: StreamEventHook = {
    name: "swap",
    onStreamEvent: (event) =>
      Promise.resolve(
        event.type === "text_delta"
          ? [{ ...event, content: event.content.toUpperCase() }]
          : undefined,
      ),
  };
  const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [swap] } });
  const events = await Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: new FakeLLM("ok") })));
  const text = events.flatMap((e) => e.type === "text_delta" ? [e.content] : []).join("");
  assertEquals(text, "OK");
});

Deno.test("an onStreamEvent hook returning a non-array says what it returned", async () => {
  const odd = { name: "odd", onStreamEvent: () => "text" } as unknown as StreamEventHook;
  const agent = new Agent("a", { model: "fake-model", hooks: { onStreamEvent: [odd] } });
  await assertRejects(
    () => Array.fromAsync(agent.stream("hi", makeTestCtx({ llm: new FakeLLM("ok") }))),
    TypeError,
    'The onStreamEvent hook "odd" returned string;',
  );
});

Deno.test("HookFailed names a hook by its name, its class, or its place", async (t) => {
  const failing = (name: unknown) => ({
    ...(name === undefined ? {} : { name }),
    beforeRun() {
      throw new Error("boom");
    },
  });
  const hookOf = async (hooks: BeforeRunHook[]) => {
    const agent = new Agent("a", { model: "fake-model", hooks: { beforeRun: hooks } });
    const e = await assertRejects(
      () => agent.run("hi", makeTestCtx({ llm: new FakeLLM("x") })),
      HookFailed,
    );
    return e.hook;
  };
  await t.step("an empty name falls back to the place", async () => {
    assertEquals(
      await hookOf([new RecordingHook({ name: "first" }), failing("") as never]),
      "beforeRun[1]",
    );
  });
  await t.step("a name that is not text falls back to the place", async () => {
    assertEquals(await hookOf([failing(7) as never]), "beforeRun[0]");
  });
  await t.step("a plain object without a name", async () => {
    assertEquals(await hookOf([failing(undefined) as never]), "beforeRun[0]");
  });
});

Deno.test("new Agent() suggests a hook list up to three edits away, and no further", () => {
  assertThrows(
    () => new Agent("a", { model: "m", hooks: { afterXyz: [] } as never }),
    TypeError,
    'unknown hook list "afterXyz"; did you mean "afterRun"?',
  );
  const e = assertThrows(
    () => new Agent("a", { model: "m", hooks: { middleware: [] } as never }),
    TypeError,
    'unknown hook list "middleware" (the lists are beforeRun, onStreamEvent and afterRun)',
  );
  assert(!e.message.includes("did you mean"));
});
