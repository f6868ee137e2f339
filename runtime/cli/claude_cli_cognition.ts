/**
 * The claude CLI as a cognition.
 *
 * @module
 */
import type { ToolCall } from "../../ports/message.ts";
import type { Spawner, SpawnPort } from "../../ports/spawn.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Cognition, CognitionInput, CognitionResult } from "../cognition/cognition.ts";
import type { RunContext } from "../context.ts";
import { rethrowIfFatal } from "../harness_error.ts";
import { checkMeters } from "../money/_charge.ts";
import {
  endProcess,
  killProcess,
  type LiveProcess,
  spawnFailure,
  startProcess,
} from "./_live_process.ts";
import { screen, skipped } from "./_observe.ts";
import { type CliSetup, cliSetup } from "./_options.ts";
import { is } from "../_options.ts";
import { isRecord, resultText, type TurnState } from "./_turn_state.ts";
import { Turns, turnStream } from "./_turns.ts";
import { claudeUsage, sumUsage } from "./_usage.ts";
import { CliTurnError } from "./cli_turn_error.ts";
import { tail } from "../_preview.ts";

/** Options for {@linkcode ClaudeCliCognition}. */
export interface ClaudeCliOptions {
  /** Starts the process: `systemSpawn` for the real binary, or a `FakeClaudeCli`. */
  readonly spawn: SpawnPort | Spawner;
  /**
   * The program to run.
   * @default {"claude"}
   */
  readonly binary?: string;
  /**
   * Extra arguments, after the stream-json flags (`["--max-turns", "5"]`).
   * @default {[]}
   */
  readonly args?: readonly string[];
  /**
   * Passed as `--model`.
   * @default {none: the CLI picks its default}
   */
  readonly model?: string;
  /**
   * The working directory of the process (the repository claude works in).
   * @default {the parent's}
   */
  readonly cwd?: string;
  /**
   * Variables set on top of the parent's environment.
   * @default {none}
   */
  readonly env?: Readonly<Record<string, string>>;
}

const encoder = new TextEncoder();

/**
 * Runs the `claude` binary in stream-json mode
 * (`claude -p --output-format stream-json --verbose --input-format stream-json`).
 * One process serves the whole multi-turn session: each `run` writes the task
 * to its stdin as one user line and reads until the turn's `result` line.
 * Runs on one instance take turns; they never interleave.
 *
 * What the stream becomes: one `StreamEvent` message per turn
 * (`message_start`, a `text_delta` per text block, set apart by blank lines, a
 * `tool_call` per tool the CLI used, then `message_end` carrying the turn's
 * usage and `total_cost_usd`). Tool results, the session's init, the result
 * and every skipped line are observations (`cli.*` kinds). A run's `output`
 * is the result's final text.
 *
 * Charging: before each turn every meter in `ctx.allMeters` is checked
 * (`BudgetExceeded` before anything is written), and after it each is
 * charged with the reported usage and `total_cost_usd` (the CLI runs the
 * model itself, so no `meter()` middleware is involved). A turn that never
 * got its `result` is charged with the usage its assistant lines reported,
 * priced by the agent's model in the price table.
 *
 * Failure: a missing `result`, a non-zero exit, or a result the CLI marks as
 * failed ends the run with `stopReason: "error"` (`"max_iterations"` for
 * `error_max_turns`) and a `cli.error` observation; a stream ends with an
 * `error` event whose error is a {@linkcode CliTurnError} carrying the exit
 * code and stderr. Bad lines (not JSON, cut off, of an unknown type) are
 * observed and skipped; a line that is not valid UTF-8 is decoded with U+FFFD
 * and used. Cancelling the run kills the process and rejects with the abort
 * reason; the next run starts a new process that resumes the session
 * (`--resume <session_id>`). Close the cognition (`await using`, or
 * `close()`) to end the process.
 *
 * @example A scripted session: two turns, one process
 * ```ts
 * import { Agent, Budget, ClaudeCliCognition } from "@agentkit/testing/runtime";
 * import { claudeTurn, FakeClaudeCli, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const cli = FakeClaudeCli.script([
 *   claudeTurn({ text: "Added GET /health.", costUsd: 0.0123 }),
 *   claudeTurn({ text: "Added a test for it.", costUsd: 0.002 }),
 * ]);
 * await using claude = new ClaudeCliCognition({ spawn: cli });
 * const agent = new Agent("coder", { model: "fake-model", cognition: claude });
 * const budget = new Budget({ maxCostUsd: "1.00" });
 * const ctx = makeTestCtx({ budget });
 * assertEquals((await agent.run("Add a health endpoint", ctx)).output, "Added GET /health.");
 * assertEquals((await agent.run("Now test it", ctx)).output, "Added a test for it.");
 * assertEquals([budget.spent(), budget.calls, cli.spawns.length], ["0.014300", 2, 1]);
 * ```
 */
