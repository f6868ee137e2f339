/**
 * The context every port call receives: the tenant, cancellation, time,
 * tracing and observations. The runtime's `RunContext` implements it.
 *
 * @module
 */
import type { AskerPort } from "./asker.ts";
import type { ClockPort } from "./clock.ts";
import type { Scope } from "./scope.ts";
import type { TracePort } from "./trace.ts";

/** Options of {@linkcode Ctx.emit}. */
export interface EmitOptions {
  /** Structured data. */
  readonly payload?: unknown;
  /** The agent making the observation. */
  readonly agent?: string;
}

/**
 * What a port implementation may use of the run it serves.
 *
 * @example A tool that honours cancellation
 * ```ts
 * import type { Ctx } from "@agentkit/testing/ports";
 * import { NullCtx } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * async function work(ctx: Ctx): Promise<string> {
 *   ctx.checkCancelled();
 *   await ctx.clock.sleep(0, ctx.signal);
 *   return ctx.scope.key();
 * }
 * assertEquals(await work(new NullCtx()), "org0:dom0");
 * ```
 */
export interface Ctx {
  /** The tenant. */
  readonly scope: Scope;
  /** Aborts when the run is cancelled. */
  readonly signal: AbortSignal;
  /** Every wait goes through this clock. */
  readonly clock: ClockPort;
  /** Opens spans. */
  readonly trace: TracePort;
  /** The run's identity. */
  readonly correlationId: string;
  /**
   * `false` in a test context: real provider ports refuse to send. Unset (or
   * `true`) everywhere else.
   */
  readonly allowModelRequests?: boolean;
  /**
   * The human to ask before a step that needs approval (a `ToolPolicy`'s
   * `approve` list); absent where nobody can be asked.
   */
  readonly asker?: AskerPort;
  /** Reports an observation to the run's observer. */
  emit(kind: string, text: string, options?: EmitOptions): Promise<void>;
  /** Throws the abort reason once the run is cancelled. */
  checkCancelled(): void;
}
