import { assertEquals, assertThrows } from "@std/assert";
import {
  claudeTurn,
  codexTurn,
  exitPartway,
  insertLines,
  InvalidScript,
  latin1Line,
  rawLine,
  truncateLastLine,
  unknownEventLine,
  withoutFinalLine,
} from "@agentkit/testing/testing";

const parse = (lines: readonly (string | Uint8Array)[]) =>
  lines.map((l) => JSON.parse(l as string));

Deno.test("claudeTurn() emits claude's line order, with the usage on the first assistant message and the result", () => {
  const turn = claudeTurn({
    text: "Done.",
    toolUses: [{ name: "Read", input: { file_path: "a.ts" }, result: "x", isError: true }],
    usage: { inputTokens: 100, outputTokens: 7, cachedInputTokens: 900 },
    costUsd: 0.5,
    sessionId: "s-9",
  });
  const [init, use, result, text, end] = parse(turn.lines);
  assertEquals([init.type, init.subtype, init.session_id], ["system", "init", "s-9"]);
  assertEquals(use.message.content, [
    { type: "tool_use", id: "toolu_01", name: "Read", input: { file_path: "a.ts" } },
  ]);
  assertEquals(use.message.usage, {
    input_tokens: 100,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 900,
    output_tokens: 7,
  });
  assertEquals(result.message.content, [
    { type: "tool_result", tool_use_id: "toolu_01", content: "x", is_error: true },
  ]);
  assertEquals(text.message.usage.output_tokens, 0);
  assertEquals(
    [end.type, end.subtype, end.is_error, end.result, end.total_cost_usd, end.usage.input_tokens],
    ["result", "success", false, "Done.", 0.5, 100],
  );
});

Deno.test("claudeTurn() and codexTurn() validate their options with a did-you-mean", async (t) => {
  await t.step("claudeTurn", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => claudeTurn({ text: "x", toolUse: [] } as any),
      InvalidScript,
      'unknown key "toolUse" in claudeTurn options; did you mean "toolUses"?',
    );
  });
  await t.step("codexTurn", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => codexTurn({ text: "x", usgae: [1, 0, 1] } as any),
      InvalidScript,
      'did you mean "usage"?',
    );
  });
  await t.step("codexTurn usage in the wrong convention", () => {
    assertThrows(
      () => codexTurn({ text: "x", usage: [200, 1000, 40] }),
      InvalidScript,
      "codex counts input inclusive of the cached part",
    );
  });
});

Deno.test("codexTurn() keeps the CLI's inclusive input count: the builder does not subtract", () => {
  const turn = codexTurn({ text: "done", usage: [1200, 1000, 40], commands: [{ command: "ls" }] });
  const events = parse(turn.lines);
  assertEquals(events.map((e) => e.type), [
    "thread.started",
    "turn.started",
    "item.started",
    "item.completed",
    "item.completed",
    "turn.completed",
  ]);
  assertEquals(events.at(-1).usage, {
    input_tokens: 1200,
    cached_input_tokens: 1000,
    output_tokens: 40,
  });
});

Deno.test("the malformed-output builders refuse what they cannot build", async (t) => {
  const run = codexTurn({ text: "x" });
  await t.step("truncateLastLine keep out of range", () => {
    assertThrows(() => truncateLastLine(run, 999), InvalidScript, "keep must be an integer");
    assertThrows(() => truncateLastLine({ lines: [] }), InvalidScript, "no lines");
  });
  await t.step("exitPartway afterLines out of range", () => {
    assertThrows(() => exitPartway(run, { afterLines: 9 }), InvalidScript, "from 0 to 4");
  });
  await t.step("insertLines index out of range", () => {
    assertThrows(() => insertLines(run, -1, unknownEventLine()), InvalidScript, "from 0 to 4");
  });
  await t.step("latin1Line beyond U+00FF", () => {
    assertThrows(() => latin1Line("€"), InvalidScript, "Latin-1 stops at U+00FF");
  });
  await t.step("withoutFinalLine of nothing", () => {
    assertThrows(() => withoutFinalLine({ lines: [] }), InvalidScript, "no lines");
  });
  await t.step("rawLine copies its input", () => {
    const bytes = new Uint8Array([1, 2]);
    const line = rawLine(bytes);
    bytes[0] = 9;
    assertEquals(line, new Uint8Array([1, 2]));
  });
});

