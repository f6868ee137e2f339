import { assertEquals, assertInstanceOf, assertRejects, assertThrows } from "@std/assert";
import type { StreamEvent } from "@agentkit/testing/ports";
import { Agent, ClaudeCliCognition } from "@agentkit/testing/runtime";
import {
  claudeTurn,
  FakeClaudeCli,
  FakeClock,
  InvalidScript,
  makeTestCtx,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

const recordingUrl = new URL("../../../examples/sessions/adds_endpoint.jsonl", import.meta.url);

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

Deno.test("FakeClaudeCli.replay() replays the recorded example session event for event", async () => {
  using cli = FakeClaudeCli.replay(recordingUrl);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const agent = new Agent("coder", { model: "fake-model", cognition: claude });
  const first = await collect(agent.stream("Add a health endpoint", makeTestCtx()));
  assertEquals(first.map((e) => e.type === "tool_call" ? `tool:${e.call.name}` : e.type), [
    "message_start",
    "text_delta",
    "tool:Read",
    "tool:Edit",
    "text_delta",
    "message_end",
  ]);
  assertEquals(first.at(-1), {
    type: "message_end",
    messageId: "claude-turn-1",
    finishReason: "stop",
    usage: { inputTokens: 3228, outputTokens: 203, cachedInputTokens: 41894, costUsd: 0.0273 },
  });
  const second = await agent.run("Add a test", makeTestCtx());
  assertEquals(second.output, "Added tests/health_test.ts; it passes.");
  assertEquals(cli.spawns.length, 1);
});

Deno.test("FakeClaudeCli.replay() takes the recording as a URL, a path or the text itself", async (t) => {
  const text = await Deno.readTextFile(recordingUrl);
  for (
    const [form, recording] of [
      ["URL", recordingUrl],
      ["path", recordingUrl.pathname],
      ["text", text],
    ] as const
  ) {
    await t.step(form, () => {
      assertEquals(FakeClaudeCli.replay(recording, { allowUnused: true }).unusedTurns, 2);
    });
  }
});

Deno.test("FakeClaudeCli.replay() rejects a malformed recording when loaded, naming the line", async (t) => {
  const init = '{"type":"system","subtype":"init","session_id":"s"}';
  await t.step("not JSON", () => {
    assertThrows(
      () => FakeClaudeCli.replay(`${init}\n\n{"type":"assistant",`),
      InvalidScript,
      "line 3 of the recording is not valid JSON",
    );
  });
  await t.step("a mistyped event type", () => {
    assertThrows(
      () => FakeClaudeCli.replay(`${init}\n{"type":"asistant","message":{"content":[]}}`),
      InvalidScript,
      'line 2 of the recording has type "asistant"; did you mean "assistant"?',
    );
  });
  await t.step("a known event missing what the CLI always writes", () => {
    assertThrows(
      () => FakeClaudeCli.replay(`${init}\n{"type":"assistant","message":{}}`),
      InvalidScript,
      "line 2 of the recording (assistant) message.content",
    );
  });
  await t.step("no type", () => {
    assertThrows(
      () => FakeClaudeCli.replay('{"subtype":"init"}'),
      InvalidScript,
      'no string "type"',
    );
  });
  await t.step("a path that does not exist", () => {
    assertThrows(
      () => FakeClaudeCli.replay("sessions/nope.jsonl"),
      InvalidScript,
      'Cannot read the recording "sessions/nope.jsonl"',
    );
  });
  await t.step("an empty recording", () => {
    assertThrows(() => FakeClaudeCli.replay("\n\n"), InvalidScript, "empty");
  });
  await t.step("an unknown type far from every known one is kept", () => {
    const cli = FakeClaudeCli.replay(`${init}\n{"type":"stream_event","event":{}}`, {
      allowUnused: true,
    });
    assertEquals(cli.unusedTurns, 1);
  });
});

Deno.test("FakeClaudeCli.script() validates turns and options when built", async (t) => {
  await t.step("a mistyped run key", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => FakeClaudeCli.script([{ line: [] } as any]),
      InvalidScript,
      'unknown key "line" in turn 1; did you mean "lines"?',
    );
  });
  await t.step("a mistyped option", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => FakeClaudeCli.script(["x"], { repeatlast: true } as any),
      TypeError,
      'did you mean "repeatLast"?',
    );
  });
  await t.step("a string line that is not JSON", () => {
    assertThrows(
      () => FakeClaudeCli.script([{ lines: ['{"type":"system"}', "{oops"] }]),
      InvalidScript,
      "line 2 of turn 1 is not valid JSON",
    );
  });
  await t.step("a line with a newline inside", () => {
    assertThrows(
      () => FakeClaudeCli.script([{ lines: ['{"type":"a"}\n{"type":"b"}'] }]),
      InvalidScript,
      "contains a newline",
    );
  });
  await t.step("exitAfterLines beyond the run", () => {
    assertThrows(
      () => FakeClaudeCli.script([{ lines: [], exitAfterLines: 1 }]),
      InvalidScript,
      "has only 0 line(s)",
    );
  });
  await t.step("no turns, or not an array", () => {
    assertThrows(() => FakeClaudeCli.script([]), InvalidScript, "at least one turn");
    // deno-lint-ignore no-explicit-any
    assertThrows(() => FakeClaudeCli.script("x" as any), InvalidScript, "an array of turns");
  });
});

