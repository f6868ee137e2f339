// One model call as a cognition sees it: the events of a streamed call, or
// the events of a blocking call's answer (under agent.run, where nobody reads
// tokens as they come), so a cognition has one loop for both. The turn's
// text, tool calls and ending are folded as the events pass.
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { ProviderData, ToolCall } from "../../ports/message.ts";
import { ProviderError } from "../../ports/provider_errors.ts";
import type { ErrorEvent, MessageEndEvent, StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import type { RunContext } from "../context.ts";
import type { Invoker } from "../invoker.ts";
import { nextOf, PULL } from "../stream/_pull.ts";
import { chatNow } from "../_now.ts";

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
// answer handed out as the events of one message (after the first, each
// ready, without a promise).
function blockingCall(
  invoker: Invoker,
  request: ChatRequest,
  ctx: RunContext,
): AsyncIterableIterator<StreamEvent, void, undefined> {
  return new BlockingCall(invoker, request, ctx);
}

const DONE: IteratorReturnResult<void> = Object.freeze({ done: true, value: undefined });

class BlockingCall implements AsyncIterableIterator<StreamEvent, void, undefined> {
  readonly #invoker: Invoker;
  readonly #request: ChatRequest;
  readonly #ctx: RunContext;
  #events: StreamEvent[] | undefined;
  #i = 0;

  constructor(invoker: Invoker, request: ChatRequest, ctx: RunContext) {
    this.#invoker = invoker;
    this.#request = request;
    this.#ctx = ctx;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent, void>> {
    return nextOf(() => this[PULL]());
  }

  [PULL](): IteratorResult<StreamEvent, void> | Promise<IteratorResult<StreamEvent, void>> {
    if (this.#events) return this.#step(this.#events);
    // The answer as is when it is ready (see ../_now.ts); else one promise
    // past the invoker's.
    let res;
    try {
      res = chatNow(this.#invoker, this.#request, this.#ctx);
    } catch (error) {
      return this.#failed(error);
    }
    return res instanceof Promise
      ? res.then((r) => this.#answered(r), (error) => this.#failed(error))
      : this.#answered(res);
  }

  // The answer's events.
  #answered(res: ChatResponse): IteratorResult<StreamEvent, void> {
    this.#events = []; // an answer that cannot be read fails the call as well
    const events = eventsOf(res);
    this.#events = events;
    return this.#step(events);
  }

  // A length cut's events; any other failure is thrown.
  #failed(error: unknown): IteratorResult<StreamEvent, void> {
    this.#events = []; // a failed call is over: no second attempt from here
    const events = lengthCut(error);
    this.#events = events;
    return this.#step(events);
  }

  #step(events: StreamEvent[]): IteratorResult<StreamEvent, void> {
    return this.#i < events.length ? { done: false, value: events[this.#i++] } : DONE;
  }

  return(): Promise<IteratorResult<StreamEvent, void>> {
    this.#events = [];
    return Promise.resolve(DONE);
  }
}

// A provider that cut the answer off at the token limit gave a truncated
// turn, not an anonymous failure: it ends the run with "length", billed.
// Any other failure is rethrown.
function lengthCut(error: unknown): StreamEvent[] {
  if (!(error instanceof ProviderError) || error.finishReason !== "length") throw error;
  const messageId = `length-cut-${++cuts}`;
  const usage = error.usage;
  return [
    { type: "message_start", messageId },
    { type: "error", messageId, error, finishReason: "length", ...(usage ? { usage } : {}) },
  ];
}

function eventsOf(res: ChatResponse): StreamEvent[] {
  // A plain answer (no thinking, refusal or provider data: nearly every
  // turn) takes the short path: this runs on every model call, and a body
  // V8 can inline leaves room to inline the steps around it (issue 39).
  if (res.reasoning || res.refusal || res.providerData !== undefined) return fullEventsOf(res);
  const messageId = res.id;
  const events: StreamEvent[] = [{ type: "message_start", messageId }];
  if (res.content) events.push({ type: "text_delta", messageId, content: res.content });
  for (const call of res.toolCalls) events.push({ type: "tool_call", messageId, call });
  events.push({
    type: "message_end",
    messageId,
    finishReason: res.finishReason,
    usage: res.usage,
  });
  return events;
}

// The same events, with thinking, a refusal's mark and provider data.
function fullEventsOf(res: ChatResponse): StreamEvent[] {
  const messageId = res.id;
  const events: StreamEvent[] = [{ type: "message_start", messageId }];
  if (res.reasoning) events.push({ type: "reasoning_delta", messageId, content: res.reasoning });
  if (res.content) {
    events.push(
      res.refusal
        ? { type: "text_delta", messageId, content: res.content, refusal: true }
        : { type: "text_delta", messageId, content: res.content },
    );
  }
  for (const call of res.toolCalls) events.push({ type: "tool_call", messageId, call });
  const end: { -readonly [K in keyof MessageEndEvent]: MessageEndEvent[K] } = {
    type: "message_end",
    messageId,
    finishReason: res.finishReason,
    usage: res.usage,
  };
  if (res.providerData !== undefined) end.providerData = res.providerData;
  events.push(end);
  return events;
}

/** What one model call said, folded from its events. */
export class ModelTurn {
  content = "";
  /** Whether the text is the model's refusal. */
  refusal = false;
  /** Whether the model showed any thinking. */
  reasoned = false;
  readonly calls: ToolCall[] = [];
  /** How the call ended; undefined when its stream just stopped. */
  finish: FinishReason | undefined;
  usage: Usage | undefined;
  /** The error event the call failed with, if any. */
  error: ErrorEvent | undefined;
  /** What the provider asked to have sent back with the turn. */
  providerData: ProviderData | undefined;

  add(event: StreamEvent): void {
    switch (event.type) {
      case "text_delta":
        this.content += event.content;
        if (event.refusal) this.refusal = true;
        break;
      case "reasoning_delta":
        this.reasoned = true;
        break;
      case "tool_call":
        this.calls.push(event.call);
        break;
      case "message_end":
        this.finish = event.finishReason;
        this.usage = event.usage;
        this.providerData = event.providerData;
        break;
      case "error":
        this.error = event;
        this.finish = event.finishReason;
        this.usage = event.usage;
        break;
    }
  }
}
