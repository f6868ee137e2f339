/**
 * A recording context for port implementations under test.
 *
 * @module
 */
import type { ClockPort } from "../../ports/clock.ts";
import type { Ctx, EmitOptions } from "../../ports/context.ts";
import type { Observation } from "../../ports/observer.ts";
import { Scope } from "../../ports/scope.ts";
import { FakeClock } from "../fake_clock.ts";
import { type RecordingSpan, RecordingTracer } from "./recording_tracer.ts";
import { checkOptions, is } from "../../runtime/internal.ts";
import { argProblem } from "./_arg.ts";

/**
 * Options for {@linkcode FakeCtx}.
 *
 * @example
 * ```ts
 * import { Scope } from "@agentkit/testing/ports";
 * import { FakeCtx, type FakeCtxOptions } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const options: FakeCtxOptions = { scope: new Scope({ orgId: 7 }), correlationId: "run-1" };
 * assertEquals(new FakeCtx(options).scope.key(), "org7:dom0");
 * ```
 */
export interface FakeCtxOptions {
  /**
   * The tenant.
   * @default {new Scope()}
   */
  readonly scope?: Scope;
  /**
   * Cancels whatever is running on the context.
   * @default {a signal that never aborts}
   */
  readonly signal?: AbortSignal;
  /**
   * Every wait goes through it.
   * @default {new FakeClock()}
   */
  readonly clock?: ClockPort;
  /**
   * The run's identity.
   * @default {"fake-ctx"}
   */
  readonly correlationId?: string;
}

/**
 * A `Ctx` that records: every span opened through `ctx.trace` lands in
 * `.spans`, every `emit` in `.observations`. Hand it to a port implementation
 * (a tool, a grounder, a memory) to test it without building a run. It is the
 * recording twin of the runtime's `NullCtx`, which absorbs the same calls and
 * keeps nothing. Its clock is a `FakeClock` unless given; `checkCancelled()`
 * throws the signal's reason once it has aborted.
 *
 * @example A tool's spans and observations
 * ```ts
 * import type { Ctx } from "@agentkit/testing/ports";
 * import { FakeCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * async function lookup(host: string, ctx: Ctx): Promise<string> {
 *   using span = ctx.trace.span("dns", "tool", { host });
 *   await ctx.emit("step", `resolving ${host}`);
 *   span.setAttribute("answer", "10.0.0.1");
 *   return "10.0.0.1";
 * }
 * const ctx = new FakeCtx();
 * await lookup("api.example.com", ctx);
 * assertEquals(ctx.spans.map((s) => [s.name, s.attrs, s.ended]), [["dns", { host: "api.example.com", answer: "10.0.0.1" }, true]]);
 * assertEquals(ctx.observations.map((o) => o.text), ["resolving api.example.com"]);
 * ```
 *
 * @example Cancellation
 * ```ts
 * import { FakeCtx } from "@agentkit/testing/testing";
 * import { assertThrows } from "@std/assert";
 *
 * const controller = new AbortController();
 * const ctx = new FakeCtx({ signal: controller.signal });
 * ctx.checkCancelled();
 * controller.abort(new Error("stop"));
 * assertThrows(() => ctx.checkCancelled(), Error, "stop");
 * ```
 */
export class FakeCtx implements Ctx {
  /** The tenant. */
  readonly scope: Scope;
  /** Aborts when cancelled. */
  readonly signal: AbortSignal;
  /** The clock. */
  readonly clock: ClockPort;
  /** The run's identity. */
  readonly correlationId: string;
  /** The tracer that records `.spans`. */
  readonly trace: RecordingTracer = new RecordingTracer();
  /** Every observation emitted, in order. */
  readonly observations: Observation[] = [];

  /**
   * Left out: the default scope, a signal never aborted, a new `FakeClock`.
   *
   * @param options Tenant, signal, clock, identity.
   */
  constructor(options: FakeCtxOptions = {}) {
    checkOptions("new FakeCtx()", options, {
      scope: is.instance(Scope),
      signal: is.instance(AbortSignal),
      clock: is.port("a clock", ["now", "sleep"]),
      correlationId: is.text,
    });
    this.scope = options.scope ?? new Scope();
    this.signal = options.signal ?? new AbortController().signal;
    this.clock = options.clock ?? new FakeClock();
    this.correlationId = options.correlationId ?? "fake-ctx";
  }

  /** Every span opened through `trace`, in opening order. */
  get spans(): RecordingSpan[] {
    return this.trace.spans;
  }

  /**
   * Records an observation, stamped with the clock's time.
   * @param kind What sort: a string.
   * @param text A readable line: a string.
   * @param options Payload and agent.
   * @throws {TypeError} (as a rejection) When `kind` or `text` is not a string.
   */
  emit(kind: string, text: string, options: EmitOptions = {}): Promise<void> {
    const problem = argProblem("FakeCtx.emit()", "the kind", kind, is.string) ??
      argProblem("FakeCtx.emit()", "the text", text, is.string);
    if (problem) return Promise.reject(problem);
    this.observations.push({
      kind,
      text,
      payload: options.payload,
      agent: options.agent,
      at: this.clock.now(),
    });
    return Promise.resolve();
  }

  /**
   * Throws the abort reason once the signal has aborted.
   * @throws The signal's reason.
   */
  checkCancelled(): void {
    this.signal.throwIfAborted();
  }
}
