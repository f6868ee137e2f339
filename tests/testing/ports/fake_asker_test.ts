import * as A from "@std/assert";
import * as K from "@agentkit/testing/testing";
import {
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import { HarnessError } from "@agentkit/testing/runtime";
import {
  FakeAsker,
  FakeClock,
  FakeCtx,
  InvalidScript,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

Deno.test("FakeAsker.ask() answers in order and records every question", async () => {
  const asker = new FakeAsker(["yes", "no"]);
  const ctx = new FakeCtx();
  assertEquals(await asker.ask("deploy?", ctx), "yes");
  assertEquals(await asker.ask("drop the table?", ctx), "no");
  assertEquals(asker.questions, ["deploy?", "drop the table?"]);
  asker.verify();
});

Deno.test("FakeAsker.ask() one question past the script throws ScriptExhausted", async () => {
  const asker = new FakeAsker(["yes"]);
  await asker.ask("one?", new FakeCtx());
  const error = await assertRejects(
    () => asker.ask("two?", new FakeCtx()),
    ScriptExhausted,
    "FakeAsker has 1 answer(s), but the agent asked for answer 2",
  );
  assertInstanceOf(error, HarnessError);
  assertEquals(asker.questions, ["one?", "two?"]);
});

Deno.test("new FakeAsker([]) says the agent must not ask", async () => {
  const asker = new FakeAsker([]);
  await assertRejects(() => asker.ask("may I?", new FakeCtx()), ScriptExhausted, "has 0 answer(s)");
});

Deno.test("FakeAsker.verify() and disposal report unused answers and swallowed harness errors", async (t) => {
  await t.step("unused answers", () => {
    assertThrows(
      () => {
        using _asker = new FakeAsker(["yes", "no"]);
      },
      UnusedTurns,
      "FakeAsker has 2 answer(s), but the run used only 0",
    );
  });
  await t.step("allowUnused accepts them", () => {
    using _asker = new FakeAsker(["yes"], { allowUnused: true });
  });
  await t.step("a ScriptExhausted that user code caught still fails verify()", async () => {
    const asker = new FakeAsker([]);
    await asker.ask("x", new FakeCtx()).catch(() => "swallowed");
    assertThrows(() => asker.verify(), ScriptExhausted);
  });
});

Deno.test("FakeAsker({ repeatLast }) repeats the last answer forever", async () => {
  using asker = new FakeAsker(["no", "yes"], { repeatLast: true });
  const ctx = new FakeCtx();
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await asker.ask(`q${i}`, ctx));
  assertEquals(answers, ["no", "yes", "yes", "yes"]);
});

Deno.test("FakeAsker({ delayMs }) waits on the context's clock and can be cancelled", async (t) => {
  await t.step("the wait is virtual", async () => {
    const clock = new FakeClock();
    const asker = new FakeAsker(["yes"], { delayMs: 30_000 });
    assertEquals(await asker.ask("ok?", new FakeCtx({ clock })), "yes");
    assertEquals([clock.now(), clock.sleeps], [30_000, [30_000]]);
  });
  await t.step("cancellation ends the wait with the abort reason", async () => {
    const clock = new FakeClock({ autoAdvance: false });
    const controller = new AbortController();
    const asker = new FakeAsker(["yes"], { delayMs: 30_000 });
    const asking = asker.ask("ok?", new FakeCtx({ clock, signal: controller.signal }));
    const reason = new Error("stop");
    controller.abort(reason);
    assertStrictEquals(await assertRejects(() => asking), reason);
    assertEquals(clock.pending, 0);
  });
});

Deno.test("FakeAsker validates its script when built", () => {
  assertThrows(() => new FakeAsker("yes" as never), InvalidScript, "array of answers");
  assertThrows(() => new FakeAsker([true] as never), InvalidScript, "array of answers");
  assertThrows(
    () => new FakeAsker([], { delay: 1 } as never),
    TypeError,
    'unknown option "delay"; did you mean "delayMs"?',
  );
  assertThrows(() => new FakeAsker([], { repeatLast: true }), InvalidScript, "at least one answer");
  assertThrows(() => new FakeAsker(["y"], { delayMs: -1 }), RangeError, '"delayMs"');
});

Deno.test("FakeAsker counts the turns taken and the answers left, never below zero", async () => {
  const asker = new FakeAsker(["yes", "no"], { allowUnused: true });
  const ctx = new FakeCtx();
  assertEquals([asker.turnsTaken, asker.unusedAnswers], [0, 2]);
  await asker.ask("one?", ctx);
  assertEquals([asker.turnsTaken, asker.unusedAnswers], [1, 1]);
  await asker.ask("two?", ctx);
  await assertRejects(() => asker.ask("three?", ctx), ScriptExhausted);
  assertEquals([asker.turnsTaken, asker.unusedAnswers], [3, 0]);
});

Deno.test("FakeAsker answers nothing to a cancelled run, and keeps the answer for later", async () => {
  const asker = new FakeAsker(["yes"]);
  const controller = new AbortController();
  controller.abort(new Error("stopped"));
  await assertRejects(
    () => asker.ask("deploy?", new FakeCtx({ signal: controller.signal })),
    Error,
    "stopped",
  );
  assertEquals([asker.questions, asker.turnsTaken], [["deploy?"], 0]);
  assertEquals(await asker.ask("deploy?", new FakeCtx()), "yes");
  assertThrows(() => new FakeAsker([], { allowUnused: 1 } as never), TypeError, "new FakeAsker()");
});

Deno.test("FakeAsker.ask() refuses a question that is not text, or no context", async () => {
  const asker = new K.FakeAsker(["y"]);
  await A.assertRejects(
    () => asker.ask(5 as never, new K.FakeCtx()),
    TypeError,
    "FakeAsker.ask(): the question must be a string, got 5",
  );
  await A.assertRejects(
    () => asker.ask("ok?", undefined as never),
    TypeError,
    "the ctx must be a context (makeTestCtx() or new FakeCtx())",
  );
  A.assertEquals([asker.questions, asker.unusedAnswers], [[], 1]);
  A.assertEquals(await asker.ask("ok?", new K.FakeCtx()), "y");
});
