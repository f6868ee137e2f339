import {
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  type ErrorEvent,
  ProviderError,
  type SpawnOptions,
  type SpawnPort,
  type StreamEvent,
} from "@agentkit/testing/ports";
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
  rawLine,
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

/** The events of one streamed run of an agent on codex through `cli`. */
function streamCodex(
  cli: FakeCodexCli,
  ctxOptions?: Parameters<typeof makeTestCtx>[0],
): Promise<StreamEvent[]> {
  return collect(
    agentOn(new CodexCliCognition({ spawn: cli })).stream("go", makeTestCtx(ctxOptions)),
  );
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
  const events = await streamCodex(cli, { observer });
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
  const events = await streamCodex(cli, { budget });
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
  const events = await streamCodex(cli, { observer });
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

// Lines of one codex turn around the given items: thread.started, turn.started,
// the lines, then turn.completed (unless `complete` is false).
function turnAround(items: readonly unknown[], complete = true): { lines: string[] } {
  return {
    lines: [
      JSON.stringify({ type: "thread.started", thread_id: "t-9" }),
      JSON.stringify({ type: "turn.started" }),
      ...items.map((i) => JSON.stringify(i)),
      ...(complete
        ? [JSON.stringify({
          type: "turn.completed",
          usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 1 },
        })]
        : []),
    ],
  };
}
const completed = (item: Record<string, unknown>) => ({ type: "item.completed", item });
const started = (item: Record<string, unknown>) => ({ type: "item.started", item });
const updated = (item: Record<string, unknown>) => ({ type: "item.updated", item });

Deno.test("CodexCliCognition observes the spawn, the thread, each tool and the completed turn", async () => {
  using cli = FakeCodexCli.script(testsTurn);
  const observer = new CollectingObserver();
  await agentOn(new CodexCliCognition({ spawn: cli })).run("go", makeTestCtx({ observer }));
  const seen = observer.items.map(({ kind, text, payload, agent }) => ({
    kind,
    text,
    payload,
    agent,
  }));
  const command = (id: string, c: string) => ({
    id,
    name: "command_execution",
    args: { command: c },
  });
  assertEquals(seen, [
    {
      kind: "cli.spawn",
      text: "codex exec --json go",
      payload: { argv: ["codex", "exec", "--json", "go"] },
      agent: "fixer",
    },
    { kind: "cli.init", text: "codex thread t-1", payload: { threadId: "t-1" }, agent: "fixer" },
    {
      kind: "cli.tool_use",
      text: "codex used command_execution",
      payload: command("item_0", "deno test"),
      agent: "fixer",
    },
    {
      kind: "cli.tool_result",
      text: "codex tool result for item_0",
      payload: { toolCallId: "item_0", content: "ok | 3 passed", isError: false },
      agent: "fixer",
    },
    {
      kind: "cli.tool_use",
      text: "codex used command_execution",
      payload: command("item_1", "deno lint"),
      agent: "fixer",
    },
    {
      kind: "cli.tool_result",
      text: "codex tool result for item_1",
      payload: { toolCallId: "item_1", content: "1 problem", isError: true },
      agent: "fixer",
    },
    {
      kind: "cli.result",
      text: "codex turn completed",
      payload: { usage: { inputTokens: 200, cachedInputTokens: 1000, outputTokens: 40 } },
      agent: "fixer",
    },
  ]);
});

Deno.test("CodexCliCognition.run() returns the transcript: each tool call, its result, then the message", async () => {
  using cli = FakeCodexCli.script(testsTurn);
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run("go", makeTestCtx());
  assertEquals(result.messages, [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "item_0", name: "command_execution", args: { command: "deno test" } }],
    },
    { role: "tool", content: "ok | 3 passed", toolCallId: "item_0" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "item_1", name: "command_execution", args: { command: "deno lint" } }],
    },
    { role: "tool", content: "1 problem", toolCallId: "item_1", isError: true },
    { role: "assistant", content: "All tests pass now." },
  ]);
});

