/**
 * Production null objects: what makes `new Services()` with no arguments usable.
 *
 * @module
 */
import type { Observation, ObserverPort } from "../ports/observer.ts";
import type { Span, SpanKind, TracePort } from "../ports/trace.ts";

const NOOP_SPAN: Span = Object.freeze({
  setAttribute(): void {},
  addEvent(): void {},
  end(): void {},
  [Symbol.dispose](): void {},
});

/**
 * A tracer that opens spans which record nothing.
 *
 * @example
 * ```ts
 * import { NoopTrace } from "@agentkit/testing/runtime";
 * using span = new NoopTrace().span("work", "internal");
 * span.setAttribute("k", 1);
 * ```
 */
export class NoopTrace implements TracePort {
  /**
   * A span that does nothing.
   * @returns The shared no-op span.
   */
  span(_name: string, _kind: SpanKind): Span {
    return NOOP_SPAN;
  }
}

/**
 * An observer that drops every observation.
 *
 * @example
 * ```ts
 * import { NoopObserver } from "@agentkit/testing/runtime";
 * new NoopObserver().emit({ kind: "step", text: "x", at: 0 });
 * ```
 */
export class NoopObserver implements ObserverPort {
  /** Drops the observation. */
  emit(_observation: Observation): void {}
  /** Nothing to release. */
  close(): void {}
}
