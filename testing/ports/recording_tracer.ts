/**
 * The tracing double.
 *
 * @module
 */
import type { Span, SpanAttributeValue, SpanKind, TracePort } from "../../ports/trace.ts";
import { checkOptions, checkValue, is } from "../../runtime/internal.ts";

/**
 * One recorded span event.
 *
 * @example
 * ```ts
 * import type { SpanEventRecord } from "@agentkit/testing/testing";
 * const e: SpanEventRecord = { name: "error", attrs: { message: "boom" } };
 * ```
 */
export interface SpanEventRecord {
  /** The event's name. */
  readonly name: string;
  /** Its attributes. */
  readonly attrs: Readonly<Record<string, SpanAttributeValue>>;
}

/**
 * A span that keeps its name, kind, attributes and events.
 *
 * @example
 * ```ts
 * import { RecordingSpan } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const span = new RecordingSpan("work", "internal", {});
 * span.setAttribute("k", 1);
 * span.end();
 * assertEquals([span.attrs, span.ended], [{ k: 1 }, true]);
 * ```
 */
export class RecordingSpan implements Span {
  /** The span's name. */
  readonly name: string;
  /** Its kind. */
  readonly kind: SpanKind;
  /** Its attributes. */
  readonly attrs: Record<string, SpanAttributeValue>;
  /** Its events, in order. */
  readonly events: SpanEventRecord[] = [];
  #ended = false;
  readonly #onEnd?: (span: RecordingSpan) => void;

  /**
   * The attributes are copied, so later changes to `attrs` do not reach the record.
   *
   * @param name The name.
   * @param kind The kind.
   * @param attrs Initial attributes.
   * @param onEnd Called once when the span ends.
   */
  constructor(
    name: string,
    kind: SpanKind,
    attrs: Readonly<Record<string, SpanAttributeValue>>,
    onEnd?: (span: RecordingSpan) => void,
  ) {
    this.name = name;
    this.kind = kind;
    this.attrs = { ...attrs };
    this.#onEnd = onEnd;
  }

  /** Whether `end()` was called. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Sets an attribute. */
  setAttribute(key: string, value: SpanAttributeValue): void {
    this.attrs[key] = value;
  }

  /** Records an event. */
  addEvent(name: string, attrs: Readonly<Record<string, SpanAttributeValue>> = {}): void {
    this.events.push({ name, attrs: { ...attrs } });
  }

  /** Ends the span (once; later calls do nothing). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#onEnd?.(this);
  }

  /** Ends the span. */
  [Symbol.dispose](): void {
    this.end();
  }
}

/** Options for {@linkcode RecordingTracer}. */
export interface RecordingTracerOptions {
  /** Called with each span when it ends. */
  readonly exporter?: (span: RecordingSpan) => void;
}

/**
 * A tracer that records every span in opening order.
 *
 * @example A plain run opens invoke_agent, then compose
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, RecordingTracer, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const ended: string[] = [];
 * const tracer = new RecordingTracer({ exporter: (s) => ended.push(s.name) });
 * await new Agent("analyst", { model: "fake-model" }).run("go", makeTestCtx({ llm: new FakeLLM("ok"), trace: tracer }));
 * assertEquals(tracer.spans.slice(0, 2).map((s) => [s.name, s.kind]), [["invoke_agent", "client"], ["compose", "compose"]]);
 * assertEquals(tracer.spans[2].name, "chat");
 * assertEquals(ended, ["compose", "chat", "invoke_agent"]);
 * ```
 */
export class RecordingTracer implements TracePort {
  /** Every span, in opening order. */
  readonly spans: RecordingSpan[] = [];
  readonly #exporter?: (span: RecordingSpan) => void;

  /**
   * With an `exporter`, each finished span is handed to it as well as recorded.
   *
   * @param options The exporter.
   */
  constructor(options: RecordingTracerOptions = {}) {
    checkOptions("new RecordingTracer()", options, { exporter: is.function });
    this.#exporter = options.exporter;
  }

  /**
   * Opens and records a span.
   * @param name The span's name: a string.
   * @param kind Its kind: a string (`"llm"`, `"tool"`, ...).
   * @param attrs Initial attributes: an object.
   * @returns The span.
   * @throws {TypeError} For a name or kind that is not a string, or attributes that are not an object.
   */
  span(
    name: string,
    kind: SpanKind,
    attrs: Readonly<Record<string, SpanAttributeValue>> = {},
  ): RecordingSpan {
    checkValue("RecordingTracer.span()", "the name", name, is.string);
    checkValue("RecordingTracer.span()", "the kind", kind, is.string);
    checkValue("RecordingTracer.span()", "the attributes", attrs, is.object);
    const span = new RecordingSpan(name, kind, attrs, this.#exporter);
    this.spans.push(span);
    return span;
  }

  /**
   * The spans with a name.
   * @param name The name: a string.
   * @returns Those spans, in opening order.
   * @throws {TypeError} When `name` is not a string.
   */
  named(name: string): RecordingSpan[] {
    checkValue("RecordingTracer.named()", "the name", name, is.string);
    return this.spans.filter((s) => s.name === name);
  }
}
