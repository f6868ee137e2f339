// The case of trials.bench.ts and trials_ratio.ts: 1,000 trials of a
// 5-step scripted ReAct agent (four tool calls, then the answer) through
// trials(), and the same 1,000 runs in a plain loop. Both sides do the same
// work a run: the same agent, a fresh script and test context, the same
// check of the answer, all in one async function, `oneRun`, which trials()
// calls as its trial and the plain loop calls in a try/catch with a pass
// count. What trials() adds is its bookkeeping: a Trial a run
// (`trial.ctx()` also keeps the script for a failing trial's transcript),
// seeds, the outcome records, the report's statistics.
//
// Why the plain loop calls a function too: SPEC §24 bounds what the
// statistics and bookkeeping add to "the trials' own run time", and a
// trial is a function call. `inlineLoop` (the agent called in the loop's
// own body, no function a run) is what an earlier version of this bench
// compared against; it is kept so the cost of that call is shown apart.
import { Agent, ReActCognition, type RunContext } from "@agentkit/testing/runtime";
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

/**
 * Forgets the calls the shared tool recorded (`FakeTool.calls` keeps a copy
 * of every call): between rounds, so the heap does not grow by four records
 * a run through the whole bench and its full collections land on whichever
 * batch is running.
 */
export function resetCase(): void {
  lookup.calls.length = 0;
}

function check(output: string): void {
  if (output !== "The answer.") throw new Error(`bench case is broken: ${output}`);
}

/** One run: the agent on a fresh script in `ctx`, its answer checked. */
async function oneRun(ctx: RunContext): Promise<void> {
  const { output } = await agent.run("why?", ctx);
  check(output);
}

/** 1,000 runs through trials(); returns the passes. */
export async function withTrials(): Promise<number> {
  const report = await trials((trial) => oneRun(trial.ctx({ llm: FakeLLM.script(SCRIPT) })), {
    n: N,
    k: 5,
    seed: 1,
  });
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
      await oneRun(makeTestCtx({ llm: FakeLLM.script(SCRIPT) }));
      passes++;
    } catch {
      // counted as not passing
    }
  }
  if (passes !== N) throw new Error(`bench case is broken: ${passes}`);
  return passes;
}

/** The same 1,000 runs with the agent called in the loop's body; returns the passes. */
export async function inlineLoop(): Promise<number> {
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
