// chaos(): 200 runs of a 5-step ReAct agent (four tool calls, then the
// answer) under seeded provider and tool faults, next to its peer in the
// same process: the same 200 runs of the agent on a plain script, without
// chaos. SPEC §18 asks for at least 2,000 chaos runs a second (200 runs
// under 0.1 s). `deno bench bench/deno/chaos.bench.ts`
import { Agent, ReActCognition, retry, timeout } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { chaos, type ChaosWorld, FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";

const RUNS = 200;
const lookup = new FakeTool({
  name: "lookup",
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  responder: ({ q }: { q: string }) => `found ${q}`,
});
const SCRIPT = [
  ...[1, 2, 3, 4].map((i) => ({ toolCalls: [toolCall(`c${i}`, "lookup", { q: `q${i}` })] })),
  { content: "The answer." },
];
const agentOn = (tool: FakeTool | ReturnType<ChaosWorld["tool"]>) =>
  new Agent("bench", { model: "fake-model", cognition: new ReActCognition({ tools: [tool] }) });

const PROVIDER_AND_TOOL = [
  "rateLimit",
  "serverError",
  "timeout",
  "midStreamCut",
  "toolError",
  "slowTool",
] as const;

let seed = 1;
async function check(runs: Promise<{ runs: number }>): Promise<void> {
  const summary = await runs;
  if (summary.runs !== RUNS) throw new Error(`bench case is broken: ${summary.runs} runs`);
}

Deno.bench({
  name: "chaos_react_5_steps",
  group: "chaos",
  baseline: false,
  async fn() {
    await check(chaos(
      (world) => agentOn(world.tool(lookup)).run("why?", world.ctx({ chatMiddleware: [retry()] })),
      { script: SCRIPT, faults: [...PROVIDER_AND_TOOL], runs: RUNS, seed: seed++ },
    ));
  },
});

Deno.bench({
  name: "chaos_react_5_steps_all_faults",
  group: "chaos",
  async fn() {
    await check(chaos(
      (world) =>
        agentOn(world.tool(lookup)).run(
          "why?",
          world.ctx({ chatMiddleware: [retry(), timeout({ ms: 20_000 })] }),
        ),
      { script: SCRIPT, runs: RUNS, seed: seed++ },
    ));
  },
});

Deno.bench({
  name: "plain_react_5_steps",
  group: "chaos",
  baseline: true,
  async fn() {
    for (let i = 0; i < RUNS; i++) {
      const ctx = makeTestCtx({ llm: FakeLLM.script(SCRIPT), chatMiddleware: [retry()] });
      const r = await agentOn(lookup).run("why?", ctx);
      if (r.output !== "The answer.") throw new Error("bench case is broken: the answer");
    }
  },
});
