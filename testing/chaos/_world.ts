// One run's world: the faulty model, the wrapped tools, the clock, the stop
// switch, and the record the invariants read.
import type { Ctx } from "../../ports/context.ts";
import type { ToolPort } from "../../ports/tool.ts";
import type { Usage } from "../../ports/usage.ts";
import type { RunContext } from "../../runtime/context.ts";
import type { Budget } from "../../runtime/money/budget.ts";
import type { ToolMiddleware } from "../../runtime/middleware/types.ts";
import { isHarnessError } from "../../runtime/harness_error.ts";
import { adopt, CALL_NOW, describe, type Now, promised } from "../../runtime/internal.ts";
import { ScriptExhausted } from "../errors.ts";
import type { FakeClock } from "../fake_clock.ts";
import { aiSdkModel, type AiSdkModelOptions } from "../frameworks/ai_sdk_model.ts";
import type { AiSdkLanguageModel } from "../frameworks/ai_sdk_spec.ts";
import { FakeProvider } from "../http/fake_provider.ts";
import { FakeLLM, type Responder, type ResponderInput } from "../llm/fake_llm.ts";
import { parseTurn, type Turn } from "../llm/turn.ts";
import { makeTestCtx, type TestCtxOptions } from "../make_test_ctx.ts";
import { ChaosClock } from "./_chaos_clock.ts";
import { ChaosLLM } from "./_chaos_llm.ts";
import { ChaosTool } from "./_chaos_tool.ts";
import { isToolFault, MODEL_FAULTS, type PlannedFault } from "./_faults.ts";
import { SLOW_TOOL_MS, TOOL_FAULTS } from "./_tool_faults.ts";
import { ChaosStopped } from "./_stopped.ts";
import type {
  ChaosOutcome,
  ChaosRunStatus,
  ChaosToolCall,
  InjectedFault,
} from "./chaos_outcome.ts";
import type { ChaosWorld } from "./chaos_world.ts";

/** What a run is given: its faults, the script and the limits. */
export interface RunSetup {
  readonly run: number;
  readonly faults: readonly PlannedFault[];
  readonly turns?: readonly Turn[];
  readonly responder?: Responder;
  readonly maxSteps: number;
  readonly maxVirtualMs: number;
}

/** One model call as played: its turn, and the fault that made it, if any. */
export interface ServedCall {
  readonly n: number;
  readonly turn: Turn;
  readonly fault?: InjectedFault;
  /** The turn as script source, when the fault says how it reads. */
  readonly source?: string;
}

interface ToolRecord extends ChaosToolCall {
  ran: boolean;
  readonly idempotent: boolean | undefined;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

const NOT_YOURS = ["llm", "invoker", "clock"] as const;
const ENDED = "was still going after its scenario settled, and chaos() had moved on";

/** The world of one run (see {@linkcode ChaosWorld}). */
export class World implements ChaosWorld {
  readonly run: number;
  readonly clock: FakeClock;
  readonly llm: ChaosLLM;
  readonly signal: AbortSignal;
  /** Bumped by everything that happens: the watchdog reads it. */
  progress = 0;
  /** Why chaos() stopped the run, once it has. */
  stoppedBy: string | undefined;
  /** Rejects (handled) once the run is stopped: a stall waits on it. */
  readonly stopped: Promise<never>;
  readonly served: ServedCall[] = [];
  readonly injected: InjectedFault[] = [];
  readonly toolRecords: ToolRecord[] = [];
  readonly harnessErrors: Error[] = [];
  readonly budgetProblems: string[] = [];
  readonly budgets: Set<Budget> = new Set();
  billedCalls = 0;
  billedTokens = 0;
  /** How often each tool ran for each call id (key: tool NUL id). */
  readonly runs: Map<string, number> = new Map();
  readonly #setup: RunSetup;
  readonly #inner: FakeLLM;
  readonly #model = new Map<number, PlannedFault>();
  readonly #tool = new Map<number, PlannedFault>();
  readonly #controller = new AbortController();
  readonly #tools = new Map<ToolPort, ChaosTool>();
  #fail!: (error: Error) => void;
  #ended = false;
  #fetch: FakeProvider | undefined;
  #installed: Disposable | undefined;
  /** Model and tool calls under way (begun, not yet settled). */
  #open = 0;
  #baseNext = 0;
  #toolN = 0;
  #callSignal: AbortSignal | undefined;
  #pending: { readonly tool: ToolPort; readonly callId: string } | undefined;
  readonly #middleware: ToolMiddleware;

