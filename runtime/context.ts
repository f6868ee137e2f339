/**
 * The run context: services, tenant, budget, cancellation.
 *
 * @module
 */
import type { AskerPort } from "../ports/asker.ts";
import type { CheckpointStore } from "../ports/checkpoint_store.ts";
import type { ClockPort } from "../ports/clock.ts";
import type { Ctx, EmitOptions } from "../ports/context.ts";
import type { KVStore } from "../ports/kv_store.ts";
import type { ObserverPort } from "../ports/observer.ts";
import { Scope } from "../ports/scope.ts";
import type { TracePort } from "../ports/trace.ts";
import type { VectorStore } from "../ports/vector_store.ts";
import type { Budget } from "./money/budget.ts";
import { NoInvoker } from "./errors.ts";
import type { Invoker } from "./invoker.ts";
import type { Meter } from "./money/meter.ts";
import { Services } from "./services.ts";
import { NEVER } from "./_never.ts";
import { checkOptions, deferral, describe, is, ports, type Rule } from "./_options.ts";

/** How much a run may do without asking a human. */
export type Autonomy = "auto" | "manual";

const CONTEXT: Readonly<Record<string, Rule>> = {
  services: is.instance(Services),
  scope: is.instance(Scope),
  budget: ports.meter,
  meters: is.arrayOf(ports.meter),
  correlationId: is.text,
  autonomy: is.oneOf(["auto", "manual"]),
  signal: ports.signal,
  allowModelRequests: is.boolean,
};

/** Options for {@linkcode RunContext}. */
export interface RunContextOptions {
  /** The adapters. @default {new Services()} */
  readonly services?: Services;
  /** The tenant. @default {new Scope()} */
  readonly scope?: Scope;
  /** The run budget; charged only by `meter()`. */
  readonly budget?: Budget;
  /** Meters beyond the budget (a tenant quota). */
  readonly meters?: readonly Meter[];
  /** The run's identity. @default {a fresh "run-N" id} */
  readonly correlationId?: string;
  /** `"manual"` asks before tools that need approval. @default {"auto"} */
  readonly autonomy?: Autonomy;
  /** Cancels the run. @default {a signal that never aborts} */
  readonly signal?: AbortSignal;
  /**
   * Whether real provider ports may send requests. `makeTestCtx` sets it to
   * `false`, so a test never reaches a real model by accident.
   * @default {true}
   */
  readonly allowModelRequests?: boolean;
}

let runCounter = 0;

// A Scope is immutable, so every context without one shares the default:
// building a context is part of what every test's setup costs.
const DEFAULT_SCOPE = new Scope();

/**
 * Everything one run can reach. Build it with `makeTestCtx` in tests.
 *
 * @example
 * ```ts
 * import { RunContext, Services } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { assertEquals } from "@std/assert";
 *
 * const ctx = new RunContext({ services: new Services(), scope: new Scope({ orgId: 7, domainId: 2 }), correlationId: "run-42" });
 * assertEquals([ctx.correlationId, ctx.autonomy, ctx.scope.key()], ["run-42", "auto", "org7:dom2"]);
 * ```
 */
export class RunContext implements Ctx {
  #services?: Services;
  #make?: (arg: unknown) => Services;
  #arg?: unknown;
  /** The tenant. */
  readonly scope: Scope;
  /** The run budget. */
  readonly budget?: Budget;
  /** Meters beyond the budget. */
  readonly meters: readonly Meter[];
  /** The budget (if any) followed by `meters`: what `meter()` charges. */
  readonly allMeters: readonly Meter[];
  /** The run's identity. */
  readonly correlationId: string;
  /** `"manual"` asks the asker before tools that need approval. */
  readonly autonomy: Autonomy;
  /** Aborts when the run is cancelled. */
  readonly signal: AbortSignal;
  /** Whether real provider ports may send requests (`false` under `makeTestCtx`). */
  readonly allowModelRequests: boolean;