export class ClaudeCliCognition implements Cognition, AsyncDisposable {
  /** `"claude-cli"`. */
  readonly name: string = "claude-cli";
  /** The program run. */
  readonly binary: string;
  /** The `--model` passed, if any. */
  readonly model?: string;
  readonly #setup: CliSetup;
  #live?: LiveProcess;
  #sessionId?: string;
  readonly #turns = new Turns();

  /**
   * Creates the cognition; nothing is spawned until the first run.
   *
   * @param options The spawn port, and how to run the binary.
   * @throws {TypeError} For a missing spawn, a malformed option, or an unknown one.
   */
  constructor(options: ClaudeCliOptions) {
    this.#setup = cliSetup("new ClaudeCliCognition()", options, "claude", { model: is.text });
    this.binary = this.#setup.binary;
    this.model = options.model;
  }

  /** The CLI's session id, once its first line reported one. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** How many turns this cognition has started. */
  get turns(): number {
    return this.#turns.count;
  }

  /**
   * Runs one turn, yielding its events.
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

  /**
   * Ends the process: closes its stdin (the CLI exits at the end of input),
   * then waits for it. Never throws; safe to call twice.
   */
  async close(): Promise<void> {
    const release = await this.#turns.acquire();
    try {
      const live = this.#live;
      this.#live = undefined;
      if (live) await endProcess(live).catch(() => {});
    } finally {
      release();
    }
  }

