import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import {
  Agent,
  Budget,
  ClaudeCliCognition,
  CollectingObserver,
  JsonlSession,
  MalformedTranscript,
  PriceTable,
  Quota,
  Session,
  SessionSaveFailed,
} from "@agentkit/testing/runtime";
import type { SessionState, SessionStore } from "@agentkit/testing/ports";
import {
  claudeTurn,
  FakeClaudeCli,
  FakeLLM,
  FakeTool,
  InvalidScript,
  makeTestCtx,
  withoutFinalLine,
} from "@agentkit/testing/testing";
import { checkOptions, is } from "../../runtime/_options.ts";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

Deno.test("checkOptions() names the entry, the option, what was given and what is accepted", async (t) => {
  const rules = { maxCalls: is.count, name: is.text };
  await t.step("an unknown key: did-you-mean and the valid keys", () => {
    assertThrows(
      () => checkOptions("new Thing()", { maxcalls: 1 }, rules),
      TypeError,
      'new Thing(): unknown option "maxcalls"; did you mean "maxCalls"? (the options are maxCalls, name)',
    );
  });
  await t.step("a hint where the key belongs elsewhere", () => {
    assertThrows(
      () =>
        checkOptions("new Thing()", { tools: [] }, rules, { hints: { tools: "tools go there" } }),
      TypeError,
      'unknown option "tools"; tools go there',
    );
  });
  await t.step("a wrong type is a TypeError, an out-of-range number a RangeError", () => {
    assertThrows(
      () => checkOptions("new Thing()", { maxCalls: "3" }, rules),
      TypeError,
      'new Thing(): option "maxCalls" must be an integer, 0 or more, got "3"',
    );
    for (const n of [-1, 1.5, NaN, Infinity]) {
      assertThrows(
        () => checkOptions("new Thing()", { maxCalls: n }, rules),
        RangeError,
        `got ${n}`,
      );
    }
  });
  await t.step("a bag that is not an object", () => {
    assertThrows(() => checkOptions("new Thing()", 5, rules), TypeError, "takes an options object");
    assertThrows(
      () => checkOptions("new Thing()", [], rules),
      TypeError,
      "takes an options object",
    );
  });
  await t.step("an uncalled middleware factory gets one line", () => {
    function meter() {
      return { name: "meter", chat: () => Promise.reject(new Error("unused")) };
    }
    const e = assertThrows(
      () => checkOptions("x()", { mw: [meter] }, { mw: is.arrayOf(is.middleware("chat")) }),
      TypeError,
      "mw[0] is the function meter, not a middleware; call it: meter()",
    );
    assertEquals(e.message.includes("\n"), false);
  });
  await t.step("a port missing a method", () => {
    assertThrows(
      () => makeTestCtx({ clock: { now: () => 0 } as never }),
      TypeError,
      "clock must be a ClockPort, got an object with now without sleep()",
    );
  });
});

Deno.test("Budget: a mistyped limit is an error, never no limit", () => {
  assertThrows(
    () => new Budget({ maxCost: 1 } as never),
    TypeError,
    'new Budget(): unknown option "maxCost"; did you mean "maxCostUsd"?',
  );
  assertThrows(() => new Quota({ maxtokens: 1 } as never), TypeError, 'did you mean "maxTokens"?');
});

Deno.test("money: non-negative finite decimals with at most 12 decimals and no stray whitespace", async (t) => {
  await t.step("refused", () => {
    for (const v of [-1, "-0.5", " 1", "1 ", "0.0000000000001", NaN, Infinity, 1e-13]) {
      assertThrows(() => new Budget({ maxCostUsd: v }), RangeError, "maxCostUsd");
    }
    for (const v of ["ten", "1e-7", "0x10", ""]) {
      assertThrows(() => new Budget({ maxCostUsd: v }), Error, "maxCostUsd");
    }
    assertThrows(() => new Budget({ maxCostUsd: true as never }), TypeError, "got true");
    assertThrows(() => new Budget().add(-0.01), RangeError, "negative");
  });
  await t.step("accepted, exactly", () => {
    // A limit is whole micro-dollars (a finer one is refused: budget_test.ts); spends keep 12 decimals.
    assertEquals(new Budget({ maxCostUsd: "0.000001" }).requiresPrice, true);
    const b = new Budget();
    b.add("0.000000000001");
    b.add(1e-7);
    b.add("+2");
    assertEquals(b.spent(), "2.000000100001");
  });
});