  /**
   * Checks every option here; services left out are `new Services()`, and real model requests are allowed.
   *
   * @param options The run's settings.
   */
  constructor(options: RunContextOptions = {}) {
    const make = deferral.make;
    if (make === undefined) {
      checkOptions("new RunContext()", options, CONTEXT);
      this.#services = options.services ?? new Services();
    } else {
      // A factory that checked its options asked for services on first read.
      this.#make = make as (arg: unknown) => Services;
      this.#arg = deferral.arg;
      deferral.make = deferral.arg = undefined;
    }
    this.scope = options.scope ?? DEFAULT_SCOPE;
    this.budget = options.budget;
    this.meters = options.meters ?? [];
    this.allMeters = options.budget ? [options.budget, ...this.meters] : this.meters;
    this.correlationId = options.correlationId ?? `run-${++runCounter}`;
    this.autonomy = options.autonomy ?? "auto";
    this.signal = options.signal ?? NEVER;
    this.allowModelRequests = options.allowModelRequests ?? true;
  }

  /** The adapters. */
  get services(): Services {
    return this.#services ?? this.#built();
  }

  #built(): Services {
    const services = this.#make!(this.#arg);
    this.#make = this.#arg = undefined;
    return this.#services = services;
  }

  /** The clock (`services.clock`). */
  get clock(): ClockPort {
    return this.services.clock;
  }
  /** The tracer (`services.trace`). */
  get trace(): TracePort {
    return this.services.trace;
  }
  /** The observer (`services.observer`). */
  get observer(): ObserverPort {
    return this.services.observer;
  }
  /** The key-value store (`services.store`). */
  get store(): KVStore | undefined {
    return this.services.store;
  }
  /** The vector store (`services.vector`). */
  get vector(): VectorStore | undefined {
    return this.services.vector;
  }
  /** The checkpoint store (`services.checkpointer`). */
  get checkpointer(): CheckpointStore | undefined {
    return this.services.checkpointer;
  }
  /** The human-in-the-loop transport (`services.asker`). */
  get asker(): AskerPort | undefined {
    return this.services.asker;
  }
  /** The invoker (`services.invoker`). */
  get invoker(): Invoker | undefined {
    return this.services.invoker;
  }

  /**
   * The invoker, or a `NoInvoker` error naming the agent and the fix.
   * @param agent Who needs it.
   * @returns The invoker.
   * @throws {NoInvoker} When the services have none.
   */
  requireInvoker(agent: string): Invoker {
    const inv = this.services.invoker;
    if (!inv) throw new NoInvoker(agent);
    return inv;
  }

  /**
   * Reports an observation, stamped with the clock's time.
   * @param kind What sort (`"step"`): a string.
   * @param text A readable line: a string.
   * @param options Payload and agent.
   * @throws {TypeError} (as a rejection) When `kind` or `text` is not a string.
   */
  async emit(kind: string, text: string, options: EmitOptions = {}): Promise<void> {
    if (typeof kind !== "string" || typeof text !== "string") {
      throw new TypeError(
        `ctx.emit(): kind and text must be strings, got ${describe(kind)} and ${describe(text)}`,
      );
    }
    await this.services.observer.emit({
      kind,
      text,
      payload: options.payload,
      agent: options.agent,
      at: this.services.clock.now(),
    });
  }

  /**
   * Throws the abort reason once the run is cancelled.
   * @throws The signal's reason.
   */
  checkCancelled(): void {
    this.signal.throwIfAborted();
  }

  /**
   * A context like this one with some fields replaced (a run's own signal,
   * another tenant).
   * @param overrides What to replace: an options object as `new RunContext()` takes, checked the same way.
   * @returns A new context sharing the rest.
   */
  with(overrides: RunContextOptions): RunContext {
    checkOptions("ctx.with()", overrides, CONTEXT);
    return new RunContext({
      services: this.services,
      scope: this.scope,
      budget: this.budget,
      meters: this.meters,
      correlationId: this.correlationId,
      autonomy: this.autonomy,
      signal: this.signal,
      allowModelRequests: this.allowModelRequests,
      ...overrides,
    });
  }
}
