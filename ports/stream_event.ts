/**
 * The events of a streamed model turn, a discriminated union on `type`.
 *
 * @module
 */
import type { ProviderData, ToolCall } from "./message.ts";
import type { FinishReason, Usage } from "./usage.ts";

/**
 * A message begins.
 *
 * @example
 * ```ts
 * import type { MessageStartEvent } from "@agentkit/testing/ports";
 * const e: MessageStartEvent = { type: "message_start", messageId: "m1" };
 * ```
 */
export interface MessageStartEvent {
  /** Discriminant. */
  readonly type: "message_start";
  /** The message this event belongs to. */
  readonly messageId: string;
}

/**
 * A piece of text.
 *
 * @example
 * ```ts
 * import type { TextDeltaEvent } from "@agentkit/testing/ports";
 * const e: TextDeltaEvent = { type: "text_delta", messageId: "m1", content: "Hel" };
 * ```
 */
export interface TextDeltaEvent {
  /** Discriminant. */
  readonly type: "text_delta";
  /** The message this event belongs to. */
  readonly messageId: string;
  /** The text fragment. */
  readonly content: string;
  /** True when the text is the model's refusal (see `ChatResponse.refusal`). */
  readonly refusal?: boolean;
}

/**
 * A piece of the model's thinking (Anthropic `thinking`, a Responses
 * `reasoning` summary): shown, never part of the answer's text.
 *
 * @example
 * ```ts
 * import type { ReasoningDeltaEvent } from "@agentkit/testing/ports";
 * const e: ReasoningDeltaEvent = { type: "reasoning_delta", messageId: "m1", content: "The user wants" };
 * ```
 */
export interface ReasoningDeltaEvent {
  /** Discriminant. */
  readonly type: "reasoning_delta";
  /** The message this event belongs to. */
  readonly messageId: string;
  /** The thinking fragment. */
  readonly content: string;
}

/**
 * A complete tool call.
 *
 * @example
 * ```ts
 * import type { ToolCallEvent } from "@agentkit/testing/ports";
 * const e: ToolCallEvent = { type: "tool_call", messageId: "m1", call: { id: "c1", name: "t", args: {} } };
 * ```
 */
export interface ToolCallEvent {
  /** Discriminant. */
  readonly type: "tool_call";
  /** The message this event belongs to. */
  readonly messageId: string;
  /** The call. */
  readonly call: ToolCall;
}

/**
 * The message ended normally.
 *
 * @example
 * ```ts
 * import type { MessageEndEvent } from "@agentkit/testing/ports";
 * const e: MessageEndEvent = {
 *   type: "message_end", messageId: "m1", finishReason: "stop",
 *   usage: { inputTokens: 10, outputTokens: 1 },
 * };
 * ```
 */
export interface MessageEndEvent {
  /** Discriminant. */
  readonly type: "message_end";
  /** The message this event belongs to. */
  readonly messageId: string;
  /** Why it ended. */
  readonly finishReason: FinishReason;
  /** What it consumed. */
  readonly usage: Usage;
  /** What the next request must send back with this turn (see {@linkcode ProviderData}). */
  readonly providerData?: ProviderData;
}

/**
 * The stream failed. `finishReason` and `usage` carry what the provider still
 * reported (a cut-off answer is billed).
 *
 * @example
 * ```ts
 * import type { ErrorEvent } from "@agentkit/testing/ports";
 * const e: ErrorEvent = { type: "error", messageId: "m1", error: new Error("cut"), finishReason: "length" };
 * ```
 */
export interface ErrorEvent {
  /** Discriminant. */
  readonly type: "error";
  /** The message this event belongs to. */
  readonly messageId: string;
  /** What went wrong. */
  readonly error: Error;
  /** The finish reason the provider reported, if any. */
  readonly finishReason?: FinishReason;
  /** What the provider billed before failing, if it said. */
  readonly usage?: Usage;
}

/**
 * Any stream event.
 *
 * @example Accumulate the text of a stream
 * ```ts
 * import type { StreamEvent } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const events: StreamEvent[] = [
 *   { type: "message_start", messageId: "m1" },
 *   { type: "text_delta", messageId: "m1", content: "Hel" },
 *   { type: "text_delta", messageId: "m1", content: "lo" },
 * ];
 * const text = events.map((e) => e.type === "text_delta" ? e.content : "").join("");
 * assertEquals(text, "Hello");
 * ```
 */
export type StreamEvent =
  | MessageStartEvent
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallEvent
  | MessageEndEvent
  | ErrorEvent;
