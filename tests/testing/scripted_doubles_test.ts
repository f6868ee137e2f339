// The scripted doubles behave alike: each counts turnsTaken, each verify()
// throws UnusedTurns naming how many were used while its script has turns
// left, each passes once the script is used up, and `using` verifies.
import { assertEquals, assertThrows } from "@std/assert";
import { Agent, ClaudeCliCognition, NullCtx } from "@agentkit/testing/runtime";
import {
  FakeAsker,
  FakeClaudeCli,
  FakeCodexCli,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptedProvider,
  UnusedTurns,
} from "@agentkit/testing/testing";

interface Scripted extends Disposable {
  readonly turnsTaken: number;
  verify(): void;
}

interface Case {
  readonly name: string;
  /** A double whose script has two turns. */
  make(): Scripted;
  /** Takes one turn. */
  take(d: Scripted): Promise<unknown>;
}

const ctx = new NullCtx();
const spawnCodex = (d: Scripted) => (d as FakeCodexCli).spawn(["codex", "exec", "--json", "x"]);

const CASES: readonly Case[] = [
  {
    name: "FakeLLM",
    make: () => FakeLLM.script(["a", "b"]),
    take: (d) => (d as FakeLLM).chat({ model: "m", messages: [] }),
  },
  {
    name: "FakeAsker",
    make: () => new FakeAsker(["yes", "no"]),
    take: (d) => (d as FakeAsker).ask("ok?", ctx),
  },
  {
    name: "FakeTool",
    make: () => new FakeTool({ name: "t", failWith: "busy", failTimes: 2, responder: "ok" }),
    take: (d) => (d as FakeTool).call({}, ctx).catch(() => undefined),
  },
  {
    name: "ScriptedProvider",
    make: () =>
      new ScriptedProvider({ tools: [{ name: "a" }, { name: "b" }], results: { a: 1, b: 2 } }),
    take: (d) => {
      const p = d as ScriptedProvider;
      return p.executeToolCalls([{ id: "c", name: p.turnsTaken ? "b" : "a", args: {} }], ctx);
    },
  },
  {
    name: "FakeCodexCli",
    make: () => FakeCodexCli.answering("one", "two"),
    take: async (d) => {
      const proc = spawnCodex(d);
      await Promise.all([proc.stdout.cancel(), proc.stderr.cancel(), proc.exited]);
    },
  },
];

Deno.test("every scripted double counts turnsTaken and verifies its finite claim alike", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, async () => {
      const d = c.make();
      assertEquals(d.turnsTaken, 0);
      assertThrows(() => d.verify(), UnusedTurns, "used only 0");
      await c.take(d);
      assertEquals(d.turnsTaken, 1);
      const e = assertThrows(() => d.verify(), UnusedTurns, "used only 1");
      assertEquals(e.unused, 1);
      assertThrows(() => d[Symbol.dispose](), UnusedTurns, "allowUnused");
      await c.take(d);
      assertEquals(d.turnsTaken, 2);
      d.verify();
      d[Symbol.dispose]();
    });
  }
});

Deno.test("FakeClaudeCli counts turnsTaken and verifies like the others", async () => {
  // One claude process plays a turn per user line; the claim is the same.
  const cli = FakeClaudeCli.script(["a", "b"]);
  assertEquals(cli.turnsTaken, 0);
  assertThrows(() => cli.verify(), UnusedTurns, "used only 0");
  {
    await using claude = new ClaudeCliCognition({ spawn: cli });
    const agent = new Agent("a", { model: "fake-model", cognition: claude });
    assertEquals((await agent.run("one", makeTestCtx())).output, "a");
    assertEquals(cli.turnsTaken, 1);
    assertThrows(() => cli.verify(), UnusedTurns, "used only 1");
    assertEquals((await agent.run("two", makeTestCtx())).output, "b");
  }
  assertEquals([cli.turnsTaken, cli.spawns.length], [2, 1]);
  cli[Symbol.dispose]();
});
