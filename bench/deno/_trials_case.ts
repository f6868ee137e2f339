// The case of trials.bench.ts and trials_ratio.ts: 1,000 trials of a
// 5-step scripted ReAct agent (four tool calls, then the answer) through
// trials(), and the same 1,000 runs in a plain loop: the same agent, the
// same fresh script and context a run, the same check of the answer, a
// try/catch and a pass count. What trials() adds is its bookkeeping (a
// Trial a run, seeds, the outcome records, the report's statistics).
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx, trials } from "@agentkit/testing/testing";

export const N = 1000;
const lookup = new FakeTool({
  name: "lookup",
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  responder: ({ q }: { q: string }) => `found ${q}`,
});
const SCRIPT = [
  ...[1, 2, 3, 4].map((i) => ({ toolCalls: [toolCall(`c${i}`, "lookup", { q: `q${i}` })] })),
  { content: "The answer." },
];
const agent = new Agent("bench", {
  model: "fake-model",
  cognition: new ReActCognition({ tools: [lookup] }),
});

function check(output: string): void {
  if (output !== "The answer.") throw new Error(`bench case is broken: ${output}`);
}

/** 1,000 runs through trials(); returns the passes. */
export async function withTrials(): Promise<number> {
  const report = await trials(async (trial) => {
    const { output } = await agent.run("why?", trial.ctx({ llm: FakeLLM.script(SCRIPT) }));
    check(output);
  }, { n: N, k: 5, seed: 1 });
  if (report.passes !== N) throw new Error(`bench case is broken: ${report.summary()}`);
  // What a test reads: the interval and pass^k are part of the cost.
  if (!(report.interval.low > 0.99) || report.passHatK() !== 1) throw new Error("broken");
  return report.passes;
}

/** The same 1,000 runs in a plain loop; returns the passes. */
export async function plainLoop(): Promise<number> {
  let passes = 0;
  for (let i = 0; i < N; i++) {
    try {
      const { output } = await agent.run("why?", makeTestCtx({ llm: FakeLLM.script(SCRIPT) }));
      check(output);
      passes++;
    } catch {
      // counted as not passing
    }
  }
  if (passes !== N) throw new Error(`bench case is broken: ${passes}`);
  return passes;
}
