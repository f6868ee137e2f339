/**
 * The bag of adapters a run uses.
 *
 * @module
 */
import type { AskerPort } from "../ports/asker.ts";
import type { CheckpointStore } from "../ports/checkpoint_store.ts";
import type { ClockPort } from "../ports/clock.ts";
import type { KVStore } from "../ports/kv_store.ts";
import type { ObserverPort } from "../ports/observer.ts";
import type { TracePort } from "../ports/trace.ts";
import type { VectorStore } from "../ports/vector_store.ts";
import type { Invoker } from "./invoker.ts";
import { NoopObserver, NoopTrace } from "./noop.ts";
import { PriceTable } from "./money/price_table.ts";
import { SystemClock } from "./system_clock.ts";
import { checkOptions, is, ports, type Rule } from "./_options.ts";

const SERVICES: Readonly<Record<string, Rule>> = {
  invoker: is.port("an Invoker", ["chat"]),
  observer: ports.observer,
  trace: ports.trace,
  clock: ports.clock,
  store: ports.kvStore,
  vector: ports.vector,
  checkpointer: ports.checkpointer,
  asker: ports.asker,
  prices: is.port("a PriceTable", ["costUnits"]),
};

/** Options for {@linkcode Services}; every field is optional. */
export interface ServicesOptions {
  /** Calls the model and tools through the middleware chains. */
  readonly invoker?: Invoker;
  /** Where observations go. @default {new NoopObserver()} */
  readonly observer?: ObserverPort;
  /** Opens spans. @default {new NoopTrace()} */
  readonly trace?: TracePort;
  /** Every wait goes through it. @default {new SystemClock()} */
  readonly clock?: ClockPort;
  /** The key-value store (memoize, idempotent, sessions). */
  readonly store?: KVStore;
  /** The vector store (semantic memoize, memory). */
  readonly vector?: VectorStore;
  /** Where runs save checkpoints. */
  readonly checkpointer?: CheckpointStore;
  /** The human-in-the-loop transport. */
  readonly asker?: AskerPort;
  /** Model prices for `meter()`. @default {PriceTable.default()} */
  readonly prices?: PriceTable;
}

// The null objects hold no state, so every Services shares one of each.
const NOOP_OBSERVER = new NoopObserver();
const NOOP_TRACE = new NoopTrace();

/**
 * The adapters behind a `RunContext`. `new Services()` is fully usable: unset
 * observer, trace and clock get `NoopObserver`, `NoopTrace` and `SystemClock`.
 *
 * @example
 * ```ts
 * import { NoopTrace, Services, SystemClock } from "@agentkit/testing/runtime";
 * import { assert } from "@std/assert";
 *
 * const services = new Services();
 * assert(services.trace instanceof NoopTrace);
 * assert(services.clock instanceof SystemClock);
 * assert(services.invoker === undefined);
 * ```
 */
export class Services {
  /** The invoker, when there is a model to call. */
  readonly invoker?: Invoker;
  /** Where observations go. */
  readonly observer: ObserverPort;
  /** Opens spans. */
  readonly trace: TracePort;
  /** Every wait goes through it. */
  readonly clock: ClockPort;
  /** The key-value store. */
  readonly store?: KVStore;
  /** The vector store. */
  readonly vector?: VectorStore;
  /** The checkpoint store. */
  readonly checkpointer?: CheckpointStore;
  /** The human-in-the-loop transport. */
  readonly asker?: AskerPort;
  /** Model prices for `meter()`. */
  readonly prices: PriceTable;

  /**
   * Every port left out gets its production default: no-op observer and trace, the system clock, the default prices.
   *
   * @param options The adapters.
   */
  constructor(options: ServicesOptions = {}) {
    checkOptions("new Services()", options, SERVICES);
    this.invoker = options.invoker;
    this.observer = options.observer ?? NOOP_OBSERVER;
    this.trace = options.trace ?? NOOP_TRACE;
    this.clock = options.clock ?? new SystemClock();
    this.store = options.store;
    this.vector = options.vector;
    this.checkpointer = options.checkpointer;
    this.asker = options.asker;
    this.prices = options.prices ?? PriceTable.default();
  }
}
