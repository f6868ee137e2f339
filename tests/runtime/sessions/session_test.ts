import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  type Cognition,
  InMemorySessionStore,
  Session,
  SessionSaveFailed,
  type StopReason,
} from "@agentkit/testing/runtime";
import { Scope, type SessionState, type SessionStore } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import { ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";

const usage = { inputTokens: 0, outputTokens: 0 };

Deno.test("Session.current() is the session inside session.run() and undefined outside", async () => {
  const session = new Session("s-1");
  assertEquals(Session.current(), undefined);
  const seen = await session.run(async () => {
    const before = Session.current();
    await new FakeClock().sleep(50); // a timer of the fake clock, fired by autoAdvance
    await Promise.resolve();
    return [before, Session.current()];
  });
  assert(
    seen[0] === session && seen[1] === session,
    "the same session across awaits and a timer callback",
  );
  assertEquals(Session.current(), undefined);
});

Deno.test("Session.run() keeps concurrent sessions apart", async () => {
  const a = new Session("a");
  const b = new Session("b");
  const gate = Promise.withResolvers<void>();
  const both = Promise.all([
    a.run(async () => {
      await gate.promise;
      return Session.current()?.id;
    }),
    b.run(async () => {
      await gate.promise;
      return Session.current()?.id;
    }),
  ]);
  gate.resolve();
  assertEquals(await both, ["a", "b"]);
});

Deno.test("Agent.run() makes the session current inside the cognition and its tools", async () => {
  const ids: (string | undefined)[] = [];
  const tool = new FakeTool({
    name: "whoami",
    responder: () => {
      ids.push(Session.current()?.id);
      return "ok";
    },
  });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "whoami", {})] }, "done"]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  await agent.run("go", makeTestCtx({ llm }), { session: new Session("s-tool") });
  assertEquals(ids, ["s-tool"]);
  assertEquals(Session.current(), undefined);
});

Deno.test("Agent.stream() makes the session current at every step of the cognition", async () => {
  const ids: (string | undefined)[] = [];
  const cognition: Cognition = {
    name: "peek",
    run: () => Promise.reject(new Error("unused")),
    async *stream() {
      ids.push(Session.current()?.id);
      yield { type: "message_start", messageId: "m" };
      await Promise.resolve();
      ids.push(Session.current()?.id);
      yield { type: "text_delta", messageId: "m", content: "hi" };
      ids.push(Session.current()?.id);
      yield { type: "message_end", messageId: "m", finishReason: "stop", usage };
    },
  };
  const agent = new Agent("a", { model: "m", cognition });
  const session = new Session("s-stream");
  for await (const _ of agent.stream("go", makeTestCtx(), { session })) {
    assertEquals(Session.current(), undefined, "the consumer is outside the session");
  }
  assertEquals(ids, ["s-stream", "s-stream", "s-stream"]);
  assertEquals(session.transcript.map((m) => m.content), ["go", "hi"]);
});

Deno.test("Agent.run() clears the volatile cache after every run and keeps the persistent one", async () => {
  const seen: unknown[] = [];
  const agent = new Agent("a", {
    model: "fake-model",
    hooks: {
      beforeRun: [{
        beforeRun: (_r, { session }) => {
          seen.push(session!.volatile.get("scratch"));
          session!.volatile.set("scratch", "temp");
          session!.persistent.set("count", ((session!.persistent.get("count") as number) ?? 0) + 1);
        },
      }],
    },
  });
  const session = new Session("s");
  const ctx = makeTestCtx({ llm: new FakeLLM("ok") });
  await agent.run("one", ctx, { session });
  assertEquals(session.volatile.size, 0);
  await agent.run("two", ctx, { session });
  assertEquals(seen, [undefined, undefined], "no run sees the previous run's volatile cache");
  assertEquals(session.persistent.get("count"), 2);
});

Deno.test("Agent.run() clears the volatile cache even when the run fails", async () => {
  const session = new Session("s");
  const agent = new Agent("a", {
    model: "fake-model",
    hooks: { beforeRun: [{ beforeRun: (_r, { session }) => void session!.volatile.set("k", 1) }] },
  });
  const llm = new FakeLLM("x", { failTimes: 1 });
  await assertRejects(() => agent.run("go", makeTestCtx({ llm }), { session }));
  assertEquals(session.volatile.size, 0);
  assertEquals(session.transcript, [], "a failed run adds no turn");
});

