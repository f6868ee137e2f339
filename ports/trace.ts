/**
 * Tracing, as a port.
 *
 * @module
 */

/** Attribute values a span carries. */
export type SpanAttributeValue = string | number | boolean;

/**
 * The kind of a span: `"client"` for an agent invocation, `"compose"` for
 * prompt building, `"llm"` for a model call, `"tool"` for a tool call; any
 * other string is allowed for user spans.
 */
export type SpanKind =
  | "client"
  | "compose"
  | "llm"
  | "tool"
  | "internal"
  | (string & Record<never, never>);

/**
 * An open span.
 *
 * @example
 * ```ts
 * import type { Span } from "@agentkit/testing/ports";
 * const span: Span = {
 *   setAttribute() {}, addEvent() {}, end() {}, [Symbol.dispose]() {},
 * };
 * span.end();
 * ```
 */
export interface Span extends Disposable {
  /** Sets one attribute. */
  setAttribute(key: string, value: SpanAttributeValue): void;
  /** Records a point-in-time event on the span. */
  addEvent(name: string, attrs?: Readonly<Record<string, SpanAttributeValue>>): void;
  /** Closes the span; closing twice is harmless. */
  end(): void;
}

/**
 * Opens spans.
 *
 * @example
 * ```ts
 * import type { TracePort } from "@agentkit/testing/ports";
 * const names: string[] = [];
 * const trace: TracePort = {
 *   span(name) {
 *     names.push(name);
 *     return { setAttribute() {}, addEvent() {}, end() {}, [Symbol.dispose]() {} };
 *   },
 * };
 * trace.span("work", "internal").end();
 * ```
 */
export interface TracePort {
  /** Opens a span. */
  span(
    name: string,
    kind: SpanKind,
    attrs?: Readonly<Record<string, SpanAttributeValue>>,
  ): Span;
}
