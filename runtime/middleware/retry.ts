/**
 * Retry of pre-stream, retryable model failures.
 *
 * @module
 */
import { ProviderError } from "../../ports/provider_errors.ts";
import type { ChatRequest, ChatResponse } from "../../ports/chat.ts";
import type { RunContext } from "../context.ts";
import { isHarnessError } from "../harness_error.ts";
import { checkOptions, is, type Rule } from "../_options.ts";
import { scriptedBy } from "./_scripted.ts";
import type { ChatMiddleware } from "./types.ts";
import {
  type OpenNext,
  prefetched,
  type Source,
  streamOf,
  type StreamStage,
  withStage,
} from "./_stream_stage.ts";
import { pull } from "../stream/_pull.ts";
import type { Now } from "../_now.ts";
import { chatOf, type ChatStage, type NowNext } from "./_chat_stage.ts";

// A streamed call as a stage opens it: its source, or a promise of it.
type Opened = Source | Promise<Source>;

const RETRY_OPTIONS: Readonly<Record<string, Rule>> = {
  maxAttempts: is.number({ min: 1, integer: true }),
  maxRetryAfterMs: is.ms,
  sleep: is.function,
  backoff: is.function,
  retryOn: is.function,
};

// The names other libraries give the count, pointed at ours.
const RETRY_SETTINGS = {
  hints: {
    attempts: 'did you mean "maxAttempts"? (attempts in total, the first included)',
    retries:
      'did you mean "maxAttempts"? (attempts in total, the first included: retries n is maxAttempts n + 1)',
    maxRetries:
      'did you mean "maxAttempts"? (attempts in total, the first included: maxRetries n is maxAttempts n + 1)',
  },
} as const;

/** Options for {@linkcode retry}. */
export interface RetryOptions {
  /**
   * Attempts in total, the first included.
   * @default {3}
   */
  readonly maxAttempts?: number;
  /**
   * The longest provider `retryAfterMs` hint worth waiting for. A longer one
   * (a gateway saying "come back tomorrow") ends the retries at once with
   * `RetryAfterTooLong` instead of a sleep nobody wants. The default is the
   * official `openai` client's: it honours a `retry-after` of at most 60 s.
   * @default {60_000}
   */
  readonly maxRetryAfterMs?: number;
  /**
   * How to wait between attempts.
   * @default {ctx.clock.sleep}
   */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The wait before attempt `n + 1`, given the failed attempt `n` (1-based).
   * @default {(n) => 200 * 2 ** (n - 1)}
   */
  readonly backoff?: (attempt: number) => number;
  /**
   * Which failures to retry.
   * @default {isRetryable}
   */
  readonly retryOn?: (error: unknown) => boolean;
}

/**
 * The default retry rule: a `ProviderError` marked `retryable` that happened
 * before the stream started, or a `TimeoutError`. Harness errors never are.
 *
 * @param error Anything thrown.
 * @returns Whether another attempt may succeed.
 *
 * @example
 * ```ts
 * import { isRetryable } from "@agentkit/testing/runtime";
 * import { ProviderError, RateLimitError } from "@agentkit/testing/ports";
 * import { assert } from "@std/assert";
 *
 * assert(isRetryable(new RateLimitError()));
 * assert(!isRetryable(new ProviderError("cut", { retryable: true, phase: "mid_stream" })));
 * assert(!isRetryable(new Error("bug")));
 * ```
 */
export function isRetryable(error: unknown): boolean {
  if (isHarnessError(error)) return false;
  if (error instanceof ProviderError) return error.retryable && error.phase === "pre_stream";
  return error instanceof Error && error.name === "TimeoutError";
}

/**
 * Thrown by {@linkcode retry} instead of waiting, when the provider asked for
 * a wait longer than `maxRetryAfterMs`. Not retryable; `cause` is the
 * provider's error.
 *
 * @example A gateway that says "in a day"
 * ```ts
 * import { Agent, retry, RetryAfterTooLong } from "@agentkit/testing/runtime";
 * import { RateLimitError } from "@agentkit/testing/ports";
 * import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals, assertRejects } from "@std/assert";
 *
 * const clock = new FakeClock();
 * const llm = FakeLLM.script([{ error: new RateLimitError("quota", { retryAfterMs: 86_400_000 }) }, "ok"], {
 *   allowUnused: true,
 * });
 * const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry()] });
 * const e = await assertRejects(() => new Agent("a", { model: "m" }).run("go", ctx), RetryAfterTooLong);
 * assertEquals([e.retryAfterMs, e.maxRetryAfterMs, clock.sleeps], [86_400_000, 60_000, []]);
 * ```
 */
