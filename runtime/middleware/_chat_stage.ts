// How a blocking model call crosses the chat chain without a promise per
// middleware. A built-in middleware keeps its layer as a chat stage: it calls
// `next`, which may answer as is or throw (see ../_now.ts), and answers the
// same way, so a scripted answer crosses retry and meter as a plain value.
// The middleware's own `chat` is that stage with a promise face, for callers
// that use the middleware directly; a hand-written middleware is adapted and
// pays for its promise.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { RunContext } from "../context.ts";
import { adopt, type Now, promised } from "../_now.ts";
import type { ChatMiddleware } from "./types.ts";
import { ownChatStage } from "./_staged.ts";

/** The rest of the chain, as a chat stage calls it. */
export type NowNext = (request: ChatRequest, ctx: RunContext) => Now<ChatResponse>;

/** A layer of a blocking call: answers through `next`, doing its part. */
export type ChatStage = (
  request: ChatRequest,
  ctx: RunContext,
  next: NowNext,
) => Now<ChatResponse>;

/** The `chat` method of a middleware whose layer is `stage`. */
export function chatOf(stage: ChatStage): NonNullable<ChatMiddleware["chat"]> {
  return (req, ctx, next) => promised(() => stage(req, ctx, next));
}

/** The chat stage of a middleware: its own, an adapter of its `chat`, or none. */
export function chatStageOf(mw: ChatMiddleware): ChatStage | undefined {
  const own = ownChatStage(mw);
  if (own) return own;
  if (!mw.chat) return undefined;
  const handler = mw.chat.bind(mw);
  return (req, ctx, next) => adopt(handler(req, ctx, (r, c) => promised(() => next(r, c))));
}
