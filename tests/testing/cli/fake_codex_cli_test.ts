import { assert, assertEquals, assertThrows } from "@std/assert";
import {
  codexTurn,
  FakeClaudeCli,
  FakeCli,
  FakeCodexCli,
  InvalidScript,
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