export class RetryAfterTooLong extends ProviderError {
  /** What the provider asked to wait (ms). */
  readonly retryAfterMs: number;
  /** The longest wait `retry()` was allowed (ms). */
  readonly maxRetryAfterMs: number;
  /**
   * The message says both waits and how to allow the longer one.
   *
   * @param retryAfterMs What the provider asked to wait.
   * @param maxRetryAfterMs The cap.
   * @param cause The provider's error.
   */
  constructor(retryAfterMs: number, maxRetryAfterMs: number, cause: unknown) {
    super(
      `retry() gave up: the provider asked to wait ${retryAfterMs} ms before trying again, longer than maxRetryAfterMs (${maxRetryAfterMs} ms); raise retry({ maxRetryAfterMs }) if waiting that long is right, or check the account's quota (${
        (cause as Error)?.message ?? String(cause)
      })`,
      { cause, retryable: false, phase: "pre_stream", status: (cause as ProviderError)?.status },
    );
    this.name = "RetryAfterTooLong";
    this.retryAfterMs = retryAfterMs;
    this.maxRetryAfterMs = maxRetryAfterMs;
  }
}

// The provider's retry-after hint is a floor: waiting less only earns another 429.
function waitFor(error: unknown, backoffMs: number): number {
  const hint = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof hint === "number" && hint > backoffMs ? hint : backoffMs;
}

// Retry ran out of attempts on a failure it would have retried: the caller
// gets the same error (its class, name and fields, `cause` included) in a
// copy whose message says so, and names a double's scripted failure. A
// failure retry would not retry and a harness error cross as they are; so
// does anything that is not an Error.
function gaveUp(
  error: unknown,
  n: number,
  retryOn: (error: unknown) => boolean,
): unknown {
  if (!(error instanceof Error) || isHarnessError(error) || !retryOn(error)) return error;
  return annotated(error, n);
}

