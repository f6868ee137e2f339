/**
 * The default cognition: one model call.
 *
 * @module
 */
import type { StreamEvent } from "../../ports/stream_event.ts";
import { ZERO_USAGE } from "../../ports/usage.ts";
import { modelCall, ModelTurn } from "./_model_call.ts";
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
  async *stream(
    input: CognitionInput,
    ctx: RunContext,
  ): AsyncGenerator<StreamEvent, CognitionResult | undefined, undefined> {
    const invoker = ctx.requireInvoker(input.agent.name);
    const request = { messages: input.messages, model: input.agent.model };
    const turn = new ModelTurn();
    for await (const event of modelCall(invoker, request, ctx, input.streaming !== false)) {
      turn.add(event);
      yield event;
    }
    const cut = turn.error?.finishReason === "length";
    if ((turn.error && !cut) || turn.finish === undefined) return undefined;
    const { content, calls } = turn;
    return {
      output: content,
      usage: turn.usage ?? ZERO_USAGE,
      messages: [
        ...input.messages,
        // The key is there even without calls, as it always was.
        { role: "assistant", content, toolCalls: calls.length ? calls : undefined },
      ],
      stopReason: cut ? "length" : stopReasonOf(turn.finish),
    };
  }
}