Deno.test("PriceTable refuses negative prices and bad token counts", () => {
  assertThrows(
    () => new PriceTable({ m: { inputPerMTok: -1, outputPerMTok: 1 } }),
    RangeError,
    'PriceTable: the price of "m": inputPerMTok -1 is negative',
  );
  assertThrows(
    () => PriceTable.default().with("m", { inputPerMTok: 1 } as never),
    TypeError,
    'option "outputPerMTok" is required',
  );
  assertThrows(
    () => PriceTable.default().with("m", { input: 1, outputPerMTok: 1 } as never),
    TypeError,
    'did you mean "inputPerMTok"?',
  );
  const t = PriceTable.default();
  assertThrows(
    () => t.costUsd("fake-model", { inputTokens: -99, outputTokens: 0 }),
    RangeError,
    "PriceTable.costUsd(): usage.inputTokens must be a safe integer, 0 or more (a count of tokens), got -99",
  );
  assertThrows(() => t.costUsd("fake-model", { inputTokens: 1.5, outputTokens: 0 }), RangeError);
  assertThrows(
    () => t.costUsd("fake-model", { inputTokens: 1, outputTokens: "2" as never }),
    TypeError,
  );
});

Deno.test("meter(): a provider-reported cost that is not a non-negative decimal is a clear error", async () => {
  const { meter } = await import("@agentkit/testing/runtime");
  const lying = {
    chat: () =>
      Promise.resolve({
        id: "1",
        model: "m",
        content: "x",
        toolCalls: [],
        finishReason: "stop" as const,
        usage: { inputTokens: 1, outputTokens: 1, costUsd: -0.5 },
      }),
    stream: () => {
      throw new Error("unused");
    },
    complete: () => {
      throw new Error("unused");
    },
  };
  await assertRejects(
    () =>
      new Agent("a", { model: "m" }).run(
        "go",
        makeTestCtx({ llm: lying, budget: new Budget(), chatMiddleware: [meter()] }),
      ),
    RangeError,
    'the usage.costUsd "m" reported -0.5: it is negative',
  );
});

Deno.test("FakeClaudeCli.replay() of a turn without result ends the run with stopReason error", async () => {
  const text = [
    ...claudeTurn({ text: "one" }).lines,
    ...withoutFinalLine(claudeTurn({ text: "two" })).lines,
  ].join("\n");
  const cli = FakeClaudeCli.replay(text);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const agent = new Agent("a", { model: "fake-model", cognition: claude });
  assertEquals((await agent.run("go", makeTestCtx())).stopReason, "stop");
  assertEquals((await agent.run("again", makeTestCtx())).stopReason, "error");
});

Deno.test("async responders are awaited: FakeLLM callable and FakeTool responder", async () => {
  const llm = new FakeLLM(async ({ user }) => {
    await Promise.resolve();
    return `echo ${user}`;
  });
  const agent = new Agent("a", { model: "fake-model" });
  assertEquals((await agent.run("hi", makeTestCtx({ llm }))).output, "echo hi");
  const events = [];
  for await (const e of llm.stream({ model: "m", messages: [{ role: "user", content: "s" }] })) {
    events.push(e);
  }
  assertEquals(events.some((e) => e.type === "text_delta" && e.content === "echo s"), true);
  const tool = new FakeTool({ name: "t", responder: async () => await Promise.resolve(42) });
  assertEquals(await tool.call({}, makeTestCtx()), 42);
});