function annotated(error: Error, n: number): Error {
  const by = scriptedBy(error);
  const message = `${error.message}; retry() gave up after ${n} attempts (maxAttempts: ${n})${
    by ? `; it is ${by}, not a real provider's error` : ""
  }`;
  // The copy's own properties are the error's, a frozen error's included;
  // message and stack are rewritten as an Error's own are made.
  const own = Object.getOwnPropertyDescriptors(error);
  own.message = { value: message, writable: true, enumerable: false, configurable: true };
  const stack = error.stack;
  if (typeof stack === "string") {
    const at = stack.indexOf("\n    at ");
    own.stack = {
      value: `${error.name}: ${message}${at < 0 ? "" : stack.slice(at)}`,
      writable: true,
      enumerable: false,
      configurable: true,
    };
  }
  const copy: Error = Object.create(Object.getPrototypeOf(error), own);
  return copy;
}

function checkedBackoff(backoff: (attempt: number) => number, n: number): number {
  const ms = backoff(n);
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
    throw new RangeError(
      `retry(): backoff(${n}) returned ${
        typeof ms === "number" ? ms : JSON.stringify(ms) ?? String(ms)
      }; it must return a finite number of milliseconds, 0 or more`,
    );
  }
  return ms;
}

/**
 * Re-invokes a model call that failed before its first event with a
 * retryable error, waiting `backoff(n)` ms between attempts on `sleep` (or
 * `ctx.clock`, so a `FakeClock` makes the wait free), and at least the
 * `retryAfterMs` a `RateLimitError` carries (up to `maxRetryAfterMs`, past
 * which it gives up with `RetryAfterTooLong`). A stream that already
 * produced an event is never re-invoked: its tokens were sent.
 *
 * @param options Attempts, wait and rule.
 * @returns The middleware.
 *
 * @example Two failures, then an answer, on a FakeClock
 * ```ts
 * import { Agent, retry } from "@agentkit/testing/runtime";
 * import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const clock = new FakeClock();
 * const llm = new FakeLLM("recovered", { failTimes: 2 });
 * const ctx = makeTestCtx({ llm, clock, chatMiddleware: [retry({ maxAttempts: 3 })] });
 * const result = await new Agent("a", { model: "fake-model" }).run("go", ctx);
 * assertEquals([result.output, llm.calls, clock.sleeps], ["recovered", 3, [200, 400]]);
 * ```
 */
export function retry(options: RetryOptions = {}): ChatMiddleware {
  checkOptions("retry()", options, RETRY_OPTIONS, RETRY_SETTINGS);
  // The checker refuses a maxAttempts that is not a whole number of at least 1.
  const maxAttempts = options.maxAttempts ?? 3;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const backoff = options.backoff ?? ((n: number) => 200 * 2 ** (n - 1));
  const retryOn = options.retryOn ?? isRetryable;
  const sleepOpt = options.sleep;
  const wait = (ms: number, ctx: RunContext): Promise<void> =>
    sleepOpt ? sleepOpt(ms, ctx.signal) : ctx.clock.sleep(ms, ctx.signal);
  // Attempt n failed with `error`: the failure, or the next attempt after
  // the wait (both paths decide and wait alike).
  const after = <T>(
    error: unknown,
    ctx: RunContext,
    n: number,
    retryIt: () => T | Promise<T>,
  ): Promise<T> => {
    if (
      n >= maxAttempts || ctx.signal.aborted || isHarnessError(error) || !retryOn(error)
    ) return Promise.reject(n < maxAttempts || n === 1 ? error : gaveUp(error, n, retryOn));
    let ms;
    try {
      ms = waitFor(error, checkedBackoff(backoff, n));
    } catch (bad) {
      return Promise.reject(bad);
    }
    const hint = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
    if (typeof hint === "number" && hint > maxRetryAfterMs) {
      return Promise.reject(new RetryAfterTooLong(hint, maxRetryAfterMs, error));
    }
    return Promise.resolve(wait(ms, ctx)).then(retryIt);
  };
  // A streamed call is re-opened until its first event arrives; after that
  // its tokens were sent, and a failure is the caller's. An attempt whose
  // first event is ready hands the stream on without a promise, and, as the
  // blocking call below, makes no closure on the way.
  const open = (req: ChatRequest, ctx: RunContext, next: OpenNext, n: number): Opened => {
    let opened;
    try {
      opened = next(req, ctx);
    } catch (error) {
      return reopen(error, undefined, req, ctx, next, n);
    }
    if (opened instanceof Promise) {
      return opened.then(
        (src) => first(src, req, ctx, next, n),
        (error) => reopen(error, undefined, req, ctx, next, n),
      );
    }
    return first(opened, req, ctx, next, n);
  };
  const first = (src: Source, req: ChatRequest, ctx: RunContext, next: OpenNext, n: number) => {
    let step;
    try {
      step = pull(src.iterator);
    } catch (error) {
      return reopen(error, src, req, ctx, next, n);
    }
    if (step instanceof Promise) {
      return step.then(
        (s) => ({ iterator: prefetched(s, src.iterator), taps: src.taps }),
        (error) => reopen(error, src, req, ctx, next, n),
      );
    }
    return { iterator: prefetched(step, src.iterator), taps: src.taps };
  };
  const reopen = (
    error: unknown,
    src: Source | undefined,
    req: ChatRequest,
    ctx: RunContext,
    next: OpenNext,
    n: number,
  ): Promise<Source> => {
    // The layers below see their attempt fail (meter bills what it reported).
    if (src) { for (const tap of src.taps) tap.fail?.(error); }
    return after(error, ctx, n, () => open(req, ctx, next, n + 1));
  };
  const stage: StreamStage = (req, ctx, next) => open(req, ctx, next, 1);
  // A blocking call is re-invoked the same way; an answer on the first
  // attempt crosses as it came (as is when it was ready).
  const attempt = (
    req: ChatRequest,
    ctx: RunContext,
    next: NowNext,
    n: number,
  ): Now<ChatResponse> => {
    let answer;
    try {
      answer = next(req, ctx);
    } catch (error) {
      return again(error, req, ctx, next, n);
    }
    return answer instanceof Promise
      ? answer.then(undefined, (error) => again(error, req, ctx, next, n))
      : answer;
  };
  const again = (
    error: unknown,
    req: ChatRequest,
    ctx: RunContext,
    next: NowNext,
    n: number,
  ): Promise<ChatResponse> => after(error, ctx, n, () => attempt(req, ctx, next, n + 1));
  const chatStage: ChatStage = (req, ctx, next) => attempt(req, ctx, next, 1);
  return withStage(
    { name: "retry", chat: chatOf(chatStage), stream: streamOf(stage) },
    stage,
    chatStage,
  );
}
