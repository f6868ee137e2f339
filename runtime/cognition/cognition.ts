/**
 * The cognition seam: how an agent turns a composed request into a result.
 *
 * @module
 */
import type { ChatSettings } from "../../ports/chat.ts";
import type { Message } from "../../ports/message.ts";
import type { StreamEvent } from "../../ports/stream_event.ts";
import type { Usage } from "../../ports/usage.ts";
import type { RunContext } from "../context.ts";

/** Why a run ended. */
export type StopReason = "stop" | "max_iterations" | "length" | "halted" | "error";

/**
 * Who is running: the agent's name, model and system prompt.
 *
 * @example
 * ```ts
 * import type { AgentInfo } from "@agentkit/testing/runtime";
 * const info: AgentInfo = { name: "sre", model: "fake-model" };
 * ```
 */
export interface AgentInfo {
  /** The agent's name. */
  readonly name: string;
  /** The model to call. */
  readonly model: string;
  /** The system prompt. */
  readonly system?: string;
}

/**
 * What a cognition gets: the agent, the task and the composed transcript
 * (system prompt, grounding, earlier context and the task as the last user
 * message).
 *
 * @example
 * ```ts
 * import type { CognitionInput } from "@agentkit/testing/runtime";
 * const input: CognitionInput = {
 *   agent: { name: "a", model: "fake-model" },
 *   task: "hi",
 *   messages: [{ role: "user", content: "hi" }],
 * };
 * ```
 */
export interface CognitionInput {
  /** The agent. */
  readonly agent: AgentInfo;
  /** The task as the user gave it. */
  readonly task: string;
  /** The composed transcript. */
  readonly messages: readonly Message[];
  /**
   * Whether the run's consumer reads the events as they come (`agent.stream`,
   * `agent.start`). `agent.run` passes `false`: only the result is read, so a
   * cognition may call the model with blocking requests (`LLMPort.chat`) and
   * yield each answer as the events of one message.
   * @default {true}
   */
  readonly streaming?: boolean;
  /**
   * Settings every model request of the run carries (`jsonSchema` when the
   * agent has an `output` schema); a cognition passes them on.
   */
  readonly settings?: ChatSettings;
}

/**
 * What a cognition returns.
 *
 * @example
 * ```ts
 * import type { CognitionResult } from "@agentkit/testing/runtime";
 * const r: CognitionResult = { output: "ok", usage: { inputTokens: 0, outputTokens: 0 }, messages: [], stopReason: "stop" };
 * ```
 */
export interface CognitionResult {
  /** The final answer text. */
  readonly output: string;
  /** Usage summed over the run's model calls. */
  readonly usage: Usage;
  /** The transcript, including the model's and tools' messages. */
  readonly messages: readonly Message[];
  /** Why it ended. */
  readonly stopReason: StopReason;
}

/**
 * What a run produced: the same shape as a {@linkcode CognitionResult},
 * after the agent's hooks.
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
  /** The whole transcript, tool messages included. */
  readonly messages: readonly Message[];
  /** Why the run ended. */
  readonly stopReason: StopReason;
}

/**
 * What {@linkcode Cognition.stream} returns: the events of the run, and at
 * the end the result (or nothing, and the agent folds the events).
 */
export type CognitionStream = AsyncIterable<StreamEvent> & {
  /** Steps the stream; the last step carries the result. */
  [Symbol.asyncIterator](): AsyncIterator<StreamEvent, CognitionResult | void, undefined>;
};

/**
 * How an agent thinks: one model call, a tool loop, a CLI subprocess. A
 * cognition has one method, `stream`, which yields `StreamEvent` objects
 * (owning its message boundaries) and returns its
 * {@linkcode CognitionResult}. Every run is that stream: `agent.run()` drains
 * it, `agent.stream()` and `agent.start()` hand its events on, and each sees
 * the same result. A cognition that returns nothing gets the result folded
 * from its events (the last message's text, the usage of every message), and
 * a stream that ends on an `error` event (other than a length cut) fails the
 * run with that error.
 *
 * @example A minimal double
 * ```ts
 * import { Agent, type Cognition } from "@agentkit/testing/runtime";
 * import { makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const echo: Cognition = {
 *   name: "echo",
 *   async *stream(input) {
 *     const usage = { inputTokens: 0, outputTokens: 0 };
 *     const output = `ok:${input.task}`;
 *     yield { type: "message_start", messageId: "m-1" };
 *     yield { type: "text_delta", messageId: "m-1", content: output };
 *     yield { type: "message_end", messageId: "m-1", finishReason: "stop", usage };
 *     return {
 *       output,
 *       usage,
 *       messages: [...input.messages, { role: "assistant", content: output }],
 *       stopReason: "stop",
 *     };
 *   },
 * };
 * const result = await new Agent("a", { model: "m", cognition: echo }).run("hello", makeTestCtx());
 * assertEquals(result.output, "ok:hello");
 * ```
 */
export interface Cognition {
  /** A name for messages (`InvalidStreamEvent` names it). */
  readonly name: string;
  /**
   * Runs, yielding stream events and returning the result.
   *
   * @param input The agent, the task, the composed transcript.
   * @param ctx The run's context.
   * @returns The events, then the result.
   */
  stream(input: CognitionInput, ctx: RunContext): CognitionStream | AsyncIterable<StreamEvent>;
  /**
   * Not called: the agent drains {@linkcode Cognition.stream} for every run.
   * @deprecated Kept so that older doubles still type-check; remove it.
   */
  run?(input: CognitionInput, ctx: RunContext): Promise<CognitionResult>;
}

/**
 * Maps a model's finish reason to a run's stop reason.
 *
 * @param finishReason The model's.
 * @returns The run's.
 *
 * @example
 * ```ts
 * import { stopReasonOf } from "@agentkit/testing/runtime";
 * import { assertEquals } from "@std/assert";
 * assertEquals(stopReasonOf("length"), "length");
 * assertEquals(stopReasonOf("content_filter"), "error");
 * ```
 */
export function stopReasonOf(finishReason: string): StopReason {
  if (finishReason === "length") return "length";
  if (finishReason === "content_filter" || finishReason === "error") return "error";
  return "stop";
}