Deno.test("codexTurn() writes codex's own lines: defaults, and each command started then completed", () => {
  assertEquals(parse(codexTurn({ text: "hi" }).lines), [
    { type: "thread.started", thread_id: "fake-thread" },
    { type: "turn.started" },
    { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "hi" } },
    {
      type: "turn.completed",
      usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 0 },
    },
  ]);
  const turn = codexTurn({
    text: "done",
    threadId: "t-7",
    usage: [5, 5, 1],
    commands: [{ command: "ls" }, { command: "make", output: "boom", exitCode: 2 }],
  });
  const started = (id: string, command: string) => ({
    id,
    type: "command_execution",
    command,
    aggregated_output: "",
    exit_code: null,
    status: "in_progress",
  });
  assertEquals(parse(turn.lines), [
    { type: "thread.started", thread_id: "t-7" },
    { type: "turn.started" },
    { type: "item.started", item: started("item_0", "ls") },
    {
      type: "item.completed",
      item: { ...started("item_0", "ls"), exit_code: 0, status: "completed" },
    },
    { type: "item.started", item: started("item_1", "make") },
    {
      type: "item.completed",
      item: {
        ...started("item_1", "make"),
        aggregated_output: "boom",
        exit_code: 2,
        status: "failed",
      },
    },
    { type: "item.completed", item: { id: "item_2", type: "agent_message", text: "done" } },
    {
      type: "turn.completed",
      usage: { input_tokens: 5, cached_input_tokens: 5, output_tokens: 1 },
    },
  ]);
});

Deno.test("codexTurn() keeps a command's exit code 0 and output as given", () => {
  const [, , , done] = parse(
    codexTurn({ text: "x", commands: [{ command: "true", output: "fine", exitCode: 0 }] }).lines,
  );
  assertEquals(
    [done.item.aggregated_output, done.item.exit_code, done.item.status],
    ["fine", 0, "completed"],
  );
});

Deno.test("claudeTurn() writes claude's own lines with its defaults", () => {
  const none = {
    input_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 0,
  };
  const wire = { ...none, input_tokens: 10 };
  assertEquals(
    parse(claudeTurn({ text: "hi", toolUses: [{ name: "Bash" }, { name: "Bash" }] }).lines),
    [
      {
        type: "system",
        subtype: "init",
        session_id: "fake-session",
        model: "claude-fake",
        tools: ["Bash"],
        cwd: "/fake",
      },
      {
        type: "assistant",
        message: {
          id: "msg_01",
          type: "message",
          role: "assistant",
          model: "claude-fake",
          content: [{ type: "tool_use", id: "toolu_01", name: "Bash", input: {} }],
          usage: wire,
        },
        session_id: "fake-session",
      },
      {
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "ok" }],
        },
        session_id: "fake-session",
      },
      {
        type: "assistant",
        message: {
          id: "msg_02",
          type: "message",
          role: "assistant",
          model: "claude-fake",
          content: [{ type: "tool_use", id: "toolu_02", name: "Bash", input: {} }],
          usage: none,
        },
        session_id: "fake-session",
      },
      {
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_02", content: "ok" }],
        },
        session_id: "fake-session",
      },
      {
        type: "assistant",
        message: {
          id: "msg_03",
          type: "message",
          role: "assistant",
          model: "claude-fake",
          content: [{ type: "text", text: "hi" }],
          usage: none,
        },
        session_id: "fake-session",
      },
      {
        type: "result",
        subtype: "success",
        is_error: false,
        result: "hi",
        session_id: "fake-session",
        num_turns: 3,
        duration_ms: 0,
        total_cost_usd: 0.0001,
        usage: wire,
      },
    ],
  );
});

