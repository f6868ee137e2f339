// Folds the events of a run into its AgentResult, for agent.run, agent.stream
// and Run alike. A cognition that returns its result is taken at its word
// (stop reason, usage, transcript with tool messages); the fold supplies what
// the agent's hooks changed (a redacted text) and, for a cognition that
// returns nothing, the whole result.
import type { Message, ToolCall } from "../../ports/message.ts";
import type { ErrorEvent, StreamEvent } from "../../ports/stream_event.ts";
import { addUsage, type FinishReason, type Usage, ZERO_USAGE } from "../../ports/usage.ts";
import {
  type AgentResult,
  type CognitionResult,
  type StopReason,
  stopReasonOf,
} from "../cognition/cognition.ts";

interface Turn {
  content: string;
  readonly toolCalls: ToolCall[];
}

// Results of runs that failed: the run's promise rejects with the error,
// while agent.stream (which hands every event on, the error event included)
// still returns the folded result.
const failures = new WeakMap<AgentResult, { readonly error: unknown }>();

/** The error a run whose result this is failed with, if it failed. */
export function failureOf(result: AgentResult): { readonly error: unknown } | undefined {
  return failures.get(result);
}

/** Marks `result` as the result of a run that failed with `failure.error`. */
export function markFailed(result: AgentResult, failure: { readonly error: unknown }): void {
  failures.set(result, failure);
}

/** The result of a run, or a throw of the error it failed with. */
export function settledResult(result: AgentResult): AgentResult {
  const failed = failures.get(result);
  if (failed) throw failed.error;
  return result;
}

export class StreamResult {
  readonly #turns = new Map<string, Turn>();
  #last: Turn | undefined;
  #usage: Usage = ZERO_USAGE;
  #finishReason: FinishReason | undefined;
  #error: ErrorEvent | undefined;
  #failure: { readonly error: unknown } | undefined;

  /**
   * What `failureOf` says of the last result this fold built: the error its
   * run failed with, if it failed (without a lookup by the result).
   */
  get failure(): { readonly error: unknown } | undefined {
    return this.#failure;
  }

  add(event: StreamEvent): void {
    switch (event.type) {
      case "message_start": {
        const turn: Turn = { content: "", toolCalls: [] };
        this.#turns.set(event.messageId, turn);
        this.#last = turn;
        break;
      }
      case "text_delta":
        this.#turn(event.messageId).content += event.content;
        break;
      case "tool_call":
        this.#turn(event.messageId).toolCalls.push(event.call);
        break;
      case "message_end":
        this.#usage = addUsage(this.#usage, event.usage);
        this.#finishReason = event.finishReason;
        this.#error = undefined;
        break;
      case "error":
        if (event.usage) this.#usage = addUsage(this.#usage, event.usage);
        this.#finishReason = event.finishReason;
        this.#error = event;
        break;
    }
  }

  /**
   * The run's result. `prefix` is the transcript the run started from;
   * `returned` what the cognition returned; `halted` marks a run a beforeRun
   * hook answered; `rewritten` a run whose events a hook replaced.
   */
  result(
    prefix: readonly Message[],
    returned: CognitionResult | undefined,
    halted: boolean,
    rewritten: boolean,
  ): AgentResult {
    if (returned) {
      const { usage, stopReason } = returned;
      if (!rewritten) {
        return { output: returned.output, usage, messages: returned.messages, stopReason };
      }
      return {
        output: this.#last?.content ?? returned.output,
        usage,
        messages: this.#rewrite(returned.messages, prefix.length),
        stopReason,
      };
    }
    const last = this.#last;
    const e = this.#error;
    let stopReason: StopReason;
    if (halted) stopReason = "halted";
    else if (e) stopReason = e.finishReason === "length" ? "length" : "error";
    else stopReason = this.#finishReason === undefined ? "stop" : stopReasonOf(this.#finishReason);
    const messages: Message[] = [...prefix];
    for (const turn of this.#turns.values()) messages.push(assistant(turn));
    const result: AgentResult = {
      output: last?.content ?? "",
      usage: this.#usage,
      messages,
      stopReason,
    };
    // A stream that ended on an error (other than a length cut) failed.
    if (e && e.finishReason !== "length") {
      this.#failure = { error: e.error };
      markFailed(result, this.#failure);
    }
    return result;
  }

  // The cognition's transcript with the text of its assistant messages as
  // the hooks let it through, when they line up one to one with the streamed
  // messages (a CLI turn streams several messages as one; it keeps its own).
  #rewrite(messages: readonly Message[], from: number): readonly Message[] {
    const turns = [...this.#turns.values()];
    let n = 0;
    for (let i = from; i < messages.length; i++) if (messages[i].role === "assistant") n++;
    if (n !== turns.length) return messages;
    let k = 0;
    return messages.map((m, i) =>
      i >= from && m.role === "assistant" ? { ...m, content: turns[k++].content } : m
    );
  }

  // A delta for a message that never started still counts (a hand-written
  // cognition may skip message_start).
  #turn(messageId: string): Turn {
    let turn = this.#turns.get(messageId);
    if (!turn) {
      turn = { content: "", toolCalls: [] };
      this.#turns.set(messageId, turn);
      this.#last = turn;
    }
    return turn;
  }
}

function assistant(turn: Turn): Message {
  return turn.toolCalls.length
    ? { role: "assistant", content: turn.content, toolCalls: turn.toolCalls }
    : { role: "assistant", content: turn.content };
}
