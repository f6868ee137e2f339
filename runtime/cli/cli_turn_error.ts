/**
 * The error of a CLI turn that went wrong.
 *
 * @module
 */
import type { CliStderr } from "../../ports/cli.ts";
import { ProviderError } from "../../ports/provider_errors.ts";
import type { Usage } from "../../ports/usage.ts";

/**
 * How a CLI turn failed:
 * - `"spawn"`: the program could not be started (not installed, not allowed);
 * - `"exited"`: the process exited non-zero before the turn ended;
 * - `"incomplete"`: the output ended without a final `result` / `turn.completed`;
 * - `"reported"`: the CLI itself reported a failed turn (`is_error`, `turn.failed`).
 */
export type CliFailure = "spawn" | "exited" | "incomplete" | "reported";

/** Options for {@linkcode CliTurnError}. */
export interface CliTurnErrorOptions {
  /** How the turn failed. */
  readonly failure: CliFailure;
  /** The binary that was run. */
  readonly binary: string;
  /**
   * What the process left on stderr.
   * @default {none}
   */
  readonly stderr?: CliStderr;
  /**
   * The CLI's own error kind (claude's `result.subtype`).
   * @default {none}
   */
  readonly subtype?: string;
  /**
   * What the CLI reported as used before it failed; it was billed.
   * @default {none}
   */
  readonly usage?: Usage;
  /**
   * The underlying error.
   * @default {none}
   */
  readonly cause?: unknown;
}

/**
 * A CLI turn failed. It arrives as the `error` of the stream's last event (a
 * `run` ends with `stopReason: "error"` instead and reports it as a
 * `cli.error` observation). Never retryable: the CLI may already have acted.
 *
 * @example
 * ```ts
 * import { CliTurnError } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const e = new CliTurnError("claude exited with code 1", {
 *   failure: "exited",
 *   binary: "claude",
 *   stderr: { text: "Error: not logged in", truncated: false, exitCode: 1 },
 * });
 * assertEquals([e.name, e.failure, e.stderr?.exitCode, e.retryable], ["CliTurnError", "exited", 1, false]);
 * ```
 */
export class CliTurnError extends ProviderError {
  /** How the turn failed. */
  readonly failure: CliFailure;
  /** The binary that was run. */
  readonly binary: string;
  /** What the process left on stderr, when it had exited. */
  readonly stderr?: CliStderr;
  /** The CLI's own error kind, when it reported one. */
  readonly subtype?: string;

  /**
   * Never retryable; a failed spawn is `pre_stream`, anything later `mid_stream`.
   *
   * @param message What happened and what to do.
   * @param options How it failed, and what was left behind.
   */
  constructor(message: string, options: CliTurnErrorOptions) {
    super(message, {
      retryable: false,
      phase: options.failure === "spawn" ? "pre_stream" : "mid_stream",
      usage: options.usage,
      finishReason: "error",
      cause: options.cause,
    });
    this.name = "CliTurnError";
    this.failure = options.failure;
    this.binary = options.binary;
    this.stderr = options.stderr;
    this.subtype = options.subtype;
  }
}