  constructor(setup: RunSetup) {
    this.#setup = setup;
    this.run = setup.run;
    for (const f of setup.faults) (isToolFault(f.kind) ? this.#tool : this.#model).set(f.at, f);
    this.signal = this.#controller.signal;
    this.stopped = new Promise<never>((_, reject) => this.#fail = reject);
    this.stopped.catch(() => {});
    this.clock = new ChaosClock({
      tick: () => void this.progress++,
      stopError: () => {
        const halt = this.#halt();
        return halt === undefined ? undefined : new ChaosStopped(halt);
      },
      moved: () => this.checkTime(),
    });
    this.#inner = new FakeLLM((input) => this.#answer(input));
    this.llm = new ChaosLLM(this.#inner, {
      enter: (signal, budget) => this.#enter(signal, budget),
      leave: () => void this.#open--,
      bill: (usage) => this.#bill(usage),
    });
    this.#middleware = {
      name: "chaos",
      call: (invocation, ctx, next) => {
        this.#pending = { tool: invocation.tool, callId: invocation.call.id };
        return next(invocation, ctx);
      },
    };
  }

  get fetch(): FakeProvider {
    this.#install();
    return this.#fetch ??= new FakeProvider({ llm: this.llm, clock: this.clock });
  }

  // Another stack's client keeps its own timers (retry backoffs, timeouts):
  // from the first use of the wire or the AI SDK model on, the global
  // timers run on the world's clock too. Only then: installing costs a
  // run more than the rest of the world.
  #install(): void {
    this.#installed ??= this.clock.install();
  }

  /** Restores the global timers if the run installed its clock over them. */
  uninstall(): void {
    this.#installed?.[Symbol.dispose]();
    this.#installed = undefined;
  }

