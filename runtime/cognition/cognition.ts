/**
 * The cognition seam: how an agent turns a composed request into a result.
 *
 * @module
 */
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
 * How an agent thinks: one model call, a tool loop, a CLI subprocess. A
 * custom runner implements this; `stream` must yield `StreamEvent` objects
 * and own its message boundaries.
 *
 * @example A minimal double
 * ```ts
 * import { Agent, type Cognition } from "@agentkit/testing/runtime";
 * import { makeTestCtx } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const echo: Cognition = {
 *   name: "echo",
 *   run: (input) => Promise.resolve({
 *     output: `ok:${input.task}`, usage: { inputTokens: 0, outputTokens: 0 },
 *     messages: input.messages, stopReason: "stop",
 *   }),
 *   async *stream(input) {
 *     yield { type: "message_start", messageId: "m-1" };
 *     yield { type: "text_delta", messageId: "m-1", content: `ok:${input.task}` };
 *     yield { type: "message_end", messageId: "m-1", finishReason: "stop", usage: { inputTokens: 0, outputTokens: 0 } };
 *   },
 * };
 * const result = await new Agent("a", { model: "m", cognition: echo }).run("hello", makeTestCtx());
 * assertEquals(result.output, "ok:hello");
 * ```
 */
export interface Cognition {
  /** A name for messages (`InvalidStreamEvent` names it). */
  readonly name: string;
  /** Runs to a result. */
  run(input: CognitionInput, ctx: RunContext): Promise<CognitionResult>;
  /** Runs, yielding stream events. */
  stream(input: CognitionInput, ctx: RunContext): AsyncIterable<StreamEvent>;
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