  /** `await using claude = new ClaudeCliCognition(...)` closes at scope exit. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #argv(system: string | undefined): string[] {
    return [
      this.binary,
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--input-format",
      "stream-json",
      ...(this.model ? ["--model", this.model] : []),
      ...(system ? ["--append-system-prompt", system] : []),
      ...(this.#sessionId ? ["--resume", this.#sessionId] : []),
      ...this.#setup.args,
    ];
  }

  async *#turn(
    input: CognitionInput,
    ctx: RunContext,
    t: TurnState,
  ): AsyncGenerator<StreamEvent, void, undefined> {
    ctx.checkCancelled();
    checkMeters(ctx);
    const release = await this.#turns.acquire();
    const agent = input.agent.name;
    const model = input.agent.model;
    let live: LiveProcess | undefined;
    const onAbort = () => {
      if (live) killProcess(live);
    };
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    try {
      ctx.checkCancelled();
      live = this.#live;
      if (live && (live.dead || live.exitCode !== undefined || live.exitError !== undefined)) {
        // The process ended after its last turn: reap it, and resume the
        // session in a new one.
        this.#live = undefined;
        await endProcess(live).catch(() => {});
        live = undefined;
      }
      if (!live) {
        const argv = this.#argv(input.agent.system);
        live = startProcess(this.#setup, argv, "piped", ctx.clock);
        this.#live = live;
        await ctx.emit("cli.spawn", argv.join(" "), { payload: { argv }, agent });
      }
      t.messageId = `claude-turn-${this.#turns.next()}`;
      await this.#send(live, input.task);
      yield { type: "message_start", messageId: t.messageId };
      while (!ctx.signal.aborted) {
        const item = await live.lines.next();
        if (!item) break;
        const ev = await screen(ctx, item, this.binary, agent);
        if (!ev) continue;
        switch (ev.type) {
          case "system":
            await this.#system(ev, ctx, agent);
            break;
          case "assistant":
            for (const e of await this.#assistant(ev, item.line, t, ctx, agent)) yield e;
            break;
          case "user":
            await this.#user(ev, t, ctx, agent);
            break;
          case "result":
            yield await this.#result(ev, item.line, t, ctx, agent, model);
            t.finished = true;
            return;
          default:
            await skipped(
              ctx,
              this.binary,
              agent,
              item.line,
              `unknown event type ${JSON.stringify(ev.type)}`,
              { type: ev.type },
            );
        }
      }
      if (ctx.signal.aborted) {
        t.billReported(ctx, model);
        throw ctx.signal.reason;
      }
      // The output ended before the turn's result line.
      this.#live = undefined;
      const stderr = await endProcess(live);
      t.billReported(ctx, model);
      const code = stderr.exitCode;
      const error = live.exitError !== undefined
        ? spawnFailure(this.binary, live.exitError)
        : code !== undefined && code !== 0
        ? new CliTurnError(
          `${this.binary} exited with code ${code} before the turn's result line${
            stderr.text.trim() ? `; its stderr ends: ${tail(stderr.text)}` : ""
          }`,
          { failure: "exited", binary: this.binary, stderr, usage: t.usage },
        )
        : new CliTurnError(
          `${this.binary}'s output ended without a result line, so the turn is incomplete; the usage its messages reported was billed`,
          { failure: "incomplete", binary: this.binary, stderr, usage: t.usage },
        );
      yield await this.#fail(error, t, ctx, agent);
    } finally {
      ctx.signal.removeEventListener("abort", onAbort);
      if (!t.finished && live) {
        // Cancelled, abandoned by its consumer, or failed: the process is
        // mid-turn and cannot serve another, so it goes.
        if (this.#live === live) this.#live = undefined;
        killProcess(live);
        await endProcess(live).catch(() => {});
      }
      release();
    }
  }

  async #send(live: LiveProcess, task: string): Promise<void> {
    const line = JSON.stringify({ type: "user", message: { role: "user", content: task } });
    if (!live.writer) {
      throw new TypeError(
        `Cannot write a turn to ${this.binary}: the spawn port gave the process no stdin; a SpawnPort must honour { stdin: "piped" }`,
      );
    }
    try {
      await live.writer.write(encoder.encode(line + "\n"));
    } catch (error) {
      rethrowIfFatal(error);
      // The process is gone; reading its output finds out how it ended.
      live.dead = true;
    }
  }

  async #system(
    ev: Readonly<Record<string, unknown>>,
    ctx: RunContext,
    agent: string,
  ): Promise<void> {
    if (ev.subtype === "init") {
      if (typeof ev.session_id === "string") this.#sessionId = ev.session_id;
      await ctx.emit("cli.init", `${this.binary} session ${String(ev.session_id)}`, {
        payload: { sessionId: ev.session_id, model: ev.model, cwd: ev.cwd, tools: ev.tools },
        agent,
      });
    } else {
      await ctx.emit("cli.system", `${this.binary} system ${String(ev.subtype)}`, {
        payload: ev,
        agent,
      });
    }
  }

  async #assistant(
    ev: Readonly<Record<string, unknown>>,
    line: number,
    t: TurnState,
    ctx: RunContext,
    agent: string,
  ): Promise<StreamEvent[]> {
    const message = ev.message;
    if (!isRecord(message) || !Array.isArray(message.content)) {
      await skipped(ctx, this.binary, agent, line, "an assistant line without message.content");
      return [];
    }
    const key = typeof message.id === "string" ? message.id : `line-${line}`;
    if (isRecord(message.usage)) t.reported.set(key, claudeUsage(message.usage));
    const out: StreamEvent[] = [];
    for (const block of message.content) {
      if (!isRecord(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        out.push(t.text(block.text, key));
      } else if (
        block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string"
      ) {
        const call: ToolCall = {
          id: block.id,
          name: block.name,
          args: isRecord(block.input) ? block.input : {},
        };
        t.call(call, key);
        out.push({ type: "tool_call", messageId: t.messageId, call });
        await ctx.emit("cli.tool_use", `${this.binary} used ${call.name}`, {
          payload: call,
          agent,
        });
      }
    }
    return out;
  }

  async #user(
    ev: Readonly<Record<string, unknown>>,
    t: TurnState,
    ctx: RunContext,
    agent: string,
  ): Promise<void> {
    const message = ev.message;
    if (!isRecord(message) || !Array.isArray(message.content)) return;
    for (const block of message.content) {
      if (!isRecord(block) || block.type !== "tool_result") continue;
      const id = typeof block.tool_use_id === "string" ? block.tool_use_id : "";
      const content = resultText(block.content);
      const isError = block.is_error === true;
      t.toolResult(id, content, isError);
      await ctx.emit("cli.tool_result", `${this.binary} tool result for ${id}`, {
        payload: { toolCallId: id, content, isError },
        agent,
      });
    }
  }

  async #result(
    ev: Readonly<Record<string, unknown>>,
    line: number,
    t: TurnState,
    ctx: RunContext,
    agent: string,
    model: string,
  ): Promise<StreamEvent> {
    if (typeof ev.session_id === "string") this.#sessionId = ev.session_id;
    const cost = ev.total_cost_usd;
    if (
      cost !== undefined && cost !== null &&
      !(typeof cost === "number" && Number.isFinite(cost) && cost >= 0)
    ) {
      // Never a TypeError mid-run: the bad cost is reported and left out, so
      // the turn is billed from its tokens at the price table's rates.
      await skipped(
        ctx,
        this.binary,
        agent,
        line,
        // String(), not JSON: an overflowing 1e999 parses to Infinity, which JSON calls null.
        `total_cost_usd ${
          typeof cost === "number" ? String(cost) : JSON.stringify(cost)
        } is not a finite non-negative number; the turn is billed from its tokens`,
        { field: "total_cost_usd" },
      );
    }
    const usage = isRecord(ev.usage) ? claudeUsage(ev.usage, cost) : {
      ...sumUsage(t.reported.values()),
      ...(typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? { costUsd: cost } : {}),
    };
    t.bill(ctx, model, usage);
    if (typeof ev.result === "string") t.output = ev.result;
    const subtype = typeof ev.subtype === "string" ? ev.subtype : "success";
    await ctx.emit("cli.result", `${this.binary} turn ended: ${subtype}`, {
      payload: {
        subtype,
        isError: ev.is_error === true,
        numTurns: ev.num_turns,
        durationMs: ev.duration_ms,
        costUsd: ev.total_cost_usd,
        sessionId: ev.session_id,
      },
      agent,
    });
    if (ev.is_error === true || subtype !== "success") {
      const error = new CliTurnError(
        `${this.binary} reported a failed turn (${subtype})${
          t.output ? `: ${tail(t.output)}` : ""
        }`,
        { failure: "reported", binary: this.binary, subtype, usage },
      );
      const event = await this.#fail(error, t, ctx, agent);
      if (subtype === "error_max_turns") t.stopReason = "max_iterations";
      return event;
    }
    t.stopReason = "stop";
    return { type: "message_end", messageId: t.messageId, finishReason: "stop", usage };
  }

  async #fail(
    error: CliTurnError,
    t: TurnState,
    ctx: RunContext,
    agent: string,
  ): Promise<StreamEvent> {
    t.stopReason = "error";
    t.finished = true;
    await ctx.emit("cli.error", error.message, {
      payload: { failure: error.failure, subtype: error.subtype, stderr: error.stderr },
      agent,
    });
    return {
      type: "error",
      messageId: t.messageId,
      error,
      finishReason: "error",
      ...(t.billed ? { usage: t.usage } : {}),
    };
  }
}
