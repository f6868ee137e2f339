/**
 * A stream event paired with the text it adds, as a `Run` hands them out.
 *
 * @module
 */
import type { StreamEvent } from "../../ports/stream_event.ts";

/**
 * One item of `run.events`: the stream event itself and its text projection.
 * Only a `text_delta` has a `delta`; on every other event the property exists
 * and is `undefined`, so `chunk.delta ?? ""` is always safe.
 *
 * @example
 * ```ts
 * import type { StreamChunk } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * const chunk: StreamChunk = {
 *   event: { type: "text_delta", messageId: "m-1", content: "hi" },
 *   delta: "hi",
 * };
 * assertEquals(chunk.delta, "hi");
 * ```
 */
export interface StreamChunk {
  /** The stream event. */
  readonly event: StreamEvent;
  /** The text a `text_delta` adds; `undefined` for every other event. */
  readonly delta: string | undefined;
}

/**
 * Wraps a stream event into a {@linkcode StreamChunk}, projecting only
 * `text_delta` content into `delta`.
 *
 * @param event The event.
 * @returns The chunk.
 *
 * @example Only text deltas carry a delta
 * ```ts
 * import { toChunk } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 *
 * assertEquals(toChunk({ type: "text_delta", messageId: "m", content: "hi" }).delta, "hi");
 * const start = toChunk({ type: "message_start", messageId: "m" });
 * assertEquals(["delta" in start, start.delta], [true, undefined]);
 * ```
 */
export function toChunk(event: StreamEvent): StreamChunk {
  return { event, delta: event.type === "text_delta" ? event.content : undefined };
}