Deno.test("CodexCliCognition maps file changes, web searches and MCP calls to tool calls with their results", async () => {
  const changes = [{ path: "src/a.ts", kind: "update" }];
  using cli = FakeCodexCli.script(turnAround([
    started({ id: "fc", type: "file_change", changes, status: "in_progress" }),
    completed({ id: "fc", type: "file_change", changes, status: "completed" }),
    completed({ id: "ws", type: "web_search", query: "deno streams" }),
    completed({
      id: "m1",
      type: "mcp_tool_call",
      server: "docs",
      tool: "lookup",
      arguments: { q: "x" },
      result: [{ type: "text", text: "found" }],
      status: "completed",
    }),
    completed({
      id: "m2",
      type: "mcp_tool_call",
      arguments: "not an object",
      error: { message: "server gone" },
      status: "completed",
    }),
    completed({ id: "m3", type: "mcp_tool_call", tool: "ping", error: null, result: "pong" }),
    completed({ type: "agent_message", text: "done" }),
  ]));
  const observer = new CollectingObserver();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ observer }),
  );
  assertEquals(result.stopReason, "stop");
  const calls = result.messages.flatMap((m) => m.role === "assistant" ? m.toolCalls ?? [] : []);
  assertEquals(calls, [
    { id: "fc", name: "file_change", args: { changes } },
    { id: "ws", name: "web_search", args: { query: "deno streams" } },
    { id: "m1", name: "lookup", args: { q: "x" } },
    { id: "m2", name: "mcp_tool_call", args: {} },
    { id: "m3", name: "ping", args: {} },
  ]);
  assertEquals(ofKind(observer, "cli.tool_result").map((o) => o.payload), [
    {
      toolCallId: "fc",
      content: JSON.stringify({ id: "fc", type: "file_change", changes, status: "completed" }),
      isError: false,
    },
    {
      toolCallId: "ws",
      content: JSON.stringify({ id: "ws", type: "web_search", query: "deno streams" }),
      isError: false,
    },
    { toolCallId: "m1", content: "found", isError: false },
    { toolCallId: "m2", content: JSON.stringify({ message: "server gone" }), isError: true },
    { toolCallId: "m3", content: "pong", isError: false },
  ]);
  assertEquals(ofKind(observer, "cli.tool_use").map((o) => o.text), [
    "codex used file_change",
    "codex used web_search",
    "codex used lookup",
    "codex used mcp_tool_call",
    "codex used ping",
  ]);
});

Deno.test("CodexCliCognition counts a tool result as an error on a failed status or a non-zero exit code", async () => {
  const command = (id: string, more: Record<string, unknown>) =>
    completed({ id, type: "command_execution", command: "make", aggregated_output: id, ...more });
  using cli = FakeCodexCli.script(turnAround([
    command("ok", { exit_code: 0, status: "completed" }),
    command("status-failed", { exit_code: 0, status: "failed" }),
    command("exit-2", { exit_code: 2, status: "completed" }),
    command("no-code", { exit_code: null, status: "completed" }),
    command("declined", { status: "declined" }),
    command("stray-error", { exit_code: 0, status: "completed", error: "not codex's field" }),
    completed({ id: "fc", type: "file_change", changes: [], status: "failed" }),
  ]));
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run("go", makeTestCtx());
  const results = result.messages.filter((m) => m.role === "tool").map((m) => [
    m.toolCallId,
    m.isError === true,
  ]);
  assertEquals(results, [
    ["ok", false],
    ["status-failed", true],
    ["exit-2", true],
    ["no-code", false],
    ["declined", false],
    ["stray-error", false],
    ["fc", true],
  ]);
});

Deno.test("CodexCliCognition yields one tool call per item id, however many times the item is reported", async () => {
  const item = { id: "c1", type: "command_execution", command: "ls", aggregated_output: "" };
  using cli = FakeCodexCli.script(turnAround([
    started({ ...item, status: "in_progress" }),
    updated({ ...item, aggregated_output: "a", status: "in_progress" }),
    completed({ ...item, aggregated_output: "a\nb", exit_code: 0, status: "completed" }),
  ]));
  const events = await streamCodex(cli);
  assertEquals(events.filter((e) => e.type === "tool_call").length, 1);
});