  tool(tool: ToolPort): ToolPort {
    if (tool === null || typeof tool !== "object" || typeof tool.call !== "function") {
      throw new TypeError(
        `world.tool() takes a tool (a FakeTool, or any ToolPort with name and call), got ${
          describe(tool)
        }`,
      );
    }
    if (tool instanceof ChaosTool) return tool;
    let wrapped = this.#tools.get(tool);
    if (!wrapped) {
      wrapped = new ChaosTool(tool, (w, inner, args, ctx) => this.#toolCall(w, inner, args, ctx));
      this.#tools.set(tool, wrapped);
    }
    return wrapped;
  }

  ctx(options: TestCtxOptions = {}): RunContext {
    const bag = worldBag(
      "world.ctx()",
      options,
      "an options object: makeTestCtx's options without llm, invoker and clock",
    );
    for (const key of NOT_YOURS) {
      if (bag[key] !== undefined) {
        throw new TypeError(
          `world.ctx(): do not pass ${key}; the context is wired to the world's ${
            key === "clock" ? "clock" : "model"
          } (world.${
            key === "clock" ? "clock" : "llm"
          }), which is what chaos() injects faults into`,
        );
      }
    }
    // A signal or a middleware list that is not one is passed on as given,
    // for makeTestCtx to refuse by name.
    const { signal, toolMiddleware } = bag as TestCtxOptions;
    return named("world.ctx()", () =>
      makeTestCtx({
        ...bag,
        llm: this.llm,
        clock: this.clock,
        signal: signal instanceof AbortSignal
          ? AbortSignal.any([signal, this.signal])
          : signal ?? this.signal,
        toolMiddleware: toolMiddleware === undefined
          ? [this.#middleware]
          : Array.isArray(toolMiddleware)
          ? [...toolMiddleware, this.#middleware]
          : toolMiddleware,
      }));
  }

  aiSdkModel<V extends "v4" | "v3" = "v4">(
    options: Omit<AiSdkModelOptions<V>, "ctx"> = {},
  ): AiSdkLanguageModel<V> {
    const bag = worldBag(
      "world.aiSdkModel()",
      options,
      "an options object: aiSdkModel's options (modelId, specificationVersion)",
    );
    if (bag.ctx !== undefined) {
      throw new TypeError(
        "world.aiSdkModel(): do not pass ctx; the model runs on the world's context (world.ctx()): its clock and the run's stop signal",
      );
    }
    this.#install();
    return named("world.aiSdkModel()", () => aiSdkModel<V>(this.llm, { ...bag, ctx: this.ctx() }));
  }

  /** Stops the run: its signal aborts, stalls end, and every later call or wait fails. */
  stop(reason: string): void {
    if (this.stoppedBy !== undefined) return;
    this.stoppedBy = reason;
    const error = new ChaosStopped(reason);
    this.#controller.abort(error);
    this.#fail(error);
  }

  /**
   * Ends what is left of a run that is over (a stall nobody cancelled, a
   * loop still going), without counting it as stopped; says whether there
   * was anything to end.
   */
  finish(): boolean {
    if (this.stoppedBy !== undefined || this.#ended) return false;
    this.#ended = true;
    // Nothing under way: nothing to end (and no error to make).
    if (this.#open === 0) return false;
    const error = new ChaosStopped(ENDED);
    this.#controller.abort(error);
    this.#fail(error);
    return true;
  }

  #halt(): string | undefined {
    return this.stoppedBy ?? (this.#ended ? ENDED : undefined);
  }

  /** Stops the run once its virtual time is past the limit. */
  checkTime(): void {
    const now = this.clock.now();
    if (now > this.#setup.maxVirtualMs) {
      this.stop(
        `ran past maxVirtualMs (${this.#setup.maxVirtualMs} ms of virtual time; the clock was at ${now} ms)`,
      );
    }
  }

  /** The run's record, for the invariants. */
  outcome(status: ChaosRunStatus, result: unknown, error: unknown): ChaosOutcome {
    return {
      run: this.run,
      status,
      result,
      error,
      faults: this.injected.slice(),
      modelCalls: this.#inner.calls,
      // A call that failed played no turn and left a hole: values skips it.
      turns: Object.values(this.served).map((s) => s.turn),
      requests: this.#inner.requests.slice(),
      toolCalls: this.toolRecords.slice(),
      virtualMs: this.clock.now(),
    };
  }

  /** The fake behind the model, for its own record (unknown tool calls, requests). */
  get inner(): FakeLLM {
    return this.#inner;
  }

  /** How many HTTP requests world.fetch got, in words, or undefined when none. */
  fetchRequests(): string | undefined {
    const n = this.#fetch?.requests.length ?? 0;
    return n === 0 ? undefined : `${n} HTTP request(s)`;
  }

  #enter(signal: AbortSignal | undefined, budget: Budget | undefined): void {
    this.progress++;
    this.#open++;
    this.#callSignal = signal;
    if (!budget) return;
    this.budgets.add(budget);
    try {
      budget.check();
    } catch (error) {
      this.budgetProblems.push(
        `model call ${this.#inner.calls + 1} went to the provider after the budget was used up (${
          (error as Error).message
        })`,
      );
    }
  }

  #bill(usage: Usage): void {
    this.progress++;
    this.billedCalls++;
    this.billedTokens += usage.inputTokens + usage.outputTokens + (usage.cachedInputTokens ?? 0);
  }

  #inject(planned: PlannedFault, args: string): InjectedFault {
    const target = isToolFault(planned.kind) ? "tool" : "model";
    const fault: InjectedFault = {
      kind: planned.kind,
      target,
      at: planned.at,
      args,
      label: `${target === "tool" ? "tool call" : "call"} ${planned.at}: ${planned.kind}(${args})`,
    };
    this.injected.push(fault);
    return fault;
  }

  // Each call's turn: the stop, a fault's turn, or the script's next one.
  #answer(input: ResponderInput): Turn | Promise<Turn> {
    const n = this.#inner.calls;
    this.progress++;
    const max = this.#setup.maxSteps;
    if (n > max) this.stop(`made more than maxSteps (${max}) model calls`);
    this.checkTime();
    const halt = this.#halt();
    if (halt !== undefined) throw new ChaosStopped(halt);
    const planned = this.#model.get(n);
    if (planned) {
      const signal = this.#callSignal;
      const served = MODEL_FAULTS[planned.kind].serve(planned.params, {
        n,
        tools: input.tools,
        sleep: (ms) => this.clock.sleep(ms, signal),
        stopped: this.stopped,
      });
      if (served) {
        const fault = this.#inject(planned, served.args);
        this.served[n - 1] = { n, turn: served.turn, fault, source: served.source };
        return served.turn;
      }
    }
    const turns = this.#setup.turns;
    if (turns) {
      const i = this.#baseNext++;
      if (i >= turns.length) {
        throw this.#recorded(new ScriptExhausted("chaos()'s script", turns.length, i + 1));
      }
      this.served[n - 1] = { n, turn: turns[i] };
      return turns[i];
    }
    // The responder's harness errors (an answer that is no turn, its own
    // ScriptExhausted) are recorded as the script's are: a run that
    // swallows one still broke its test.
    const played = (value: string | Turn): Turn => {
      let turn: Turn;
      try {
        turn = parseTurn(value, `chaos(): the script responder's answer to call ${n}`);
      } catch (error) {
        throw this.#recorded(error);
      }
      this.served[n - 1] = { n, turn };
      return turn;
    };
    let out;
    try {
      out = this.#setup.responder!(input);
    } catch (error) {
      throw this.#recorded(error);
    }
    return out instanceof Promise
      ? out.then(played, (error) => {
        throw this.#recorded(error);
      })
      : played(out as string | Turn);
  }

  #recorded(error: unknown): unknown {
    if (isHarnessError(error)) this.harnessErrors.push(error);
    return error;
  }

