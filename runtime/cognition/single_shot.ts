/**
 * The default cognition: one model call.
 *
 * @module
 */
import type { StreamEvent } from "../../ports/stream_event.ts";
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

  /** Calls the model once. */
  async run(input: CognitionInput, ctx: RunContext): Promise<CognitionResult> {
    const invoker = ctx.requireInvoker(input.agent.name);
    const res = await invoker.chat({ messages: input.messages, model: input.agent.model }, ctx);
    return {
      output: res.content,
      usage: res.usage,
      messages: [...input.messages, {
        role: "assistant",
        content: res.content,
        toolCalls: res.toolCalls.length ? res.toolCalls : undefined,
      }],
      stopReason: stopReasonOf(res.finishReason),
    };
  }

  /** Streams the one model call. */
  stream(input: CognitionInput, ctx: RunContext): AsyncIterable<StreamEvent> {
    const invoker = ctx.requireInvoker(input.agent.name);
    return invoker.stream({ messages: input.messages, model: input.agent.model }, ctx);
  }
}
