/**
 * An in-process observer that keeps what it sees.
 *
 * @module
 */
import type { Observation, ObserverPort } from "../ports/observer.ts";

/**
 * Collects observations in memory. Production code (a debug sink, an
 * in-process UI feed), not a double.
 *
 * @example
 * ```ts
 * import { CollectingObserver } from "@agentkit/testing/runtime";
 * import { makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const sink = new CollectingObserver();
 * const ctx = makeTestCtx({ observer: sink });
 * await ctx.emit("step", "planning", { agent: "analyst" });
 * await ctx.emit("result", "done", { payload: { ok: true } });
 * await sink.close();
 * assertEquals(sink.items.map((o) => o.kind), ["step", "result"]);
 * ```
 */
export class CollectingObserver implements ObserverPort {
  /** Everything emitted, in order. */
  readonly items: Observation[] = [];
  #closed = false;

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Keeps the observation.
   * @throws {TypeError} After `close()`.
   */
  emit(observation: Observation): void {
    if (this.#closed) {
      throw new TypeError(
        `Cannot emit "${observation.kind}": this CollectingObserver is closed; emit before close()`,
      );
    }
    this.items.push(observation);
  }

  /** Stops accepting observations; idempotent. */
  close(): void {
    this.#closed = true;
  }
}
