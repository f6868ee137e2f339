import { assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import type { ErrorEvent, StreamEvent } from "@agentkit/testing/ports";
import {
  Agent,
  Budget,
  BudgetExceeded,
  CliTurnError,
  CodexCliCognition,
  CollectingObserver,
} from "@agentkit/testing/runtime";
import {
  codexTurn,
  exitPartway,
  FakeClock,
  FakeCodexCli,
  insertLines,
  latin1Line,
  makeTestCtx,
  ScriptExhausted,
  truncateLastLine,
  unknownEventLine,
  withoutFinalLine,
} from "@agentkit/testing/testing";

const agentOn = (cognition: CodexCliCognition, system?: string) =>
  new Agent("fixer", { model: "fake-model", system, cognition });
const ofKind = (observer: CollectingObserver, kind: string) =>
  observer.items.filter((o) => o.kind === kind);

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function lastError(events: StreamEvent[]): ErrorEvent & { error: CliTurnError } {
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected an error event last, got ${last?.type}`);
  assertInstanceOf(last.error, CliTurnError);
  return last as ErrorEvent & { error: CliTurnError };
}

const testsTurn = codexTurn({
  text: "All tests pass now.",
  usage: [1200, 1000, 40],
  threadId: "t-1",
  commands: [{ command: "deno test", output: "ok | 3 passed" }, {
    command: "deno lint",
    output: "1 problem",
    exitCode: 1,
  }],
});

Deno.test("CodexCliCognition.run() subtracts cached_input_tokens from codex's inclusive input_tokens and charges it", async () => {
  using cli = FakeCodexCli.script(testsTurn);
  const budget = new Budget({ maxCostUsd: "1" });
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "make the tests pass",
    makeTestCtx({ budget }),
  );
  assertEquals(result.output, "All tests pass now.");
  assertEquals(result.stopReason, "stop");
  assertEquals(result.usage, { inputTokens: 200, cachedInputTokens: 1000, outputTokens: 40 });
  // 200 at $10/M + 1000 cached at $1/M + 40 at $30/M
  assertEquals([budget.spent(), budget.calls, budget.tokens], ["0.004200", 1, 1240]);
});

Deno.test("CodexCliCognition spawns codex exec --json once per run, each on a fresh thread", async () => {
  using cli = FakeCodexCli.answering("one", "two", "three");
  const cognition = new CodexCliCognition({
    spawn: cli,
    binary: "/bin/codex",
    args: ["--skip-git-repo-check"],
    cwd: "/repo",
  });
  await agentOn(cognition, "You fix builds.").run("first", makeTestCtx());
  await agentOn(cognition).run("second", makeTestCtx());
  await agentOn(cognition).run("-v is not a flag here", makeTestCtx());
  const base = ["/bin/codex", "exec", "--skip-git-repo-check", "--json"];
  assertEquals(cli.argv(0), [...base, "You fix builds.\n\nfirst"]);
  assertEquals(cli.argv(1), [...base, "second"]);
  assertEquals(cli.argv(2), [...base, "--", "-v is not a flag here"]);
  assertEquals(cli.spawns.map((s) => s.cwd), ["/repo", "/repo", "/repo"]);
});

Deno.test("CodexCliCognition.stream() maps items: commands to tool calls, the message to text, then message_end", async () => {
  using cli = FakeCodexCli.script(testsTurn);
  const observer = new CollectingObserver();
  const events = await collect(
    agentOn(new CodexCliCognition({ spawn: cli })).stream("go", makeTestCtx({ observer })),
  );
  assertEquals(events, [
    { type: "message_start", messageId: "codex-turn-1" },
    {
      type: "tool_call",
      messageId: "codex-turn-1",
      call: { id: "item_0", name: "command_execution", args: { command: "deno test" } },
    },
    {
      type: "tool_call",
      messageId: "codex-turn-1",
      call: { id: "item_1", name: "command_execution", args: { command: "deno lint" } },
    },
    { type: "text_delta", messageId: "codex-turn-1", content: "All tests pass now." },
    {
      type: "message_end",
      messageId: "codex-turn-1",
      finishReason: "stop",
      usage: { inputTokens: 200, cachedInputTokens: 1000, outputTokens: 40 },
    },
  ]);
  assertEquals(ofKind(observer, "cli.tool_result").map((o) => o.payload), [
    { toolCallId: "item_0", content: "ok | 3 passed", isError: false },
    { toolCallId: "item_1", content: "1 problem", isError: true },
  ]);
  assertEquals(ofKind(observer, "cli.init")[0].payload, { threadId: "t-1" });
});

Deno.test("CodexCliCognition checks the budget before spawning", async () => {
  const cli = FakeCodexCli.answering("one", "two");
  const budget = new Budget({ maxCalls: 1 });
  const agent = agentOn(new CodexCliCognition({ spawn: cli }));
  await agent.run("a", makeTestCtx({ budget }));
  await assertRejects(() => agent.run("b", makeTestCtx({ budget })), BudgetExceeded);
  assertEquals(cli.spawns.length, 1);
  assertThrows(() => cli.verify(), Error, "used only 1");
});

Deno.test("CodexCliCognition survives a truncated final line: observed, skipped, stopReason error", async () => {
  using cli = FakeCodexCli.script(truncateLastLine(testsTurn, 25));
  const observer = new CollectingObserver();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ observer }),
  );
  assertEquals(result.stopReason, "error");
  assertEquals(
    ofKind(observer, "cli.skipped").map((o) => (o.payload as { reason: string }).reason),
    ["the stream ended in the middle of this line"],
  );
  assertEquals(
    ofKind(observer, "cli.error").map((o) => (o.payload as { failure: string }).failure),
    ["incomplete"],
  );
});

Deno.test("CodexCliCognition observes an unknown event type and an unknown item type, and goes on", async () => {
  const turn = insertLines(
    codexTurn({ text: "done" }),
    2,
    unknownEventLine("turn.progress"),
    JSON.stringify({ type: "item.completed", item: { id: "x", type: "hologram" } }),
  );
  using cli = FakeCodexCli.script(turn);
  const observer = new CollectingObserver();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ observer }),
  );
  assertEquals([result.output, result.stopReason], ["done", "stop"]);
  assertEquals(ofKind(observer, "cli.skipped").map((o) => o.payload), [
    { line: 3, reason: 'unknown event type "turn.progress"', type: "turn.progress" },
    { line: 4, reason: 'unknown item type "hologram"', type: "hologram" },
  ]);
});

Deno.test("CodexCliCognition without turn.completed ends with stopReason error", async () => {
  using cli = FakeCodexCli.script(withoutFinalLine(testsTurn));
  const budget = new Budget();
  const events = await collect(
    agentOn(new CodexCliCognition({ spawn: cli })).stream("go", makeTestCtx({ budget })),
  );
  const last = lastError(events);
  assertEquals([last.error.failure, last.usage, budget.calls], ["incomplete", undefined, 0]);
});

Deno.test("CodexCliCognition bills the usage a turn.failed reports, and ends with an error result", async () => {
  const failed = codexTurn({ text: "x", usage: [500, 100, 20] });
  const lines = [
    ...failed.lines.slice(0, -2),
    JSON.stringify({ type: "error", message: "stream disconnected" }),
    JSON.stringify({
      type: "turn.failed",
      error: { message: "stream disconnected" },
      usage: { input_tokens: 500, cached_input_tokens: 100, output_tokens: 20 },
    }),
  ];
  using cli = FakeCodexCli.script({ lines, exitCode: 1 });
  const observer = new CollectingObserver();
  const budget = new Budget();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ budget, observer }),
  );
  assertEquals(result.stopReason, "error");
  assertEquals(result.usage, { inputTokens: 400, cachedInputTokens: 100, outputTokens: 20 });
  assertEquals(budget.spent(), "0.004700");
  assertEquals(ofKind(observer, "cli.stream_error").length, 1);
  assertEquals(
    (ofKind(observer, "cli.error")[0].payload as { failure: string }).failure,
    "reported",
  );
});

Deno.test("CodexCliCognition on a non-zero exit partway captures stderr in CliStderr", async () => {
  using cli = FakeCodexCli.script(
    exitPartway(testsTurn, { afterLines: 3, exitCode: 101, stderr: "thread 'main' panicked\n" }),
  );
  const observer = new CollectingObserver();
  const events = await collect(
    agentOn(new CodexCliCognition({ spawn: cli })).stream("go", makeTestCtx({ observer })),
  );
  const last = lastError(events);
  assertEquals(last.error.failure, "exited");
  assertEquals(last.error.stderr, {
    text: "thread 'main' panicked\n",
    truncated: false,
    exitCode: 101,
  });
  assertEquals(events.filter((e) => e.type === "tool_call").length, 1);
  assertEquals((ofKind(observer, "cli.error")[0].payload as { stderr: unknown }).stderr, {
    text: "thread 'main' panicked\n",
    truncated: false,
    exitCode: 101,
  });
});

Deno.test("CodexCliCognition decodes an invalid UTF-8 line leniently and still bills the turn", async () => {
  const turn = codexTurn({ text: "naïve", usage: [1000, 0, 100] });
  const lines = [...turn.lines];
  lines[2] = latin1Line(lines[2] as string);
  using cli = FakeCodexCli.script({ lines });
  const budget = new Budget();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ budget }),
  );
  assertEquals([result.output, result.stopReason, budget.spent()], [
    "na\uFFFDve",
    "stop",
    "0.013000",
  ]);
});

Deno.test("CodexCliCognition on cancellation kills the process and rejects with the abort reason", async () => {
  using cli = FakeCodexCli.script([testsTurn], { lineDelayMs: 100 });
  const clock = new FakeClock();
  const controller = new AbortController();
  const reason = new Error("took too long");
  const stop = clock.sleep(150).then(() => controller.abort(reason));
  const err = await assertRejects(() =>
    agentOn(new CodexCliCognition({ spawn: cli })).run(
      "go",
      makeTestCtx({ clock, signal: controller.signal }),
    )
  );
  await stop;
  assertEquals(err, reason);
  assertEquals([cli.spawns[0].killed, cli.spawns[0].exitCode, clock.now()], [true, 143, 150]);
});

Deno.test("CodexCliCognition lets ScriptExhausted escape when the run spawns once too often", async () => {
  const cli = FakeCodexCli.answering("one");
  const agent = agentOn(new CodexCliCognition({ spawn: cli }));
  await agent.run("a", makeTestCtx());
  await assertRejects(() => agent.run("b", makeTestCtx()), ScriptExhausted, "asked for turn 2");
  assertEquals(cli.harnessErrors.length, 1);
  assertThrows(() => cli.verify(), ScriptExhausted);
});

Deno.test("CodexCliCognition reports a binary that cannot start as a CliTurnError", async () => {
  const cognition = new CodexCliCognition({
    spawn: () => {
      throw new Error("No such file or directory (os error 2)");
    },
  });
  const err = await assertRejects(() => agentOn(cognition).run("go", makeTestCtx()), CliTurnError);
  assertEquals((err as CliTurnError).failure, "spawn");
});
