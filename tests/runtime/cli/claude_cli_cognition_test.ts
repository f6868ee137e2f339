import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import type { ErrorEvent, SpawnPort, StreamEvent } from "@agentkit/testing/ports";
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

// Raw claude stream-json lines, for the shapes claudeTurn() never writes.
const initLine = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: "system",
    subtype: "init",
    session_id: "s-1",
    model: "claude-x",
    cwd: "/w",
    tools: ["Bash"],
    ...extra,
  });
const assistantLine = (message: unknown) => JSON.stringify({ type: "assistant", message });
const userLine = (message: unknown) => JSON.stringify({ type: "user", message });
const resultLine = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    result: "done",
    session_id: "s-1",
    num_turns: 1,
    duration_ms: 5,
    total_cost_usd: 0.01,
    usage: { input_tokens: 10, output_tokens: 1 },
    ...fields,
  });
Deno.test("ClaudeCliCognition is named claude-cli and runs claude unless told otherwise", () => {
  const claude = new ClaudeCliCognition({ spawn: FakeClaudeCli.script(["x"]) });
  assertEquals([claude.name, claude.binary, claude.model], ["claude-cli", "claude", undefined]);
  const err = assertThrows(() => new ClaudeCliCognition({ spawn: 42 as never }), TypeError);
  assertEquals(err.message.startsWith("new ClaudeCliCognition() needs spawn"), true);
});

