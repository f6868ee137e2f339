/**
 * Errors a model provider reports. The retry middleware reads `retryable` and
 * `phase` to decide whether a call may be re-invoked.
 *
 * @module
 */
import type { FinishReason, Usage } from "./usage.ts";

/** When a provider failure happened relative to the first streamed token. */
export type ProviderErrorPhase = "pre_stream" | "mid_stream";

/** Options for {@linkcode ProviderError}. */
export interface ProviderErrorOptions {
  /**
   * Whether trying again may succeed.
   * @default {false}
   */
  readonly retryable?: boolean;
  /**
   * Before any event (`"pre_stream"`) or after tokens were sent (`"mid_stream"`).
   * @default {"pre_stream"}
   */
  readonly phase?: ProviderErrorPhase;
  /** The underlying error. */
  readonly cause?: unknown;
  /** What the provider still billed before failing (a cut-off answer costs money). */
  readonly usage?: Usage;
  /** The finish reason the provider reported with the failure (`"length"` for a cut). */
  readonly finishReason?: FinishReason;
  /** The HTTP status the provider answered with, when the failure was an HTTP answer. */
  readonly status?: number;
}

/**
 * A model provider failed.
 *
 * @example
 * ```ts
 * import { ProviderError } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new ProviderError("bad gateway", { retryable: true });
 * assertEquals([e.name, e.retryable, e.phase], ["ProviderError", true, "pre_stream"]);
 * ```
 */
export class ProviderError extends Error {
  /** Whether trying again may succeed. */
  readonly retryable: boolean;
  /** Before or after the first streamed token. */
  readonly phase: ProviderErrorPhase;
  /** What the provider billed before failing, when it said; `meter()` charges it. */
  readonly usage?: Usage;
  /** The finish reason reported with the failure. */
  readonly finishReason?: FinishReason;
  /** The provider's HTTP status (`429`, `400`), when it answered with one. */
  readonly status?: number;

  /**
   * Not retryable unless `options.retryable` says so; the phase defaults to `pre_stream`.
   *
   * @param message What happened.
   * @param options Retryability, phase and cause.
   */
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
    this.retryable = options.retryable ?? false;
    this.phase = options.phase ?? "pre_stream";
    this.usage = options.usage;
    this.finishReason = options.finishReason;
    this.status = options.status;
  }
}

/**
 * The provider did not answer in time. Retryable before the stream started.
 *
 * @example
 * ```ts
 * import { ProviderTimeoutError } from "@agentkit/testing/ports";
 * import { assert } from "@std/assert";
 *
 * assert(new ProviderTimeoutError("upstream timeout").retryable);
 * ```
 */
export class ProviderTimeoutError extends ProviderError {
  /**
   * Retryable unless `options.retryable` says otherwise.
   *
   * @param message What happened.
   * @param options Phase and cause; retryable defaults to true.
   */
  constructor(message = "provider timed out", options: ProviderErrorOptions = {}) {
    super(message, { retryable: true, ...options });
    this.name = "ProviderTimeoutError";
  }
}

/**
 * The provider rate-limited the call. Always retryable.
 *
 * @example
 * ```ts
 * import { RateLimitError } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new RateLimitError("slow down", { retryAfterMs: 500 }).retryAfterMs, 500);
 * ```
 */
export class RateLimitError extends ProviderError {
  /** How long the provider asked us to wait, if it said. */
  readonly retryAfterMs?: number;

  /**
   * Always retryable; `retry()` waits at least `retryAfterMs` when it is given.
   *
   * @param message What happened.
   * @param options Phase, cause and the provider's retry-after hint.
   */
  constructor(
    message = "rate limited",
    options: Omit<ProviderErrorOptions, "retryable"> & { retryAfterMs?: number } = {},
  ) {
    super(message, { ...options, retryable: true });
    this.name = "RateLimitError";
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The provider answered, but the answer was unusable (cut off, refused,
 * malformed). Not retryable unless said so.
 *
 * @example
 * ```ts
 * import { ProviderResponseError } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(new ProviderResponseError("Hit max tokens").retryable, false);
 * ```
 */
export class ProviderResponseError extends ProviderError {
  /**
   * Not retryable unless `options.retryable` says so: the request itself was refused.
   *
   * @param message What happened.
   * @param options Retryability, phase and cause.
   */
  constructor(message: string, options: ProviderErrorOptions = {}) {
    super(message, options);
    this.name = "ProviderResponseError";
  }
}