Deno.test("claudeTurn() names the model, ids and tools it is given, and marks a failed subtype", () => {
  const lines = parse(
    claudeTurn({
      text: "stopped",
      model: "claude-x",
      subtype: "error_max_turns",
      toolUses: [{ name: "Read", id: "tu_a" }, { name: "Edit", id: "tu_b" }],
    }).lines,
  );
  assertEquals([lines[0].model, lines[0].tools], ["claude-x", ["Read", "Edit"]]);
  assertEquals(lines.filter((l) => l.type === "assistant").map((l) => l.message.model), [
    "claude-x",
    "claude-x",
    "claude-x",
  ]);
  assertEquals(
    lines.filter((l) => l.type === "user").map((l) => l.message.content[0].tool_use_id),
    ["tu_a", "tu_b"],
  );
  const end = lines.at(-1);
  assertEquals([end.subtype, end.is_error], ["error_max_turns", true]);
  const many = parse(claudeTurn({ text: "x", toolUses: Array(10).fill({ name: "Ls" }) }).lines);
  assertEquals(many.at(-2).message.id, "msg_11");
  assertEquals(many.at(-3).message.content[0].tool_use_id, "toolu_10");
});

Deno.test("the malformed-output builders edit a run as they say", async (t) => {
  const run = { lines: ['{"type":"a"}', '{"type":"b"}', '{"type":"c"}'] };
  await t.step("insertLines at the start, the middle and the end", () => {
    assertEquals(insertLines(run, 0, "x").lines, ["x", ...run.lines]);
    assertEquals(insertLines(run, 2, "x", "y").lines, [
      run.lines[0],
      run.lines[1],
      "x",
      "y",
      run.lines[2],
    ]);
    assertEquals(insertLines(run, 3, "x").lines, [...run.lines, "x"]);
    assertThrows(() => insertLines(run, 4, "x"), InvalidScript, "from 0 to 3, got 4");
    assertThrows(() => insertLines(run, 1.5, "x"), InvalidScript, "got 1.5");
  });
  await t.step("unknownEventLine's default type", () => {
    assertEquals(JSON.parse(unknownEventLine()), { type: "mystery_event" });
  });
  await t.step("truncateLastLine keeps the first `keep` characters, half by default", () => {
    assertEquals(truncateLastLine(run, 0).lines.at(-1), "");
    assertEquals(truncateLastLine(run, 11).lines.at(-1), '{"type":"c"');
    assertEquals(truncateLastLine(run).lines, [run.lines[0], run.lines[1], '{"type']);
    assertEquals(truncateLastLine(run).unterminated, true);
    for (const keep of [-1, 12, 2.5]) {
      assertThrows(
        () => truncateLastLine(run, keep),
        InvalidScript,
        `keep must be an integer from 0 to 11, got ${keep}`,
      );
    }
  });
  await t.step("withoutFinalLine keeps the run's exit code, 0 when it had none", () => {
    assertEquals(withoutFinalLine(run), { lines: run.lines.slice(0, 2), exitCode: 0 });
    assertEquals(withoutFinalLine({ ...run, exitCode: 4 }).exitCode, 4);
  });
  await t.step("exitPartway from 0 to every line, exit code 1 by default", () => {
    assertEquals(exitPartway(run, { afterLines: 0 }), { ...run, exitAfterLines: 0, exitCode: 1 });
    assertEquals(exitPartway(run, { afterLines: 3, exitCode: 0, stderr: "" }), {
      ...run,
      exitAfterLines: 3,
      exitCode: 0,
      stderr: "",
    });
    for (const afterLines of [-1, 4, 0.5]) {
      assertThrows(
        () => exitPartway(run, { afterLines }),
        InvalidScript,
        `afterLines must be an integer from 0 to 3, got ${afterLines}`,
      );
    }
    // deno-lint-ignore no-explicit-any
    assertThrows(() => exitPartway(run, undefined as any), InvalidScript, "got undefined");
  });
  await t.step("latin1Line encodes up to U+00FF, every character", () => {
    assertEquals(latin1Line("aÿ"), new Uint8Array([0x61, 0xff]));
    assertThrows(() => latin1Line("aĀ"), InvalidScript, "at index 1");
  });
  await t.step("rawLine takes bytes or an array of them, nothing else", () => {
    assertEquals(rawLine([1, 2]), new Uint8Array([1, 2]));
    // deno-lint-ignore no-explicit-any
    assertThrows(() => rawLine("abc" as any), InvalidScript, "got string");
  });
});

Deno.test("claudeTurn() takes every subtype claude writes", () => {
  for (const subtype of ["success", "error_max_turns", "error_during_execution"] as const) {
    assertEquals(
      JSON.parse(claudeTurn({ text: "x", subtype }).lines.at(-1) as string).subtype,
      subtype,
    );
  }
});
