/**
 * The agent.
 *
 * @module
 */
import type { Message } from "../ports/message.ts";
import type { StreamEvent } from "../ports/stream_event.ts";
import { addUsage, ZERO_USAGE } from "../ports/usage.ts";
import {
  type PreparedHooks,
  prepareHooks,
  runAfterRun,
  runBeforeRun,
  runStreamHooks,
} from "./hooks/_hook_chain.ts";
import { markFailed, StreamResult } from "./stream/_stream_result.ts";
import type {
  AgentInfo,
  AgentResult,
  Cognition,
  CognitionInput,
  CognitionResult,
} from "./cognition/cognition.ts";
import {
  InvalidOutput,
  type OutputSchema,
  type PreparedOutput,
  prepareOutput,
  reflection,
} from "./structured_output.ts";
import { SingleShotCognition } from "./cognition/single_shot.ts";
import type { RunContext } from "./context.ts";
import type { AgentHooks, HaltReply, HookContext, RunRequest } from "./hooks/hooks.ts";
import { buildNow, RequestBuilder } from "./request_builder.ts";
import { checkOptions, checkValue, describe, is, ports, type Rule } from "./_options.ts";
import type { Session } from "./sessions/session.ts";
import {
  checkStreamEvent,
  InvalidStreamEvent,
  isStreamEvent,
} from "./stream/stream_event_schema.ts";
import { rethrowIfFatal } from "./harness_error.ts";
import { Run } from "./run.ts";
import { noteRunFailed } from "./stream/_run_failed.ts";
import { spanError } from "./_span.ts";
import { PULL, pull, thenStep } from "./stream/_pull.ts";
import type { Span } from "../ports/trace.ts";
import { messageProblem } from "./sessions/_message_problem.ts";

// Where code that imported it from here still finds it; it lives beside CognitionResult.
export type { AgentResult } from "./cognition/cognition.ts";

const AGENT_OPTIONS: Readonly<Record<string, Rule>> = {
  model: is.text,
  system: is.string,
  cognition: ports.cognition,
  builder: is.port("a RequestBuilder", ["build"]),
  hooks: is.object,
  output: is.port("a zod schema", ["safeParse"]),
};

// Keys people put on the agent that belong somewhere else.
const AGENT_HINTS: Readonly<Record<string, string>> = {
  tools: "tools go to new ReActCognition({ tools }), passed as { cognition }",
  tool: "tools go to new ReActCognition({ tools }), passed as { cognition }",
  provider: "a tool provider goes to new ReActCognition({ provider }), passed as { cognition }",
  maxIterations: "maxIterations goes to new ReActCognition({ maxIterations })",
  llm: "the model port goes to the context: makeTestCtx({ llm }) or new Invoker({ llm })",
  budget: "a budget goes to the context: makeTestCtx({ budget })",
  chatMiddleware:
    "middleware goes to makeTestCtx({ chatMiddleware }) or new Invoker({ chatMiddleware })",
};

// Earlier turns are checked as a session checks them: a bad one taken here
// would reach the provider later, far from the line that made it.
const CONTEXT: Rule = {
  accepts: "an array of messages ({ role, content })",
  test: (v, option) => {
    if (!Array.isArray(v)) return { kind: "type" };
    for (let i = 0; i < v.length; i++) {
      const problem = messageProblem(v[i]);
      if (problem) return { kind: "type", message: `${option}: message ${i + 1} ${problem}` };
    }
    return undefined;
  },
};

const RUN_OPTIONS: Readonly<Record<string, Rule>> = {
  context: CONTEXT,
  session: is.port("a Session", ["beginRun", "endRun", "run", "append"]),
};

