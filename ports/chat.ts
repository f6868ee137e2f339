/**
 * The request and response of one model call.
 *
 * @module
 */
import type { Message, ProviderData, ToolCall } from "./message.ts";
import type { JsonSchema, ToolSpec } from "./tool_spec.ts";
import type { FinishReason, Usage } from "./usage.ts";

/**
 * Shape settings for one model call.
 *
 * @example
 * ```ts
 * import type { ChatSettings } from "@agentkit/testing/ports";
 * const s: ChatSettings = { maxTokens: 512, temperature: 0 };
 * ```
 */
export interface ChatSettings {
  /** Ask for structured output matching this schema. */
  readonly jsonSchema?: JsonSchema;
  /** The schema's name, for providers that want one. */
  readonly jsonSchemaName?: string;
  /** The output token cap. */
  readonly maxTokens?: number;
  /** Sampling temperature. */
  readonly temperature?: number;
}

/**
 * One model call.
 *
 * @example
 * ```ts
 * import type { ChatRequest } from "@agentkit/testing/ports";
 * const req: ChatRequest = { model: "fake-model", messages: [{ role: "user", content: "hi" }] };
 * ```
 */
export interface ChatRequest {
  /** The transcript sent to the model. */
  readonly messages: readonly Message[];
  /** The model name (also the price-table key). */
  readonly model: string;
  /** Tools the model may call. */
  readonly tools?: readonly ToolSpec[];
  /** Shape settings. */
  readonly settings?: ChatSettings;
  /** Cancels the call. */
  readonly signal?: AbortSignal;
}

/**
 * A finished model turn.
 *
 * @example
 * ```ts
 * import type { ChatResponse } from "@agentkit/testing/ports";
 * const res: ChatResponse = {
 *   id: "r1", model: "fake-model", content: "ok", toolCalls: [],
 *   finishReason: "stop", usage: { inputTokens: 10, outputTokens: 0 },
 * };
 * ```
 */
export interface ChatResponse {
  /** The provider's response id. */
  readonly id: string;
  /** The model that answered. */
  readonly model: string;
  /** The text of the turn. */
  readonly content: string;
  /** The tool calls of the turn (empty when none). */
  readonly toolCalls: readonly ToolCall[];
  /** Why the turn ended. */
  readonly finishReason: FinishReason;
  /** What the turn consumed. */
  readonly usage: Usage;
  /**
   * True when `content` is the model's refusal rather than an answer (OpenAI's
   * `refusal` field, Anthropic's `stop_reason: "refusal"`); `finishReason` is
   * then `"content_filter"`.
   */
  readonly refusal?: boolean;
  /** The model's thinking, when the provider shows it; never part of `content`. */
  readonly reasoning?: string;
  /** What the next request must send back with this turn (see {@linkcode ProviderData}). */
  readonly providerData?: ProviderData;
}