  // One call of a wrapped tool: its fault, if it has one, around the tool.
  #toolCall(
    wrapper: ChaosTool,
    inner: ToolPort,
    args: Record<string, unknown>,
    ctx: Ctx,
  ): Now<unknown> {
    this.progress++;
    const halt = this.#halt();
    if (halt !== undefined) throw new ChaosStopped(halt);
    const n = ++this.#toolN;
    const pending = this.#pending;
    this.#pending = undefined;
    const viaRuntime = pending !== undefined && pending.tool === wrapper;
    const callId = viaRuntime ? pending.callId : this.#matchCall(wrapper.name, args);
    const record: ToolRecord = {
      n,
      tool: wrapper.name,
      callId,
      args,
      ran: false,
      idempotent: wrapper.idempotent,
    };
    this.toolRecords.push(record);
    const run = (): Now<unknown> => {
      (record as Writable<ToolRecord>).ran = true;
      this.progress++;
      if (callId !== undefined) {
        const key = `${wrapper.name}\u0000${callId}`;
        this.runs.set(key, (this.runs.get(key) ?? 0) + 1);
      }
      const fast = (inner as { [CALL_NOW]?: (a: unknown, c: Ctx, v: true) => Now<unknown> })[
        CALL_NOW
      ];
      return viaRuntime && fast ? fast.call(inner, args, ctx, true) : adopt(inner.call(args, ctx));
    };
    const planned = this.#tool.get(n);
    if (!planned) return run();
    this.#open++;
    const answer = this.#faulted(planned, wrapper.name, n, run, ctx);
    answer.then(() => void this.#open--, () => void this.#open--);
    return answer;
  }

  #faulted(
    planned: PlannedFault,
    name: string,
    n: number,
    run: () => Now<unknown>,
    ctx: Ctx,
  ): Promise<unknown> {
    this.#inject(planned, TOOL_FAULTS[planned.kind].args(planned.params, name));
    if (planned.kind === "slowTool") {
      const ms = SLOW_TOOL_MS[planned.params.v as number];
      return this.clock.sleep(ms, ctx?.signal).then(run);
    }
    if (!planned.params.ranFirst) {
      return Promise.reject(
        new Error(
          `tool "${name}" failed: the service behind it answered 503 Service Unavailable (chaos toolError, tool call ${n})`,
        ),
      );
    }
    // However the tool itself ended, its answer never arrives.
    const lost = () => {
      throw new Error(
        `tool "${name}" ran, but its answer was lost: the connection dropped (chaos toolError, tool call ${n})`,
      );
    };
    return promised(run).then(lost, lost);
  }

  // The model's call a tool call answers when the runtime did not say: the
  // latest turn's call of that tool with equal arguments, one that has not
  // run yet before one that has.
  #matchCall(name: string, args: unknown): string | undefined {
    // Arguments that are not JSON (undefined here) equal no model's call.
    const wanted = canonical(args);
    for (const served of Object.values(this.served).reverse()) {
      const calls = served.turn.toolCalls?.filter((c) =>
        c.name === name && c.rawArgs === undefined && canonical(c.args) === wanted
      );
      if (!calls?.length) continue;
      const fresh = calls.find((c) => !this.runs.has(`${name}\u0000${c.id}`));
      return (fresh ?? calls[calls.length - 1]).id;
    }
    return undefined;
  }
}

// JSON with sorted keys, or undefined for what is not JSON.
function canonical(value: unknown): string | undefined {
  try {
    return JSON.stringify(
      value,
      (_, v) =>
        v !== null && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
          : v,
    );
  } catch {
    return undefined;
  }
}

// An options bag of a world method: an object, or nothing (never a value
// spread into nothing, or a string spread into keys "0", "1", ...).
function worldBag(where: string, options: unknown, takes: string): Record<string, unknown> {
  if (options !== null && typeof options === "object" && !Array.isArray(options)) {
    return options as Record<string, unknown>;
  }
  throw new TypeError(`${where} takes ${takes}, or nothing; got ${describe(options)}`);
}

// The factory behind a world method checks the rest and names itself;
// the message says which call of the scenario it came from.
function named<T>(where: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (
      error instanceof Error &&
      (error.constructor === TypeError || error.constructor === RangeError)
    ) {
      const Class = error.constructor as ErrorConstructor;
      throw new Class(`${where}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