Deno.test("CodexCliCognition streams an agent message once it is completed, and names an item without an id by its line", async () => {
  using cli = FakeCodexCli.script(turnAround([
    started({ id: "a1", type: "agent_message", text: "" }),
    updated({ id: "a1", type: "agent_message", text: "Work" }),
    completed({ id: "a1", type: "agent_message", text: "Working on it." }),
    completed({ id: "a2", type: "agent_message" }),
    completed({ type: "command_execution", command: "ls", aggregated_output: "x", exit_code: 0 }),
    completed({ id: "a3", type: "agent_message", text: "Done." }),
  ]));
  const observer = new CollectingObserver();
  const events = await streamCodex(cli, { observer });
  assertEquals(events.filter((e) => e.type === "text_delta").map((e) => e.content), [
    "Working on it.",
    "\n\nDone.",
  ]);
  assertEquals(ofKind(observer, "cli.tool_use").map((o) => (o.payload as { id: string }).id), [
    "line-7",
  ]);
  assertEquals(ofKind(observer, "cli.skipped"), []);
  using again = FakeCodexCli.script(turnAround([
    completed({ id: "a1", type: "agent_message", text: "first" }),
    completed({ id: "a2", type: "agent_message", text: "last" }),
  ]));
  const result = await agentOn(new CodexCliCognition({ spawn: again })).run("go", makeTestCtx());
  assertEquals(result.output, "last");
});

Deno.test("CodexCliCognition observes reasoning, the todo list and error items once completed, and skips nothing", async () => {
  using cli = FakeCodexCli.script(turnAround([
    started({ id: "r", type: "reasoning", text: "" }),
    completed({ id: "r", type: "reasoning", text: "**Planning** the fix" }),
    completed({ id: "r2", type: "reasoning" }),
    started({ id: "td", type: "todo_list", items: [] }),
    completed({ id: "td", type: "todo_list", items: [{ text: "fix", completed: true }] }),
    started({ id: "e", type: "error", message: "partial" }),
    completed({ id: "e", type: "error", message: "model overloaded, retrying" }),
    completed({ id: "e2", type: "error" }),
    updated({ id: "u", type: "hologram" }),
  ]));
  const observer = new CollectingObserver();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ observer }),
  );
  assertEquals(result.stopReason, "stop");
  assertEquals(ofKind(observer, "cli.skipped"), []);
  assertEquals(ofKind(observer, "cli.reasoning").map((o) => [o.text, o.payload, o.agent]), [
    ["**Planning** the fix", { id: "r", type: "reasoning", text: "**Planning** the fix" }, "fixer"],
    ["", { id: "r2", type: "reasoning" }, "fixer"],
  ]);
  assertEquals(ofKind(observer, "cli.todo_list").map((o) => [o.text, o.payload, o.agent]), [
    [
      "todo list",
      { id: "td", type: "todo_list", items: [{ text: "fix", completed: true }] },
      "fixer",
    ],
  ]);
  assertEquals(ofKind(observer, "cli.stream_error").map((o) => [o.text, o.payload, o.agent]), [
    [
      "codex: model overloaded, retrying",
      { id: "e", type: "error", message: "model overloaded, retrying" },
      "fixer",
    ],
    ["codex: ", { id: "e2", type: "error" }, "fixer"],
  ]);
});

Deno.test("CodexCliCognition skips an item event without an item, and an unknown item once it starts", async () => {
  using cli = FakeCodexCli.script(turnAround([
    { type: "item.completed", item: ["not", "a", "record"] },
    started({ id: "h", type: "hologram" }),
    { type: "item.updated" },
    completed({ id: "a", type: "agent_message", text: "ok" }),
  ]));
  const observer = new CollectingObserver();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ observer }),
  );
  assertEquals([result.output, result.stopReason], ["ok", "stop"]);
  assertEquals(ofKind(observer, "cli.skipped").map((o) => o.payload), [
    { line: 3, reason: "an item.completed line without an item" },
    { line: 4, reason: 'unknown item type "hologram"', type: "hologram" },
    { line: 5, reason: "an item.updated line without an item" },
  ]);
});

Deno.test("CodexCliCognition ignores a thread.started without a thread id", async () => {
  using cli = FakeCodexCli.script({
    lines: turnAround([completed({ id: "a", type: "agent_message", text: "ok" })]).lines.map((
      l,
      i,
    ) => i === 0 ? JSON.stringify({ type: "thread.started" }) : l),
  });
  const observer = new CollectingObserver();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ observer }),
  );
  assertEquals([result.output, ofKind(observer, "cli.init")], ["ok", []]);
});

