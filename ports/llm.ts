/**
 * The model port.
 *
 * @module
 */
import type { ChatRequest, ChatResponse } from "./chat.ts";
import type { Ctx } from "./context.ts";
import type { StreamEvent } from "./stream_event.ts";

/**
 * A single-prompt request for {@linkcode LLMPort.complete}.
 *
 * @example
 * ```ts
 * import type { CompleteRequest } from "@agentkit/testing/ports";
 * const r: CompleteRequest = { system: "Be brief.", user: "hi", model: "fake-model" };
 * ```
 */
export interface CompleteRequest {
  /** The system prompt. */
  readonly system: string;
  /** The user prompt. */
  readonly user: string;
  /** The model name. */
  readonly model: string;
  /** Cancels the call. */
  readonly signal?: AbortSignal;
}

/**
 * A language model. The optional `ctx` lets an implementation wait on the
 * run's clock and honour its cancellation; the runtime always passes it.
 *
 * @example A hand-rolled model
 * ```ts
 * import type { ChatRequest, ChatResponse, LLMPort, StreamEvent } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const answer = (model: string): ChatResponse => ({
 *   id: "r", model, content: "hi", toolCalls: [], finishReason: "stop",
 *   usage: { inputTokens: 1, outputTokens: 1 },
 * });
 * const llm: LLMPort = {
 *   chat: (req: ChatRequest) => Promise.resolve(answer(req.model)),
 *   async *stream(): AsyncIterable<StreamEvent> {},
 *   complete: (req) => Promise.resolve(answer(req.model)),
 * };
 * assertEquals((await llm.chat({ model: "m", messages: [] })).content, "hi");
 * ```
 */
export interface LLMPort {
  /** One blocking model call. */
  chat(request: ChatRequest, ctx?: Ctx): Promise<ChatResponse>;
  /** One streamed model call. */
  stream(request: ChatRequest, ctx?: Ctx): AsyncIterable<StreamEvent>;
  /** A system + user prompt, answered blocking. */
  complete(request: CompleteRequest, ctx?: Ctx): Promise<ChatResponse>;
}
