// One model call as a cognition sees it: the events of a streamed call, or
// the events of a blocking call's answer (under agent.run, where nobody reads
// tokens as they come), so a cognition has one loop for both. The turn's
// text, tool calls and ending are folded as the events pass.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { ToolCall } from "../../ports/message.ts";
import { ProviderError } from "../../ports/provider_errors.ts";
import type { ErrorEvent, StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { RunContext } from "../context.ts";
import type { Invoker } from "../invoker.ts";
import { nextOf, PULL, type Pullable } from "../_pull.ts";

/** The events of one model call through the invoker's chain. */
export function modelCall(
  invoker: Invoker,
  request: ChatRequest,
  ctx: RunContext,
  streaming: boolean,
): AsyncIterable<StreamEvent> {
  return streaming ? invoker.stream(request, ctx) : blockingCall(invoker, request, ctx);
}

let cuts = 0;

// The events of a blocking call: the call is made on the first step, and its
// answer handed out as the events of one message.
function blockingCall(
  invoker: Invoker,
  request: ChatRequest,
  ctx: RunContext,
): AsyncIterableIterator<StreamEvent, void, undefined> {
  let events: StreamEvent[] | undefined;
  let i = 0;
  const DONE: IteratorReturnResult<void> = { done: true, value: undefined };
  const step = (): IteratorResult<StreamEvent, void> =>
    i < events!.length ? { done: false, value: events![i++] } : DONE;
  const it: Pullable<StreamEvent, void> & AsyncIterableIterator<StreamEvent, void, undefined> = {
    [Symbol.asyncIterator]: () => it,
    next: () => nextOf(() => it[PULL]!()),
    // The answer's events after the first are ready: no promise each.
    [PULL]: () => {
      if (events) return step();
      return answer(invoker, request, ctx).then((e) => {
        events = e;
        return step();
      }, (error) => {
        events = []; // a failed call is over: no second attempt from here
        throw error;
      });
    },
    return: () => {
      events = [];
      return Promise.resolve(DONE);
    },
  };
  return it;
}

async function answer(
  invoker: Invoker,
  request: ChatRequest,
  ctx: RunContext,
): Promise<StreamEvent[]> {
  let res: ChatResponse;
  try {
    res = await invoker.chat(request, ctx);
  } catch (error) {
    // A provider that cut the answer off at the token limit gave a truncated
    // turn, not an anonymous failure: it ends the run with "length", billed.
    if (!(error instanceof ProviderError) || error.finishReason !== "length") throw error;
    const messageId = `length-cut-${++cuts}`;
    const usage = error.usage;
    return [
      { type: "message_start", messageId },
      { type: "error", messageId, error, finishReason: "length", ...(usage ? { usage } : {}) },
    ];
  }
  const messageId = res.id;
  const events: StreamEvent[] = [{ type: "message_start", messageId }];
  if (res.content) events.push({ type: "text_delta", messageId, content: res.content });
  for (const call of res.toolCalls) events.push({ type: "tool_call", messageId, call });
  events.push({ type: "message_end", messageId, finishReason: res.finishReason, usage: res.usage });
  return events;
}

/** What one model call said, folded from its events. */
export class ModelTurn {
  content = "";
  readonly calls: ToolCall[] = [];
  /** How the call ended; undefined when its stream just stopped. */
  finish: FinishReason | undefined;
  usage: Usage | undefined;
  /** The error event the call failed with, if any. */
  error: ErrorEvent | undefined;

  add(event: StreamEvent): void {
    switch (event.type) {
      case "text_delta":
        this.content += event.content;
        break;
      case "tool_call":
        this.calls.push(event.call);
        break;
      case "message_end":
        this.finish = event.finishReason;
        this.usage = event.usage;
        break;
      case "error":
        this.error = event;
        this.finish = event.finishReason;
        this.usage = event.usage;
        break;
    }
  }
}
