// The negative control for the type check: each line misuses the API, so
// `tsc` must report exactly these errors. If the declarations degraded to
// `any`, tsc would accept this file and the check would fail.
import { Agent } from "@jsr/agentkit__testing/runtime";
import { FakeLLM, makeTestCtx } from "@jsr/agentkit__testing/testing";

const llm = new FakeLLM("ok");
export const calls: string = llm.calls; // MISUSE TS2322
export const ctx = makeTestCtx({ llm, clock: "now" }); // MISUSE TS2322
export const run = new Agent("a", { model: 7 }); // MISUSE TS2322