// The arguments of run/start/stream, checked where they are given, so a
// missing ctx is a sentence, not "Cannot read properties of undefined".
function checkRun(
  agent: string,
  method: string,
  task: unknown,
  ctx: unknown,
  options: unknown,
): void {
  // The common call (a string, a context, no options or known ones) passes
  // without building a message. The context's two methods are read by name,
  // as ports.ctx reads them: that rule's shared test reads every port's
  // methods by a computed key, a megamorphic read on every run (issue 39).
  const c = ctx as { checkCancelled?: unknown; emit?: unknown } | null;
  if (
    typeof task === "string" && c !== null && (typeof c === "object" || typeof c === "function") &&
    typeof c.checkCancelled === "function" && typeof c.emit === "function" &&
    (options === NO_OPTIONS || options === undefined)
  ) return;
  const where = `agent.${method}() of agent "${agent}"`;
  if (typeof task !== "string") {
    throw new TypeError(
      `Cannot run agent "${agent}": the task must be a string, got ${describe(task)}`,
    );
  }
  checkValue(where, "the ctx (second argument)", ctx, ports.ctx);
  checkOptions(where, options, RUN_OPTIONS, RUN_HINTS);
}

const RUN_HINTS = {
  hints: { budget: "a budget goes to the context: makeTestCtx({ budget })" },
};
// The default options of run/start/stream: one object, so the check above
// knows it has nothing to look at.
const NO_OPTIONS: AgentRunOptions = Object.freeze({});
const NO_MESSAGES: readonly Message[] = Object.freeze([]);

/** Options for {@linkcode Agent}; `D` is the type of `result.data`. */
export interface AgentOptions<D = undefined> {
  /** The model to call (also the price-table key). */
  readonly model: string;
  /** The system prompt. */
  readonly system?: string;
  /**
   * How the agent thinks.
   * @default {new SingleShotCognition()}
   */
  readonly cognition?: Cognition;
  /**
   * Composes the request.
   * @default {new RequestBuilder()}
   */
  readonly builder?: RequestBuilder;
  /**
   * Code run before each run, on each stream event and after each run.
   * @default {{}}
   */
  readonly hooks?: AgentHooks;
  /**
   * A zod schema the answer must satisfy. The agent asks the model for JSON
   * (each request carries `settings.jsonSchema`), parses and validates the
   * answer, and returns it typed as `result.data`; an invalid answer is
   * shown to the model once with what was wrong, and a second invalid
   * answer fails the run with `InvalidOutput`.
   */
  readonly output?: OutputSchema<D>;
}

/** A run's result with its checked structured output (`undefined` without `output`). */
export type TypedAgentResult<D> = AgentResult & { readonly data: D };

/** Options of one {@linkcode Agent.run}. */
export interface AgentRunOptions {
  /** Earlier turns to put before the task (a working context). */
  readonly context?: readonly Message[];
  /**
   * The conversation this run belongs to: its transcript goes before
   * `context`, the task and the answer are appended to it, its volatile
   * cache is cleared when the run ends, and `Session.current()` returns it
   * inside the run.
   */
  readonly session?: Session;
}

/**
 * An agent: a name, a model, a system prompt and a cognition. It runs on a
 * `RunContext`, the production path; in tests build that with `makeTestCtx`.
 *
 * @example The smallest thing that works
 * ```ts
 * import { Agent } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const ctx = makeTestCtx({ llm: new FakeLLM("The cert expired on 2026-08-01.") });
 * const result = await new Agent("analyst", { model: "fake-model" }).run("Why did the deploy fail?", ctx);
 * assertEquals(result.output, "The cert expired on 2026-08-01.");
 * assertEquals(result.usage.inputTokens, 10);
 * ```
 */
export class Agent<D = undefined> {
  /** The agent's name. */
  readonly name: string;
  /** The model. */
  readonly model: string;
  /** The system prompt. */
  readonly system?: string;
  /** The cognition. */
  readonly cognition: Cognition;
  readonly #core: AgentCore<D>;

