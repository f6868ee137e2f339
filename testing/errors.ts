/**
 * Harness errors raised by the doubles: each says the test itself is wrong,
 * and each escapes every catch site in the runtime.
 *
 * @module
 */
import { HarnessError } from "../runtime/harness_error.ts";

/**
 * A scripted double was asked for more than it was scripted with.
 *
 * The turn it names is the agent's: a request that sends the same
 * conversation as the one before it is a client's retry of that turn (the
 * SDKs retry a failed request as it was), not a new turn, and the message
 * counts those retries apart. Behind a `FakeProvider` the client sees a 400,
 * which no SDK retries, so the test fails at once rather than after a
 * backoff; `verify()` and the dispose rethrow this error.
 *
 * @example
 * ```ts
 * import { ScriptExhausted } from "@agentkit/testing/testing";
 * import { HarnessError } from "@agentkit/testing/runtime";
 * import { assert, assertEquals } from "@std/assert";
 *
 * const e = new ScriptExhausted("FakeLLM.script", 2, 3);
 * assert(e instanceof HarnessError);
 * assert(e.message.includes("has 2 turn(s), but the agent asked for turn 3"));
 *
 * const retried = new ScriptExhausted("FakeLLM.script", 1, 2, "turn", 6);
 * assertEquals([retried.requested, retried.retries, retried.calls], [2, 6, 8]);
 * assert(retried.message.includes("asked for turn 2 (call 8"));
 * ```
 */
export class ScriptExhausted extends HarnessError {
  /** How many turns were scripted. */
  readonly scripted: number;
  /** The agent's turn asked for (1-based), a client's retries not counted. */
  readonly requested: number;
  /** How many of the calls were a client's retries of a turn (the same conversation again). */
  readonly retries: number;
  /** The call to the double that found the script exhausted (1-based): `requested + retries`. */
  readonly calls: number;

  /**
   * The message says how many turns there are and how to script more.
   *
   * @param double Which double (`"FakeLLM.script"`).
   * @param scripted How many turns it has.
   * @param requested The agent's 1-based turn asked for.
   * @param unit What a turn is called for this double.
   * @param retries How many calls were a client's retries of a turn.
   */
  constructor(double: string, scripted: number, requested: number, unit = "turn", retries = 0) {
    const calls = requested + retries;
    const counted = retries > 0
      ? ` (call ${calls} to the double: the client also retried ${retries} time(s), sending the same conversation again; a retry is not a new ${unit}, but one the script answered took a scripted ${unit})`
      : "";
    super(
      `${double} has ${scripted} ${unit}(s), but the agent asked for ${unit} ${requested}${counted}; script another ${unit} if the run really takes ${requested}, or pass { repeatLast: true } if the loop is meant to be unbounded`,
    );
    this.scripted = scripted;
    this.requested = requested;
    this.retries = retries;
    this.calls = calls;
  }
}

/**
 * A strict `FakeLLM` got a prompt none of its keys match.
 *
 * @example
 * ```ts
 * import { UnmatchedPrompt } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new UnmatchedPrompt("hello", ["weather"]).prompt, "hello");
 * ```
 */
export class UnmatchedPrompt extends HarnessError {
  /** The user text. */
  readonly prompt: string;
  /**
   * The message lists the keys so the missing one is easy to add.
   *
   * @param prompt The user text.
   * @param keys The keys on offer.
   */
  constructor(prompt: string, keys: readonly string[]) {
    super(
      `No key of the strict FakeLLM matches the prompt ${JSON.stringify(prompt)}; the keys are ${
        keys.map((k) => JSON.stringify(k)).join(", ") || "none"
      }; add a key that is a substring of the prompt`,
    );
    this.prompt = prompt;
  }
}

/**
 * A finite script was not used up by the end of the test.
 *
 * @example
 * ```ts
 * import { UnusedTurns } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new UnusedTurns("FakeLLM.script", 3, 1).unused, 2);
 * ```
 */
export class UnusedTurns extends HarnessError {
  /** How many scripted turns were never asked for. */
  readonly unused: number;
  /**
   * The message says how many turns went unused, and which.
   *
   * @param double Which double.
   * @param scripted How many turns it has.
   * @param used How many were asked for.
   * @param unit What a turn is called for this double.
   * @param names Which ones were never used, when they have names.
   */
  constructor(
    double: string,
    scripted: number,
    used: number,
    unit = "turn",
    names?: readonly string[],
  ) {
    const which = names?.length ? ` (never used: ${names.join(", ")})` : "";
    super(
      `${double} has ${scripted} ${unit}(s), but the run used only ${used}${which}; the run ended earlier than the test claims, so fix the run or the script, or pass { allowUnused: true }`,
    );
    this.unused = scripted - used;
  }
}