Deno.test("a nested run on the same session does not clear the outer run's volatile cache", async () => {
  const session = new Session("s");
  const inner = new Agent("inner", { model: "fake-model" });
  const ctx = makeTestCtx({ llm: new FakeLLM("inner answer") });
  let during: unknown;
  const outer = new Agent("outer", {
    model: "fake-model",
    cognition: {
      name: "delegate",
      async *stream(input, c) {
        Session.current()!.volatile.set("plan", "step 1");
        await inner.run("sub-task", c, { session: Session.current() });
        during = Session.current()!.volatile.get("plan");
        yield { type: "message_start", messageId: "m" };
        yield { type: "text_delta", messageId: "m", content: "outer answer" };
        yield { type: "message_end", messageId: "m", finishReason: "stop", usage };
        return { output: "outer answer", usage, messages: input.messages, stopReason: "stop" };
      },
    },
  });
  await outer.run("task", ctx, { session });
  assertEquals(during, "step 1");
  assertEquals(session.volatile.size, 0);
});

Deno.test("Agent.run() with a session: a follow-up sees the earlier turns", async () => {
  const llm = FakeLLM.script(["Sri Lanka won it.", "They beat Australia."]);
  const ctx = makeTestCtx({ llm });
  const agent = new Agent("quiz", { model: "fake-model", system: "Be brief." });
  const session = new Session("s");
  await agent.run("Who won the 1996 cricket world cup?", ctx, { session });
  await agent.run("Whom did they beat?", ctx, {
    session,
    context: [{ role: "system", content: "Final: Lahore" }],
  });
  assertEquals(llm.requests[1].messages.map((m) => [m.role, m.content]), [
    ["system", "Be brief."],
    ["user", "Who won the 1996 cricket world cup?"],
    ["assistant", "Sri Lanka won it."],
    ["system", "Final: Lahore"],
    ["user", "Whom did they beat?"],
  ]);
  assertEquals(session.transcript.length, 4);
});

Deno.test("Agent.run() appends the rewritten task and a halted reply to the transcript", async () => {
  const session = new Session("s");
  const agent = new Agent("a", {
    model: "fake-model",
    hooks: {
      beforeRun: [
        { beforeRun: (r) => ({ ...r, task: r.task.replace(/\d{4}-\d{4}/, "[card]") }) },
        {
          beforeRun: (r) =>
            r.task.includes("[card]") ? { reply: "Never share card numbers." } : undefined,
        },
      ],
    },
  });
  const r = await agent.run("my card is 1234-5678", makeTestCtx({ llm: new FakeLLM("x") }), {
    session,
  });
  assertEquals(r.stopReason satisfies StopReason, "halted");
  assertEquals(session.transcript.map((m) => m.content), [
    "my card is [card]",
    "Never share card numbers.",
  ]);
});

Deno.test("Agent.run() saves the session to its store after the run", async () => {
  const store = new InMemorySessionStore();
  const session = await Session.open("s", { store });
  await new Agent("a", { model: "fake-model" }).run(
    "hi",
    makeTestCtx({ llm: new FakeLLM("hello") }),
    {
      session,
    },
  );
  assertEquals((await store.load(session.scope, "s"))?.transcript.map((m) => m.content), [
    "hi",
    "hello",
  ]);
});

Deno.test("Agent.run() refuses a session of another tenant", async () => {
  const session = new Session("s", { scope: new Scope({ orgId: 1 }) });
  const ctx = makeTestCtx({ llm: new FakeLLM("x"), scope: new Scope({ orgId: 2 }) });
  await assertRejects(
    () => new Agent("a", { model: "fake-model" }).run("hi", ctx, { session }),
    TypeError,
    "the session belongs to tenant org1:dom0 but the context is tenant org2:dom0",
  );
});

Deno.test("new Session() and Session.open() validate their arguments", async () => {
  assertThrows(() => new Session(""), TypeError, "id must be a non-empty string");
  await assertRejects(
    () => Session.open("s", {} as never),
    TypeError,
    'Cannot open session "s" without a store',
  );
});

Deno.test("Session.append() copies messages and state() omits the volatile cache", () => {
  const session = new Session("s", { persistent: { a: 1 } });
  const m = { role: "user" as const, content: "hi" };
  session.append(m);
  m.content = "changed";
  session.volatile.set("v", 1);
  assertEquals(session.state(), {
    persistent: { a: 1 },
    transcript: [{ role: "user", content: "hi" }],
  });
});

/** A store whose saves fail while `failing` is set. */
class FlakyStore extends InMemorySessionStore {
  failing = false;
  override save(scope: Scope, id: string, state: SessionState): Promise<void> {
    return this.failing ? Promise.reject(new Error("disk full")) : super.save(scope, id, state);
  }
}