Deno.test("CodexCliCognition with a completed turn and no agent message has an empty output", async () => {
  using cli = FakeCodexCli.script(turnAround([]));
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run("go", makeTestCtx());
  assertEquals([result.output, result.stopReason], ["", "stop"]);
});

Deno.test("CodexCliCognition observes a non-zero exit after turn.completed, and keeps the turn", async () => {
  using cli = FakeCodexCli.script({ ...codexTurn({ text: "done" }), exitCode: 3, stderr: "warn" });
  const observer = new CollectingObserver();
  const result = await agentOn(new CodexCliCognition({ spawn: cli })).run(
    "go",
    makeTestCtx({ observer }),
  );
  assertEquals([result.output, result.stopReason], ["done", "stop"]);
  assertEquals(ofKind(observer, "cli.exit").map((o) => [o.payload, o.agent]), [
    [{ text: "warn", truncated: false, exitCode: 3 }, "fixer"],
  ]);
  assertStringIncludes(ofKind(observer, "cli.exit")[0].text, "code 3");
  using clean = FakeCodexCli.script({ ...codexTurn({ text: "done" }), exitCode: 0 });
  const quiet = new CollectingObserver();
  await agentOn(new CodexCliCognition({ spawn: clean })).run(
    "go",
    makeTestCtx({ observer: quiet }),
  );
  assertEquals(ofKind(quiet, "cli.exit"), []);
});

Deno.test("CodexCliCognition.stream() ends a reported failure with its message, stderr and billed usage", async () => {
  using cli = FakeCodexCli.script({
    lines: turnAround([{
      type: "turn.failed",
      error: { message: "usage limit reached" },
      usage: { input_tokens: 50, cached_input_tokens: 0, output_tokens: 5 },
    }], false).lines,
    stderr: "rate limited\n",
    exitCode: 1,
  });
  const budget = new Budget();
  const events = await streamCodex(cli, { budget });
  const last = lastError(events);
  assertEquals(last.error.failure, "reported");
  assertStringIncludes(last.error.message, "usage limit reached");
  assertEquals(last.usage, { inputTokens: 50, outputTokens: 5 });
  assertEquals(last.error.usage, { inputTokens: 50, outputTokens: 5 });
  assertEquals(last.error.stderr, { text: "rate limited\n", truncated: false, exitCode: 1 });
  assertEquals([budget.calls, budget.tokens], [1, 55]);
});

Deno.test("CodexCliCognition reads a turn.failed without a message as a reported failure, unbilled without usage", async (t) => {
  for (const error of [undefined, null, "boom", { code: 7 }, { message: 42 }]) {
    await t.step(`error: ${JSON.stringify(error)}`, async () => {
      using cli = FakeCodexCli.script({
        lines: turnAround([{ type: "turn.failed", error, usage: "none" }], false).lines,
        exitCode: 1,
      });
      const budget = new Budget();
      const events = await streamCodex(cli, { budget });
      const last = lastError(events);
      assertEquals([last.error.failure, last.usage, last.error.usage], [
        "reported",
        undefined,
        undefined,
      ]);
      assertStringIncludes(last.error.message, "turn.failed");
      assertEquals(budget.calls, 0);
    });
  }
});

Deno.test("CodexCliCognition names the last error event and the stderr tail when codex exits early", async () => {
  using cli = FakeCodexCli.script({
    lines: turnAround([
      { type: "error", message: "stream disconnected" },
      { type: "error", code: "E42" },
    ], false).lines,
    stderr: "panicked at main.rs\n",
    exitCode: 2,
  });
  // The stderr tail is the message's last part: nothing follows it.
  const observer = new CollectingObserver();
  const events = await streamCodex(cli, { observer });
  const last = lastError(events);
  assertEquals(last.error.failure, "exited");
  assertStringIncludes(last.error.message, "code 2");
  assertStringIncludes(last.error.message, JSON.stringify({ type: "error", code: "E42" }));
  assertEquals(last.error.message.endsWith("; its stderr ends: panicked at main.rs"), true);
  assertEquals(ofKind(observer, "cli.stream_error").map((o) => [o.text, o.payload, o.agent]), [
    ["codex: stream disconnected", { message: "stream disconnected" }, "fixer"],
    [
      `codex: ${JSON.stringify({ type: "error", code: "E42" })}`,
      { message: JSON.stringify({ type: "error", code: "E42" }) },
      "fixer",
    ],
  ]);
  assertEquals(ofKind(observer, "cli.error").map((o) => [o.text, o.payload, o.agent]), [
    [
      last.error.message,
      {
        failure: "exited",
        stderr: { text: "panicked at main.rs\n", truncated: false, exitCode: 2 },
      },
      "fixer",
    ],
  ]);
});

