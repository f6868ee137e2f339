/**
 * The agent.
 *
 * @module
 */
import type { Message } from "../ports/message.ts";
import type { StreamEvent } from "../ports/stream_event.ts";
import type { Usage } from "../ports/usage.ts";
import type { AgentInfo, Cognition, StopReason } from "./cognition/cognition.ts";
import { SingleShotCognition } from "./cognition/single_shot.ts";
import type { RunContext } from "./context.ts";
import { RequestBuilder } from "./request_builder.ts";
import { Run } from "./run.ts";

/** Options for {@linkcode Agent}. */
export interface AgentOptions {
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
}

/** Options of one {@linkcode Agent.run}. */
export interface AgentRunOptions {
  /** Earlier turns to put before the task (a working context). */
  readonly context?: readonly Message[];
}

/**
 * What a run produced.
 *
 * @example
 * ```ts
 * import type { AgentResult } from "@agentkit/testing/runtime";
 * const r: AgentResult = { output: "ok", usage: { inputTokens: 10, outputTokens: 0 }, messages: [], stopReason: "stop" };
 * ```
 */
export interface AgentResult {
  /** The final answer. */
  readonly output: string;
  /** Usage summed over the run. */
  readonly usage: Usage;
  /** The whole transcript. */
  readonly messages: readonly Message[];
  /** Why the run ended. */
  readonly stopReason: StopReason;
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
export class Agent {
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

  /**
   * Creates the instance.
   *
   * @param name The agent's name.
   * @param options Model, system prompt, cognition.
   */
  constructor(name: string, options: AgentOptions) {
    if (typeof name !== "string" || !name) {
      throw new TypeError(
        `Cannot build an Agent: name must be a non-empty string, got ${JSON.stringify(name)}`,
      );
    }
    if (!options || typeof options.model !== "string" || !options.model) {
      throw new TypeError(
        `Cannot build agent "${name}": pass a model, as in new Agent("${name}", { model: "fake-model" })`,
      );
    }
    this.name = name;
    this.model = options.model;
    this.system = options.system;
    this.cognition = options.cognition ?? new SingleShotCognition();
    this.#builder = options.builder ?? new RequestBuilder();
    this.#info = { name, model: options.model, system: options.system };
  }

  /**
   * Runs the agent on a task.
   * @param task The user's request.
   * @param ctx The run context.
   * @param options Earlier turns.
   * @returns The result.
   */
  async run(task: string, ctx: RunContext, options: AgentRunOptions = {}): Promise<AgentResult> {
    if (typeof task !== "string") {
      throw new TypeError(
        `Cannot run agent "${this.name}": the task must be a string, got ${typeof task}`,
      );
    }
    const span = ctx.trace.span("invoke_agent", "client", {
      "gen_ai.agent.name": this.name,
      "gen_ai.request.model": this.model,
    });
    try {
      ctx.checkCancelled();
      const messages = await this.#builder.build(this.#info, task, ctx, options.context);
      const r = await this.cognition.run({ agent: this.#info, task, messages }, ctx);
      span.setAttribute("agentkit.stop_reason", r.stopReason);
      return { output: r.output, usage: r.usage, messages: r.messages, stopReason: r.stopReason };
    } catch (error) {
      span.addEvent("error", { message: String((error as Error)?.message ?? error) });
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * Runs the agent and yields its stream events.
   * @param task The user's request.
   * @param ctx The run context.
   * @param options Earlier turns.
   * @returns The events.
   */
  async *stream(
    task: string,
    ctx: RunContext,
    options: AgentRunOptions = {},
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const span = ctx.trace.span("invoke_agent", "client", {
      "gen_ai.agent.name": this.name,
      "gen_ai.request.model": this.model,
      streaming: true,
    });
    try {
      ctx.checkCancelled();
      const messages = await this.#builder.build(this.#info, task, ctx, options.context);
      yield* this.cognition.stream({ agent: this.#info, task, messages }, ctx);
    } finally {
      span.end();
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
  start(task: string, ctx: RunContext, options: AgentRunOptions = {}): Run {
    return new Run((runCtx) => this.stream(task, runCtx, options), ctx, {
      name: `run of agent "${this.name}"`,
    });
  }
}