Deno.test("FakeClaudeCli.script() with repeatLast replays the last turn forever", async () => {
  using cli = FakeClaudeCli.script(["first", "again"], { repeatLast: true });
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const agent = new Agent("a", { model: "fake-model", cognition: claude });
  const outputs = [];
  for (let i = 0; i < 4; i++) outputs.push((await agent.run(`${i}`, makeTestCtx())).output);
  assertEquals(outputs, ["first", "again", "again", "again"]);
});

Deno.test("FakeClaudeCli throws ScriptExhausted one turn past the script, and verify() still reports it if caught", async () => {
  const cli = FakeClaudeCli.script(["one"]);
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const agent = new Agent("a", { model: "fake-model", cognition: claude });
  await agent.run("a", makeTestCtx());
  try {
    await agent.run("b", makeTestCtx());
  } catch {
    // user code that swallows everything
  }
  assertEquals(cli.turnsTaken, 2);
  assertThrows(
    () => cli.verify(),
    ScriptExhausted,
    "FakeClaudeCli.script has 1 turn(s), but the agent asked for turn 2",
  );
});

Deno.test("FakeClaudeCli disposal reports turns that were never asked for", () => {
  assertThrows(
    () => {
      using _cli = FakeClaudeCli.script(["one", "two"]);
    },
    UnusedTurns,
    "used only 0",
  );
  using _ok = FakeClaudeCli.script(["one", "two"], { allowUnused: true });
});

Deno.test("FakeClaudeCli with lineDelayMs paces each line on the run's clock", async () => {
  using cli = FakeClaudeCli.script([claudeTurn({ text: "hi" })], { lineDelayMs: 250 });
  await using claude = new ClaudeCliCognition({ spawn: cli });
  const clock = new FakeClock();
  const agent = new Agent("a", { model: "fake-model", cognition: claude });
  const stamps: number[] = [];
  for await (const _ of agent.stream("go", makeTestCtx({ clock }))) stamps.push(clock.now());
  // init, assistant, result: three lines, 250 ms apart
  assertEquals(clock.sleeps, [250, 250, 250]);
  assertEquals(stamps, [0, 500, 750]);
});

Deno.test("FakeClaudeCli.spawns records argv, stdin lines, kills and exit codes; argv(i) names a missing spawn", async () => {
  const cli = FakeClaudeCli.script(["one"]);
  const proc = cli.spawn(["claude", "-p"], { stdin: "piped", cwd: "/repo" });
  const writer = proc.stdin!.getWriter();
  await writer.write(new TextEncoder().encode('{"type":"user","message":{"content":"hi"}}\n'));
  await writer.close(); // the end of input ends the process once its turn is written
  const lines = (await new Response(proc.stdout).text()).trim().split("\n");
  assertEquals(lines.map((l) => JSON.parse(l).type), ["system", "assistant", "result"]);
  assertEquals((await proc.exited).code, 0);
  assertEquals(cli.spawns, [{
    argv: ["claude", "-p"],
    cwd: "/repo",
    stdin: ['{"type":"user","message":{"content":"hi"}}'],
    killed: false,
    exitCode: 0,
  }]);
  assertEquals(cli.argv(0), ["claude", "-p"]);
  assertThrows(() => cli.argv(1), RangeError, "spawned 1 time(s); there is no spawn 1");
  await proc.stderr.cancel();
});