/**
 * A script, step, turn or recording is malformed (an unknown key, a wrong
 * type, a contradiction). Raised when the script is built, not when used.
 *
 * @example
 * ```ts
 * import { FakeLLM, InvalidScript } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * // deno-lint-ignore no-explicit-any
 * const turns: any[] = [{ tool_calls: [] }];
 * assertThrows(() => FakeLLM.script(turns), InvalidScript, 'did you mean "toolCalls"?');
 * ```
 */
export class InvalidScript extends HarnessError {}

/**
 * A scripted turn called a tool the request did not offer: the agent was
 * never given that tool, so the script and the agent disagree. `FakeLLM`
 * records one in `unknownToolCalls` and emits it as an `unknown_tool_call`
 * observation on the run; with `{ strictTools: true }` it throws it instead,
 * before the turn is played.
 *
 * @example
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx, UnknownToolCall } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const turns = [{ toolCalls: [toolCall("c1", "lookup_cert", { host: "a" })] }, "done"];
 * const agent = new Agent("a", { model: "fake-model" }); // no tools, single-shot
 *
 * const strict = FakeLLM.script(turns, { strictTools: true, allowUnused: true });
 * await assertRejects(() => agent.run("go", makeTestCtx({ llm: strict })), UnknownToolCall, 'tool "lookup_cert"');
 *
 * const lenient = FakeLLM.script(turns, { allowUnused: true });
 * await agent.run("go", makeTestCtx({ llm: lenient })).catch(() => {});
 * assertEquals(lenient.unknownToolCalls.map((u) => [u.toolName, u.offered]), [["lookup_cert", []]]);
 * ```
 */
export class UnknownToolCall extends HarnessError {
  /** The 1-based call of the double that played the turn. */
  readonly turn: number;
  /** The call's id. */
  readonly callId: string;
  /** The tool it named. */
  readonly toolName: string;
  /** Its arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The tools the request offered. */
  readonly offered: readonly string[];

  /**
   * The message names the call and the tools that were offered.
   *
   * @param turn The 1-based call.
   * @param call The tool call.
   * @param offered The names of the tools offered.
   */
  constructor(
    turn: number,
    call: {
      readonly id: string;
      readonly name: string;
      readonly args: Readonly<Record<string, unknown>>;
    },
    offered: readonly string[],
  ) {
    super(
      `turn ${turn} calls tool "${call.name}" (call ${call.id}), but the request offered ${
        offered.length ? offered.map((n) => `"${n}"`).join(", ") : "no tools"
      }; give the agent the tool (new ReActCognition({ tools: [...] })) or fix the script`,
    );
    this.turn = turn;
    this.callId = call.id;
    this.toolName = call.name;
    this.args = call.args;
    this.offered = offered;
  }
}

/**
 * A `FakeClock.install()` was never disposed: found by the next `install()`
 * or `makeTestCtx()` (typically in a later test), which undoes it (the real
 * `Date`, `setTimeout` and `performance.now` are back) and throws this, with
 * the stack of the forgotten install.
 *
 * @example
 * ```ts
 * import { ClockLeftInstalled, FakeClock, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertStringIncludes, assertThrows } from "@std/assert";
 *
 * new FakeClock().install(); // never disposed
 * const e = assertThrows(() => makeTestCtx(), ClockLeftInstalled);
 * assertStringIncludes(e.message, "was never disposed");
 * ```
 */
export class ClockLeftInstalled extends HarnessError {
  /** The stack of the `install()` that was never disposed. */
  readonly installedAt: string;

  /**
   * The message says where the install was made and how to dispose it.
   *
   * @param where What found it (`"FakeClock.install()"`, `"makeTestCtx()"`).
   * @param installedAt The stack captured at that install.
   */
  constructor(where: string, installedAt: string) {
    super(
      `A FakeClock.install() was never disposed, so the global Date, setTimeout and performance.now were still virtual when ${where} was called (it has now undone that install). It was installed at:\n    ${installedAt}\nDispose every install: \`using _installed = clock.install();\` (or call the handle's [Symbol.dispose]() in an afterEach)${
        where.startsWith("makeTestCtx")
          ? "; if the install belongs to this test, pass its clock: makeTestCtx({ clock })"
          : "; to run on another clock in the same test, dispose the first install before the next"
      }.`,
    );
    this.installedAt = installedAt;
  }
}
