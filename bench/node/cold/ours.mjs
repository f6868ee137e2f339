// Cold start: what a test file pays before its first test is done, on our
// package's npm build (bench/cold_start.ts): import the root entry, build a
// test context, run one agent.
import { Agent, FakeLLM, makeTestCtx } from "@agentkit/testing";

const ctx = makeTestCtx({ llm: new FakeLLM("ok") });
const result = await new Agent("a", { model: "fake-model" }).run("hi", ctx);
if (result.output !== "ok") throw new Error(`cold start: got ${result.output}`);