Deno.test("CodexCliCognition leaves out of its error what codex never said", async (t) => {
  await t.step("an early exit with blank stderr and no error event", async () => {
    using cli = FakeCodexCli.script({
      lines: turnAround([], false).lines,
      stderr: " \n",
      exitCode: 1,
    });
    const last = lastError(
      await streamCodex(cli),
    );
    assertEquals(last.error.failure, "exited");
    assertEquals(last.error.message, "codex exited with code 1 before turn.completed");
  });
  await t.step("an incomplete turn, with and without an error event", async () => {
    using cli = FakeCodexCli.script(
      turnAround([], false),
      turnAround([{ type: "error", message: "reconnecting" }], false),
    );
    const cognition = new CodexCliCognition({ spawn: cli });
    const quiet = lastError(await collect(agentOn(cognition).stream("go", makeTestCtx())));
    const loud = lastError(await collect(agentOn(cognition).stream("go", makeTestCtx())));
    assertEquals([quiet.error.failure, loud.error.failure], ["incomplete", "incomplete"]);
    assertEquals(
      quiet.error.message,
      "codex's output ended without turn.completed, so the turn is incomplete",
    );
    assertStringIncludes(loud.error.message, "(its last error: reconnecting)");
  });
});

Deno.test("CodexCliCognition reports a process whose exit cannot be awaited as a failure to run it", async () => {
  using cli = FakeCodexCli.script(turnAround([], false));
  const lost = new Error("waitpid failed");
  const cognition = new CodexCliCognition({
    spawn: (argv, options) => {
      const proc = cli.spawn(argv, options);
      return {
        stdout: proc.stdout,
        stderr: proc.stderr,
        exited: proc.exited.then(() => Promise.reject(lost)),
        kill: () => proc.kill(),
      };
    },
  });
  const observer = new CollectingObserver();
  const last = lastError(
    await collect(agentOn(cognition).stream("go", makeTestCtx({ observer }))),
  );
  assertEquals([last.error.failure, last.error.cause], ["spawn", lost]);
  // With no exit, there is no exit code to report.
  assertEquals(
    ofKind(observer, "cli.error").map((o) => (o.payload as { stderr: unknown }).stderr),
    [{ text: "", truncated: false }],
  );
});

Deno.test("CodexCliCognition keeps a completed turn whose exit cannot be awaited, with no exit to report", async () => {
  using cli = FakeCodexCli.answering("done");
  const cognition = new CodexCliCognition({
    spawn: (argv, options) => {
      const proc = cli.spawn(argv, options);
      return {
        stdout: proc.stdout,
        stderr: proc.stderr,
        exited: proc.exited.then(() => Promise.reject(new Error("waitpid failed"))),
        kill: () => proc.kill(),
      };
    },
  });
  const observer = new CollectingObserver();
  const result = await agentOn(cognition).run("go", makeTestCtx({ observer }));
  assertEquals([result.output, result.stopReason, ofKind(observer, "cli.exit")], [
    "done",
    "stop",
    [],
  ]);
});

Deno.test("CodexCliCognition spawns codex with no stdin, in the cwd and with the env given", async () => {
  using cli = FakeCodexCli.answering("ok");
  const seen: unknown[] = [];
  const cognition = new CodexCliCognition({
    spawn: (argv, options) => {
      seen.push({ stdin: options?.stdin, cwd: options?.cwd, env: options?.env });
      return cli.spawn(argv, options);
    },
    cwd: "/repo",
    env: { CODEX_HOME: "/tmp/codex" },
  });
  await agentOn(cognition).run("go", makeTestCtx());
  assertEquals(seen, [{ stdin: "null", cwd: "/repo", env: { CODEX_HOME: "/tmp/codex" } }]);
  assertEquals(cli.spawns[0].env, { CODEX_HOME: "/tmp/codex" });
});

