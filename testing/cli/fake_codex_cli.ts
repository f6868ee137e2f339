/**
 * The codex CLI double.
 *
 * @module
 */
import type { CliRun } from "../../ports/cli.ts";
import { parseCliOptions, parseCliRun } from "./_cli_script.ts";
import { FakeCli } from "./fake_cli.ts";
import type { FakeCliOptions } from "./fake_cli_options.ts";
import { codexTurn } from "./codex_turn.ts";
import { InvalidScript } from "../errors.ts";

/**
 * A double of the `codex` binary at the spawn seam, so a test runs
 * `CodexCliCognition`'s real parsing, charging and event mapping. `codex
 * exec` is one-shot, so a spawn is a turn: each spawn plays the next scripted
 * turn and exits; one spawn more than scripted throws `ScriptExhausted`
 * (unless `repeatLast`). `.spawns` records every spawn and `.argv(i)` gives
 * spawn i's argv, so a test can assert that turn 2 resumed turn 1's thread.
 *
 * @example
 * ```ts
 * import { Agent, CodexCliSession } from "@agentkit/testing/runtime";
 * import { codexTurn, FakeCodexCli, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * using cli = FakeCodexCli.script(
 *   codexTurn({ text: "read it", threadId: "t-42" }),
 *   codexTurn({ text: "fixed it", threadId: "t-42" }),
 * );
 * const agent = new Agent("a", { model: "fake-model", cognition: new CodexCliSession({ spawn: cli }) });
 * await agent.run("read the failing test", makeTestCtx());
 * assertEquals((await agent.run("now fix it", makeTestCtx())).output, "fixed it");
 * assertEquals(cli.argv(1).slice(1, 4), ["exec", "resume", "t-42"]);
 * ```
 */
export class FakeCodexCli extends FakeCli {
  /**
   * Creates the double from validated turns; use `script()` or `answering()`.
   *
   * @param turns The turns, already checked.
   * @param options Pacing and finiteness.
   */
  private constructor(turns: readonly CliRun[], options: FakeCliOptions, double: string) {
    super(double, turns, options, "oneshot");
  }

  /**
   * A double that plays one turn per spawn, in order: pass the turns as
   * arguments (`script(t1, t2)`), or as an array followed by options
   * (`script([t1, t2], { repeatLast: true })`). A string is shorthand for
   * `codexTurn({ text })`. Validated now.
   *
   * @param args The turns, or an array of turns and the options.
   * @returns The double.
   * @throws {InvalidScript} When a turn or option is malformed.
   *
   * @example
   * ```ts
   * import { codexTurn, FakeCodexCli } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const cli = FakeCodexCli.script([codexTurn({ text: "again" })], { repeatLast: true });
   * cli.spawn(["codex", "exec", "--json", "1"]);
   * cli.spawn(["codex", "exec", "--json", "2"]);
   * assertEquals(cli.spawns.length, 2);
   * ```
   */
  static script(
    ...args: ReadonlyArray<CliRun | string> | [ReadonlyArray<CliRun | string>, FakeCliOptions?]
  ): FakeCodexCli {
    let turns: ReadonlyArray<unknown>;
    let options: unknown = {};
    if (Array.isArray(args[0])) {
      if (args.length > 2) {
        throw new InvalidScript(
          "FakeCodexCli.script takes turns as arguments, or one array of turns and options, not both",
        );
      }
      turns = args[0];
      options = args[1] ?? {};
    } else turns = args;
    const o = parseCliOptions(options, "FakeCodexCli.script");
    const parsed = turns.map((t, i) =>
      typeof t === "string" ? codexTurn({ text: t }) : parseCliRun(t, `turn ${i + 1}`)
    );
    return new FakeCodexCli(parsed, o, "FakeCodexCli.script");
  }

  /**
   * Shorthand for a script of plain answers: `answering("one", "two")` is
   * `script(codexTurn({ text: "one" }), codexTurn({ text: "two" }))`.
   *
   * @param texts The agent's message of each turn.
   * @returns The double.
   *
   * @example
   * ```ts
   * import { Agent, CodexCliCognition } from "@agentkit/testing/runtime";
   * import { FakeCodexCli, makeTestCtx } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const cli = FakeCodexCli.answering("yes");
   * const agent = new Agent("a", { model: "fake-model", cognition: new CodexCliCognition({ spawn: cli }) });
   * assertEquals((await agent.run("ok?", makeTestCtx())).output, "yes");
   * ```
   */
  static answering(...texts: string[]): FakeCodexCli {
    for (const t of texts) {
      if (typeof t !== "string") {
        throw new InvalidScript(
          `FakeCodexCli.answering takes strings, got ${typeof t}; use FakeCodexCli.script(codexTurn(...)) for more`,
        );
      }
    }
    return new FakeCodexCli(
      texts.map((text) => codexTurn({ text })),
      {},
      "FakeCodexCli.answering",
    );
  }
}
