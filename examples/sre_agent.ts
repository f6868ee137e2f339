/**
 * A small SRE agent with one tool, tested offline.
 *
 * The agent diagnoses a failed deploy: it may call `check_cert` to read a
 * host's certificate, then answers. Production code would give the tool a real
 * TLS probe; here the probe is a port, and the test scripts the model's turns,
 * so the real tool loop, retry and budget run with no network and no waiting.
 *
 * Run it: `deno run examples/sre_agent.ts`
 */
import {
  Agent,
  Budget,
  type Ctx,
  FakeClock,
  FakeLLM,
  makeTestCtx,
  meter,
  ReActCognition,
  RecordingTracer,
  retry,
  toolCall,
  type ToolPort,
} from "@agentkit/testing";
import { assertEquals } from "@std/assert";
import { z } from "zod";

// --- the agent, as it would ship -------------------------------------------

/** Reads the certificate of a host (a TLS probe in production). */
interface CertProbe {
  notAfter(host: string, ctx: Ctx): Promise<string>;
}

function checkCertTool(probe: CertProbe): ToolPort {
  return {
    name: "check_cert",
    description: "Read the expiry date of a host's TLS certificate",
    parameters: z.object({ host: z.string().min(1) }),
    async call(args, ctx) {
      const host = String(args.host);
      return { host, notAfter: await probe.notAfter(host, ctx) };
    },
  };
}

function sreAgent(probe: CertProbe): Agent {
  return new Agent("sre", {
    model: "fake-model",
    system: "You are an SRE. Diagnose failed deploys. Check certificates before guessing.",
    cognition: new ReActCognition({ tools: [checkCertTool(probe)], maxIterations: 5 }),
  });
}

// --- the test ----------------------------------------------------------------

const probed: string[] = [];
const probe: CertProbe = {
  notAfter: (host) => {
    probed.push(host);
    return Promise.resolve("2026-08-01");
  },
};

const llm = FakeLLM.script([
  { toolCalls: [toolCall("c1", "check_cert", { host: "api.example.com" })] },
  {
    content: "The deploy failed because the certificate of api.example.com expired on 2026-08-01.",
  },
], { failTimes: 1 }); // the provider times out once; retry() absorbs it

const clock = new FakeClock();
const budget = new Budget({ maxCostUsd: "0.01" });
const tracer = new RecordingTracer();
const ctx = makeTestCtx({ llm, clock, budget, trace: tracer, chatMiddleware: [retry(), meter()] });

const result = await sreAgent(probe).run("Why did the deploy of api fail?", ctx);

console.log("answer:", result.output);
// answer: The deploy failed because the certificate of api.example.com expired on 2026-08-01.
console.log("stop reason:", result.stopReason, "probed:", probed, "model calls:", llm.calls);
// stop reason: stop probed: [ "api.example.com" ] model calls: 3
console.log("spent:", budget.spent(), "backoffs:", clock.sleeps);
// spent: 0.000200 backoffs: [ 200 ]
console.log("tool spans:", tracer.named("execute_tool").map((s) => s.attrs["gen_ai.tool.name"]));
// tool spans: [ "check_cert" ]

assertEquals(
  result.output,
  "The deploy failed because the certificate of api.example.com expired on 2026-08-01.",
);
assertEquals([result.stopReason, probed, llm.calls], ["stop", ["api.example.com"], 3]);
assertEquals([budget.spent(), clock.sleeps], ["0.000200", [200]]);
assertEquals(tracer.named("execute_tool").map((s) => s.attrs["gen_ai.tool.name"]), ["check_cert"]);
llm.verify();