Deno.test("CodexCliCognition does not spawn for a run already cancelled", async () => {
  using cli = FakeCodexCli.script([testsTurn], { allowUnused: true });
  const controller = new AbortController();
  const reason = new Error("never mind");
  controller.abort(reason);
  const input = { agent: { name: "fixer", model: "fake-model" }, task: "go", messages: [] };
  const stream = new CodexCliCognition({ spawn: cli }).stream(
    input,
    makeTestCtx({ signal: controller.signal }),
  );
  assertEquals(await assertRejects(() => stream.next()), reason);
  assertEquals(cli.spawns.length, 0);
});

Deno.test("CodexCliCognition kills codex when the stream is abandoned mid-turn", async () => {
  using cli = FakeCodexCli.script(testsTurn);
  const stream = agentOn(new CodexCliCognition({ spawn: cli })).stream("go", makeTestCtx());
  for await (const e of stream) if (e.type === "tool_call") break;
  assertEquals([cli.spawns[0].killed, cli.spawns[0].exitCode], [true, 143]);
});

Deno.test("CodexCliCognition's CliTurnError is a non-retryable ProviderError: pre-stream when codex cannot start, mid-stream after", async () => {
  const cannot = new CodexCliCognition({
    binary: "/opt/codex",
    spawn: () => {
      throw new Error("No such file or directory (os error 2)");
    },
  });
  const spawn = await assertRejects(() => agentOn(cannot).run("go", makeTestCtx()), CliTurnError);
  assertEquals(
    [spawn.name, spawn.failure, spawn.binary, spawn.phase, spawn.retryable, spawn.finishReason],
    ["CliTurnError", "spawn", "/opt/codex", "pre_stream", false, "error"],
  );
  assertInstanceOf(spawn, ProviderError);
  using cli = FakeCodexCli.script(exitPartway(testsTurn, { afterLines: 2, exitCode: 1 }));
  const last = lastError(
    await streamCodex(cli),
  );
  assertEquals(
    [last.error.name, last.error.failure, last.error.phase, last.error.retryable],
    ["CliTurnError", "exited", "mid_stream", false],
  );
  assertEquals([last.error.finishReason, last.error.binary, last.error.subtype], [
    "error",
    "codex",
    undefined,
  ]);
});

Deno.test("CodexCliCognition reports a spawn that throws something other than an Error", async (t) => {
  for (const thrown of ["ENOENT: codex", null]) {
    await t.step(String(thrown), async () => {
      const cognition = new CodexCliCognition({
        spawn: () => {
          throw thrown;
        },
      });
      const err = await assertRejects(
        () => agentOn(cognition).run("go", makeTestCtx()),
        CliTurnError,
      );
      assertEquals([err.failure, err.cause], ["spawn", thrown]);
      assertStringIncludes(err.message, String(thrown));
    });
  }
});

Deno.test("CodexCliCognition reads codex's token counts as whole non-negative numbers", async () => {
  const lines = turnAround([], false).lines;
  using cli = FakeCodexCli.script(
    {
      lines: [
        ...lines,
        '{"type":"turn.completed","usage":{"input_tokens":120.9,"cached_input_tokens":"20","output_tokens":-4}}',
      ],
    },
    {
      lines: [
        ...lines,
        '{"type":"turn.completed","usage":{"input_tokens":1e999,"cached_input_tokens":5,"output_tokens":7}}',
      ],
    },
    {
      lines: [
        ...lines,
        '{"type":"turn.completed","usage":{"input_tokens":3,"cached_input_tokens":9,"output_tokens":0}}',
      ],
    },
    { lines: [...lines, '{"type":"turn.completed"}'] },
  );
  const cognition = new CodexCliCognition({ spawn: cli });
  const usages = [];
  for (let i = 0; i < 4; i++) {
    usages.push((await agentOn(cognition).run("go", makeTestCtx())).usage);
  }
  assertEquals(usages, [
    { inputTokens: 120, outputTokens: 0 },
    { inputTokens: 0, outputTokens: 7 },
    { inputTokens: 0, cachedInputTokens: 3, outputTokens: 0 },
    { inputTokens: 0, outputTokens: 0 },
  ]);
});

