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
 * @example
 * ```ts
 * import { ScriptExhausted } from "@agentkit/testing/testing";
 * import { HarnessError } from "@agentkit/testing/runtime";
 * import { assert } from "@std/assert";
 *
 * const e = new ScriptExhausted("FakeLLM.script", 2, 3);
 * assert(e instanceof HarnessError);
 * assert(e.message.includes("has 2 turn(s), but the agent asked for turn 3"));
 * ```
 */
export class ScriptExhausted extends HarnessError {
  /** How many turns were scripted. */
  readonly scripted: number;
  /** The turn asked for (1-based). */
  readonly requested: number;

  /**
   * Creates the instance.
   *
   * @param double Which double (`"FakeLLM.script"`).
   * @param scripted How many turns it has.
   * @param requested The 1-based turn asked for.
   * @param unit What a turn is called for this double.
   */
  constructor(double: string, scripted: number, requested: number, unit = "turn") {
    super(
      `${double} has ${scripted} ${unit}(s), but the agent asked for ${unit} ${requested}; script another ${unit} if the run really takes ${requested}, or pass { repeatLast: true } if the loop is meant to be unbounded`,
    );
    this.scripted = scripted;
    this.requested = requested;
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
   * Creates the instance.
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
   * Creates the instance.
   *
   * @param double Which double.
   * @param scripted How many turns it has.
   * @param used How many were asked for.
   * @param unit What a turn is called for this double.
   */
  constructor(double: string, scripted: number, used: number, unit = "turn") {
    super(
      `${double} has ${scripted} ${unit}(s), but the run used only ${used}; the run ended earlier than the test claims, so fix the run or the script, or pass { allowUnused: true }`,
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