Deno.test("FakeClaudeCli: a process killed while paced stops writing at once", async () => {
  using cli = FakeClaudeCli.script([claudeTurn({ text: "hi" })], {
    lineDelayMs: 1000,
    allowUnused: true,
  });
  const clock = new FakeClock({ autoAdvance: false });
  const proc = cli.spawn(["claude"], { stdin: "piped", clock });
  const writer = proc.stdin!.getWriter();
  await writer.write(new TextEncoder().encode('{"type":"user","message":{"content":"x"}}\n'));
  const reader = proc.stdout.getReader();
  const pending = reader.read();
  proc.kill();
  assertEquals((await pending).done, true);
  assertEquals([(await proc.exited).code, cli.spawns[0].killed, clock.pending], [143, true, 0]);
  await assertRejects(() => writer.write(new Uint8Array([10])));
});

const encoder = new TextEncoder();
const goLine = encoder.encode('{"type":"user","message":{"role":"user","content":"go"}}\n');

// Writes one user line to a fresh process of `cli` and reads what it writes
// until stdout ends or `lines` lines came; returns them and whether it exited.
async function turnOf(cli: FakeClaudeCli, lines: number) {
  const proc = cli.spawn(["claude"], { stdin: "piped" });
  const writer = proc.stdin!.getWriter();
  await writer.write(goLine);
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (text.split("\n").length <= lines) {
    const r = await reader.read();
    if (r.done) break;
    text += r.value;
  }
  const exit = cli.spawns.at(-1)!.exitCode;
  await reader.cancel();
  await writer.close().catch(() => {});
  await proc.exited;
  return { lines: text.split("\n").filter((l) => l !== ""), exit };
}

Deno.test("FakeClaudeCli ends a scripted turn without a result line the way a dying CLI does", async (t) => {
  const init = '{"type":"system","subtype":"init","session_id":"s"}';
  await t.step("no result, no exit code: exits 0 once its lines are written", async () => {
    using cli = FakeClaudeCli.script([{ lines: [init] }]);
    assertEquals(await turnOf(cli, 1), { lines: [init], exit: 0 });
  });
  await t.step("a line that only mentions result is not a result", async () => {
    const line = '{"type":"system","subtype":"note","result":"pending"}';
    using cli = FakeClaudeCli.script([{ lines: [line] }]);
    assertEquals(await turnOf(cli, 1), { lines: [line], exit: 0 });
  });
  await t.step("no result and an exit code: exits with it", async () => {
    using cli = FakeClaudeCli.script([{ lines: [init], exitCode: 5 }]);
    assertEquals(await turnOf(cli, 1), { lines: [init], exit: 5 });
  });
  await t.step("a result line: the process stays for the next turn", async () => {
    using cli = FakeClaudeCli.script([claudeTurn({ text: "x" })]);
    const { lines, exit } = await turnOf(cli, 3);
    assertEquals([lines.length, exit], [3, undefined]);
  });
});

