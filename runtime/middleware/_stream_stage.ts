// How a streamed model call crosses the chat chain without one async
// generator per middleware. Each layer is a stage that opens the call: it may
// act before the provider is called (meter's check, memoize's lookup),
// replace the source (a cache hit), re-open it (retry, before the first
// event), wrap its iterator (timeout), or watch its events through a tap: a
// plain callback that one driver loop calls per event. The stages are
// composed once per Invoker; the driver is the one generator a call crosses.
import type { ChatRequest } from "../../ports/chat.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { RunContext } from "../context.ts";
import type { ChatMiddleware, StreamNext } from "./types.ts";
import { PULL, pull, type Pullable, PullGenerator } from "../stream/_pull.ts";
import { ownStreamStage, staged, type StagedParts } from "./_staged.ts";
import type { ChatStage } from "./_chat_stage.ts";

/** What a layer watches on a call's events. Taps run innermost first. */
export interface Tap {
  /** Sees each event before the layers above it. */
  event?(event: StreamEvent): void;
  /** After the last event of a stream that ended by itself. */
  end?(): void | Promise<void>;
  /** The stream threw `error` (before or after events). */
  fail?(error: unknown): void;
}

/** One streamed call as a layer hands it up: its events and the taps on them. */
export interface Source {
  readonly iterator: AsyncIterator<StreamEvent, unknown, undefined>;
  readonly taps: Tap[];
}

/** Opens the rest of the chain. */
export type OpenNext = (request: ChatRequest, ctx: RunContext) => Source | Promise<Source>;

/** A layer: opens the call through `next`, doing its part. */
export type StreamStage = (
  request: ChatRequest,
  ctx: RunContext,
  next: OpenNext,
) => Source | Promise<Source>;

/**
 * A built-in middleware made of `parts`, keeping its stream stage and, for
 * a blocking call, its chat stage (see ./_staged.ts).
 */
export function withStage(
  parts: StagedParts,
  stage: StreamStage,
  chatStage?: ChatStage,
): ChatMiddleware {
  return staged(parts, stage, chatStage);
}

/** The stage of a middleware: its own, an adapter of its `stream`, or none. */
export function stageOf(mw: ChatMiddleware): StreamStage | undefined {
  const own = ownStreamStage(mw);
  if (own) return own;
  if (!mw.stream) return undefined;
  const handler = mw.stream.bind(mw);
  // A hand-written middleware wraps an iterable: it gets the rest of the
  // chain driven as one, and pays for its own generator.
  return (req, ctx, next) =>
    source(handler(req, ctx, (r, c) => drive(() => next(r, c), undefined)));
}

/** A source of plain events, nothing watching them. */
export function source(events: AsyncIterable<StreamEvent>): Source {
  return { iterator: events[Symbol.asyncIterator](), taps: [] };
}

/** Adds `tap` to the source `opened` resolves to. */
export function tapped(opened: Source | Promise<Source>, tap: Tap): Source | Promise<Source> {
  if (opened instanceof Promise) {
    return opened.then((s) => {
      s.taps.push(tap);
      return s;
    });
  }
  opened.taps.push(tap);
  return opened;
}

/** The stage's middleware `stream`, for direct callers: drives the stage over `next`. */
export function streamOf(stage: StreamStage): NonNullable<ChatMiddleware["stream"]> {
  return (req: ChatRequest, ctx: RunContext, next: StreamNext) =>
    drive(() => stage(req, ctx, (r, c) => source(next(r, c))), undefined);
}

/**
 * The one loop of a streamed call: opens the chain on the first step, calls
 * the taps per event, and closes the source when the consumer stops early.
 * Hand-written rather than a generator: it is on every event's path.
 */
export function drive(
  open: () => Source | Promise<Source>,
  onEnd: (() => void) | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  return new Driven(open, onEnd);
}

const DONE: IteratorReturnResult<void> = Object.freeze({ done: true, value: undefined });

class Driven extends PullGenerator<StreamEvent> {
  readonly #open: () => Source | Promise<Source>;
  readonly #onEnd: (() => void) | undefined;
  #src: Source | undefined;
  // The taps, when one of them watches events.
  #watch: readonly Tap[] | undefined;
  #done = false;
  #closed = false;

  constructor(open: () => Source | Promise<Source>, onEnd: (() => void) | undefined) {
    super();
    this.#open = open;
    this.#onEnd = onEnd;
  }

