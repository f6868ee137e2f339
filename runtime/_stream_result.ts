// Folds the events of a streamed run into an AgentResult: the text of the
// last model turn, the usage of every turn (failed ones included) and the stop
// reason. Shared by agent.stream (for afterRun hooks, sessions and its return
// value) and Run (for producers that return no result of their own).
import type { Message, ToolCall } from "../ports/message.ts";
import type { ErrorEvent, StreamEvent } from "../ports/stream_event.ts";
import { addUsage, type FinishReason, type Usage, ZERO_USAGE } from "../ports/usage.ts";
import type { AgentResult } from "./agent.ts";
import { type StopReason, stopReasonOf } from "./cognition/cognition.ts";

interface Turn {
  content: string;
  readonly toolCalls: ToolCall[];
}

export class StreamResult {
  readonly #turns = new Map<string, Turn>();
  #last: Turn | undefined;
  #usage: Usage = ZERO_USAGE;
  #finishReason: FinishReason | undefined;
  #error: ErrorEvent | undefined;

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

  /** The error a stream ended on, unless it was a length cut (which is a result). */
  get failure(): Error | undefined {
    const e = this.#error;
    return e && e.finishReason !== "length" ? e.error : undefined;
  }

  // `prefix` is the transcript the run started from; `halted` marks a run a
  // beforeRun hook answered.
  result(prefix: readonly Message[], halted = false): AgentResult {
    const last = this.#last;
    let stopReason: StopReason;
    if (halted) stopReason = "halted";
    else if (this.#error) stopReason = this.#error.finishReason === "length" ? "length" : "error";
    else if (this.#finishReason === undefined) stopReason = "stop";
    else if (this.#finishReason === "tool_calls" && last && last.toolCalls.length > 0) {
      // The last turn asked for tools nobody answered: the loop ran out.
      stopReason = "max_iterations";
    } else stopReason = stopReasonOf(this.#finishReason);
    const messages: Message[] = [...prefix];
    for (const turn of this.#turns.values()) {
      messages.push(
        turn.toolCalls.length
          ? { role: "assistant", content: turn.content, toolCalls: turn.toolCalls }
          : { role: "assistant", content: turn.content },
      );
    }
    return { output: last?.content ?? "", usage: this.#usage, messages, stopReason };
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