// A spawn port around `cli` whose process writes `chunks` to stderr (then
// fails its stderr with `fail`, if given).
function stderrOf(
  cli: FakeCodexCli,
  chunks: readonly Uint8Array[],
  fail?: Error,
): SpawnPort {
  return (argv, options) => {
    const proc = cli.spawn(argv, options);
    return {
      stdout: proc.stdout,
      stderr: ReadableStream.from((async function* () {
        yield* chunks;
        if (fail) throw fail;
      })()),
      exited: proc.exited,
      kill: () => proc.kill(),
    };
  };
}

Deno.test("CodexCliCognition keeps the last 64 KiB of stderr, in order, and says when it dropped some", async (t) => {
  const KIB = 1024;
  const bytes = (n: number, c: string) => new TextEncoder().encode(c.repeat(n));
  const stderrAfter = async (chunks: Uint8Array[], fail?: Error) => {
    using cli = FakeCodexCli.script({ lines: turnAround([], false).lines, exitCode: 1 });
    const cognition = new CodexCliCognition({ spawn: stderrOf(cli, chunks, fail) });
    const last = lastError(await collect(agentOn(cognition).stream("go", makeTestCtx())));
    return last.error.stderr!;
  };
  await t.step("small chunks are joined in order", async () => {
    assertEquals(await stderrAfter([bytes(3, "a"), bytes(2, "b"), bytes(1, "c")]), {
      text: "aaabbc",
      truncated: false,
      exitCode: 1,
    });
  });
  await t.step("exactly 64 KiB, in one chunk or two, is kept whole", async () => {
    const one = await stderrAfter([bytes(64 * KIB, "a")]);
    assertEquals([one.text.length, one.truncated], [64 * KIB, false]);
    const two = await stderrAfter([bytes(32 * KIB, "a"), bytes(32 * KIB, "b")]);
    assertEquals([two.text, two.truncated], ["a".repeat(32 * KIB) + "b".repeat(32 * KIB), false]);
  });
  await t.step("one chunk over 64 KiB keeps its last 64 KiB", async () => {
    const big = await stderrAfter([bytes(65 * KIB, "y")]);
    assertEquals([big.text, big.truncated], ["y".repeat(64 * KIB), true]);
  });
  await t.step("older chunks go first once the tail passes 64 KiB", async () => {
    const tail = await stderrAfter([bytes(40 * KIB, "a"), bytes(30 * KIB, "b"), bytes(KIB, "c")]);
    assertEquals([tail.text, tail.truncated], ["b".repeat(30 * KIB) + "c".repeat(KIB), true]);
  });
  await t.step("a chunk of more than 64 KiB after others keeps its own tail", async () => {
    const tail = await stderrAfter([bytes(KIB, "a"), bytes(70 * KIB, "b")]);
    assertEquals([tail.text, tail.truncated], ["b".repeat(64 * KIB), true]);
  });
  await t.step("a stderr that fails keeps what came before", async () => {
    assertEquals(await stderrAfter([bytes(4, "e")], new Error("EIO")), {
      text: "eeee",
      truncated: false,
      exitCode: 1,
    });
  });
});

Deno.test("CodexCliCognition sets cwd and env on the spawn only when given", async () => {
  using cli = FakeCodexCli.answering("ok");
  const keys: string[][] = [];
  const cognition = new CodexCliCognition({
    spawn: (argv, options) => {
      keys.push(Object.keys(options ?? {}).sort());
      return cli.spawn(argv, options);
    },
  });
  await agentOn(cognition).run("go", makeTestCtx());
  assertEquals(keys, [["clock", "stdin"]]);
  assertEquals("cwd" in cli.spawns[0] || "env" in cli.spawns[0], false);
});

