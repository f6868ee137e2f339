import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import {
  codexTurn,
  FakeClaudeCli,
  FakeCli,
  FakeCodexCli,
  InvalidScript,
  rawLine,
  ScriptExhausted,
  UnusedTurns,
} from "@agentkit/testing/testing";

const read = async (cli: FakeCodexCli, prompt: string) => {
  const proc = cli.spawn(["codex", "exec", "--json", prompt]);
  const [out, , exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { events: out.trim().split("\n").map((l) => JSON.parse(l)), code: exit.code };
};

Deno.test("FakeCodexCli.script() plays one turn per spawn and exits, in both call forms", async (t) => {
  await t.step("turns as arguments", async () => {
    using cli = FakeCodexCli.script(codexTurn({ text: "a" }), "b");
    assertEquals((await read(cli, "1")).events.at(-2).item.text, "a");
    assertEquals((await read(cli, "2")).events.at(-2).item.text, "b");
  });
  await t.step("an array and options", async () => {
    using cli = FakeCodexCli.script(["only"], { repeatLast: true });
    for (let i = 0; i < 3; i++) assertEquals((await read(cli, `${i}`)).code, 0);
    assertEquals(cli.spawns.length, 3);
  });
  await t.step("both at once is an error", () => {
    assertThrows(
      // deno-lint-ignore no-explicit-any
      () => (FakeCodexCli.script as any)(["a"], {}, "b"),
      InvalidScript,
      "not both",
    );
  });
});

Deno.test("FakeCodexCli.answering() builds turns in codex's real event order", async () => {
  using cli = FakeCodexCli.answering("one", "two");
  const { events } = await read(cli, "x");
  assertEquals(events.map((e) => e.type), [
    "thread.started",
    "turn.started",
    "item.completed",
    "turn.completed",
  ]);
  assertEquals(events[2].item, { id: "item_0", type: "agent_message", text: "one" });
  await read(cli, "y");
});

Deno.test("FakeCodexCli.spawn() throws ScriptExhausted at the spawn one past the script", async () => {
  const cli = FakeCodexCli.answering("one");
  await read(cli, "a");
  assertThrows(() => cli.spawn(["codex", "exec", "--json", "b"]), ScriptExhausted, "turn 2");
  assertEquals(cli.spawns.length, 1);
  assertThrows(() => cli.verify(), ScriptExhausted);
});

Deno.test("FakeCodexCli.argv(i) returns spawn i's argv, and names a spawn that never happened", async () => {
  using cli = FakeCodexCli.answering("one");
  const { spawn } = cli; // bound
  const proc = spawn(["codex", "exec", "--json", "hi"], { env: { CODEX_HOME: "/tmp/c" } });
  await Promise.all([proc.stdout.cancel(), proc.stderr.cancel(), proc.exited]);
  assertEquals(cli.argv(0), ["codex", "exec", "--json", "hi"]);
  assertEquals(cli.spawns[0].env, { CODEX_HOME: "/tmp/c" });
  assertThrows(() => cli.argv(3), RangeError, "there is no spawn 3");
});

Deno.test("FakeCodexCli.answering() takes only strings", () => {
  // deno-lint-ignore no-explicit-any
  assertThrows(() => FakeCodexCli.answering({ text: "x" } as any), InvalidScript, "takes strings");
});

Deno.test("FakeCodexCli.turnsTaken counts spawns, the exhausted one included", async () => {
  const cli = FakeCodexCli.answering("one", "two");
  assertEquals([cli.turnsTaken, cli.unusedTurns], [0, 2]);
  await read(cli, "a");
  assertEquals([cli.turnsTaken, cli.unusedTurns], [1, 1]);
  await read(cli, "b");
  assertThrows(() => cli.spawn(["codex", "exec", "--json", "c"]), ScriptExhausted);
  assertEquals([cli.turnsTaken, cli.unusedTurns, cli.spawns.length], [3, 0, 2]);
});

Deno.test("FakeCodexCli verify() and disposal report turns never asked for, unless opted out", async (t) => {
  await t.step("verify() names how many were used", async () => {
    const cli = FakeCodexCli.answering("one", "two", "three");
    await read(cli, "a");
    const error = assertThrows(
      () => cli.verify(),
      UnusedTurns,
      "has 3 turn(s), but the run used only 1",
    );
    assertEquals(error.unused, 2);
  });
  await t.step("using throws at scope exit", () => {
    assertThrows(
      () => {
        using _cli = FakeCodexCli.answering("one");
      },
      UnusedTurns,
      "allowUnused",
    );
  });
  await t.step("allowUnused and repeatLast opt out; a fully used script passes", async () => {
    FakeCodexCli.script(["a", "b"], { allowUnused: true }).verify();
    FakeCodexCli.script(["a"], { repeatLast: true }).verify();
    using cli = FakeCodexCli.answering("a");
    await read(cli, "x");
  });
  await t.step("a swallowed ScriptExhausted wins over unused turns", () => {
    const cli = FakeCodexCli.answering("a");
    try {
      cli.spawn(["codex", "exec", "--json", "1"]);
      cli.spawn(["codex", "exec", "--json", "2"]);
    } catch {
      // user code that swallows the harness error
    }
    assertEquals(cli.harnessErrors.length, 1);
    assertThrows(() => cli.verify(), ScriptExhausted, "has 1 turn(s)");
  });
});

Deno.test("FakeCli is the one face of both CLI doubles", () => {
  const claude = FakeClaudeCli.script(["a"]);
  const codex = FakeCodexCli.answering("a");
  assert(claude instanceof FakeCli && codex instanceof FakeCli);
  for (const cli of [claude, codex] as FakeCli[]) {
    assertEquals([cli.turnsTaken, cli.unusedTurns, cli.spawns.length], [0, 1, 0]);
    assertThrows(() => cli.verify(), UnusedTurns);
    assertThrows(() => cli.spawn([]), TypeError, "argv must be a non-empty array");
  }
  assertThrows(() => FakeClaudeCli.script([]), InvalidScript, "needs at least one turn");
  assertThrows(() => FakeCodexCli.answering(), InvalidScript, "needs at least one turn");
});

Deno.test("FakeCodexCli.script() checks each run: its shape, and that every line is one JSON object with a type", async (t) => {
  await t.step("a run that is not an object names what it got", () => {
    for (const [run, got] of [[null, "null"], [[], "an array"], [7, "number"]] as const) {
      const err = assertThrows(() => FakeCodexCli.script([run as never]), InvalidScript);
      assertStringIncludes(err.message, `turn 1 must be a CliRun`);
      assertStringIncludes(err.message, `got ${got}`);
    }
  });
  await t.step("a line that is JSON but not an object with a string type", () => {
    for (const line of ["null", "[1]", "3", '"text"', '{"type":1}', "{}"]) {
      const err = assertThrows(
        () => FakeCodexCli.script({ lines: ['{"type":"a"}', line] }),
        InvalidScript,
      );
      assertStringIncludes(
        err.message,
        'line 2 of turn 1 is not a JSON object with a string "type"',
      );
    }
  });
  await t.step("the line named is the one at fault", () => {
    assertThrows(
      () => FakeCodexCli.script({ lines: ['{"type":"a"}', '{"type":"b"}', '{"a":1}\n{"b":2}'] }),
      InvalidScript,
      "line 3 of turn 1 contains a newline",
    );
    assertThrows(
      () => FakeCodexCli.script("ok", { lines: ['{"type":"a"}', "{nope"] }),
      InvalidScript,
      "line 2 of turn 2 is not valid JSON",
    );
  });
  await t.step("raw byte lines pass as they are", async () => {
    using cli = FakeCodexCli.script({ lines: [rawLine([0xff, 0x0a, 0x7b])] });
    const proc = cli.spawn(["codex"]);
    assertEquals(
      new Uint8Array(await new Response(proc.stdout).arrayBuffer()),
      new Uint8Array([0xff, 0x0a, 0x7b, 0x0a]),
    );
    await proc.exited;
  });
  await t.step("only the last line of an unterminated run may be cut", () => {
    FakeCodexCli.script({ lines: ['{"type":"a"}', '{"typ'], unterminated: true }).spawn(["c"])
      .kill();
    assertThrows(
      () => FakeCodexCli.script({ lines: ['{"typ', '{"type":"a"}'], unterminated: true }),
      InvalidScript,
      "line 1 of turn 1 is not valid JSON",
    );
  });
  await t.step("exitAfterLines may be at most the number of lines", () => {
    const lines = ['{"type":"a"}', '{"type":"b"}'];
    const cli = FakeCodexCli.script(
      { lines, exitAfterLines: 2 },
      { lines, exitAfterLines: 1 },
      { lines, exitAfterLines: 0 },
    );
    assertEquals(cli.unusedTurns, 3);
  });
});

Deno.test("FakeCodexCli.script() checks its options, naming itself, and takes undefined for an option left out", () => {
  const err = assertThrows(
    () => FakeCodexCli.script(["a"], { lineDelayMs: -1 }),
    RangeError,
  );
  assertStringIncludes(err.message, "FakeCodexCli.script()");
  using cli = FakeCodexCli.script(["a"], {
    lineDelayMs: undefined,
    repeatLast: undefined,
    allowUnused: undefined,
  });
  cli.spawn(["codex"]).kill();
});

Deno.test("FakeCodexCli names the factory that built it in what it throws", () => {
  assertThrows(() => FakeCodexCli.script(["a", "b"]).verify(), UnusedTurns, "FakeCodexCli.script ");
  const cli = FakeCodexCli.answering("a");
  cli.spawn(["codex"]).kill();
  assertThrows(() => cli.spawn(["codex"]), ScriptExhausted, "FakeCodexCli.answering ");
});
