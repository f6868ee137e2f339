/**
 * The codex CLI as a cognition: one `codex exec --json` per run.
 *
 * @module
 */
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Cognition, CognitionInput, CognitionResult } from "../cognition/cognition.ts";
import type { RunContext } from "../context.ts";
import { codexArgv, codexPrompt, codexTurn } from "./_codex_turn.ts";
import { type CliSetup, cliSetup, type CodexCliOptions } from "./_options.ts";
import type { TurnState } from "./_turn_state.ts";
import { turnStream } from "./_turns.ts";

export type { CodexCliOptions };

/**
 * Runs `codex exec --json "<task>"` once per run, each on a fresh thread (a
 * multi-turn conversation is a {@linkcode CodexCliSession}). The agent's
 * system prompt, if any, goes before the task.
 *
 * What the stream becomes: one `StreamEvent` message per run
 * (`message_start`; a `text_delta` per `agent_message`, set apart by blank
 * lines; a `tool_call` per command, file change, MCP call or web search; then
 * `message_end` with the usage of `turn.completed`). Reasoning, tool results
 * and skipped lines are observations. A run's `output` is the last agent
 * message.
 *
 * Usage: codex counts `input_tokens` inclusive of `cached_input_tokens`;
 * agentkit's `inputTokens` excludes them, so the cognition subtracts. Meters
 * in `ctx.allMeters` are checked before the spawn and charged from
 * `turn.completed` (priced by the agent's model in the price table).
 *
 * Failure: `turn.failed`, a missing `turn.completed` or a non-zero exit
 * before it end the run with `stopReason: "error"` and a `cli.error`
 * observation carrying the stderr (a stream ends with an `error` event whose
 * error is a `CliTurnError`). Cancelling kills the process and rejects with
 * the abort reason.
 *
 * @example
 * ```ts
 * import { Agent, Budget, CodexCliCognition } from "@agentkit/testing/runtime";
 * import { codexTurn, FakeCodexCli, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const cli = FakeCodexCli.script(codexTurn({ text: "done", usage: [1200, 1000, 40] }));
 * const agent = new Agent("a", { model: "fake-model", cognition: new CodexCliCognition({ spawn: cli }) });
 * const budget = new Budget({ maxCostUsd: "1.00" });
 * const result = await agent.run("fix the build", makeTestCtx({ budget }));
 * assertEquals(result.output, "done");
 * assertEquals(result.usage, { inputTokens: 200, cachedInputTokens: 1000, outputTokens: 40 });
 * assertEquals(cli.argv(0), ["codex", "exec", "--json", "fix the build"]);
 * // fake-model: $10/M input, $1/M cached, $30/M output
 * assertEquals(budget.spent(), "0.004200");
 * ```
 */
export class CodexCliCognition implements Cognition {
  /** `"codex-cli"`. */
  readonly name: string = "codex-cli";
  /** The program run. */
  readonly binary: string;
  readonly #setup: CliSetup;
  #turns = 0;

  /**
   * Creates the cognition.
   *
   * @param options The spawn port, and how to run the binary.
   * @throws {TypeError} For a missing spawn, a malformed option, or an unknown one.
   */
  constructor(options: CodexCliOptions) {
    this.#setup = cliSetup("new CodexCliCognition()", options, "codex");
    this.binary = this.#setup.binary;
  }

  /**
   * Runs one turn on a fresh thread, yielding its events.
   * @param input The agent, task and transcript.
   * @param ctx The run.
   * @returns The events, then the result (`stopReason: "error"` when the turn failed).
   */
  stream(
    input: CognitionInput,
    ctx: RunContext,
  ): AsyncGenerator<StreamEvent, CognitionResult, undefined> {
    return turnStream((t) => this.#turn(input, ctx, t), input.messages);
  }

  #turn(
    input: CognitionInput,
    ctx: RunContext,
    t: TurnState,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const argv = codexArgv(this.#setup, codexPrompt(input, false));
    return codexTurn(this.#setup, argv, input, ctx, t, `codex-turn-${++this.#turns}`, () => {});
  }
}
