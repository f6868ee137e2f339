// What one CLI turn has produced so far: the transcript, the text, the
// usage reported and billed, and how it ended. stream() yields as it goes;
// run() drains the same generator and reads the result from here.
import type { Message, ToolCall } from "../../ports/message.ts";
import type { TextDeltaEvent } from "../../ports/stream_event.ts";
import { type Usage, ZERO_USAGE } from "../../ports/usage.ts";
import type { CognitionResult, StopReason } from "../cognition/cognition.ts";
import type { RunContext } from "../context.ts";
import { chargeMeters } from "../money/_charge.ts";
import { sumUsage } from "./_usage.ts";

export class TurnState {
  messageId = "";
  readonly messages: Message[] = [];
  /** Usage the CLI reported per message id, before its final line (claude). */
  readonly reported: Map<string, Usage> = new Map();
  output?: string;
  lastText?: string;
  usage: Usage = ZERO_USAGE;
  billed = false;
  finished = false;
  stopReason: StopReason = "stop";
  #hasText = false;
  #open?: { id: string; content: string; toolCalls: ToolCall[] };

  /** A text delta; texts after the first are set apart by a blank line. */
  text(text: string, messageKey: string): TextDeltaEvent {
    const content = this.#hasText ? `\n\n${text}` : text;
    this.#hasText = true;
    this.lastText = text;
    const m = this.#message(messageKey);
    m.content = m.content ? `${m.content}\n\n${text}` : text;
    return { type: "text_delta", messageId: this.messageId, content };
  }

  /** Records a tool call in the transcript. */
  call(call: ToolCall, messageKey: string): void {
    this.#message(messageKey).toolCalls.push(call);
  }

  /** Records a tool result in the transcript. */
  toolResult(toolCallId: string, content: string, isError: boolean): void {
    this.#flush();
    this.messages.push({ role: "tool", content, toolCallId, ...(isError ? { isError } : {}) });
  }

  /** Charges the meters once with `usage`. */
  bill(ctx: RunContext, model: string, usage: Usage): void {
    if (this.billed) return;
    this.billed = true;
    this.usage = usage;
    chargeMeters(ctx, model, usage);
  }

  /** Charges whatever the CLI reported before it stopped, if anything. */
  billReported(ctx: RunContext, model: string): void {
    if (this.billed || this.reported.size === 0) return;
    this.bill(ctx, model, sumUsage(this.reported.values()));
  }

  /** The cognition's result. */
  result(input: readonly Message[]): CognitionResult {
    this.#flush();
    return {
      output: this.output ?? this.lastText ?? "",
      usage: this.usage,
      messages: [...input, ...this.messages],
      stopReason: this.stopReason,
    };
  }

  #message(key: string): { id: string; content: string; toolCalls: ToolCall[] } {
    if (this.#open?.id !== key) {
      this.#flush();
      this.#open = { id: key, content: "", toolCalls: [] };
    }
    return this.#open;
  }

  #flush(): void {
    const m = this.#open;
    if (!m) return;
    this.#open = undefined;
    this.messages.push({
      role: "assistant",
      content: m.content,
      ...(m.toolCalls.length ? { toolCalls: m.toolCalls } : {}),
    });
  }
}

/** Reads a tool result's content (a string or a list of text blocks) as text. */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((b) =>
      typeof b === "string"
        ? b
        : b && typeof b === "object" && typeof (b as { text?: unknown }).text === "string"
        ? (b as { text: string }).text
        : JSON.stringify(b)
    ).join("\n");
  }
  return content === undefined ? "" : JSON.stringify(content);
}

/** Whether `v` is a plain object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
