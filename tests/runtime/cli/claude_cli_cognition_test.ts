import { assert, assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import type { ErrorEvent, StreamEvent } from "@agentkit/testing/ports";
import {
  Agent,
  Budget,
  BudgetExceeded,
  ClaudeCliCognition,
  CliTurnError,
  CollectingObserver,
  UnpricedModel,
} from "@agentkit/testing/runtime";
import {
  claudeTurn,
  exitPartway,
  FakeClaudeCli,
  FakeClock,
  insertLines,
  latin1Line,
  makeTestCtx,
  rawLine,
  ScriptExhausted,
  truncateLastLine,
  unknownEventLine,
  withoutFinalLine,
} from "@agentkit/testing/testing";

const agentOn = (cognition: ClaudeCliCognition, system?: string) =>
  new Agent("coder", { model: "fake-model", system, cognition });

const kinds = (observer: CollectingObserver) => observer.items.map((o) => o.kind);
const ofKind = (observer: CollectingObserver, kind: string) =>
  observer.items.filter((o) => o.kind === kind);

function lastError(events: StreamEvent[]): ErrorEvent & { error: CliTurnError } {
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected an error event last, got ${last?.type}`);
  assertInstanceOf(last.error, CliTurnError);
  return last as ErrorEvent & { error: CliTurnError };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const editTurn = claudeTurn({
  text: "Added GET /health.",
  toolUses: [
    { name: "Read", input: { file_path: "src/app.ts" }, result: "export const app = 1;" },
    {
      name: "Edit",
      input: { file_path: "src/app.ts" },
      result: "file is read-only",
      isError: true,
    },
  ],
  usage: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 5000 },
  costUsd: 0.0421,
});

Deno.test("ClaudeCliCognition.run() returns the result text, the transcript, and the usage with total_cost_usd", async () => {
  using cli = FakeClaudeCli.script([editTurn]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const budget = new Budget({ maxCostUsd: "1.00" });
  const result = await agentOn(claude).run("Add a health endpoint", makeTestCtx({ budget }));
  assertEquals(result.output, "Added GET /health.");
  assertEquals(result.stopReason, "stop");
  assertEquals(result.usage, {
    inputTokens: 1000,
    outputTokens: 100,
    cachedInputTokens: 5000,
    costUsd: 0.0421,
  });
  assertEquals([budget.spent(), budget.calls, budget.tokens], ["0.042100", 1, 6100]);
  assertEquals(result.messages, [
    { role: "user", content: "Add a health endpoint" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "toolu_01", name: "Read", args: { file_path: "src/app.ts" } }],
    },
    { role: "tool", content: "export const app = 1;", toolCallId: "toolu_01" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "toolu_02", name: "Edit", args: { file_path: "src/app.ts" } }],
    },
    { role: "tool", content: "file is read-only", toolCallId: "toolu_02", isError: true },
    { role: "assistant", content: "Added GET /health." },
  ]);
});

Deno.test("ClaudeCliCognition.stream() maps one turn to one message: tool calls, text, then message_end with the billed usage", async () => {
  using cli = FakeClaudeCli.script([
    claudeTurn({ text: "Done.", toolUses: [{ name: "Bash", input: { command: "ls" } }] }),
  ]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const events = await collect(agentOn(claude).stream("list", makeTestCtx()));
  assertEquals(events, [
    { type: "message_start", messageId: "claude-turn-1" },
    {
      type: "tool_call",
      messageId: "claude-turn-1",
      call: { id: "toolu_01", name: "Bash", args: { command: "ls" } },
    },
    { type: "text_delta", messageId: "claude-turn-1", content: "Done." },
    {
      type: "message_end",
      messageId: "claude-turn-1",
      finishReason: "stop",
      usage: { inputTokens: 10, outputTokens: 0, costUsd: 0.0001 },
    },
  ]);
});

Deno.test("ClaudeCliCognition: several texts in a turn stream apart by a blank line; output is the result's text", async () => {
  const turn = insertLines(
    claudeTurn({ text: "Done." }),
    1,
    JSON.stringify({
      type: "assistant",
      message: { id: "msg_00", content: [{ type: "text", text: "Looking." }] },
    }),
  );
  using cli = FakeClaudeCli.script([turn]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const events = await collect(agentOn(claude).stream("go", makeTestCtx()));
  const text = events.map((e) => e.type === "text_delta" ? e.content : "").join("");
  assertEquals(text, "Looking.\n\nDone.");
  using cli2 = FakeClaudeCli.script([turn]);
  await using claude2 = new ClaudeCliCognition({ spawn: cli2 });
  assertEquals((await agentOn(claude2).run("go", makeTestCtx())).output, "Done.");
});

Deno.test("ClaudeCliCognition serves a multi-turn session from one process, one stdin line a turn", async () => {
  using cli = FakeClaudeCli.script(["one", "two", "three"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const agent = agentOn(claude);
  const ctx = makeTestCtx();
  const outputs = [];
  for (const task of ["a", "b", "c"]) outputs.push((await agent.run(task, ctx)).output);
  assertEquals(outputs, ["one", "two", "three"]);
  assertEquals(cli.spawns.length, 1);
  assertEquals(
    cli.spawns[0].stdin.map((l) => JSON.parse(l)),
    ["a", "b", "c"].map((content) => ({ type: "user", message: { role: "user", content } })),
  );
  assertEquals([claude.turns, claude.sessionId], [3, "fake-session"]);
});

Deno.test("ClaudeCliCognition spawns claude in stream-json mode with the model, system prompt and extra args", async () => {
  using cli = FakeClaudeCli.script(["ok"]);
  await using claude = new ClaudeCliCognition({
    spawn: cli,
    binary: "/opt/claude",
    model: "claude-sonnet-4-5",
    args: ["--max-turns", "5"],
    cwd: "/repo",
    env: { CLAUDE_CONFIG_DIR: "/tmp/c" },
  });
  await agentOn(claude, "Be brief.").run("hi", makeTestCtx());
  assertEquals(cli.argv(0), [
    "/opt/claude",
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--input-format",
    "stream-json",
    "--model",
    "claude-sonnet-4-5",
    "--append-system-prompt",
    "Be brief.",
    "--max-turns",
    "5",
  ]);
  assertEquals([cli.spawns[0].cwd, cli.spawns[0].env], ["/repo", { CLAUDE_CONFIG_DIR: "/tmp/c" }]);
});

Deno.test("ClaudeCliCognition checks the budget before writing a turn, and charges each turn", async () => {
  using cli = FakeClaudeCli.script(["one", "two"], { allowUnused: true });
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const budget = new Budget({ maxCalls: 1 });
  const ctx = makeTestCtx({ budget });
  await agentOn(claude).run("a", ctx);
  await assertRejects(() => agentOn(claude).run("b", ctx), BudgetExceeded, "maxCalls");
  assertEquals([budget.calls, cli.spawns[0].stdin.length], [1, 1]);
});

Deno.test("ClaudeCliCognition observes the session: spawn, init, tool use and result, and the result's numbers", async () => {
  using cli = FakeClaudeCli.script([editTurn]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  await agentOn(claude).run("go", makeTestCtx({ observer }));
  assertEquals(kinds(observer), [
    "cli.spawn",
    "cli.init",
    "cli.tool_use",
    "cli.tool_result",
    "cli.tool_use",
    "cli.tool_result",
    "cli.result",
  ]);
  assert(observer.items.every((o) => o.agent === "coder"));
  assertEquals(ofKind(observer, "cli.result")[0].payload, {
    subtype: "success",
    isError: false,
    numTurns: 3,
    durationMs: 0,
    costUsd: 0.0421,
    sessionId: "fake-session",
  });
});

Deno.test("ClaudeCliCognition survives a truncated final line", async (t) => {
  await t.step(
    "a cut-off result line: observed, skipped, the run errors and bills what was reported",
    async () => {
      using cli = FakeClaudeCli.script([truncateLastLine(editTurn, 30)]);
      await using claude = new ClaudeCliCognition({ spawn: cli });
      const observer = new CollectingObserver();
      const budget = new Budget();
      const result = await agentOn(claude).run("go", makeTestCtx({ observer, budget }));
      assertEquals(result.stopReason, "error");
      const [skip] = ofKind(observer, "cli.skipped");
      assertEquals(
        (skip.payload as { reason: string }).reason,
        "the stream ended in the middle of this line",
      );
      // 1000 input at $10/M, 5000 cached at $1/M, 100 output at $30/M
      assertEquals([budget.spent(), budget.calls], ["0.018000", 1]);
      assertEquals(
        (ofKind(observer, "cli.error")[0].payload as { failure: string }).failure,
        "incomplete",
      );
    },
  );
  await t.step("a whole last line that only lacks its newline is used", async () => {
    using cli = FakeClaudeCli.script([{ ...editTurn, unterminated: true }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const result = await agentOn(claude).run("go", makeTestCtx());
    assertEquals([result.stopReason, result.output], ["stop", "Added GET /health."]);
  });
});

Deno.test("ClaudeCliCognition observes an unknown event type, skips it and goes on", async () => {
  using cli = FakeClaudeCli.script([
    insertLines(claudeTurn({ text: "Done." }), 1, unknownEventLine("telemetry", { n: 1 })),
  ]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  const result = await agentOn(claude).run("go", makeTestCtx({ observer }));
  assertEquals([result.output, result.stopReason], ["Done.", "stop"]);
  assertEquals(ofKind(observer, "cli.skipped").map((o) => o.payload), [
    { line: 2, reason: 'unknown event type "telemetry"', type: "telemetry" },
  ]);
});

Deno.test("ClaudeCliCognition without a final result ends with stopReason error and bills the reported work", async (t) => {
  const turn = claudeTurn({
    text: "Half done.",
    usage: { inputTokens: 1000, outputTokens: 100 },
    costUsd: 0.05,
  });
  await t.step("run()", async () => {
    using cli = FakeClaudeCli.script([withoutFinalLine(turn)]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const budget = new Budget({ maxCostUsd: "1" });
    const result = await agentOn(claude).run("go", makeTestCtx({ budget }));
    assertEquals([result.stopReason, result.output], ["error", "Half done."]);
    // No total_cost_usd arrived: priced by the agent's model, never $0.00.
    assertEquals([budget.spent(), result.usage], ["0.013000", {
      inputTokens: 1000,
      outputTokens: 100,
    }]);
  });
  await t.step("stream(): the last event is an error carrying the billed usage", async () => {
    using cli = FakeClaudeCli.script([withoutFinalLine(turn)]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const events = await collect(agentOn(claude).stream("go", makeTestCtx()));
    const last = lastError(events);
    assertEquals([last.error.failure, last.usage], ["incomplete", {
      inputTokens: 1000,
      outputTokens: 100,
    }]);
  });
  await t.step("nothing reported, nothing billed", async () => {
    using cli = FakeClaudeCli.script([{ lines: [turn.lines[0]], exitCode: 0 }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const budget = new Budget();
    const result = await agentOn(claude).run("go", makeTestCtx({ budget }));
    assertEquals([result.stopReason, budget.calls], ["error", 0]);
  });
});

Deno.test("ClaudeCliCognition on a non-zero exit partway captures stderr and ends with an error result", async () => {
  using cli = FakeClaudeCli.script([
    exitPartway(editTurn, { afterLines: 2, exitCode: 2, stderr: "Error: API overloaded\n" }),
  ]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  const budget = new Budget();
  const events = await collect(agentOn(claude).stream("go", makeTestCtx({ observer, budget })));
  const last = lastError(events);
  assertEquals(last.error.failure, "exited");
  assertEquals(last.error.stderr, {
    text: "Error: API overloaded\n",
    truncated: false,
    exitCode: 2,
  });
  assert(last.error.message.includes("exited with code 2"), last.error.message);
  assert(last.error.message.includes("API overloaded"), last.error.message);
  assertEquals((ofKind(observer, "cli.error")[0].payload as { stderr: unknown }).stderr, {
    text: "Error: API overloaded\n",
    truncated: false,
    exitCode: 2,
  });
  assertEquals(budget.spent(), "0.018000");
  assertEquals(cli.spawns[0].exitCode, 2);
});

Deno.test("ClaudeCliCognition decodes a line that is not valid UTF-8 leniently, goes on, and bills it", async (t) => {
  await t.step("the result line itself: billed, never $0.00", async () => {
    const turn = claudeTurn({ text: "café", costUsd: 0.02 });
    const result = turn.lines.at(-1) as string;
    using cli = FakeClaudeCli.script([{ lines: [...turn.lines.slice(0, -1), latin1Line(result)] }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const observer = new CollectingObserver();
    const budget = new Budget();
    const r = await agentOn(claude).run("go", makeTestCtx({ observer, budget }));
    assertEquals([r.output, r.stopReason, budget.spent()], ["caf\uFFFD", "stop", "0.020000"]);
    assertEquals(ofKind(observer, "cli.invalid_utf8").map((o) => o.payload), [{ line: 3 }]);
  });
  await t.step("garbage bytes that are not JSON either: skipped, the turn completes", async () => {
    using cli = FakeClaudeCli.script([
      insertLines(claudeTurn({ text: "ok", costUsd: 0.02 }), 1, rawLine([0xff, 0xfe, 0x7b])),
    ]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const budget = new Budget();
    const r = await agentOn(claude).run("go", makeTestCtx({ budget }));
    assertEquals([r.output, r.stopReason, budget.spent()], ["ok", "stop", "0.020000"]);
  });
});

Deno.test("ClaudeCliCognition on cancellation kills the process and rejects with the abort reason", async (t) => {
  await t.step("a stream consumer cancels mid-turn", async () => {
    using cli = FakeClaudeCli.script([editTurn], { allowUnused: true });
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    const budget = new Budget();
    const ctx = makeTestCtx({ signal: controller.signal, budget });
    const seen: string[] = [];
    const err = await assertRejects(async () => {
      for await (const e of agentOn(claude).stream("go", ctx)) {
        seen.push(e.type);
        if (e.type === "tool_call") controller.abort(reason);
      }
    });
    assertEquals(err, reason);
    assertEquals(seen, ["message_start", "tool_call"]);
    assertEquals([cli.spawns[0].killed, cli.spawns[0].exitCode], [true, 143]);
    assertEquals(budget.spent(), "0.018000"); // the first message reported the turn's usage
  });
  await t.step(
    "a run paced on a FakeClock is cancelled between lines; the next run resumes the session",
    async () => {
      using cli = FakeClaudeCli.script([editTurn, "resumed"], { lineDelayMs: 100 });
      await using claude = new ClaudeCliCognition({ spawn: cli });
      const clock = new FakeClock();
      const controller = new AbortController();
      const ctx = makeTestCtx({ clock, signal: controller.signal });
      const cancel = clock.sleep(250).then(() => controller.abort(new Error("deadline")));
      await assertRejects(() => agentOn(claude).run("go", ctx), Error, "deadline");
      await cancel;
      assertEquals([clock.now(), cli.spawns[0].killed], [250, true]);
      assertEquals(claude.sessionId, "fake-session");
      const next = await agentOn(claude).run("again", makeTestCtx({ clock }));
      assertEquals(next.output, "resumed");
      assertEquals(cli.spawns.length, 2);
      assertEquals(cli.argv(1).slice(-2), ["--resume", "fake-session"]);
    },
  );
  await t.step("an already aborted signal spawns nothing", async () => {
    using cli = FakeClaudeCli.script(["x"], { allowUnused: true });
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const ctx = makeTestCtx({ signal: AbortSignal.abort(new Error("early")) });
    await assertRejects(() => agentOn(claude).run("go", ctx), Error, "early");
    assertEquals(cli.spawns.length, 0);
  });
});

Deno.test("ClaudeCliCognition ends a failed turn the CLI reported with an error result, billed", async (t) => {
  for (
    const [subtype, stopReason] of [
      ["error_max_turns", "max_iterations"],
      ["error_during_execution", "error"],
    ] as const
  ) {
    await t.step(subtype, async () => {
      using cli = FakeClaudeCli.script([claudeTurn({ text: "gave up", subtype, costUsd: 0.3 })]);
      await using claude = new ClaudeCliCognition({ spawn: cli });
      const budget = new Budget();
      const r = await agentOn(claude).run("go", makeTestCtx({ budget }));
      assertEquals([r.stopReason, r.output, budget.spent()], [stopReason, "gave up", "0.300000"]);
    });
  }
});

Deno.test("ClaudeCliCognition respawns with --resume when the process ended after a turn", async () => {
  using cli = FakeClaudeCli.script([{ ...claudeTurn({ text: "one" }), exitCode: 0 }, "two"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const ctx = makeTestCtx();
  assertEquals((await agentOn(claude).run("a", ctx)).output, "one");
  assertEquals((await agentOn(claude).run("b", ctx)).output, "two");
  assertEquals(cli.spawns.length, 2);
  assertEquals(cli.argv(1).slice(-2), ["--resume", "fake-session"]);
});

Deno.test("ClaudeCliCognition kills a process whose stream was abandoned mid-turn", async () => {
  using cli = FakeClaudeCli.script([editTurn, "next"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  for await (const e of agentOn(claude).stream("go", makeTestCtx())) {
    if (e.type === "message_start") break;
  }
  assertEquals(cli.spawns[0].killed, true);
  assertEquals((await agentOn(claude).run("again", makeTestCtx())).output, "next");
  assertEquals(cli.spawns.length, 2);
});

Deno.test("ClaudeCliCognition runs on one instance take turns instead of interleaving", async () => {
  using cli = FakeClaudeCli.script(["first", "second"], { lineDelayMs: 10 });
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const ctx = makeTestCtx();
  const [a, b] = await Promise.all([
    agentOn(claude).run("a", ctx),
    agentOn(claude).run("b", ctx),
  ]);
  assertEquals([a.output, b.output], ["first", "second"]);
});

Deno.test("ClaudeCliCognition lets ScriptExhausted escape one turn past the recording", async () => {
  const cli = FakeClaudeCli.script(["only"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  await agentOn(claude).run("a", makeTestCtx());
  await assertRejects(() => agentOn(claude).run("b", makeTestCtx()), ScriptExhausted);
  assertThrows(() => cli.verify(), ScriptExhausted, "asked for turn 2");
});

Deno.test("ClaudeCliCognition.close() ends the process through its stdin and is safe to repeat", async () => {
  using cli = FakeClaudeCli.script(["one"]);
  const claude = new ClaudeCliCognition({ spawn: cli });
  await agentOn(claude).run("a", makeTestCtx());
  assertEquals(cli.spawns[0].exitCode, undefined);
  await claude.close();
  await claude.close();
  assertEquals([cli.spawns[0].exitCode, cli.spawns[0].killed], [0, false]);
});

Deno.test("ClaudeCliCognition fails an unpriced model rather than billing $0.00 for reported work", async () => {
  using cli = FakeClaudeCli.script([withoutFinalLine(claudeTurn({ text: "x" }))]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const agent = new Agent("a", { model: "unpriced-model", cognition: claude });
  await assertRejects(
    () => agent.run("go", makeTestCtx({ budget: new Budget({ maxCostUsd: "1" }) })),
    UnpricedModel,
  );
});

Deno.test("new ClaudeCliCognition() validates its options when built", async (t) => {
  await t.step("no spawn", () => {
    // deno-lint-ignore no-explicit-any
    assertThrows(() => new ClaudeCliCognition({} as any), TypeError, "needs spawn");
  });
  await t.step("a mistyped key", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => new ClaudeCliCognition({ spawn: FakeClaudeCli.script(["x"]), modle: "m" } as any),
      TypeError,
      'unknown option "modle"; did you mean "model"?',
    );
  });
  await t.step("args that are not strings", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => new ClaudeCliCognition({ spawn: FakeClaudeCli.script(["x"]), args: [1] as any }),
      TypeError,
      "args[0] must be a string, got 1",
    );
  });
});