Deno.test("Session.save() that fails rolls the session back to what the store holds, and says so", async () => {
  const store = new FlakyStore();
  // Built with a store and state: that state counts as saved.
  const built = new Session("s", {
    store,
    persistent: { plan: "free" },
    transcript: [{ role: "user", content: "hi" }],
  });
  assertEquals(built.transcript.length, 1);
  built.append({ role: "assistant", content: "hello" });
  built.persistent.set("plan", "pro");
  store.failing = true;
  const e = await assertRejects(() => built.save(), SessionSaveFailed);
  assertEquals([e.name, e.sessionId, e.store], ["SessionSaveFailed", "s", "FlakyStore"]);
  assert(e.cause instanceof Error && e.message.includes("disk full"), e.message);
  assertEquals(built.state(), {
    persistent: { plan: "free" },
    transcript: [{ role: "user", content: "hi" }],
  });
  // After a good save, that is what a failed one rolls back to.
  store.failing = false;
  built.append({ role: "assistant", content: "hello" });
  await built.save();
  built.append({ role: "user", content: "more" });
  built.persistent.set("plan", "team");
  store.failing = true;
  await assertRejects(() => built.save(), SessionSaveFailed);
  assertEquals([built.transcript.length, built.persistent.get("plan")], [2, "free"]);
});

Deno.test("Session.save() names a plain-object store as its store, and a session opened from a store rolls back to it", async () => {
  const inner = new InMemorySessionStore();
  await new Session("s", { store: inner, persistent: { a: 1 } }).save();
  const plain: SessionStore = {
    load: (scope, id) => inner.load(scope, id),
    save: () => Promise.reject("not an Error"),
    delete: (scope, id) => inner.delete(scope, id),
  };
  const session = await Session.open("s", { store: plain });
  session.persistent.set("a", 2);
  session.persistent.set("b", 3); // not in the store: gone after the rollback
  const e = await assertRejects(() => session.save(), SessionSaveFailed);
  assertEquals(e.store, "its store");
  assert(e.message.includes("not an Error"), e.message);
  assertEquals(Object.fromEntries(session.persistent), { a: 1 });
  // A store without a prototype has no constructor to name.
  const bare = Object.assign(Object.create(null), plain) as SessionStore;
  const again = await Session.open("s", { store: bare });
  assertEquals((await assertRejects(() => again.save(), SessionSaveFailed)).store, "its store");
  // Without a store there is nothing to save or roll back.
  const memory = new Session("m");
  memory.persistent.set("a", 1);
  await memory.save();
  assertEquals(memory.persistent.get("a"), 1);
});

Deno.test("new Session() and Session.open() say which argument is wrong", async () => {
  assertThrows(() => new Session(42 as never), TypeError, "id must be a non-empty string");
  assertThrows(() => new Session("s", { scop: 1 } as never), TypeError, "new Session()");
  const store = new InMemorySessionStore();
  await assertRejects(
    () => Session.open(42 as never, { store }),
    TypeError,
    "Session.open(): the id",
  );
  await assertRejects(
    () => Session.open("s", { store, scop: 1 } as never),
    TypeError,
    "Session.open()",
  );
  for (const options of [null, "x", [], 5]) {
    const e = await assertRejects(
      () => Session.open("s", options as never),
      TypeError,
      "Session.open()",
    );
    assert(!e.message.includes("without a store"), e.message);
  }
});

Deno.test("Session.endRun() without a beginRun() does not unbalance later nested runs", async () => {
  const session = new Session("s");
  await session.endRun();
  session.beginRun();
  session.beginRun();
  session.volatile.set("scratch", 1);
  await session.endRun(); // the inner run ends: the outer one still needs its scratch
  assertEquals(session.volatile.get("scratch"), 1);
  await session.endRun();
  assertEquals(session.volatile.size, 0);
});

Deno.test("Session refuses a message without a valid role or string content, wherever it comes in", async () => {
  assertThrows(
    () => new Session("s", { transcript: [{ role: "robot", content: "x" } as never] }),
    TypeError,
    'new Session(): transcript: message 1 has role "robot"; the roles are system, user, assistant, tool',
  );
  const s = new Session("s");
  assertThrows(
    () => s.append({ role: "user", content: "ok" }, { role: "user", content: 5 } as never),
    TypeError,
    'Session.append(): message 2 has content 5; content must be a string ("" for a turn that only calls tools)',
  );
  assertThrows(() => s.append(null as never), TypeError, "message 1 is not a message object");
  assertEquals(s.transcript.length, 0, "none of a refused batch is added");
  const loads = (state: unknown) => ({
    load: () => Promise.resolve(state),
    save: () => Promise.resolve(),
    delete: () => Promise.resolve(false),
  });
  await assertRejects(
    () =>
      Session.open("s", {
        store: loads({ persistent: {}, transcript: [{ role: "x", content: "" }] }) as never,
      }),
    TypeError,
    'Session.open(): the transcript of session "s" as loaded: message 1 has role "x"',
  );
  await assertRejects(
    () => Session.open("s", { store: loads(5) as never }),
    TypeError,
    'the store loaded session "s" as 5, not a SessionState',
  );
  await assertRejects(
    () => Session.open("s", { store: loads({ transcript: "hi" }) as never }),
    TypeError,
    'with transcript "hi", not an array of messages',
  );
  assertThrows(() => s.run(5 as never), TypeError, "Session.run(): fn must be a function, got 5");
});
