// One `codex exec --json` turn: one spawn, read to the end, mapped to stream
// events, charged from turn.completed. Shared by CodexCliCognition and
// CodexCliSession.
import type { ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { CognitionInput } from "../cognition/cognition.ts";
import type { RunContext } from "../context.ts";
import { checkMeters } from "../money/_charge.ts";
import { endProcess, killProcess, spawnFailure, startProcess } from "./_live_process.ts";
import { screen, skipped } from "./_observe.ts";
import { isRecord, resultText, type TurnState } from "./_turn_state.ts";
import type { CliSetup } from "./_options.ts";
import { codexUsage } from "./_usage.ts";
import { CliTurnError } from "./cli_turn_error.ts";
import { tail } from "../_preview.ts";

/** The argv of a turn: a fresh thread, or a resumed one. */
export function codexArgv(setup: CliSetup, prompt: string, threadId?: string): string[] {
  return [
    setup.binary,
    "exec",
    ...setup.args,
    ...(threadId ? ["resume", threadId] : []),
    "--json",
    ...(prompt.startsWith("-") ? ["--"] : []),
    prompt,
  ];
}

/** The prompt of a turn: the task, after the system prompt on a fresh thread. */
export function codexPrompt(input: CognitionInput, resuming: boolean): string {
  const system = input.agent.system;
  return system && !resuming ? `${system}\n\n${input.task}` : input.task;
}

const TOOL_ITEMS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search"]);

/** Runs one codex turn; `onThread` learns the thread id from `thread.started`. */
export async function* codexTurn(
  setup: CliSetup,
  argv: readonly string[],
  input: CognitionInput,
  ctx: RunContext,
  t: TurnState,
  messageId: string,
  onThread: (threadId: string) => void,
): AsyncGenerator<StreamEvent, void, undefined> {
  ctx.checkCancelled();
  checkMeters(ctx);
  const { binary } = setup;
  const agent = input.agent.name;
  const model = input.agent.model;
  const live = startProcess(setup, argv, "null", ctx.clock);
  const onAbort = () => killProcess(live);
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  t.messageId = messageId;
  try {
    await ctx.emit("cli.spawn", argv.join(" "), { payload: { argv }, agent });
    yield { type: "message_start", messageId };
    let completed = false;
    let failed: string | undefined;
    let lastError: string | undefined;
    const seen = new Set<string>();
    while (!ctx.signal.aborted) {
      const item = await live.lines.next();
      if (!item) break;
      const ev = await screen(ctx, item, binary, agent);
      if (!ev) continue;
      switch (ev.type) {
        case "thread.started":
          if (typeof ev.thread_id === "string") {
            onThread(ev.thread_id);
            await ctx.emit("cli.init", `${binary} thread ${ev.thread_id}`, {
              payload: { threadId: ev.thread_id },
              agent,
            });
          }
          break;
        case "turn.started":
          break;
        case "item.started":
        case "item.updated":
        case "item.completed": {
          if (!isRecord(ev.item)) {
            await skipped(ctx, binary, agent, item.line, `an ${ev.type} line without an item`);
            break;
          }
          for (const e of await mapItem(ev.type, ev.item, item.line, t, seen, ctx, setup, agent)) {
            yield e;
          }
          break;
        }
        case "turn.completed": {
          const usage = codexUsage(ev.usage);
          t.bill(ctx, model, usage);
          completed = true;
          await ctx.emit("cli.result", `${binary} turn completed`, { payload: { usage }, agent });
          break;
        }
        case "turn.failed": {
          const e = ev.error;
          failed = isRecord(e) && typeof e.message === "string" ? e.message : "turn.failed";
          if (isRecord(ev.usage)) t.bill(ctx, model, codexUsage(ev.usage));
          break;
        }
        case "error":
          lastError = typeof ev.message === "string" ? ev.message : JSON.stringify(ev);
          await ctx.emit("cli.stream_error", `${binary}: ${lastError}`, {
            payload: { message: lastError },
            agent,
          });
          break;
        default:
          await skipped(
            ctx,
            binary,
            agent,
            item.line,
            `unknown event type ${JSON.stringify(ev.type)}`,
            {
              type: ev.type,
            },
          );
      }
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const stderr = await endProcess(live);
    if (completed && !failed) {
      if (stderr.exitCode !== undefined && stderr.exitCode !== 0) {
        await ctx.emit(
          "cli.exit",
          `${binary} exited with code ${stderr.exitCode} after the turn completed`,
          {
            payload: stderr,
            agent,
          },
        );
      }
      t.output = t.lastText ?? "";
      t.stopReason = "stop";
      t.finished = true;
      yield { type: "message_end", messageId, finishReason: "stop", usage: t.usage };
      return;
    }
    const code = stderr.exitCode;
    const error = failed !== undefined
      ? new CliTurnError(`${binary} reported a failed turn: ${failed}`, {
        failure: "reported",
        binary,
        stderr,
        ...(t.billed ? { usage: t.usage } : {}),
      })
      : live.exitError !== undefined
      ? spawnFailure(binary, live.exitError)
      : code !== undefined && code !== 0
      ? new CliTurnError(
        `${binary} exited with code ${code} before turn.completed${
          lastError ? ` (its last error: ${lastError})` : ""
        }${stderr.text.trim() ? `; its stderr ends: ${tail(stderr.text)}` : ""}`,
        { failure: "exited", binary, stderr },
      )
      : new CliTurnError(
        `${binary}'s output ended without turn.completed, so the turn is incomplete${
          lastError ? ` (its last error: ${lastError})` : ""
        }`,
        { failure: "incomplete", binary, stderr },
      );
    t.stopReason = "error";
    t.finished = true;
    await ctx.emit("cli.error", error.message, {
      payload: { failure: error.failure, stderr },
      agent,
    });
    yield {
      type: "error",
      messageId,
      error,
      finishReason: "error",
      ...(t.billed ? { usage: t.usage } : {}),
    };
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    if (!t.finished) {
      killProcess(live);
      await endProcess(live).catch(() => {});
    }
  }
}

async function mapItem(
  phase: string,
  item: Readonly<Record<string, unknown>>,
  line: number,
  t: TurnState,
  seen: Set<string>,
  ctx: RunContext,
  setup: CliSetup,
  agent: string,
): Promise<StreamEvent[]> {
  const id = typeof item.id === "string" ? item.id : `line-${line}`;
  const type = item.type;
  const done = phase === "item.completed";
  const out: StreamEvent[] = [];
  if (type === "agent_message") {
    if (done && typeof item.text === "string") out.push(t.text(item.text, id));
  } else if (type === "reasoning") {
    if (done) {
      await ctx.emit("cli.reasoning", String(item.text ?? ""), { payload: item, agent });
    }
  } else if (typeof type === "string" && TOOL_ITEMS.has(type)) {
    if (!seen.has(id)) {
      seen.add(id);
      const call = toolCallOf(id, type, item);
      t.call(call, id);
      out.push({ type: "tool_call", messageId: t.messageId, call });
      await ctx.emit("cli.tool_use", `${setup.binary} used ${call.name}`, { payload: call, agent });
    }
    if (done) {
      const content = type === "command_execution"
        ? resultText(item.aggregated_output)
        : type === "mcp_tool_call"
        ? resultText(item.result ?? item.error)
        : JSON.stringify(item);
      const isError = item.status === "failed" ||
        (typeof item.exit_code === "number" && item.exit_code !== 0) ||
        (type === "mcp_tool_call" && item.error !== undefined && item.error !== null);
      t.toolResult(id, content, isError);
      await ctx.emit("cli.tool_result", `${setup.binary} tool result for ${id}`, {
        payload: { toolCallId: id, content, isError },
        agent,
      });
    }
  } else if (type === "todo_list") {
    if (done) await ctx.emit("cli.todo_list", "todo list", { payload: item, agent });
  } else if (type === "error") {
    if (done) {
      await ctx.emit("cli.stream_error", `${setup.binary}: ${String(item.message ?? "")}`, {
        payload: item,
        agent,
      });
    }
  } else if (phase !== "item.updated") {
    await skipped(ctx, setup.binary, agent, line, `unknown item type ${JSON.stringify(type)}`, {
      type,
    });
  }
  return out;
}

function toolCallOf(id: string, type: string, item: Readonly<Record<string, unknown>>): ToolCall {
  switch (type) {
    case "command_execution":
      return { id, name: "command_execution", args: { command: item.command } };
    case "file_change":
      return { id, name: "file_change", args: { changes: item.changes } };
    case "web_search":
      return { id, name: "web_search", args: { query: item.query } };
    default:
      return {
        id,
        name: typeof item.tool === "string" ? item.tool : "mcp_tool_call",
        args: {
          ...(isRecord(item.arguments) ? item.arguments : {}),
        },
      };
  }
}
