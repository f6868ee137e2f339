/**
 * The shapes of chat and tool middleware.
 *
 * @module
 */
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { ToolPort } from "../../ports/tool.ts";
import type { RunContext } from "../context.ts";

/** The rest of the chat chain, for a blocking call. */
export type ChatNext = (request: ChatRequest, ctx: RunContext) => Promise<ChatResponse>;
/** The rest of the chat chain, for a streamed call. */
export type StreamNext = (request: ChatRequest, ctx: RunContext) => AsyncIterable<StreamEvent>;

/**
 * Wraps every model call. A middleware without `chat` (or `stream`) passes
 * that kind of call straight through.
 *
 * @example A middleware that stamps a temperature
 * ```ts
 * import type { ChatMiddleware } from "@agentkit/testing/runtime";
 * const cold: ChatMiddleware = {
 *   name: "cold",
 *   chat: (req, ctx, next) => next({ ...req, settings: { ...req.settings, temperature: 0 } }, ctx),
 * };
 * ```
 */
export interface ChatMiddleware {
  /** A name for messages and traces. */
  readonly name: string;
  /** True for a middleware that charges `ctx.allMeters` (what `meter()` returns). */
  readonly charges?: boolean;
  /** Wraps a blocking call. */
  chat?(request: ChatRequest, ctx: RunContext, next: ChatNext): Promise<ChatResponse>;
  /** Wraps a streamed call. */
  stream?(request: ChatRequest, ctx: RunContext, next: StreamNext): AsyncIterable<StreamEvent>;
}

/**
 * One tool call on its way through the tool chain; `args` are already
 * parsed and validated.
 *
 * @example
 * ```ts
 * import type { ToolInvocation } from "@agentkit/testing/runtime";
 * import { FakeTool } from "@agentkit/testing/testing";
 * const inv: ToolInvocation = {
 *   tool: new FakeTool({ name: "t", responder: 1 }),
 *   call: { id: "c1", name: "t", args: {} },
 *   args: {},
 * };
 * ```
 */
export interface ToolInvocation {
  /** The tool. */
  readonly tool: ToolPort;
  /** The call as the model made it. */
  readonly call: ToolCall;
  /** The validated arguments. */
  readonly args: Record<string, unknown>;
}

/** The rest of the tool chain. */
export type ToolNext = (invocation: ToolInvocation, ctx: RunContext) => Promise<unknown>;

/**
 * Wraps every tool call.
 *
 * @example A middleware that logs tool names
 * ```ts
 * import type { ToolMiddleware } from "@agentkit/testing/runtime";
 * const seen: string[] = [];
 * const log: ToolMiddleware = {
 *   name: "log",
 *   call: (inv, ctx, next) => { seen.push(inv.tool.name); return next(inv, ctx); },
 * };
 * ```
 */
export interface ToolMiddleware {
  /** A name for messages and traces. */
  readonly name: string;
  /** Wraps one tool call. */
  call(invocation: ToolInvocation, ctx: RunContext, next: ToolNext): Promise<unknown>;
}
