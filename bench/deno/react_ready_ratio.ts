// The ReAct ready path before and after ToolProvider.listTools() could
// return a promise: the 2-step loop of react.bench.ts on two trees of this
// repository, in one interleaved run, with `tools: [...]` and with a provider
// whose listTools() answers an array at once (the path the change must leave
// as fast as it was). The ratio is the median over the rounds of the after
// tree's batch time over the before tree's in the same round (the order
// swapped every round); only the run is timed.
//
//   mkdir /tmp/before /tmp/after
//   git archive c51f9e0 runtime ports testing | tar -x -C /tmp/before
//   git archive 24892ab runtime ports testing | tar -x -C /tmp/after
//   deno run -A bench/deno/react_ready_ratio.ts /tmp/before /tmp/after [rounds] [batch]
//
// (c51f9e0 is main just before the change, 24892ab the change; `.` as the
// after tree is this one.) Each tree runs with its own testing/: a context
// carries its runtime's private symbols. Both resolve zod through this
// tree's import map.
import type * as Runtime from "@agentkit/testing/runtime";
import type * as Testing from "@agentkit/testing/testing";
import { type ToolCall, toolCall, type ToolResult, type ToolSpec } from "@agentkit/testing/ports";
import { z } from "zod";

interface Tree {
  readonly rt: typeof Runtime;
  readonly t: typeof Testing;
}
async function tree(folder: string | undefined): Promise<Tree> {
  if (!folder) {
    throw new Error("give the before and after trees' folders: see the top of this file");
  }
  const root = `file://${Deno.realPathSync(folder)}`;
  return {
    rt: await import(`${root}/runtime/mod.ts`),
    t: await import(`${root}/testing/mod.ts`),
  };
}
const before = await tree(Deno.args[0]);
const after = await tree(Deno.args[1]);
const ROUNDS = Number(Deno.args[2] ?? 301);
const BATCH = Number(Deno.args[3] ?? 100);

const LOOKUP = toolCall("c1", "lookup_cert", { host: "example.com" });
const ANSWER_TEXT = JSON.stringify({ notAfter: "2026-08-01" });
const SPECS: readonly ToolSpec[] = [{
  name: "lookup_cert",
  description: "Look up a host's TLS certificate",
  parameters: { type: "object", properties: { host: { type: "string" } }, required: ["host"] },
}];
const readyProvider = {
  listTools: (): readonly ToolSpec[] => SPECS,
  executeToolCalls: (calls: readonly ToolCall[]): Promise<readonly ToolResult[]> =>
    Promise.resolve(calls.map((c) => ({ callId: c.id, isError: false, content: ANSWER_TEXT }))),
};

type Shape = "tools" | "provider";

// A fresh agent a batch: a FakeTool records every call.
async function batch({ rt, t }: Tree, shape: Shape): Promise<number> {
  const cognition = shape === "tools"
    ? new rt.ReActCognition({
      tools: [
        new t.FakeTool({
          name: "lookup_cert",
          parameters: z.object({ host: z.string() }),
          responder: JSON.parse(ANSWER_TEXT),
        }),
      ],
    })
    : new rt.ReActCognition({ provider: readyProvider });
  const agent = new rt.Agent("bench", { model: "fake-model", cognition });
  let total = 0;
  for (let i = 0; i < BATCH; i++) {
    const ctx = t.makeTestCtx({
      llm: t.FakeLLM.script([{ toolCalls: [LOOKUP] }, { content: "expired" }]),
      chatMiddleware: [rt.retry(), rt.meter()],
      budget: new rt.Budget({ maxCostUsd: "10" }),
    });
    const t0 = performance.now();
    const r = await agent.run("why?", ctx);
    total += performance.now() - t0;
    if (r.output !== "expired" || r.messages[2].content !== ANSWER_TEXT) {
      throw new Error(`the ${shape} case is broken: ${JSON.stringify([r.output, r.messages[2]])}`);
    }
  }
  return (total * 1000) / BATCH;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `median of ${ROUNDS} rounds of ${BATCH} runs; ratio: the after tree's time over the before tree's`,
);
for (const shape of ["tools", "provider"] as const) {
  const times = { before: [] as number[], after: [] as number[] };
  const ratios: number[] = [];
  for (let r = -3; r < ROUNDS; r++) {
    let a: number, b: number;
    if (r % 2 === 0) {
      b = await batch(before, shape);
      a = await batch(after, shape);
    } else {
      a = await batch(after, shape);
      b = await batch(before, shape);
    }
    if (r < 0) continue; // warm-up rounds
    times.after.push(a);
    times.before.push(b);
    ratios.push(a / b);
  }
  console.log(
    `react_2_steps (${shape}): before ${median(times.before).toFixed(1)} µs, after ${
      median(times.after).toFixed(1)
    } µs; after / before ${median(ratios).toFixed(3)}`,
  );
}
