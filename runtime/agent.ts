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
} from "./_hook_chain.ts";
import { failureOf, settledResult, StreamResult } from "./_stream_result.ts";
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
import type { AgentHooks, HaltReply, HookContext, RunRequest } from "./hooks.ts";
import { buildNow, RequestBuilder } from "./request_builder.ts";
import { checkOptions, checkValue, describe, is, ports, type Rule } from "./_options.ts";
import type { Session } from "./session.ts";
import { checkStreamEvent } from "./stream_event_schema.ts";
import { rethrowIfFatal } from "./harness_error.ts";
import { Run } from "./run.ts";
import { spanError } from "./_span.ts";
import { pull } from "./_pull.ts";

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

const RUN_OPTIONS: Readonly<Record<string, Rule>> = {
  context: is.arrayOf(is.object),
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
  // without building a message.
  if (
    typeof task === "string" && ports.ctx.test(ctx, "ctx") === undefined &&
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
  readonly #builder: RequestBuilder;
  readonly #info: AgentInfo;
  readonly #hooks: PreparedHooks;
  readonly #output?: PreparedOutput<D>;

  /**
   * Creates the instance.
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
    this.#builder = options.builder ?? new RequestBuilder();
    this.#info = { name, model: options.model, system: options.system };
    this.#hooks = prepareHooks(name, options.hooks);
    if (options.output !== undefined) this.#output = prepareOutput(options.output, name);
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
  async run(
    task: string,
    ctx: RunContext,
    options: AgentRunOptions = NO_OPTIONS,
  ): Promise<TypedAgentResult<D>> {
    // The same path as stream(); with blocking model calls it yields nothing.
    const events = this.#events(task, ctx, options, false);
    let step = await events.next();
    while (!step.done) step = await events.next();
    return settledResult(step.value) as TypedAgentResult<D>;
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
    return this.#events(task, ctx, options, true);
  }

  // The one path of every run.
  async *#events(
    task: string,
    ctx: RunContext,
    options: AgentRunOptions,
    streaming: boolean,
  ): AsyncGenerator<StreamEvent, TypedAgentResult<D>, undefined> {
    checkRun(this.name, streaming ? "stream" : "run", task, ctx, options);
    const span = ctx.trace.span(
      "invoke_agent",
      "client",
      streaming
        ? { "gen_ai.agent.name": this.name, "gen_ai.request.model": this.model, streaming: true }
        : { "gen_ai.agent.name": this.name, "gen_ai.request.model": this.model },
    );
    const session = options.session;
    // Inside a session every step of the run is in its async context.
    const inSession = <T>(fn: () => T): T => session ? session.run(fn) : fn();
    let source: AsyncIterator<unknown, unknown> | undefined;
    const output = this.#output;
    let finished = false;
    let began = false;
    try {
      if (session) this.#checkSession(session, ctx);
      session?.beginRun();
      began = true;
      ctx.checkCancelled();
      const hc: HookContext = { agent: this.#info, ctx, session };
      // Without a session or beforeRun hooks the request is the task as given.
      const request: RunRequest | (RunRequest & HaltReply) = session ||
          this.#hooks.beforeRun.length
        ? await inSession(() => this.#before(task, options, hc))
        : { task, context: options.context ?? NO_MESSAGES };
      const halted = "reply" in request;
      let prefix: readonly Message[];
      let input: CognitionInput | undefined;
      if (halted) {
        prefix = [...request.context, { role: "user", content: request.task }];
        source = haltEvents((request as HaltReply).reply, `halted-${ctx.correlationId}`);
      } else {
        const built = inSession(() =>
          buildNow(this.#builder, this.#info, request.task, ctx, request.context)
        );
        prefix = built instanceof Promise ? await built : built;
        input = { agent: this.#info, task: request.task, messages: prefix, streaming };
        if (output) {
          input = {
            ...input,
            settings: { jsonSchema: output.jsonSchema, jsonSchemaName: output.name },
          };
        }
        const first = input;
        source = inSession(() => this.cognition.stream(first, ctx)[Symbol.asyncIterator]());
      }
      const hooks = this.#hooks;
      const origin = `cognition "${this.cognition.name ?? "anonymous"}"`;
      // `data` is set below only when the output schema passed; typed as D then.
      let result: TypedAgentResult<D>;
      let spent = ZERO_USAGE;
      // One pass per answer: a second only when the first did not match the
      // output schema, with the model shown what was wrong.
      for (let attempt = 1;; attempt++) {
        const fold = new StreamResult();
        const it = source;
        let rewritten = false;
        let returned: unknown;
        for (;;) {
          // A ready event is taken without a promise (see ./_pull.ts).
          let step = session ? session.run(() => pull(it)) : pull(it);
          if (step instanceof Promise) step = await step;
          if (step.done) {
            returned = step.value;
            break;
          }
          const event = checkStreamEvent(step.value, origin);
          if (!hooks.onStreamEvent.length) {
            fold.add(event);
            // Under run() nobody reads the events: they are folded, not handed out.
            if (streaming) yield event;
            continue;
          }
          const [out, by] = await inSession(() => runStreamHooks(hooks, event, hc));
          if (by !== undefined) rewritten = true;
          for (const e of out) {
            const checked = by === undefined
              ? e as StreamEvent
              : checkStreamEvent(e, `hook "${by}"`);
            fold.add(checked);
            if (streaming) yield checked;
          }
        }
        finished = true;
        result = fold.result(
          prefix,
          checkResult(returned, origin),
          halted,
          rewritten,
        ) as TypedAgentResult<D>;
        if (attempt > 1) result = { ...result, usage: addUsage(spent, result.usage) };
        const failure = failureOf(result);
        if (failure) {
          spanError(span, failure.error);
          return result;
        }
        if (!output || halted) break;
        const verdict = output.check(result.output);
        if (verdict.ok) {
          result = { ...result, data: verdict.data };
          break;
        }
        if (attempt === 2) throw new InvalidOutput(this.name, result.output, verdict.issues, 2);
        spent = result.usage;
        const again: CognitionInput = {
          ...input!,
          messages: [...result.messages, { role: "user", content: reflection(verdict.issues) }],
        };
        finished = false;
        source = inSession(() => this.cognition.stream(again, ctx)[Symbol.asyncIterator]());
      }
      span.setAttribute("agentkit.stop_reason", result.stopReason);
      session?.append({ role: "user", content: request.task }, {
        role: "assistant",
        content: result.output,
      });
      if (hooks.afterRun.length) await inSession(() => runAfterRun(hooks, result, hc));
      return result;
    } catch (error) {
      spanError(span, error);
      throw error;
    } finally {
      // Closes the cognition's stream when the consumer stopped early or a
      // check failed, as for-await would.
      if (!finished && source?.return) {
        try {
          await source.return();
        } catch (error) {
          rethrowIfFatal(error);
        }
      }
      span.end();
      if (began) await session?.endRun();
    }
  }

  // The request after the beforeRun hooks; a halted one carries the reply.
  async #before(
    task: string,
    options: AgentRunOptions,
    hc: HookContext,
  ): Promise<RunRequest | (RunRequest & HaltReply)> {
    const context = options.session
      ? [...options.session.transcript, ...(options.context ?? [])]
      : options.context ?? [];
    const request: RunRequest = { task, context };
    if (!this.#hooks.beforeRun.length) return request;
    return await runBeforeRun(this.#hooks, request, hc);
  }

  #checkSession(session: Session, ctx: RunContext): void {
    if (session.scope.key() !== ctx.scope.key()) {
      throw new TypeError(
        `Cannot run agent "${this.name}" on session "${session.id}": the session belongs to tenant ${session.scope.key()} but the context is tenant ${ctx.scope.key()}; open the session with { scope: ctx.scope }`,
      );
    }
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
    return new Run((runCtx) => this.#events(task, runCtx, options, true), ctx, {
      name: `run of agent "${this.name}"`,
    });
  }
}

// The events of a halted run: the reply as one message the runtime owns.
async function* haltEvents(reply: string, messageId: string): AsyncGenerator<StreamEvent> {
  yield { type: "message_start", messageId };
  if (reply) yield { type: "text_delta", messageId, content: reply };
  yield { type: "message_end", messageId, finishReason: "stop", usage: ZERO_USAGE };
}

// What a cognition's stream returned: its result, or undefined (fold it).
function checkResult(value: unknown, origin: string): CognitionResult | undefined {
  if (value === undefined) return undefined;
  const r = value as Partial<CognitionResult> | null;
  if (
    r !== null && typeof r === "object" && typeof r.output === "string" &&
    typeof r.usage === "object" && r.usage !== null && Array.isArray(r.messages) &&
    typeof r.stopReason === "string"
  ) return r as CognitionResult;
  throw new TypeError(
    `The stream of ${origin} returned ${
      JSON.stringify(value) ?? String(value)
    }; return a CognitionResult ({ output, usage, messages, stopReason }) or nothing`,
  );
}
