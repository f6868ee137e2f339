/**
 * The one context factory for tests.
 *
 * @module
 */
import type { AskerPort } from "../ports/asker.ts";
import type { CheckpointStore } from "../ports/checkpoint_store.ts";
import type { ClockPort } from "../ports/clock.ts";
import type { KVStore } from "../ports/kv_store.ts";
import type { LLMPort } from "../ports/llm.ts";
import type { ObserverPort } from "../ports/observer.ts";
import { Scope } from "../ports/scope.ts";
import type { TracePort } from "../ports/trace.ts";
import type { VectorStore } from "../ports/vector_store.ts";
import type { Budget } from "../runtime/money/budget.ts";
import { type Autonomy, RunContext, type RunContextOptions } from "../runtime/context.ts";
import { Invoker } from "../runtime/invoker.ts";
import type { Meter } from "../runtime/money/meter.ts";
import type { ChatMiddleware, ToolMiddleware } from "../runtime/middleware/types.ts";
import type { PriceTable } from "../runtime/money/price_table.ts";
import { Services } from "../runtime/services.ts";
import {
  checkOptions,
  type CheckSettings,
  deferServices,
  is,
  ports,
  type Rule,
  withChecked,
} from "../runtime/internal.ts";
import { FakeClock } from "./fake_clock.ts";
import { ClockLeftInstalled } from "./errors.ts";

/** The knobs of {@linkcode makeTestCtx}; every one is optional. */
export interface TestCtxOptions {
  /** The model; wrapped into an `Invoker` with the two chains. */
  readonly llm?: LLMPort;
  /** A fully built invoker, when the test controls the chain itself (not with `llm`). */
  readonly invoker?: Invoker;
  /** The tenant. @default {new Scope()} */
  readonly scope?: Scope;
  /** The run budget (charged only with `meter()` in `chatMiddleware`). */
  readonly budget?: Budget;
  /** The key-value store. Unset on purpose: `memoize()` then says it has none. */
  readonly store?: KVStore;
  /** The vector store. */
  readonly vector?: VectorStore;
  /** The checkpoint store. */
  readonly checkpointer?: CheckpointStore;
  /** The human-in-the-loop transport. */
  readonly asker?: AskerPort;
  /** Where observations go. @default {NoopObserver, the Services default} */
  readonly observer?: ObserverPort;
  /** Opens spans. @default {NoopTrace, the Services default} */
  readonly trace?: TracePort;
  /** Every wait goes through it. @default {new FakeClock(), so waits cost no wall time} */
  readonly clock?: ClockPort;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
  /** Wraps every model call (with `llm`). */
  readonly chatMiddleware?: readonly ChatMiddleware[];
  /** Wraps every tool call (with `llm`). */
  readonly toolMiddleware?: readonly ToolMiddleware[];
  /** Meters beyond the budget (a tenant quota). */
  readonly meters?: readonly Meter[];
  /** The run's identity. @default {"test-run"} */
  readonly correlationId?: string;
  /** `"manual"` asks the asker before tools that need approval. @default {"auto"} */
  readonly autonomy?: Autonomy;
  /** Model prices. @default {PriceTable.default()} */
  readonly prices?: PriceTable;
  /**
   * Let real provider ports (`OpenAIChatLLM`, `AnthropicLLM`) send requests.
   * Off by default, so a test never reaches a real model by accident (a
   * `FakeProvider`'s fetch is always allowed: it reaches no model).
   * `AGENTKIT_ALLOW_MODEL_REQUESTS=1` opts in the same way.
   * @default {false}
   */
  readonly allowModelRequests?: boolean;
}

const KNOBS: Readonly<Record<string, Rule>> = {
  llm: ports.llm,
  invoker: is.port("an Invoker", ["chat", "callTool"]),
  scope: is.instance(Scope),
  budget: ports.meter,
  store: ports.kvStore,
  vector: ports.vector,
  checkpointer: ports.checkpointer,
  asker: ports.asker,
  observer: ports.observer,
  trace: ports.trace,
  clock: ports.clock,
  signal: ports.signal,
  chatMiddleware: is.arrayOf(is.middleware("chat")),
  toolMiddleware: is.arrayOf(is.middleware("tool")),
  meters: is.arrayOf(ports.meter),
  correlationId: is.text,
  autonomy: is.oneOf(["auto", "manual"]),
  prices: is.port("a PriceTable", ["costUnits"]),
  allowModelRequests: is.boolean,
};

const HINTS: CheckSettings = {
  hints: {
    tools: "tools go to new ReActCognition({ tools }) or a FakeTool in a ScriptedProvider",
    model: 'the model goes to new Agent(name, { model: "..." })',
    provider: "a tool provider goes to new ReActCognition({ provider })",
  },
};

// What ./fake_clock.ts keeps under this key while an install holds the timers.
const INSTALL = Symbol.for("@agentkit/testing: the FakeClock install holding the timers");
interface LeftInstall {
  readonly at: string;
  readonly restore: () => void;
}