  /**
   * Checks the name and every option here; the cognition defaults to `SingleShotCognition`.
   *
   * @param name The agent's name.
   * @param options Model, system prompt, cognition.
   */
  constructor(name: string, options: AgentOptions<D>) {
    if (typeof name !== "string" || !name) {
      throw new TypeError(
        `Cannot build an Agent: name must be a non-empty string, got ${JSON.stringify(name)}`,
      );
    }
    if (
      options === undefined || options === null ||
      (typeof options === "object" && !Array.isArray(options) && options.model === undefined)
    ) {
      throw new TypeError(
        `Cannot build agent "${name}": pass a model, as in new Agent("${name}", { model: "fake-model" })`,
      );
    }
    checkOptions(`new Agent("${name}")`, options, AGENT_OPTIONS, { hints: AGENT_HINTS });
    this.name = name;
    this.model = options.model;
    this.system = options.system;
    this.cognition = options.cognition ?? new SingleShotCognition();
    this.#core = {
      builder: options.builder ?? new RequestBuilder(),
      info: { name, model: options.model, system: options.system },
      hooks: prepareHooks(name, options.hooks),
      output: options.output === undefined ? undefined : prepareOutput(options.output, name),
    };
  }

  /**
   * Runs the agent on a task: drains the same stream as
   * {@linkcode Agent.stream} (hooks included), with blocking model calls, and
   * returns its result.
   *
   * @param task The user's request.
   * @param ctx The run context.
   * @param options Earlier turns, a session.
   * @returns The result.
   * @throws The error the run failed with.
   */
  run(
    task: string,
    ctx: RunContext,
    options: AgentRunOptions = NO_OPTIONS,
  ): Promise<TypedAgentResult<D>> {
    // The same path as stream(); its events are taken as they come, each
    // ready one without a promise, and dropped.
    return drain(new AgentStream(this, this.#core, task, ctx, options, false));
  }

  /**
   * Runs the agent and yields its stream events, each through the
   * `onStreamEvent` hooks; returns the run's result. A run that fails on an
   * `error` event still yields it, then returns the folded result.
   *
   * @param task The user's request.
   * @param ctx The run context.
   * @param options Earlier turns, a session.
   * @returns The events, then the result.
   */
  stream(
    task: string,
    ctx: RunContext,
    options: AgentRunOptions = NO_OPTIONS,
  ): AsyncGenerator<StreamEvent, TypedAgentResult<D>, undefined> {
    return new AgentStream(this, this.#core, task, ctx, options, true);
  }

  /**
   * Starts the agent on a task and returns at once with a {@linkcode Run}
   * handle: buffered `events`, a `result` built from them, `isDone`,
   * `drained` and `cancel()`. The run drives {@linkcode Agent.stream} on a
   * copy of `ctx` with its own signal, linked to `ctx.signal`.
   *
   * @param task The user's request.
   * @param ctx The run context; aborting its signal cancels the run.
   * @param options Earlier turns.
   * @returns The run, already under way.
   *
   * @example
   * ```ts
   * import { Agent } from "@agentkit/testing/runtime";
   * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
   * import { assertEquals } from "@std/assert";
   *
   * const run = new Agent("a", { model: "fake-model" }).start("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
   * assertEquals((await run.result).output, "hello");
   * ```
   */
  start(task: string, ctx: RunContext, options: AgentRunOptions = NO_OPTIONS): Run {
    checkRun(this.name, "start", task, ctx, options);
    return new Run((runCtx) => this.stream(task, runCtx, options), ctx, {
      name: `run of agent "${this.name}"`,
    });
  }
}

// What a run needs of its agent beyond the public fields, fixed when the
// agent is built.
interface AgentCore<D> {
  readonly builder: RequestBuilder;
  readonly info: AgentInfo;
  readonly hooks: PreparedHooks;
  readonly output: PreparedOutput<D> | undefined;
}

type Step<D> = IteratorResult<StreamEvent, TypedAgentResult<D>>;
type Ready<D> = Step<D> | Promise<Step<D>>;

const FRESH = 0;
const STARTED = 1;
const DONE = 2;

// agent.run: the run's stream drained, each ready step taken without a promise.
function drain<D>(run: AgentStream<D>): Promise<TypedAgentResult<D>> {
  let step: Ready<D>;
  try {
    step = run[PULL]();
    while (!(step instanceof Promise)) {
      if (step.done) return run.settled(step.value);
      step = run[PULL]();
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return step.then((s) => s.done ? run.settled(s.value) : drain(run));
}

// The one path of every run: agent.run drains it, agent.stream hands it out,
// Run buffers it. Hand-written rather than an async generator: every event
// of a run crosses it, and a ready event (a scripted double has them all
// ready) passes through without a promise or a generator resumption. It
// keeps an async generator's contract: the body starts on the first step,
// calls are served one at a time in order, return() and throw() run the
// cleanup a finally block would, and a finished run answers done.
class AgentStream<D> implements AsyncGenerator<StreamEvent, TypedAgentResult<D>, undefined> {
  readonly #agent: Agent<D>;
  readonly #core: AgentCore<D>;
  readonly #task: string;
  readonly #ctx: RunContext;
  readonly #options: AgentRunOptions;
  readonly #streaming: boolean;
  readonly #session: Session | undefined;
  #state = FRESH;
  // The cleanup has begun: a failure from here on is the caller's as is.
  #closing = false;
  // The step in flight, when one is: later calls wait for it.
  #busy: Promise<unknown> | undefined;
  #span: Span | undefined;
  #began = false;
  #hc: HookContext | undefined;
  #halted = false;
  #prefix: readonly Message[] = NO_MESSAGES;
  #request: RunRequest | undefined;
  #input: CognitionInput | undefined;
  #source: AsyncIterator<unknown, unknown> | undefined;
  // Whether the source ended (it is not closed then).
  #finished = false;
  // The events of the pass, as handed out (after the hooks).
  #seen: StreamEvent[] = [];
  #rewritten = false;
  #attempt = 1;
  #spent = ZERO_USAGE;
  // The error of a run that failed on an error event (it returns its result).
  #failure: { readonly error: unknown } | undefined;
  // The events a hook put in place of one, handed out in turn.
  #outs: readonly unknown[] | undefined;
  #by: string | undefined;
  #at = 0;

  constructor(
    agent: Agent<D>,
    core: AgentCore<D>,
    task: string,
    ctx: RunContext,
    options: AgentRunOptions,
    streaming: boolean,
  ) {
    this.#agent = agent;
    this.#core = core;
    this.#task = task;
    this.#ctx = ctx;
    this.#options = options;
    this.#streaming = streaming;
    this.#session = options?.session;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  // What run() returns for the result the run returned: the same as
  // settledResult(result), without a lookup by the result. The failure's
  // path is a method of its own: this one ends every run, and kept small V8
  // inlines it (issue 39).
  settled(result: TypedAgentResult<D>): Promise<TypedAgentResult<D>> {
    const failure = this.#failure;
    return failure === undefined ? Promise.resolve(result) : this.#rejected(failure.error);
  }

  #rejected(error: unknown): Promise<never> {
    noteRunFailed(this.#ctx, error);
    return Promise.reject(error);
  }

  next(): Promise<Step<D>> {
    // The common call, nothing in flight, without a closure for #serve.
    if (this.#busy !== undefined) return this.#serve(() => this[PULL]());
    let step: Ready<D>;
    try {
      step = this[PULL]();
    } catch (error) {
      return Promise.reject(error);
    }
    if (!(step instanceof Promise)) return Promise.resolve(step);
    this.#track(step);
    return step;
  }

  return(value?: TypedAgentResult<D> | PromiseLike<TypedAgentResult<D>>): Promise<Step<D>> {
    return this.#serve(() => this.#return(value as TypedAgentResult<D>));
  }

  throw(error: unknown): Promise<Step<D>> {
    return this.#serve(() => {
      if (this.#state !== STARTED) {
        this.#state = DONE;
        throw error;
      }
      return this.#fail(error);
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }

  // One call at a time, in order, as an async generator serves them.
  #serve(op: () => Ready<D>): Promise<Step<D>> {
    const busy = this.#busy;
    let step: Ready<D>;
    if (busy !== undefined) {
      step = busy.then(op, op);
    } else {
      try {
        step = op();
      } catch (error) {
        return Promise.reject(error);
      }
      if (!(step instanceof Promise)) return Promise.resolve(step);
    }
    this.#track(step);
    return step;
  }

  #track(step: Promise<unknown>): void {
    const done = (): void => {
      if (this.#busy === settled) this.#busy = undefined;
    };
    const settled: Promise<unknown> = step.then(done, done);
    this.#busy = settled;
  }

  /** The next step: as is when it is ready, else a promise of it; a failure may be thrown. */
  [PULL](): Ready<D> {
    if (this.#state === DONE) return { done: true, value: undefined as never };
    try {
      if (this.#state !== FRESH) return this.#pump();
      this.#state = STARTED;
      return this.#start();
    } catch (error) {
      return this.#fail(error);
    }
  }

  // What happens once `p` settles; a failure there fails the run. Every
  // promise of a step goes through here, so a step never rejects unhandled.
  #then<T>(p: Promise<T>, next: (value: T) => Ready<D>): Promise<Step<D>> {
    return thenStep(p, next, (error) => this.#fail(error));
  }

  // Who yielded the events, for messages.
  #origin(): string {
    return `cognition "${this.#agent.cognition.name ?? "anonymous"}"`;
  }

  // What the hooks see of the run, made when a hook first needs it.
  #hookCtx(): HookContext {
    return this.#hc ??= { agent: this.#core.info, ctx: this.#ctx, session: this.#session };
  }

  #inSession<T>(fn: () => T): T {
    return this.#session ? this.#session.run(fn) : fn();
  }

  #start(): Ready<D> {
    const agent = this.#agent;
    const ctx = this.#ctx;
    const options = this.#options;
    const session = this.#session;
    const streaming = this.#streaming;
    try {
      checkRun(agent.name, streaming ? "stream" : "run", this.#task, ctx, options);
    } catch (error) {
      // Before the run began: nothing to close.
      this.#state = DONE;
      this.#closing = true;
      throw error;
    }
    this.#span = ctx.trace.span(
      "invoke_agent",
      "client",
      streaming
        ? { "gen_ai.agent.name": agent.name, "gen_ai.request.model": agent.model, streaming: true }
        : { "gen_ai.agent.name": agent.name, "gen_ai.request.model": agent.model },
    );
    if (session) this.#checkSession(session);
    session?.beginRun();
    this.#began = true;
    ctx.checkCancelled();
    // Without a session or beforeRun hooks the request is the task as given.
    if (session || this.#core.hooks.beforeRun.length) {
      const hc = this.#hookCtx();
      return this.#then(this.#inSession(() => this.#before(hc)), (request) => this.#open(request));
    }
    return this.#open({ task: this.#task, context: options.context ?? NO_MESSAGES });
  }

  // The request after the beforeRun hooks; a halted one carries the reply.
  async #before(hc: HookContext): Promise<RunRequest | (RunRequest & HaltReply)> {
    const options = this.#options;
    const context = options.session
      ? [...options.session.transcript, ...(options.context ?? [])]
      : options.context ?? [];
    const request: RunRequest = { task: this.#task, context };
    if (!this.#core.hooks.beforeRun.length) return request;
    return await runBeforeRun(this.#core.hooks, request, hc);
  }

  #checkSession(session: Session): void {
    const ctx = this.#ctx;
    if (session.scope.key() !== ctx.scope.key()) {
      throw new TypeError(
        `Cannot run agent "${this.#agent.name}" on session "${session.id}": the session belongs to tenant ${session.scope.key()} but the context is tenant ${ctx.scope.key()}; open the session with { scope: ctx.scope }`,
      );
    }
  }

  #open(request: RunRequest | (RunRequest & HaltReply)): Ready<D> {
    this.#request = request;
    if ("reply" in request) {
      this.#halted = true;
      this.#prefix = [...request.context, { role: "user", content: request.task }];
      this.#source = haltEvents(request.reply, `halted-${this.#ctx.correlationId}`);
      return this.#pump();
    }
    const core = this.#core;
    const built = this.#inSession(() =>
      buildNow(core.builder, core.info, request.task, this.#ctx, request.context)
    );
    if (built instanceof Promise) {
      return this.#then(built, (prefix) => this.#think(request, prefix));
    }
    return this.#think(request, built);
  }

  #think(request: RunRequest, prefix: readonly Message[]): Ready<D> {
    this.#prefix = prefix;
    const output = this.#core.output;
    let input: CognitionInput = {
      agent: this.#core.info,
      task: request.task,
      messages: prefix,
      streaming: this.#streaming,
    };
    if (output) {
      input = {
        ...input,
        settings: { jsonSchema: output.jsonSchema, jsonSchemaName: output.name },
      };
    }
    this.#input = input;
    this.#source = this.#inSession(() =>
      this.#agent.cognition.stream(input, this.#ctx)[Symbol.asyncIterator]()
    );
    return this.#pump();
  }

  // The next event of the cognition's stream, through the hooks and into the
  // fold; the result once the stream ends.
  #pump(): Ready<D> {
    const outs = this.#outs;
    if (outs !== undefined) {
      if (this.#at < outs.length) {
        const e = outs[this.#at++];
        const by = this.#by;
        const checked = by === undefined ? e as StreamEvent : checkStreamEvent(e, `hook "${by}"`);
        this.#seen.push(checked);
        return { done: false, value: checked };
      }
      this.#outs = undefined;
    }
    // A ready event is taken without a promise (see ./_pull.ts).
    const it = this.#source!;
    const session = this.#session;
    const step = session ? session.run(() => pull(it)) : pull(it);
    return step instanceof Promise ? this.#then(step, (s) => this.#took(s)) : this.#took(step);
  }

  // One step of the cognition's stream: its event through the hooks, or the
  // result once it ended.
  #took(step: IteratorResult<unknown, unknown>): Ready<D> {
    if (step.done) {
      this.#finished = true;
      return this.#finish(step.value);
    }
    const event = step.value;
    if (!isStreamEvent(event)) throw new InvalidStreamEvent(this.#origin(), event);
    const hooks = this.#core.hooks;
    if (!hooks.onStreamEvent.length) {
      this.#seen.push(event);
      return step as Step<D>;
    }
    return this.#then(
      this.#inSession(() => runStreamHooks(hooks, event, this.#hookCtx())),
      ([out, by]) => {
        if (by !== undefined) this.#rewritten = true;
        this.#outs = out;
        this.#by = by;
        this.#at = 0;
        return this.#pump();
      },
    );
  }

  // The stream ended: its result, checked against the output schema (a
  // second pass when the first did not match, with the model shown what was
  // wrong), recorded and handed to the afterRun hooks.
  #finish(returned: unknown): Ready<D> {
    const agent = this.#agent;
    const span = this.#span!;
    const cognitionResult = checkResult(returned, () => this.#origin());
    let result: TypedAgentResult<D>;
    let failure: { readonly error: unknown } | undefined;
    if (cognitionResult !== undefined && !this.#rewritten) {
      // The result as the cognition returned it: nothing to fold.
      const { output, usage, messages, stopReason } = cognitionResult;
      result = { output, usage, messages, stopReason } as TypedAgentResult<D>;
    } else {
      // The events are folded when the result is made from them: the
      // cognition returned none, or a hook rewrote them.
      const fold = new StreamResult();
      for (const event of this.#seen) fold.add(event);
      result = fold.result(
        this.#prefix,
        cognitionResult,
        this.#halted,
        this.#rewritten,
      ) as TypedAgentResult<D>;
      failure = fold.failure;
    }
    if (this.#attempt > 1) {
      // A second pass's result counts both passes' usage; a failed one is
      // marked failed as the fold's own is (see failureOf).
      result = { ...result, usage: addUsage(this.#spent, result.usage) };
      if (failure) markFailed(result, failure);
    }
    if (failure) {
      this.#failure = failure;
      spanError(span, failure.error);
      return this.#close(result);
    }
    const output = this.#core.output;
    if (output && !this.#halted) {
      const verdict = output.check(result.output, lastFinish(this.#seen));
      if (!verdict.ok) {
        if (this.#attempt === 2) {
          throw new InvalidOutput(agent.name, result.output, verdict.issues, 2);
        }
        this.#attempt++;
        this.#spent = result.usage;
        const again: CognitionInput = {
          ...this.#input!,
          messages: [...result.messages, { role: "user", content: reflection(verdict.issues) }],
        };
        this.#finished = false;
        this.#seen = [];
        this.#rewritten = false;
        this.#source = this.#inSession(() =>
          agent.cognition.stream(again, this.#ctx)[Symbol.asyncIterator]()
        );
        return this.#pump();
      }
      result = { ...result, data: verdict.data };
    }
    span.setAttribute("agentkit.stop_reason", result.stopReason);
    const session = this.#session;
    session?.append({ role: "user", content: this.#request!.task }, {
      role: "assistant",
      content: result.output,
    });
    const hooks = this.#core.hooks;
    if (hooks.afterRun.length) {
      const settled = result;
      return this.#then(
        this.#inSession(() => runAfterRun(hooks, settled, this.#hookCtx())),
        () => this.#close(settled),
      );
    }
    return this.#close(result);
  }

  // The end of a run that returns: the span ends, the session's run ends.
  #close(result: TypedAgentResult<D>): Ready<D> {
    this.#state = DONE;
    this.#closing = true;
    this.#span!.end();
    const session = this.#session;
    if (this.#began && session) {
      return Promise.resolve(session.endRun()).then(() => ({ done: true, value: result }));
    }
    return { done: true, value: result };
  }

  // The run failed with `error`: recorded on the span, the cognition's stream
  // closed, the span and the session's run ended; then `error` is thrown.
  #fail(error: unknown): never | Promise<never> {
    if (this.#closing) throw error;
    this.#state = DONE;
    this.#closing = true;
    noteRunFailed(this.#ctx, error);
    spanError(this.#span!, error);
    const cleanup = this.#cleanup();
    if (cleanup === undefined) throw error;
    return cleanup.then(() => {
      throw error;
    });
  }

  // return(): the run stops where it is, closing what it opened.
  #return(value: TypedAgentResult<D>): Ready<D> {
    const step: Step<D> = { done: true, value };
    if (this.#state !== STARTED) {
      this.#state = DONE;
      return step;
    }
    this.#state = DONE;
    this.#closing = true;
    const cleanup = this.#cleanup();
    return cleanup === undefined ? step : cleanup.then(() => step);
  }

  // What a finally block would do: close the cognition's stream when it did
  // not end (the consumer stopped early, or a check failed), end the span
  // and the session's run. Undefined when there was nothing to wait for.
  #cleanup(): Promise<void> | undefined {
    const source = this.#source;
    const open = !this.#finished && source?.return !== undefined;
    const session = this.#began ? this.#session : undefined;
    if (!open && !session) {
      this.#span!.end();
      return undefined;
    }
    return (async () => {
      if (open) {
        try {
          await source!.return!();
        } catch (error) {
          rethrowIfFatal(error);
        }
      }
      this.#span!.end();
      await session?.endRun();
    })();
  }
}

// The events of a halted run: the reply as one message the runtime owns.
async function* haltEvents(reply: string, messageId: string): AsyncGenerator<StreamEvent> {
  yield { type: "message_start", messageId };
  if (reply) yield { type: "text_delta", messageId, content: reply };
  yield { type: "message_end", messageId, finishReason: "stop", usage: ZERO_USAGE };
}

// What a cognition's stream returned: its result, or undefined (fold it).
function checkResult(value: unknown, origin: () => string): CognitionResult | undefined {
  if (value === undefined) return undefined;
  const r = value as Partial<CognitionResult> | null;
  if (
    r !== null && typeof r === "object" && typeof r.output === "string" &&
    typeof r.usage === "object" && r.usage !== null && Array.isArray(r.messages) &&
    typeof r.stopReason === "string"
  ) return r as CognitionResult;
  throw new TypeError(
    `The stream of ${origin()} returned ${
      JSON.stringify(value) ?? String(value)
    }; return a CognitionResult ({ output, usage, messages, stopReason }) or nothing`,
  );
}

// How the model's last message of the pass ended, as its stream said.
function lastFinish(events: readonly StreamEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "message_end") return e.finishReason;
  }
  return undefined;
}