  // The step as soon as it is ready: a scripted double's events cross the
  // chain without a promise each.
  [PULL](): IteratorResult<StreamEvent, void> | Promise<IteratorResult<StreamEvent, void>> {
    if (this.#done) return DONE;
    const src = this.#src;
    if (src !== undefined) return this.#step(src);
    let opened: Source | Promise<Source>;
    try {
      opened = this.#open();
    } catch (error) {
      this.#close();
      throw error;
    }
    if (opened instanceof Promise) {
      return opened.then((s) => this.#step(this.#opened(s)), (error) => {
        this.#close();
        throw error;
      });
    }
    return this.#step(this.#opened(opened));
  }

  #opened(src: Source): Source {
    this.#src = src;
    this.#watch = watching(src.taps) ? src.taps : undefined;
    return src;
  }

  #step(
    src: Source,
  ): IteratorResult<StreamEvent, void> | Promise<IteratorResult<StreamEvent, void>> {
    let step: IteratorResult<StreamEvent, unknown> | Promise<IteratorResult<StreamEvent, unknown>>;
    try {
      step = pull(src.iterator);
    } catch (error) {
      this.#failed(src, error);
    }
    if (step instanceof Promise) {
      return step.then((s) => this.#took(src, s), (error) => this.#failed(src, error));
    }
    return this.#took(src, step);
  }

  #took(
    src: Source,
    step: IteratorResult<StreamEvent, unknown>,
  ): IteratorResult<StreamEvent, void> | Promise<IteratorResult<StreamEvent, void>> {
    if (step.done) {
      this.#done = true;
      return this.#ended(src.taps, 0);
    }
    const watch = this.#watch;
    if (watch !== undefined) { for (const tap of watch) tap.event?.(step.value); }
    return step;
  }

  // The end taps in order, each awaited only when it returns a promise.
  #ended(
    taps: readonly Tap[],
    from: number,
  ): IteratorResult<StreamEvent, void> | Promise<IteratorResult<StreamEvent, void>> {
    for (let i = from; i < taps.length; i++) {
      const end = taps[i].end;
      if (!end) continue;
      let ended: void | Promise<void>;
      try {
        ended = end.call(taps[i]);
      } catch (error) {
        this.#close();
        throw error;
      }
      if (ended instanceof Promise) {
        return ended.then(() => this.#ended(taps, i + 1), (error) => {
          this.#close();
          throw error;
        });
      }
    }
    this.#close();
    return DONE;
  }

  #failed(src: Source, error: unknown): never {
    this.#close();
    for (const tap of src.taps) tap.fail?.(error);
    throw error;
  }

  async return(): Promise<IteratorResult<StreamEvent, void>> {
    if (!this.#done) {
      this.#done = true;
      try {
        await this.#src?.iterator.return?.();
      } finally {
        this.#close();
      }
    }
    return DONE;
  }

  #close(): void {
    this.#done = true;
    if (this.#closed) return;
    this.#closed = true;
    this.#onEnd?.();
  }
}

// Whether a tap watches events (a source's taps are called in place, with
// no closure made per call).
function watching(taps: readonly Tap[]): boolean {
  for (const t of taps) if (t.event) return true;
  return false;
}

/**
 * An iterator that gives `first` and then the rest of `rest`: how a stage
 * that had to see the first event (retry) hands the stream on.
 */
export function prefetched(
  first: IteratorResult<StreamEvent, unknown>,
  rest: AsyncIterator<StreamEvent, unknown, undefined>,
): AsyncIterator<StreamEvent, unknown, undefined> {
  return new Prefetched(first, rest);
}

class Prefetched implements Pullable<StreamEvent, unknown> {
  #head: IteratorResult<StreamEvent, unknown> | undefined;
  readonly #rest: AsyncIterator<StreamEvent, unknown, undefined>;

  constructor(
    first: IteratorResult<StreamEvent, unknown>,
    rest: AsyncIterator<StreamEvent, unknown, undefined>,
  ) {
    this.#head = first;
    this.#rest = rest;
  }

  next(): Promise<IteratorResult<StreamEvent, unknown>> {
    const h = this.#head;
    if (h === undefined) return this.#rest.next();
    this.#head = undefined;
    return Promise.resolve(h);
  }

  [PULL](): IteratorResult<StreamEvent, unknown> | Promise<IteratorResult<StreamEvent, unknown>> {
    const h = this.#head;
    if (h === undefined) return pull(this.#rest);
    this.#head = undefined;
    return h;
  }

  return(value?: unknown): Promise<IteratorResult<StreamEvent, unknown>> {
    this.#head = undefined;
    const rest = this.#rest;
    return rest.return ? rest.return(value) : Promise.resolve({ done: true, value });
  }
}

/** An iterator over stored events (a cache hit). */
export function replay(events: readonly StreamEvent[]): Source {
  return source((async function* () {
    yield* events;
  })());
}
