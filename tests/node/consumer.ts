// A small TypeScript consumer, type-checked by `tsc --noEmit --strict` against
// the installed package's .d.ts files (skipLibCheck off, so they are checked too).
import type { AgentResult, RunContext } from "@jsr/agentkit__testing/runtime";
import { Agent, ReActCognition, retry } from "@jsr/agentkit__testing/runtime";
import { type ToolCall, toolCall } from "@jsr/agentkit__testing/ports";
import {
  FakeClock,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptExhausted,
  type Turn,
} from "@jsr/agentkit__testing/testing";
import { Agent as RootAgent, FakeLLM as RootFakeLLM } from "@jsr/agentkit__testing";

const call: ToolCall = toolCall("c1", "lookup", { key: "answer" });
const turns: Turn[] = [{ toolCalls: [call] }, { content: "It is 42." }];
const tool = new FakeTool({ name: "lookup", responder: "42" });
const clock = new FakeClock({ autoAdvance: true });
const ctx: RunContext = makeTestCtx({
  llm: FakeLLM.script(turns),
  clock,
  chatMiddleware: [retry({ maxAttempts: 2, backoff: (n: number) => 100 * n })],
});
const agent = new Agent("a", {
  model: "fake-model",
  cognition: new ReActCognition({ tools: [tool] }),
});

export async function answer(): Promise<string> {
  const result: AgentResult = await agent.run("What is the answer?", ctx);
  const sleeps: number[] = clock.sleeps;
  return `${result.output} after ${sleeps.length} sleeps and ${result.usage.inputTokens} tokens`;
}

export function isExhausted(error: unknown): boolean {
  return error instanceof ScriptExhausted && error.requested > error.scripted;
}

export const same: boolean = RootAgent === Agent && RootFakeLLM === FakeLLM;
