import { assertEquals, assertThrows } from "@std/assert";
import { Agent, CodexCliSession } from "@agentkit/testing/runtime";
import { codexTurn, exitPartway, FakeCodexCli, makeTestCtx } from "@agentkit/testing/testing";

Deno.test("CodexCliSession resumes the thread of its first turn on every later turn", async () => {
  using cli = FakeCodexCli.script(
    codexTurn({ text: "one", threadId: "0199-abc" }),
    codexTurn({ text: "two", threadId: "0199-abc" }),
    codexTurn({ text: "three", threadId: "0199-abc" }),
  );
  const session = new CodexCliSession({ spawn: cli });
  const agent = new Agent("a", { model: "fake-model", system: "Be terse.", cognition: session });
  const ctx = makeTestCtx();
  const outputs = [];
  for (const task of ["first", "second", "third"]) {
    outputs.push((await agent.run(task, ctx)).output);
  }
  assertEquals(outputs, ["one", "two", "three"]);
  assertEquals(cli.argv(0), ["codex", "exec", "--json", "Be terse.\n\nfirst"]);
  assertEquals(cli.argv(1), ["codex", "exec", "resume", "0199-abc", "--json", "second"]);
  assertEquals(cli.argv(2), ["codex", "exec", "resume", "0199-abc", "--json", "third"]);
  assertEquals([session.threadId, session.turns], ["0199-abc", 3]);
});

Deno.test("CodexCliSession starts a fresh thread when the first turn died before thread.started", async () => {
  using cli = FakeCodexCli.script(
    exitPartway(codexTurn({ text: "x" }), { afterLines: 0, stderr: "auth failed" }),
    codexTurn({ text: "ok", threadId: "t-2" }),
  );
  const session = new CodexCliSession({ spawn: cli });
  const agent = new Agent("a", { model: "fake-model", cognition: session });
  assertEquals((await agent.run("a", makeTestCtx())).stopReason, "error");
  assertEquals((await agent.run("b", makeTestCtx())).output, "ok");
  assertEquals(cli.argv(1), ["codex", "exec", "--json", "b"]);
  assertEquals(session.threadId, "t-2");
});

Deno.test("CodexCliSession runs started together take turns, so the second resumes the first", async () => {
  using cli = FakeCodexCli.script([codexTurn({ text: "a", threadId: "t" }), "b"], {
    lineDelayMs: 5,
  });
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new CodexCliSession({ spawn: cli }),
  });
  const ctx = makeTestCtx();
  const [one, two] = await Promise.all([agent.run("1", ctx), agent.run("2", ctx)]);
  assertEquals([one.output, two.output], ["a", "b"]);
  assertEquals(cli.argv(1).slice(2, 4), ["resume", "t"]);
});

Deno.test("CodexCliSession is named codex-cli-session and checks its options, naming itself", () => {
  const session = new CodexCliSession({ spawn: FakeCodexCli.answering("x") });
  assertEquals([session.name, session.binary, session.threadId], [
    "codex-cli-session",
    "codex",
    undefined,
  ]);
  const err = assertThrows(() => new CodexCliSession({} as never), TypeError);
  assertEquals(err.message.startsWith("new CodexCliSession() needs spawn"), true);
});
