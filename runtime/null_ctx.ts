/**
 * The context that absorbs everything.
 *
 * @module
 */
import type { ClockPort } from "../ports/clock.ts";
import type { Ctx } from "../ports/context.ts";
import { Scope } from "../ports/scope.ts";
import type { TracePort } from "../ports/trace.ts";
import { NoopTrace } from "./noop.ts";
import { SystemClock } from "./system_clock.ts";

/**
 * A `Ctx` for code that needs one but whose context does not matter: tenant
 * zero, never cancelled, spans and observations dropped. Production code;
 * `FakeCtx` in `testing/` is its recording twin.
 *
 * @example
 * ```ts
 * import { NullCtx } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const ctx = new NullCtx();
 * await ctx.emit("step", "ignored");
 * ctx.trace.span("ignored", "internal").end();
 * assertEquals(ctx.scope.key(), "org0:dom0");
 * ```
 */
export class NullCtx implements Ctx {
  /** Tenant zero. */
  readonly scope: Scope = new Scope();
  /** Never aborts. */
  readonly signal: AbortSignal = new AbortController().signal;
  /** The real clock. */
  readonly clock: ClockPort = new SystemClock();
  /** Drops spans. */
  readonly trace: TracePort = new NoopTrace();
  /** Always `"null"`. */
  readonly correlationId: string = "null";

  /** Drops the observation. */
  emit(_kind: string, _text: string): Promise<void> {
    return Promise.resolve();
  }

  /** Never throws: a NullCtx is never cancelled. */
  checkCancelled(): void {}
}
