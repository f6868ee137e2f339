// The part of a streamed answer both wires share: the state every fold keeps
// (message id, finish reason, usage so far), the error event a failure
// becomes, and the loop that reads SSE batches and yields their events.
import { ProviderError, ProviderResponseError } from "../../ports/provider_errors.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { markCut } from "../stream/_stream_cut.ts";
import { type SseMessage, SseReader } from "./_sse.ts";

/** A fold of one wire's SSE messages into stream events. */
export abstract class WireStream {
  messageId: string | undefined;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
  done = false;

  /**
   * @param provider The provider's name, for messages.
   * @param terminator What a complete answer ends with, for the message of one cut short.
   */
  constructor(readonly provider: string, readonly terminator: string) {}

  /** Whether an event was produced, so the call can no longer be retried. */
  get started(): boolean {
    return this.messageId !== undefined;
  }

  /** Events for one message. */
  abstract push(message: SseMessage, out: StreamEvent[]): void;

  /** The wire's terminator: what is still owed, then `message_end` (see {@linkcode finish}). */
  abstract end(out: StreamEvent[]): void;

  /**
   * Events for a body that ended without the wire's terminator. Some
   * compatible servers omit it: an answer that reported its finish reason is
   * complete; any other was cut.
   */
  endOfBody(out: StreamEvent[]): void {
    if (this.finishReason !== undefined) return this.end(out);
    this.fail(
      out,
      `${this.provider} stream ended before ${this.terminator}: the connection was cut`,
      { cut: true },
    );
  }

  /**
   * Ends the stream with `message_end`, carrying the usage reported so far; a
   * wire that reported no finish reason ended with tool calls if it `hadCalls`.
   */
  finish(out: StreamEvent[], hadCalls: boolean): void {
    this.done = true;
    this.start(undefined, out);
    out.push({
      type: "message_end",
      messageId: this.messageId!,
      finishReason: this.finishReason ?? (hadCalls ? "tool_calls" : "stop"),
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0 },
    });
  }

  start(id: string | undefined, out: StreamEvent[]): void {
    if (this.messageId !== undefined) return;
    this.messageId = id ?? "";
    out.push({ type: "message_start", messageId: this.messageId });
  }

  /**
   * Ends the stream with an error event that carries the finish reason and
   * usage reported so far (a cut-off answer is still billed).
   */
  fail(
    out: StreamEvent[],
    message: string,
    options: { cut?: boolean; cause?: unknown } = {},
  ): void {
    this.done = true;
    this.start(undefined, out);
    const reported = { finishReason: this.finishReason, usage: this.usage };
    const error = options.cut
      ? markCut(
        new ProviderError(message, { phase: "mid_stream", cause: options.cause, ...reported }),
      )
      : new ProviderResponseError(message, { phase: "mid_stream", ...reported });
    const event: {
      type: "error";
      messageId: string;
      error: Error;
      finishReason?: FinishReason;
      usage?: Usage;
    } = { type: "error", messageId: this.messageId!, error };
    if (this.finishReason !== undefined) event.finishReason = this.finishReason;
    if (this.usage !== undefined) event.usage = this.usage;
    out.push(event);
  }
}

/**
 * Sends the request (`open`, run on the first `next()`), reads the SSE body
 * of its response through `wire` and yields its events: one generator for the
 * whole call. A failure before the first event is a retryable `pre_stream`
 * error (nothing was delivered); after it, an `error` event in phase
 * `mid_stream`. Cancellation rethrows the signal's reason.
 */
export async function* readWireStream(
  open: () => Promise<Response>,
  wire: WireStream,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const response = await open();
  if (!response.body) {
    throw new ProviderResponseError(`${wire.provider} answered a stream request with no body`);
  }
  const reader = new SseReader(response.body);
  const out: StreamEvent[] = [];
  try {
    while (!wire.done) {
      let batch: SseMessage[] | undefined;
      try {
        batch = await reader.next();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const what = `${wire.provider} stream was cut (${(error as Error)?.message ?? error})`;
        if (!wire.started) {
          throw new ProviderError(`${what} before its first event; try again`, {
            retryable: true,
            phase: "pre_stream",
            cause: error,
          });
        }
        wire.fail(out, `${what} after it started; the answer is incomplete`, {
          cut: true,
          cause: error,
        });
        batch = [];
      }
      if (batch === undefined) wire.endOfBody(out);
      else {
        for (let i = 0; i < batch.length && !wire.done; i++) {
          try {
            wire.push(batch[i], out);
          } catch (error) {
            if (!(error instanceof SyntaxError)) throw error;
            wire.fail(
              out,
              `${wire.provider} sent a stream message that is not JSON (${error.message}): ${
                batch[i].data.slice(0, 200)
              }`,
            );
          }
        }
      }
      for (let i = 0; i < out.length; i++) yield out[i];
      out.length = 0;
    }
  } finally {
    await reader.cancel();
  }
}