Deno.test("CodexCliCognition on cancellation returns even when the killed process keeps stdout open", async () => {
  const clock = new FakeClock();
  let killed = 0;
  let exit!: (code: { code: number }) => void;
  const cognition = new CodexCliCognition({
    spawn: () => ({
      // A child of codex still holds the pipe: stdout neither ends nor errors.
      stdout: new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }),
      stderr: new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
      exited: new Promise((resolve) => exit = resolve),
      kill: () => {
        killed++;
        exit({ code: 143 });
      },
    }),
  });
  const controller = new AbortController();
  const reason = new Error("stop");
  const stop = clock.sleep(10).then(() => controller.abort(reason));
  const err = await assertRejects(() =>
    agentOn(cognition).run("go", makeTestCtx({ clock, signal: controller.signal }))
  );
  await stop;
  assertEquals([err, killed > 0], [reason, true]);
});

Deno.test("CodexCliCognition bills a turn once, however many lines report its usage", async () => {
  const usage = { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10 };
  using cli = FakeCodexCli.script({
    lines: [
      ...turnAround([{ type: "turn.failed", error: { message: "retrying" }, usage }], false).lines,
      JSON.stringify({ type: "turn.completed", usage: { ...usage, output_tokens: 99 } }),
    ],
  });
  const budget = new Budget();
  await agentOn(new CodexCliCognition({ spawn: cli })).run("go", makeTestCtx({ budget }));
  assertEquals([budget.calls, budget.tokens], [1, 110]);
});

Deno.test("new CodexCliCognition() checks its options, naming itself", async (t) => {
  await t.step("the cognition's name and default binary", () => {
    const codex = new CodexCliCognition({ spawn: FakeCodexCli.answering("x") });
    assertEquals([codex.name, codex.binary], ["codex-cli", "codex"]);
  });
  await t.step("not an options object", () => {
    for (const options of [undefined, null, "codex", 7]) {
      const err = assertThrows(() => new CodexCliCognition(options as never), TypeError);
      assertEquals(
        err.message.startsWith("new CodexCliCognition() takes an options object with spawn"),
        true,
        err.message,
      );
    }
  });
  await t.step("a spawn that is neither a function nor a Spawner", () => {
    for (const [spawn, got] of [[null, "null"], [{}, "got"], [{ spawn: "x" }, "got"]] as const) {
      const err = assertThrows(() => new CodexCliCognition({ spawn } as never), TypeError);
      assertStringIncludes(err.message, "new CodexCliCognition() needs spawn (");
      assertStringIncludes(err.message, got);
    }
    const missing = assertThrows(() => new CodexCliCognition({} as never), TypeError);
    assertEquals(missing.message.startsWith("new CodexCliCognition() needs spawn: pass"), true);
  });
  await t.step("a Spawner object is used through its spawn method", async () => {
    using cli = FakeCodexCli.answering("via the object");
    const host = { spawn: (argv: readonly string[], o?: SpawnOptions) => cli.spawn(argv, o) };
    const result = await agentOn(new CodexCliCognition({ spawn: host })).run("go", makeTestCtx());
    assertEquals(result.output, "via the object");
  });
});

Deno.test("CodexCliCognition observes a line it decoded leniently and a line it skipped, with their text", async () => {
  const lines = turnAround([completed({ id: "a", type: "agent_message", text: "ok" })]).lines;
  using cli = FakeCodexCli.script({
    lines: [lines[0], latin1Line('{"type":"turn.started","note":"é"}'), "{}", ...lines.slice(2)]
      .map((l, i) => i === 2 ? rawLine(new TextEncoder().encode("not json")) : l),
  });
  const observer = new CollectingObserver();
  await agentOn(new CodexCliCognition({ spawn: cli })).run("go", makeTestCtx({ observer }));
  const seen = observer.items.filter((o) =>
    o.kind === "cli.invalid_utf8" || o.kind === "cli.skipped"
  )
    .map((o) => [o.kind, o.text, o.payload, o.agent]);
  assertEquals(seen, [
    [
      "cli.invalid_utf8",
      "codex line 2 was not valid UTF-8; decoded it with U+FFFD in place of the bad bytes",
      { line: 2 },
      "fixer",
    ],
    [
      "cli.skipped",
      "skipped codex line 3: not valid JSON (Unexpected token 'o', \"not json\" is not valid JSON)",
      {
        line: 3,
        reason: "not valid JSON (Unexpected token 'o', \"not json\" is not valid JSON)",
        text: "not json",
      },
      "fixer",
    ],
  ]);
});
