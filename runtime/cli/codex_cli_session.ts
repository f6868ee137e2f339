/**
 * A multi-turn codex conversation.
 *
 * @module
 */
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Cognition, CognitionInput, CognitionResult } from "../cognition/cognition.ts";
import type { RunContext } from "../context.ts";
import { codexArgv, codexPrompt, codexTurn } from "./_codex_turn.ts";
import { type CliSetup, cliSetup, type CodexCliOptions } from "./_options.ts";
import type { TurnState } from "./_turn_state.ts";
import { Turns, turnStream } from "./_turns.ts";

/**
 * A codex conversation as a cognition: the first run spawns
 * `codex exec --json "<task>"`, and every later run resumes the same thread
 * with `codex exec resume <thread_id> --json "<task>"` (the id comes from the
 * first turn's `thread.started`). `codex exec` is one-shot, so each run is
 * one spawn. Runs on one session take turns. Everything else (events, usage,
 * failures) is as in {@linkcode CodexCliCognition}.
 *
 * @example Three turns, one thread
 * ```ts
 * import { Agent, CodexCliSession } from "@agentkit/testing/runtime";
 * import { FakeCodexCli, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const cli = FakeCodexCli.answering("one", "two", "three");
 * const session = new CodexCliSession({ spawn: cli });
 * const agent = new Agent("a", { model: "fake-model", cognition: session });
 * const ctx = makeTestCtx();
 * const outputs = [];
 * for (const task of ["a", "b", "c"]) outputs.push((await agent.run(task, ctx)).output);
 * assertEquals(outputs, ["one", "two", "three"]);
 * assertEquals(cli.spawns.length, 3);
 * assertEquals(cli.argv(1), ["codex", "exec", "resume", session.threadId!, "--json", "b"]);
 * ```
 */
export class CodexCliSession implements Cognition {
  /** `"codex-cli-session"`. */
  readonly name: string = "codex-cli-session";
  /** The program run. */
  readonly binary: string;
  readonly #setup: CliSetup;
  #threadId?: string;
  readonly #turns = new Turns();

  /**
   * Creates the session; nothing is spawned until the first run.
   *
   * @param options The spawn port, and how to run the binary.
   * @throws {TypeError} For a missing spawn, a malformed option, or an unknown one.
   */
  constructor(options: CodexCliOptions) {
    this.#setup = cliSetup("new CodexCliSession()", options, "codex");
    this.binary = this.#setup.binary;
  }

  /** The thread the session resumes, once the first turn reported it. */
  get threadId(): string | undefined {
    return this.#threadId;
  }

  /** How many turns the session has started. */
  get turns(): number {
    return this.#turns.count;
  }

  /**
   * Runs the next turn of the conversation, yielding its events.
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

  async *#turn(
    input: CognitionInput,
    ctx: RunContext,
    t: TurnState,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const release = await this.#turns.acquire();
    try {
      const resume = this.#threadId;
      const argv = codexArgv(this.#setup, codexPrompt(input, resume !== undefined), resume);
      yield* codexTurn(
        this.#setup,
        argv,
        input,
        ctx,
        t,
        `codex-turn-${this.#turns.next()}`,
        (id) => this.#threadId ??= id,
      );
    } finally {
      release();
    }
  }
}
