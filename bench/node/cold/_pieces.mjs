import { toolCall } from "@agentkit/testing/ports";
import { FakeClock, FakeLLM, makeTestCtx } from "@agentkit/testing/testing";
import { Invoker, RunContext, Services } from "@agentkit/testing/runtime";
import { MockLanguageModelV4 } from "ai/test";
const LOOKUP = toolCall("c1", "lookup_cert", { host: "example.com" });
const llm = new FakeLLM("ok");
const clock = new FakeClock();
const services = new Services({ clock });
const cases = {
  whole: () =>
    makeTestCtx({ llm: FakeLLM.script([{ toolCalls: [LOOKUP] }, { content: "expired" }]) }),
  script: () => FakeLLM.script([{ toolCalls: [LOOKUP] }, { content: "expired" }]),
  newFakeLLM: () => new FakeLLM("ok"),
  ctxLlm: () => makeTestCtx({ llm }),
  ctxClock: () => makeTestCtx({ llm, clock }),
  FakeClock: () => new FakeClock(),
  Invoker: () => new Invoker({ llm }),
  Services: () => new Services({ clock }),
  RunContext: () => new RunContext({ services }),
  mock: () => new MockLanguageModelV4({ doGenerate: [{ a: 1 }, { b: 2 }] }),
  obj: () => ({ a: [], b: [] }),
};
const keep = [];
for (let round = 0; round < 3; round++) {
  const out = [];
  for (const [name, f] of Object.entries(cases)) {
    for (let i = 0; i < 200000; i++) keep[i & 1023] = f();
    const n = 2000000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) keep[i & 1023] = f();
    out.push(`${name} ${(Number(process.hrtime.bigint() - t0) / n).toFixed(0)}`);
  }
  console.log(out.join(" | "));
}