Deno.test("FakeClaudeCli's factories name themselves in what they throw", async (t) => {
  await t.step("script() given no array", () => {
    // deno-lint-ignore no-explicit-any
    assertThrows(() => FakeClaudeCli.script(null as any), InvalidScript, "got null");
    // deno-lint-ignore no-explicit-any
    assertThrows(() => FakeClaudeCli.script(7 as any), InvalidScript, "got number");
  });
  await t.step("script() and replay() options", () => {
    assertThrows(
      () => FakeClaudeCli.script(["x"], { lineDelayMs: -1 }),
      RangeError,
      "FakeClaudeCli.script()",
    );
    assertThrows(
      () => FakeClaudeCli.replay(recordingUrl, { lineDelayMs: -1 }),
      RangeError,
      "FakeClaudeCli.replay()",
    );
  });
  await t.step("replay() given neither text, path nor URL", () => {
    // deno-lint-ignore no-explicit-any
    assertThrows(() => FakeClaudeCli.replay(42 as any), InvalidScript, "got number");
  });
  await t.step("a replay asked for one turn too many", async () => {
    const cli = FakeClaudeCli.replay('{"type":"result","subtype":"success","result":"x"}');
    await turnOf(cli, 1);
    const proc = cli.spawn(["claude"], { stdin: "piped" });
    await assertRejects(
      () => proc.stdin!.getWriter().write(goLine),
      ScriptExhausted,
      "FakeClaudeCli.replay",
    );
    proc.kill();
  });
  await t.step("a recording that cannot be read keeps the cause", () => {
    const err = assertThrows(() => FakeClaudeCli.replay("sessions/nope.jsonl"), InvalidScript);
    assertInstanceOf(err.cause, Error);
    assertEquals((err.cause as { code?: string }).code, "ENOENT");
  });
});

Deno.test("FakeClaudeCli.replay() reads text with CRLF line ends, blank lines and leading spaces", async () => {
  const result = '{"type":"result","subtype":"success","result":"x"}';
  using cli = FakeClaudeCli.replay(`  ${result}`);
  assertEquals((await turnOf(cli, 1)).lines, [`  ${result}`]);
  const init = '{"type":"system","subtype":"init","session_id":"s"}';
  using crlf = FakeClaudeCli.replay(`${init}\r\n   \r\n${result}\r\n`);
  assertEquals((await turnOf(crlf, 2)).lines, [init, result]);
});

Deno.test("FakeClaudeCli.replay() refuses a line that is JSON but not an object", () => {
  for (const line of ["null", "[1]", "3", '"text"']) {
    assertThrows(
      () => FakeClaudeCli.replay(`${line}\n`),
      InvalidScript,
      "line 1 of the recording is not a JSON object",
    );
  }
});

Deno.test("FakeClaudeCli.replay() checks each known line type for what claude always writes", async (t) => {
  const bad: Array<[string, string, string]> = [
    ["system without subtype", '{"type":"system"}', "(system) subtype"],
    [
      "assistant content block without type",
      '{"type":"assistant","message":{"content":[{"text":"x"}]}}',
      "(assistant) message.content[0].type",
    ],
    ["user without message", '{"type":"user"}', "(user) message"],
    [
      "user content neither text nor blocks",
      '{"type":"user","message":{"content":5}}',
      "(user) message.content",
    ],
    [
      "user content block without type",
      '{"type":"user","message":{"content":[{"tool_use_id":"t"}]}}',
      "(user) message.content",
    ],
    ["result without subtype", '{"type":"result"}', "(result) subtype"],
    [
      "result with a negative cost",
      '{"type":"result","subtype":"success","total_cost_usd":-1}',
      "(result) total_cost_usd",
    ],
    [
      "result with a negative token count",
      '{"type":"result","subtype":"success","usage":{"output_tokens":-3}}',
      "(result) usage.output_tokens",
    ],
  ];
  for (const [name, line, where] of bad) {
    await t.step(name, () => {
      assertThrows(
        () => FakeClaudeCli.replay(`${line}\n`),
        InvalidScript,
        `line 1 of the recording ${where}`,
      );
    });
  }
  await t.step("what claude writes passes", () => {
    const good = [
      '{"type":"system","subtype":"init"}',
      '{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]}}',
      '{"type":"user","message":{"content":"typed"}}',
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t"}]}}',
      '{"type":"result","subtype":"success","total_cost_usd":0,"usage":{"input_tokens":1}}',
    ];
    assertEquals(FakeClaudeCli.replay(good.join("\n"), { allowUnused: true }).unusedTurns, 1);
  });
  await t.step("a type one typo from a known one", () => {
    for (const [typo, known] of [["sytem", "system"], ["usr", "user"], ["reslt", "result"]]) {
      assertThrows(
        () => FakeClaudeCli.replay(`{"type":"${typo}"}\n`),
        InvalidScript,
        `did you mean "${known}"?`,
      );
    }
  });
});
