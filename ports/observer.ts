/**
 * Observations: what cognitions and user code report while a run happens.
 *
 * @module
 */

/**
 * One observation.
 *
 * @example
 * ```ts
 * import type { Observation } from "@agentkit/testing/ports";
 * const o: Observation = { kind: "step", text: "planning", agent: "analyst", at: 0 };
 * ```
 */
export interface Observation {
  /** What sort of observation (`"step"`, `"result"`, `"tool"`, ...). */
  readonly kind: string;
  /** A human-readable line. */
  readonly text: string;
  /** Structured data. */
  readonly payload?: unknown;
  /** The agent that made it. */
  readonly agent?: string;
  /** When, on the context's clock (ms). */
  readonly at: number;
}

/**
 * A sink for observations.
 *
 * @example
 * ```ts
 * import type { Observation, ObserverPort } from "@agentkit/testing/ports";
 * const seen: Observation[] = [];
 * const sink: ObserverPort = { emit: (o) => void seen.push(o), close() {} };
 * sink.emit({ kind: "step", text: "x", at: 0 });
 * ```
 */
export interface ObserverPort {
  /** Receives one observation. */
  emit(observation: Observation): void | Promise<void>;
  /** Flushes and releases the sink. */
  close(): void | Promise<void>;
}
