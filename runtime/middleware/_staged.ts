// Where a built-in middleware keeps its layers: the stream stage the invoker
// composes for a streamed call (./_stream_stage.ts) and, for retry and
// meter, the chat stage for a blocking one (./_chat_stage.ts). They live in
// private fields of the middleware object: a copy of it (`{ ...retry(),
// chat: mine }`) does not take them along, so the copy's own methods are the
// ones called. Private fields rather than hidden properties: a test builds
// its middleware every time, and defining a property costs more than the
// rest of building it.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { RunContext } from "../context.ts";
import type { ChatStage } from "./_chat_stage.ts";
import type { StreamStage } from "./_stream_stage.ts";
import type { ChatMiddleware, ChatNext, StreamNext } from "./types.ts";

/** What a built-in middleware is made of. */
export interface StagedParts {
  /** The middleware's name. */
  readonly name: string;
  /** Whether it charges meters. */
  readonly charges?: boolean;
  /** Its blocking call, as its direct callers see it. */
  readonly chat?: (req: ChatRequest, ctx: RunContext, next: ChatNext) => Promise<ChatResponse>;
  /** Its streamed call, as its direct callers see it. */
  readonly stream: (
    req: ChatRequest,
    ctx: RunContext,
    next: StreamNext,
  ) => AsyncIterable<StreamEvent>;
}

let streamStageOf: (mw: Staged) => StreamStage | undefined;
let chatStageOf: (mw: Staged) => ChatStage | undefined;

class Staged implements ChatMiddleware {
  readonly name: string;
  declare readonly charges?: boolean;
  declare readonly chat?: StagedParts["chat"];
  readonly stream: StagedParts["stream"];
  readonly #parts: StagedParts;
  readonly #stream: StreamStage;
  readonly #chat: ChatStage | undefined;

  constructor(parts: StagedParts, stream: StreamStage, chat: ChatStage | undefined) {
    this.name = parts.name;
    if (parts.charges) (this as { charges?: boolean }).charges = true;
    if (parts.chat) this.chat = parts.chat;
    this.stream = parts.stream;
    this.#parts = parts;
    this.#stream = stream;
    this.#chat = chat;
  }

  static {
    // A stage stands for its method only while that method is the one the
    // middleware was built with (a test may have replaced or spied on it).
    streamStageOf = (mw) => mw.stream === mw.#parts.stream ? mw.#stream : undefined;
    chatStageOf = (mw) => mw.chat === mw.#parts.chat ? mw.#chat : undefined;
  }
}

/** A built-in middleware of `parts`, keeping its stream stage and its chat stage. */
export function staged(
  parts: StagedParts,
  stream: StreamStage,
  chat?: ChatStage,
): ChatMiddleware {
  return new Staged(parts, stream, chat);
}

/** The stream stage a built-in middleware keeps, if `mw` is one and its `stream` is its own. */
export function ownStreamStage(mw: ChatMiddleware): StreamStage | undefined {
  return mw instanceof Staged ? streamStageOf(mw) : undefined;
}

/** The chat stage a built-in middleware keeps, if `mw` is one, has it, and its `chat` is its own. */
export function ownChatStage(mw: ChatMiddleware): ChatStage | undefined {
  return mw instanceof Staged ? chatStageOf(mw) : undefined;
}