Deno.test("ClaudeCliCognition spawns plain stream-json flags when no model, system prompt or args are given", async () => {
  using cli = FakeClaudeCli.script(["ok"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  await agentOn(claude).run("go", makeTestCtx({ observer }));
  const argv = [
    "claude",
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--input-format",
    "stream-json",
  ];
  assertEquals(cli.argv(0), argv);
  assertEquals(ofKind(observer, "cli.spawn").map((o) => [o.text, o.payload]), [
    [argv.join(" "), { argv }],
  ]);
});

Deno.test("ClaudeCliCognition observes init, other system lines, each tool use and result, and the result", async () => {
  using cli = FakeClaudeCli.script([{
    lines: [
      initLine(),
      JSON.stringify({ type: "system", subtype: "compact_boundary", trigger: "auto" }),
      assistantLine({
        id: "m1",
        content: [{ type: "tool_use", id: "tu1", name: "Bash", input: { command: "ls" } }],
      }),
      userLine({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "tu1", content: "a.ts", is_error: false }],
      }),
      resultLine({ result: "Listed." }),
    ],
  }]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  await agentOn(claude).run("go", makeTestCtx({ observer }));
  const seen = observer.items.filter((o) => o.kind !== "cli.spawn").map((o) => [
    o.kind,
    o.text,
    o.payload,
  ]);
  assertEquals(seen, [
    ["cli.init", "claude session s-1", {
      sessionId: "s-1",
      model: "claude-x",
      cwd: "/w",
      tools: ["Bash"],
    }],
    ["cli.system", "claude system compact_boundary", {
      type: "system",
      subtype: "compact_boundary",
      trigger: "auto",
    }],
    ["cli.tool_use", "claude used Bash", { id: "tu1", name: "Bash", args: { command: "ls" } }],
    ["cli.tool_result", "claude tool result for tu1", {
      toolCallId: "tu1",
      content: "a.ts",
      isError: false,
    }],
    ["cli.result", "claude turn ended: success", {
      subtype: "success",
      isError: false,
      numTurns: 1,
      durationMs: 5,
      costUsd: 0.01,
      sessionId: "s-1",
    }],
  ]);
  assertEquals(claude.sessionId, "s-1");
});

Deno.test("ClaudeCliCognition takes the session id only from a string, and a later one replaces it", async () => {
  using cli = FakeClaudeCli.script([
    { lines: [initLine({ session_id: 7 }), resultLine({ session_id: null })] },
    { lines: [resultLine({ session_id: "s-2" })] },
    { lines: [resultLine({ session_id: 42 })] },
  ]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  await agentOn(claude).run("a", makeTestCtx());
  assertEquals(claude.sessionId, undefined);
  await agentOn(claude).run("b", makeTestCtx());
  assertEquals(claude.sessionId, "s-2");
  await agentOn(claude).run("c", makeTestCtx());
  assertEquals(claude.sessionId, "s-2");
});

Deno.test("ClaudeCliCognition skips an assistant line without a content list", async () => {
  using cli = FakeClaudeCli.script([{
    lines: [
      initLine(),
      assistantLine("not a message"),
      assistantLine({ id: "m1", content: "not a list" }),
      assistantLine({ id: "m2", content: [{ type: "text", text: "ok" }] }),
      resultLine({ result: "ok" }),
    ],
  }]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  const result = await agentOn(claude).run("go", makeTestCtx({ observer }));
  assertEquals(result.output, "ok");
  assertEquals(ofKind(observer, "cli.skipped").map((o) => o.payload), [
    { line: 2, reason: "an assistant line without message.content" },
    { line: 3, reason: "an assistant line without message.content" },
  ]);
});

Deno.test("ClaudeCliCognition uses text and tool_use blocks only, and groups lines by message id", async () => {
  using cli = FakeClaudeCli.script([{
    lines: [
      initLine(),
      assistantLine({
        id: "m1",
        content: [
          null,
          "loose",
          { type: "thinking", thinking: "hmm", text: "not shown" },
          { type: "text", text: 5 },
          { type: "text", text: "Looking." },
        ],
      }),
      assistantLine({
        id: "m1",
        content: [
          { type: "tool_use", id: "tu1", name: "Read", input: "file.ts" },
          { type: "tool_use", name: "NoId", input: {} },
          { type: "tool_use", id: "tu-x", input: {} },
          { type: "image", id: "img", name: "pic" },
        ],
      }),
      userLine({ role: "user", content: [{ type: "tool_result", tool_use_id: "tu1" }] }),
      assistantLine({ content: [{ type: "text", text: "first" }] }),
      assistantLine({ content: [{ type: "text", text: "second" }] }),
      resultLine({ result: "second" }),
    ],
  }]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const events = await collect(agentOn(claude).stream("go", makeTestCtx()));
  assertEquals(events.filter((e) => e.type !== "message_end"), [
    { type: "message_start", messageId: "claude-turn-1" },
    { type: "text_delta", messageId: "claude-turn-1", content: "Looking." },
    {
      type: "tool_call",
      messageId: "claude-turn-1",
      call: { id: "tu1", name: "Read", args: {} },
    },
    { type: "text_delta", messageId: "claude-turn-1", content: "\n\nfirst" },
    { type: "text_delta", messageId: "claude-turn-1", content: "\n\nsecond" },
  ]);
  using again = FakeClaudeCli.script([{
    lines: [
      assistantLine({ id: "m1", content: [{ type: "text", text: "a" }] }),
      assistantLine({ id: "m1", content: [{ type: "text", text: "b" }] }),
      assistantLine({ content: [{ type: "text", text: "c" }] }),
      assistantLine({ content: [{ type: "text", text: "d" }] }),
      resultLine({ result: "d" }),
    ],
  }]);
  await using claude2 = new ClaudeCliCognition({ spawn: again });
  const result = await agentOn(claude2).run("go", makeTestCtx());
  assertEquals(result.messages.slice(1), [
    { role: "assistant", content: "a\n\nb" },
    { role: "assistant", content: "c" },
    { role: "assistant", content: "d" },
  ]);
});

Deno.test("ClaudeCliCognition reads tool results only from tool_result blocks of a content list", async () => {
  using cli = FakeClaudeCli.script([{
    lines: [
      userLine(null),
      userLine("text"),
      userLine({ role: "user", content: 5 }),
      userLine({
        role: "user",
        content: [
          null,
          { type: "text", text: "the user typed this" },
          {
            type: "tool_result",
            tool_use_id: "tu1",
            content: ["a", { type: "text", text: "b" }, { type: "image", source: "x" }, null],
          },
          { type: "tool_result", content: "who?", is_error: "yes" },
          { type: "tool_result", tool_use_id: "tu3", content: { ok: 1 }, is_error: true },
        ],
      }),
      resultLine(),
    ],
  }]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const observer = new CollectingObserver();
  const result = await agentOn(claude).run("go", makeTestCtx({ observer }));
  assertEquals(result.stopReason, "stop");
  assertEquals(result.messages.filter((m) => m.role === "tool"), [
    {
      role: "tool",
      toolCallId: "tu1",
      content: 'a\nb\n{"type":"image","source":"x"}\nnull',
    },
    { role: "tool", toolCallId: "", content: "who?" },
    { role: "tool", toolCallId: "tu3", content: '{"ok":1}', isError: true },
  ]);
  assertEquals(ofKind(observer, "cli.tool_result").map((o) => o.text), [
    "claude tool result for tu1",
    "claude tool result for ",
    "claude tool result for tu3",
  ]);
});

Deno.test("ClaudeCliCognition bills only what assistant lines reported, once per message id", async (t) => {
  await t.step("the latest usage of each message id, summed", async () => {
    using cli = FakeClaudeCli.script([{
      lines: [
        assistantLine({
          id: "m1",
          content: [],
          usage: { input_tokens: 100, output_tokens: 1 },
        }),
        assistantLine({
          id: "m1",
          content: [],
          usage: { input_tokens: 100, output_tokens: 20 },
        }),
        assistantLine({
          id: "m2",
          content: [],
          usage: { input_tokens: 50, cache_creation_input_tokens: 30, output_tokens: 5 },
        }),
      ],
      exitCode: 0,
    }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const result = await agentOn(claude).run("go", makeTestCtx());
    assertEquals(result.usage, { inputTokens: 180, outputTokens: 25 });
  });
  await t.step("lines without usage report nothing", async () => {
    using cli = FakeClaudeCli.script([{
      lines: [assistantLine({ id: "m1", content: [{ type: "text", text: "hi" }] })],
      exitCode: 0,
    }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const budget = new Budget();
    const result = await agentOn(claude).run("go", makeTestCtx({ budget }));
    assertEquals([result.stopReason, budget.calls], ["error", 0]);
  });
});

Deno.test("ClaudeCliCognition bills total_cost_usd only when it is a finite non-negative number", async (t) => {
  const usage = {
    input_tokens: 100,
    cache_creation_input_tokens: 20,
    cache_read_input_tokens: 300,
    output_tokens: 10,
  };
  const cases: Array<[string, unknown, number | undefined]> = [
    ["a cost", 0.25, 0.25],
    ["zero", 0, 0],
    ["none", undefined, undefined],
    ["null", null, undefined],
    ["negative", -1, undefined],
    ["a string", "0.5", undefined],
    ["infinite", "1e999", undefined],
  ];
  for (const [name, cost, billed] of cases) {
    await t.step(name, async () => {
      // JSON has no Infinity: 1e999 parses to it. An undefined cost leaves the key out.
      const line = cost === "1e999"
        ? resultLine({ usage, total_cost_usd: 0 }).replace(
          '"total_cost_usd":0',
          '"total_cost_usd":1e999',
        )
        : resultLine({ usage, total_cost_usd: cost });
      using cli = FakeClaudeCli.script([{ lines: [line] }]);
      await using claude = new ClaudeCliCognition({ spawn: cli });
      const observer = new CollectingObserver();
      const result = await agentOn(claude).run("go", makeTestCtx({ observer }));
      assertEquals(result.usage, {
        inputTokens: 120,
        outputTokens: 10,
        cachedInputTokens: 300,
        ...(billed !== undefined ? { costUsd: billed } : {}),
      });
      const bad = cost !== undefined && cost !== null && billed === undefined;
      assertEquals(
        ofKind(observer, "cli.skipped").map((o) => o.payload),
        bad
          ? [{
            line: 1,
            reason: `total_cost_usd ${
              cost === "1e999" ? "Infinity" : JSON.stringify(cost)
            } is not a finite non-negative number; the turn is billed from its tokens`,
            field: "total_cost_usd",
          }]
          : [],
      );
    });
  }
});

Deno.test("ClaudeCliCognition bills a result without usage from what its messages reported, with a valid cost", async (t) => {
  const reported = assistantLine({
    id: "m1",
    content: [{ type: "text", text: "x" }],
    usage: { input_tokens: 40, cache_read_input_tokens: 8, output_tokens: 4 },
  });
  for (
    const [name, cost, costUsd] of [
      ["a cost", 0.5, 0.5],
      ["zero", 0, 0],
      ["negative", -2, undefined],
      ["a string", "1", undefined],
    ] as const
  ) {
    await t.step(name, async () => {
      using cli = FakeClaudeCli.script([{
        lines: [reported, resultLine({ usage: "none", total_cost_usd: cost })],
      }]);
      await using claude = new ClaudeCliCognition({ spawn: cli });
      const result = await agentOn(claude).run("go", makeTestCtx());
      assertEquals(result.usage, {
        inputTokens: 40,
        outputTokens: 4,
        cachedInputTokens: 8,
        ...(costUsd !== undefined ? { costUsd } : {}),
      });
    });
  }
});

Deno.test("ClaudeCliCognition reads a result's text, subtype and is_error", async (t) => {
  await t.step("no result text: the output is the last text", async () => {
    using cli = FakeClaudeCli.script([{
      lines: [
        assistantLine({ id: "m1", content: [{ type: "text", text: "Last words." }] }),
        resultLine({ result: 42 }),
      ],
    }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const result = await agentOn(claude).run("go", makeTestCtx());
    assertEquals([result.output, result.stopReason], ["Last words.", "stop"]);
  });
  await t.step("no subtype: a success", async () => {
    using cli = FakeClaudeCli.script([{ lines: [resultLine({ subtype: 3 })] }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const observer = new CollectingObserver();
    const result = await agentOn(claude).run("go", makeTestCtx({ observer }));
    assertEquals(result.stopReason, "stop");
    assertEquals(
      (ofKind(observer, "cli.result")[0].payload as { subtype: string }).subtype,
      "success",
    );
    assertEquals(ofKind(observer, "cli.result")[0].text, "claude turn ended: success");
  });
  await t.step("is_error on a success subtype: a reported failure", async () => {
    using cli = FakeClaudeCli.script([{
      lines: [resultLine({ is_error: true, result: "API Error: 529" })],
    }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const observer = new CollectingObserver();
    const events = await collect(agentOn(claude).stream("go", makeTestCtx({ observer })));
    const last = lastError(events);
    assertEquals([last.error.failure, last.error.subtype, last.error.binary], [
      "reported",
      "success",
      "claude",
    ]);
    assertEquals(last.error.usage, { inputTokens: 10, outputTokens: 1, costUsd: 0.01 });
    assertStringIncludes(last.error.message, "API Error: 529");
    assertEquals((ofKind(observer, "cli.result")[0].payload as { isError: boolean }).isError, true);
    assertEquals(ofKind(observer, "cli.error").map((o) => [o.text, o.payload]), [
      [last.error.message, { failure: "reported", subtype: "success", stderr: undefined }],
    ]);
  });
  await t.step("a failure subtype with no text names only the subtype", async () => {
    using cli = FakeClaudeCli.script([{
      lines: [resultLine({ subtype: "error_during_execution", is_error: false, result: "" })],
    }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const last = lastError(await collect(agentOn(claude).stream("go", makeTestCtx())));
    assertEquals(last.error.message, "claude reported a failed turn (error_during_execution)");
  });
});

Deno.test("ClaudeCliCognition keeps its process after a turn the CLI reported as failed", async () => {
  using cli = FakeClaudeCli.script([
    claudeTurn({ text: "no", subtype: "error_during_execution" }),
    "yes",
  ]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  assertEquals((await agentOn(claude).run("a", makeTestCtx())).stopReason, "error");
  assertEquals((await agentOn(claude).run("b", makeTestCtx())).output, "yes");
  assertEquals([cli.spawns.length, cli.spawns[0].killed], [1, false]);
});

Deno.test("ClaudeCliCognition leaves out of its error what claude never said", async (t) => {
  await t.step("an exit with blank stderr", async () => {
    using cli = FakeClaudeCli.script([{ lines: [initLine()], exitCode: 1, stderr: "\n" }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const last = lastError(await collect(agentOn(claude).stream("go", makeTestCtx())));
    assertEquals(last.error.message, "claude exited with code 1 before the turn's result line");
  });
  await t.step("output that ends without a result", async () => {
    using cli = FakeClaudeCli.script([{ lines: [initLine()], exitCode: 0 }]);
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const last = lastError(await collect(agentOn(claude).stream("go", makeTestCtx())));
    assertEquals(last.error.failure, "incomplete");
    assertStringIncludes(last.error.message, "without a result line");
  });
});

// A spawn port around `cli` whose processes' exits cannot be awaited.
function exitLost(cli: FakeClaudeCli): SpawnPort {
  return (argv, options) => {
    const proc = cli.spawn(argv, options);
    return {
      stdout: proc.stdout,
      stderr: proc.stderr,
      stdin: proc.stdin,
      exited: proc.exited.then(() => Promise.reject(new Error("waitpid failed"))),
      kill: () => proc.kill(),
    };
  };
}

Deno.test("ClaudeCliCognition reports a process whose exit cannot be awaited as a failure to run it", async () => {
  using cli = FakeClaudeCli.script([{ lines: [initLine()], exitCode: 0 }]);
  await using claude = new ClaudeCliCognition({ spawn: exitLost(cli) });
  const last = lastError(await collect(agentOn(claude).stream("go", makeTestCtx())));
  assertEquals(last.error.failure, "spawn");
});

Deno.test("ClaudeCliCognition starts a new process when the last one's exit could not be awaited", async () => {
  using cli = FakeClaudeCli.script([{ ...claudeTurn({ text: "one" }), exitCode: 0 }, "two"]);
  await using claude = new ClaudeCliCognition({ spawn: exitLost(cli) });
  assertEquals((await agentOn(claude).run("a", makeTestCtx())).output, "one");
  assertEquals((await agentOn(claude).run("b", makeTestCtx())).output, "two");
  assertEquals(cli.spawns.length, 2);
});

Deno.test("ClaudeCliCognition needs a process with a stdin", async () => {
  using cli = FakeClaudeCli.script(["x"], { allowUnused: true });
  const claude = new ClaudeCliCognition({
    spawn: (argv, options) => {
      const proc = cli.spawn(argv, { ...options, stdin: "null" });
      return proc;
    },
  });
  await assertRejects(
    () => agentOn(claude).run("go", makeTestCtx()),
    TypeError,
    'honour { stdin: "piped" }',
  );
  await claude.close();
});

Deno.test("ClaudeCliCognition closes its process at the end of an await using scope", async () => {
  using cli = FakeClaudeCli.script(["one"]);
  {
    await using claude = new ClaudeCliCognition({ spawn: cli });
    await agentOn(claude).run("a", makeTestCtx());
    assertEquals(cli.spawns[0].exitCode, undefined);
  }
  assertEquals([cli.spawns[0].exitCode, cli.spawns[0].killed], [0, false]);
});

Deno.test("ClaudeCliCognition keeps the session's process when a finished run's signal aborts later", async () => {
  using cli = FakeClaudeCli.script(["one", "two"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const controller = new AbortController();
  await agentOn(claude).run("a", makeTestCtx({ signal: controller.signal }));
  controller.abort(new Error("the request that asked is gone"));
  assertEquals((await agentOn(claude).run("b", makeTestCtx())).output, "two");
  assertEquals([cli.spawns.length, cli.spawns[0].killed], [1, false]);
});

Deno.test("ClaudeCliCognition rejects an already cancelled run at once, even while another run holds the process", async () => {
  using cli = FakeClaudeCli.script(["one"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const first = agentOn(claude).stream("a", makeTestCtx())[Symbol.asyncIterator]();
  assertEquals(((await first.next()).value as StreamEvent).type, "message_start");
  const reason = new Error("cancelled before it started");
  const input = { agent: { name: "coder", model: "fake-model" }, task: "b", messages: [] };
  const err = await assertRejects(() =>
    claude.stream(input, makeTestCtx({ signal: AbortSignal.abort(reason) })).next()
  );
  assertEquals(err, reason);
  while (!(await first.next()).done) { /* drain the first run */ }
  assertEquals(cli.spawns[0].stdin.length, 1);
});

Deno.test("ClaudeCliCognition writes nothing for a run cancelled while it waited its turn", async () => {
  using cli = FakeClaudeCli.script(["one", "two"], { allowUnused: true });
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const first = agentOn(claude).stream("a", makeTestCtx())[Symbol.asyncIterator]();
  assertEquals(((await first.next()).value as StreamEvent).type, "message_start");
  const controller = new AbortController();
  const reason = new Error("gave up waiting");
  const second = agentOn(claude).run("b", makeTestCtx({ signal: controller.signal }));
  const rejected = assertRejects(() => second);
  controller.abort(reason);
  while (!(await first.next()).done) { /* drain the first run */ }
  assertEquals(await rejected, reason);
  assertEquals([cli.spawns.length, cli.spawns[0].stdin.length, cli.spawns[0].killed], [
    1,
    1,
    false,
  ]);
});

Deno.test("ClaudeCliCognition keeps its process when the consumer stops at a reported failure", async () => {
  using cli = FakeClaudeCli.script([claudeTurn({ text: "no", subtype: "error_max_turns" }), "yes"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  for await (const e of agentOn(claude).stream("a", makeTestCtx())) if (e.type === "error") break;
  assertEquals((await agentOn(claude).run("b", makeTestCtx())).output, "yes");
  assertEquals([cli.spawns.length, cli.spawns[0].killed], [1, false]);
});

Deno.test("ClaudeCliCognition's output is empty when the turn had no text and the result none", async () => {
  using cli = FakeClaudeCli.script([{ lines: [resultLine({ result: null })] }]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const result = await agentOn(claude).run("go", makeTestCtx());
  assertEquals([result.output, result.stopReason], ["", "stop"]);
});

Deno.test("ClaudeCliCognition reads a tool_result without content as empty", async () => {
  using cli = FakeClaudeCli.script([{
    lines: [
      userLine({ role: "user", content: [{ type: "tool_result", tool_use_id: "tu1" }] }),
      resultLine(),
    ],
  }]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const result = await agentOn(claude).run("go", makeTestCtx());
  assertEquals(result.messages.filter((m) => m.role === "tool"), [
    { role: "tool", toolCallId: "tu1", content: "" },
  ]);
});

Deno.test("ClaudeCliCognition.close() lets go of stdout that outlives the process", async () => {
  using cli = FakeClaudeCli.script(["one"]);
  let released = false;
  const claude = new ClaudeCliCognition({
    spawn: (argv, options) => {
      const proc = cli.spawn(argv, options);
      const reader = proc.stdout.getReader();
      let hold: (() => void) | undefined;
      return {
        // A child of claude still holds the pipe: stdout never ends by itself.
        stdout: new ReadableStream<Uint8Array>({
          async pull(c) {
            const r = await reader.read();
            if (!r.done) c.enqueue(r.value);
            else await new Promise<void>((resolve) => hold = resolve);
          },
          cancel() {
            released = true;
            hold?.();
          },
        }),
        stderr: proc.stderr,
        stdin: proc.stdin,
        exited: proc.exited,
        kill: () => proc.kill(),
      };
    },
  });
  await agentOn(claude).run("a", makeTestCtx());
  await claude.close();
  assertEquals([cli.spawns[0].exitCode, released], [0, true]);
});