/**
 * Builds a real `RunContext` with real `Services` and a real `Invoker`: the
 * code under test runs the production path, and only the things at the port
 * boundary are doubles. Unset knobs get defensive defaults; with neither
 * `llm` nor `invoker` the context has no invoker, which is right for
 * capability tests (a `RequestBuilder`) and a `NoInvoker` error the moment an
 * agent tries to call a model.
 *
 * @param options The knobs.
 * @returns The context.
 * @throws {TypeError} For an unknown knob (with the nearest valid one) or a
 *   contradictory setup (`llm` with `invoker`).
 *
 * @example
 * ```ts
 * import { Agent, Budget, meter } from "@agentkit/testing/runtime";
 * import { Scope } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const ctx = makeTestCtx({
 *   llm: new FakeLLM("ok"),
 *   scope: new Scope({ orgId: 7, domainId: 2 }),
 *   budget: new Budget({ maxCostUsd: "0.10", maxCalls: 3 }),
 *   chatMiddleware: [meter()],
 *   correlationId: "run-42",
 *   autonomy: "manual",
 * });
 * assertEquals([ctx.correlationId, ctx.autonomy, ctx.scope.key()], ["run-42", "manual", "org7:dom2"]);
 * await new Agent("a", { model: "fake-model" }).run("go", ctx);
 * assertEquals(ctx.budget?.spent(), "0.000100");
 * ```
 */
export function makeTestCtx(options: TestCtxOptions = {}): RunContext {
  // An install a test never disposed is reported here, where the next test
  // starts. Only when this context makes its own clock: a test that passes
  // a clock chose it (the installed one, or another beside it, as chaos()'s
  // world does under a test's install).
  const left = (globalThis as unknown as Record<symbol, LeftInstall | undefined>)[INSTALL];
  if (left !== undefined && (options as { clock?: unknown } | null)?.clock === undefined) {
    left.restore();
    throw new ClockLeftInstalled("makeTestCtx()", left.at);
  }
  if (isCommon(options)) {
    const run = runOf(options);
    // Nothing may run between the deferral and the constructor that takes
    // it, or a later, unrelated context would take it instead.
    deferServices(servicesOf, options.llm);
    return new RunContext(run);
  }
  // The conflict first: it is the mistake, whatever each value holds.
  const both = options as { llm?: unknown; invoker?: unknown } | null;
  if (both?.llm !== undefined && both?.invoker !== undefined) {
    throw new TypeError(
      "makeTestCtx(): cannot take both llm and invoker, two sources of the model: pass llm alone (the context builds its invoker, with chatMiddleware/toolMiddleware), or invoker alone (new Invoker({ llm }) holds the model already), not both",
    );
  }
  checkOptions("makeTestCtx()", options, KNOBS, HINTS);
  const o = options;
  if (o.invoker && (o.chatMiddleware || o.toolMiddleware)) {
    throw new TypeError(
      "Cannot build a test context with invoker and chatMiddleware/toolMiddleware: a built invoker has its chains; put the middleware in new Invoker({ llm, chatMiddleware }) or pass llm instead",
    );
  }
  // Every option below was checked against KNOBS (the same rules or
  // stricter), so the constructors skip their own checks.
  return withChecked(() => build(o));
}

// The common bag: a model and the run's own fields, nothing that goes into
// the services but the model. Each value passes its rule in KNOBS, so the
// bag is one checkOptions() accepts; anything else (an unknown key, a bad
// value, a port of the services) takes the checked path below, which
// throws or builds as it always has. Such a context's services (the
// invoker, the fake clock) are built when first read: most of what a test's
// setup costs, and what a context that is only inspected never needs.
function isCommon(o: unknown): boolean {
  if (o === null || typeof o !== "object" || Array.isArray(o)) return false;
  const bag = o as Record<string, unknown>;
  for (const key in bag) {
    const v = bag[key];
    if (v === undefined) {
      if (!Object.hasOwn(KNOBS, key)) return false;
    } else if (key === "llm") {
      // The model's two methods read by name: the rule reads them by a
      // computed key, which costs more than the rest of this check. What
      // this refuses, the rule refuses too.
      const m = v as LLMPort;
      if (m === null || typeof m.chat !== "function" || typeof m.stream !== "function") {
        return false;
      }
    } else if (!Object.hasOwn(RUN_FIELDS, key) || RUN_FIELDS[key].test(v, key) !== undefined) {
      return false;
    }
  }
  return true;
}

// The common bag's keys besides the model: the run's own fields.
const RUN_FIELDS: Readonly<Record<string, Rule>> = {
  scope: KNOBS.scope,
  budget: KNOBS.budget,
  meters: KNOBS.meters,
  correlationId: KNOBS.correlationId,
  autonomy: KNOBS.autonomy,
  signal: KNOBS.signal,
  allowModelRequests: KNOBS.allowModelRequests,
};

// What the checked path builds for a common bag, built on first read.
function servicesOf(llm: LLMPort | undefined): Services {
  return withChecked(() =>
    new Services({ invoker: llm ? new Invoker({ llm }) : undefined, clock: new FakeClock() })
  );
}

function build(o: TestCtxOptions): RunContext {
  const invoker = o.invoker ??
    (o.llm
      ? new Invoker({
        llm: o.llm,
        chatMiddleware: o.chatMiddleware,
        toolMiddleware: o.toolMiddleware,
      })
      : undefined);
  // Unset fields stay undefined: Services gives them its own defaults
  // (NoopObserver, NoopTrace, PriceTable.default()).
  const services = new Services({
    invoker,
    clock: o.clock ?? new FakeClock(),
    observer: o.observer,
    trace: o.trace,
    store: o.store,
    vector: o.vector,
    checkpointer: o.checkpointer,
    asker: o.asker,
    prices: o.prices,
  });
  return new RunContext({ services, ...runOf(o) });
}

// The run's own fields of a bag, with the test defaults: the run is named
// "test-run", and a real model request is refused.
function runOf(o: TestCtxOptions): RunContextOptions {
  return {
    scope: o.scope,
    budget: o.budget,
    meters: o.meters,
    correlationId: o.correlationId ?? "test-run",
    autonomy: o.autonomy,
    signal: o.signal,
    allowModelRequests: o.allowModelRequests ?? false,
  };
}
