/**
 * The default cognition: one model call.
 *
 * @module
 */
import type { Message, ProviderData, ToolCall } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import { ZERO_USAGE } from "../../ports/usage.ts";
import { modelCall, ModelTurn } from "./_model_call.ts";
import { nextOf, PULL, pull } from "../stream/_pull.ts";
import type { RunContext } from "../context.ts";
import {
  type Cognition,
  type CognitionInput,
  type CognitionResult,
  stopReasonOf,
} from "./cognition.ts";

/**
 * One model call; its content is the output.
 *
 * @example
 * ```ts
 * import { Agent, SingleShotCognition } from "@agentkit/testing/runtime";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const agent = new Agent("a", { model: "fake-model", cognition: new SingleShotCognition() });
 * const result = await agent.run("hi", makeTestCtx({ llm: new FakeLLM("hello") }));
 * assertEquals([result.output, result.stopReason], ["hello", "stop"]);
 * ```
 */
export class SingleShotCognition implements Cognition {
  /** `"single-shot"`. */
  readonly name: string = "single-shot";

  /**
   * Calls the model once, yielding its events.
   *
   * @param input The agent, the task and the composed transcript.
   * @param ctx The run.
   * @returns The events, then the result (nothing when the call failed:
   *   the run fails with the stream's error).
   */
  stream(
    input: CognitionInput,
    ctx: RunContext,
  ): AsyncIterableIterator<StreamEvent, CognitionResult | undefined, undefined> {
    const invoker = ctx.requireInvoker(input.agent.name);
    const request = {
      messages: input.messages,
      model: input.agent.model,
      settings: input.settings,
    };
    const events = modelCall(invoker, request, ctx, input.streaming !== false)[
      Symbol.asyncIterator
    ]();
    return new OneCall(events, input);
  }
}

// The events of the one call, folded into its turn as they pass.
// Hand-written rather than a generator: it is on every event's path, and
// all it adds is the fold; a ready event passes through without a promise.
class OneCall
  implements AsyncIterableIterator<StreamEvent, CognitionResult | undefined, undefined> {
  readonly #events: AsyncIterator<StreamEvent, unknown, undefined>;
  readonly #input: CognitionInput;
  readonly #turn = new ModelTurn();

  constructor(events: AsyncIterator<StreamEvent, unknown, undefined>, input: CognitionInput) {
    this.#events = events;
    this.#input = input;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent, CognitionResult | undefined>> {
    return nextOf(() => this[PULL]());
  }

  [PULL](): Step | Promise<Step> {
    const step = pull(this.#events);
    return step instanceof Promise ? step.then((s) => this.#fold(s)) : this.#fold(step);
  }

  #fold(step: IteratorResult<StreamEvent, unknown>): Step {
    if (step.done) return { done: true, value: resultOf(this.#input, this.#turn) };
    this.#turn.add(step.value);
    return step;
  }

  async return(): Promise<Step> {
    await this.#events.return?.();
    return { done: true, value: undefined };
  }
}

type Step = IteratorResult<StreamEvent, CognitionResult | undefined>;

// The call's result; nothing when it failed (the run fails with the stream's error).
function resultOf(input: CognitionInput, turn: ModelTurn): CognitionResult | undefined {
  const cut = turn.error?.finishReason === "length";
  if ((turn.error && !cut) || turn.finish === undefined) return undefined;
  const { content, calls } = turn;
  // A model that asks for tools here would get no answer: nothing runs them.
  if (calls.length && !cut) {
    throw new UnhandledToolCalls(
      input.agent.name,
      calls.map((c) => c.name),
    );
  }
  return {
    output: content,
    usage: turn.usage ?? ZERO_USAGE,
    messages: [...input.messages, assistantMessage(content, calls, turn.providerData)],
    stopReason: cut ? "length" : stopReasonOf(turn.finish),
  };
}

// The turn as a message. The key `toolCalls` is there even without calls, as
// it always was. Two literals rather than a spread of `{}`: a spread in a
// literal copies through a runtime call on every run.
function assistantMessage(
  content: string,
  calls: readonly ToolCall[],
  providerData: ProviderData | undefined,
): Message {
  const toolCalls = calls.length ? calls : undefined;
  return providerData
    ? { role: "assistant", content, toolCalls, providerData }
    : { role: "assistant", content, toolCalls };
}

/**
 * The model asked for tools, but the agent's cognition does not run tools
 * (the default single-shot one calls the model once and returns its text),
 * so the calls would be dropped without an answer. Give the agent a
 * `ReActCognition({ tools })`, or script a turn without `toolCalls`.
 *
 * @example
 * ```ts
 * import { Agent, UnhandledToolCalls } from "@agentkit/testing/runtime";
 * import { toolCall } from "@agentkit/testing/ports";
 * import { FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
 * import { assertRejects } from "@std/assert";
 *
 * const llm = FakeLLM.script([{ toolCalls: [toolCall("c1", "lookup_cert", {})] }]);
 * const agent = new Agent("sre", { model: "fake-model" });
 * await assertRejects(
 *   () => agent.run("why?", makeTestCtx({ llm })),
 *   UnhandledToolCalls,
 *   'agent "sre" asked for tool(s) lookup_cert, but its cognition does not run tools',
 * );
 * ```
 */
export class UnhandledToolCalls extends Error {
  /** The agent. */
  readonly agent: string;
  /** The tools the model asked for, in order. */
  readonly tools: readonly string[];

  /**
   * The message names the tools and how to give the agent a tool loop.
   *
   * @param agent The agent's name.
   * @param tools The tools asked for.
   */
  constructor(agent: string, tools: readonly string[]) {
    super(
      `The model of agent "${agent}" asked for tool(s) ${
        tools.join(", ")
      }, but its cognition does not run tools (single-shot); give the agent new ReActCognition({ tools: [...] }) as its cognition, or script a turn without toolCalls`,
    );
    this.name = "UnhandledToolCalls";
    this.agent = agent;
    this.tools = tools;
  }
}