class BrokenStore implements SessionStore {
  saved?: SessionState;
  fail = false;
  load(): Promise<SessionState | undefined> {
    return Promise.resolve(this.saved && structuredClone(this.saved));
  }
  save(_scope: unknown, _id: string, state: SessionState): Promise<void> {
    if (this.fail) return Promise.reject(new Error("disk full"));
    this.saved = structuredClone(state);
    return Promise.resolve();
  }
  delete(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

Deno.test("a session store that fails on save fails the run, and memory is not ahead of the store", async () => {
  const store = new BrokenStore();
  const session = new Session("s-9", { store });
  const agent = new Agent("a", { model: "fake-model" });
  const llm = FakeLLM.script(["first", "second", "third"]);
  await agent.run("one", makeTestCtx({ llm }), { session });
  assertEquals(session.transcript.length, 2);
  store.fail = true;
  session.persistent.set("k", 1);
  const e = await assertRejects(
    () => agent.run("two", makeTestCtx({ llm }), { session }),
    SessionSaveFailed,
    'Cannot save session "s-9" to BrokenStore: disk full',
  );
  assertEquals([e.sessionId, e.store, (e.cause as Error).message], [
    "s-9",
    "BrokenStore",
    "disk full",
  ]);
  assertEquals(session.state(), store.saved);
  store.fail = false;
  await agent.run("two again", makeTestCtx({ llm }), { session });
  assertEquals(store.saved?.transcript.map((m) => m.content), [
    "one",
    "first",
    "two again",
    "third",
  ]);
});

Deno.test("new Session() and Session.open() check their options", async () => {
  assertThrows(() => new Session("s", { stroe: {} } as never), TypeError, 'did you mean "store"?');
  assertThrows(
    () => new Session("s", { store: {} as never }),
    TypeError,
    "store must be a SessionStore",
  );
  await assertRejects(
    () => Session.open("s", { store: new BrokenStore(), scop: 1 } as never),
    TypeError,
    'did you mean "scope"?',
  );
});

Deno.test("JsonlSession.load({ lenient: true }) keeps good lines and reports bad ones", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lenient-"));
  const path = join(dir, "s.jsonl");
  const good = (content: string) =>
    JSON.stringify({ type: "message", message: { role: "user", content } });
  await writeFile(
    path,
    [
      JSON.stringify({ type: "agentkit.session", version: 1, meta: { a: 1 } }),
      good("one"),
      "not json",
      JSON.stringify({ type: "note" }),
      good("two"),
      '{"type":"message","message":{"role":"us',
    ].join("\n"),
  );
  await assertRejects(() => JsonlSession.load(path), MalformedTranscript, "line 3");
  const s = await JsonlSession.load(path, { lenient: true });
  assertEquals(s.messages.map((m) => m.content), ["one", "two"]);
  assertEquals(s.skipped.map((e) => e.line), [3, 4, 6]);
  await s.append({ role: "assistant", content: "three" });
  await s.close();
  const again = await JsonlSession.load(path, { lenient: true });
  assertEquals(again.messages.map((m) => m.content), ["one", "two", "three"]);
  await again.close();
  assertEquals((await readFile(path, "utf8")).endsWith("\n"), true);
  await assertRejects(
    () => JsonlSession.load(path, { lenien: true } as never),
    TypeError,
    "lenient",
  );
  await rm(dir, { recursive: true });
});

Deno.test("ClaudeCliCognition: a reported cost that is not a non-negative number is a cli.skipped observation, and the turn bills its tokens", async () => {
  const lines = claudeTurn({ text: "hi" }).lines.map((l) => {
    const o = JSON.parse(l as string);
    if (o.type === "result") o.total_cost_usd = -1;
    return JSON.stringify(o);
  });
  assertThrows(() => FakeClaudeCli.replay(lines.join("\n")), InvalidScript, "total_cost_usd");
  const cli = FakeClaudeCli.script([{ lines }]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  const budget = new Budget();
  const ctx = makeTestCtx({ observer, budget });
  const r = await new Agent("a", { model: "fake-model", cognition: claude }).run("go", ctx);
  assertEquals(r.stopReason, "stop");
  const skipped = observer.items.filter((o) => o.kind === "cli.skipped");
  assertEquals(skipped.length, 1);
  assertEquals(
    skipped[0].text.includes("total_cost_usd -1 is not a finite non-negative number"),
    true,
  );
  assertEquals(budget.spent(), "0.000100");
});

Deno.test("agent.run/start/stream check the ctx where it is given", async () => {
  const agent = new Agent("a", { model: "fake-model" });
  await assertRejects(
    () => agent.run("x", undefined as never),
    TypeError,
    'agent.run() of agent "a": the ctx (second argument) must be a RunContext (makeTestCtx() in tests)',
  );
  assertThrows(() => agent.start("x", {} as never), TypeError, "the ctx (second argument)");
  await assertRejects(
    () => agent.stream("x", null as never).next(),
    TypeError,
    "the ctx (second argument)",
  );
  await assertRejects(
    () => agent.run("x", makeTestCtx({ llm: new FakeLLM("ok") }), { contex: [] } as never),
    TypeError,
    'unknown option "contex"; did you mean "context"?',
  );
});

Deno.test("new Agent() points tools to ReActCognition; an uncalled middleware factory is one line", async () => {
  assertThrows(
    () => new Agent("a", { model: "m", tools: [] } as never),
    TypeError,
    "tools go to new ReActCognition({ tools })",
  );
  const { meter, retry } = await import("@agentkit/testing/runtime");
  for (const factory of [meter, retry]) {
    const e = assertThrows(
      () => makeTestCtx({ llm: new FakeLLM("x"), chatMiddleware: [factory as never] }),
      TypeError,
      `chatMiddleware[0] is the function ${factory.name}, not a middleware; call it: ${factory.name}()`,
    );
    assertEquals(e.message.split("\n").length, 1);
  }
});
