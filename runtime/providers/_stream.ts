// The part of a streamed answer both wires share: the state every fold keeps
// (message id, finish reason, usage so far), the error event a failure
// becomes, and the loop that reads SSE batches and yields their events.
import { ProviderError, ProviderResponseError } from "../../ports/provider_errors.ts";
import type { ProviderData } from "../../ports/message.ts";
import type { MessageEndEvent, StreamEvent } from "../../ports/stream_event.ts";
import type { FinishReason, Usage } from "../../ports/usage.ts";
import { markCut } from "../stream/_stream_cut.ts";
import { type SseMessage, SseReader } from "./_sse.ts";
import { errorFromBody } from "./_http.ts";
import { MalformedAnswer } from "./_wire_shape.ts";

/** A fold of one wire's SSE messages into stream events. */
export abstract class WireStream {
  messageId: string | undefined;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
  /** What the next request must send back with this turn, set by the fold before `finish`. */
  providerData: ProviderData | undefined;
  done = false;

  /**
   * @param provider The provider's name, for messages.
   * @param terminator What a complete answer ends with, for the message of one cut short.
   */
  constructor(readonly provider: string, readonly terminator: string) {}

  /** Whether content (an event past `message_start`) reached the caller. */
  delivered = false;

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
    const end: { -readonly [K in keyof MessageEndEvent]: MessageEndEvent[K] } = {
      type: "message_end",
      messageId: this.messageId!,
      finishReason: this.finishReason ?? (hadCalls ? "tool_calls" : "stop"),
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0 },
    };
    if (this.providerData !== undefined) end.providerData = this.providerData;
    out.push(end);
  }

  start(id: string | undefined, out: StreamEvent[]): void {
    if (this.messageId !== undefined) return;
    this.messageId = id ?? "";
    out.push({ type: "message_start", messageId: this.messageId });
  }

  /**
   * Ends the stream with an error event that carries the finish reason and
   * usage reported so far (a cut-off answer is still billed). Before any
   * content the call can still be retried, so the failure is thrown as a
   * `pre_stream` error instead (retryable when cut or as its type says).
   *
   * @param out The events of the current batch.
   * @param error A message (a cut, or a malformed answer), or the error the
   *   provider reported, built for the phase it turns out to be in.
   * @param options `cut` when the connection was cut, and its `cause`.
   */
  fail(
    out: StreamEvent[],
    error:
      | string
      | ((
        phase: "pre_stream" | "mid_stream",
        reported: { finishReason?: FinishReason; usage?: Usage },
      ) => ProviderError),
    options: { cut?: boolean; cause?: unknown } = {},
  ): void {
    if (!this.delivered && out.every((e) => e.type === "message_start")) {
      out.length = 0;
      this.done = true;
      if (typeof error !== "string") throw error("pre_stream", {});
      if (options.cut) {
        throw new ProviderError(`${error} before its first event; try again`, {
          retryable: true,
          phase: "pre_stream",
          cause: options.cause,
        });
      }
      throw new ProviderResponseError(error, { phase: "pre_stream", cause: options.cause });
    }
    this.done = true;
    this.start(undefined, out);
    const reported = { finishReason: this.finishReason, usage: this.usage };
    let built: ProviderError;
    if (typeof error !== "string") built = error("mid_stream", reported);
    else if (options.cut) {
      built = markCut(
        new ProviderError(`${error} after it started; the answer is incomplete`, {
          phase: "mid_stream",
          cause: options.cause,
          ...reported,
        }),
      );
    } else built = new ProviderResponseError(error, { phase: "mid_stream", ...reported });
    const event: {
      type: "error";
      messageId: string;
      error: Error;
      finishReason?: FinishReason;
      usage?: Usage;
    } = { type: "error", messageId: this.messageId!, error: built };
    if (this.finishReason !== undefined) event.finishReason = this.finishReason;
    if (this.usage !== undefined) event.usage = this.usage;
    out.push(event);
  }
}

/**
 * Sends the request (`open`, run on the first `next()`), reads the SSE body
 * of its response through `wire` and yields its events: one generator for the
 * whole call. `message_start` is held until content follows it, so a failure
 * before any content (an empty body, a JSON or HTML answer, a first event
 * that is the provider's error) is thrown as a `pre_stream` error that
 * `retry()` can act on; after content, it is an `error` event in phase
 * `mid_stream`. Cancellation rethrows the signal's reason.
 */
export async function* readWireStream(
  open: () => Promise<Response>,
  wire: WireStream,
  signal: AbortSignal | undefined,
  scrub?: (error: unknown) => unknown,
): AsyncGenerator<StreamEvent, void, undefined> {
  // Scrubbing happens here, not in a wrapping iterator, so a stream costs no
  // extra promise per event: the try costs nothing until something throws.
  try {
    const response = await open();
    if (!response.body) {
      throw new ProviderResponseError(`${wire.provider} answered a stream request with no body`);
    }
    const type = response.headers.get("content-type") ?? "";
    if (/json|html/i.test(type)) throw await notAStream(wire.provider, response, type, signal);
    const reader = new SseReader(response.body);
    const out: StreamEvent[] = [];
    try {
      while (!wire.done) {
        let batch: SseMessage[] | undefined;
        try {
          batch = await reader.next();
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          wire.fail(
            out,
            `${wire.provider} stream was cut (${(error as Error)?.message ?? error})`,
            {
              cut: true,
              cause: error,
            },
          );
          batch = [];
        }
        if (batch === undefined) fold(wire, out, () => wire.endOfBody(out));
        else {
          for (let i = 0; i < batch.length && !wire.done; i++) {
            const message = batch[i];
            fold(wire, out, () => wire.push(message, out), message.data);
          }
        }
        if (!wire.delivered) {
          // Only message_start so far: hold it until content (or a failure) decides the phase.
          if (!wire.done && out.every((e) => e.type === "message_start")) continue;
          wire.delivered = true;
        }
        for (let i = 0; i < out.length; i++) {
          const event = out[i];
          if (scrub && event.type === "error") {
            const error = scrub(event.error) as Error;
            yield error === event.error ? event : { ...event, error };
          } else yield event;
        }
        out.length = 0;
      }
    } finally {
      await reader.cancel();
    }
  } catch (error) {
    throw scrub ? scrub(error) : error;
  }
}

// One step of the fold; an answer that is not the wire's shape ends the
// stream as the wire's failure, never as a TypeError or silently.
function fold(wire: WireStream, out: StreamEvent[], step: () => void, data?: string): void {
  try {
    step();
  } catch (error) {
    if (error instanceof SyntaxError) {
      wire.fail(
        out,
        `${wire.provider} sent a stream message that is not JSON (${error.message}): ${
          (data ?? "").slice(0, 200)
        }`,
      );
    } else if (error instanceof MalformedAnswer) wire.fail(out, error.message);
    else throw error;
  }
}

// A stream request answered with a JSON or HTML document: the provider's
// error (classified by its type), or a server that ignored `stream: true`.
async function notAStream(
  provider: string,
  response: Response,
  type: string,
  signal: AbortSignal | undefined,
): Promise<ProviderError> {
  let text = "";
  try {
    text = await response.text();
  } catch {
    if (signal?.aborted) throw signal.reason;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: described below
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (error !== undefined && error !== null) return errorFromBody(provider, error, "pre_stream");
  return new ProviderResponseError(
    `${provider} answered a stream request with ${type.split(";")[0]} instead of an event stream (${
      text.trim().slice(0, 200) || "an empty body"
    }); check the baseURL (a proxy page?) and that the server supports streaming`,
    { phase: "pre_stream" },
  );
}
