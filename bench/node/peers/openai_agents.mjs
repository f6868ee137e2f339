// The OpenAI Agents SDK (`@openai/agents`) doing the work of each case with
// a scripted model implementing its Model interface (the SDK ships none).
// Tracing is off: with it on, every run would try to export spans.
import { Agent, MaxTurnsExceededError, run, setTracingDisabled, tool, Usage } from "@openai/agents";
import { z } from "zod";
import { check } from "./_check.mjs";

setTracingDisabled(true);

const message = (text) => ({
  id: "m1",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, providerData: { annotations: [] } }],
});
const CALL = {
  id: "f1",
  type: "function_call",
  name: "lookup_cert",
  callId: "c1",
  status: "completed",
  arguments: JSON.stringify({ host: "example.com" }),
};

// Answers with the next scripted output; the last one repeats.
class ScriptedModel {
  constructor(outputs, chunks = []) {
    this.outputs = outputs;
    this.chunks = chunks;
    this.i = 0;
  }
  #next() {
    return this.outputs[Math.min(this.i++, this.outputs.length - 1)];
  }
  getResponse() {
    return Promise.resolve({
      output: [this.#next()],
      usage: new Usage({ requests: 1, inputTokens: 10 }),
    });
  }
  async *getStreamedResponse() {
    const output = this.#next();
    for (const delta of this.chunks) yield { type: "output_text_delta", delta };
    yield {
      type: "response_done",
      response: {
        id: "r1",
        usage: {
          requests: 1,
          inputTokens: 10,
          outputTokens: 0,
          totalTokens: 10,
        },
        output: [output],
      },
    };
  }
}

const LOOKUP = tool({
  name: "lookup_cert",
  description: "Looks up a host's certificate",
  parameters: z.object({ host: z.string() }),
  execute: () => Promise.resolve({ notAfter: "2026-08-01" }),
});

function steps(n) {
  return {
    id: `react_${n}_steps`,
    uses: 1,
    steps: n,
    prepare() {
      const model = new ScriptedModel([CALL]);
      const agent = new Agent({
        name: "bench",
        instructions: "",
        model,
        tools: [LOOKUP],
      });
      return async () => {
        try {
          await run(agent, "why?", { maxTurns: n });
        } catch (error) {
          // n model turns, each with its tool call, then the turn limit.
          check(
            error instanceof MaxTurnsExceededError && model.i === n,
            `react_${n}_steps turns`,
          );
          return error;
        }
        throw new Error(
          `bench case is broken: react_${n}_steps did not reach its turn limit`,
        );
      };
    },
  };
}

export function allCases() {
  return [
    {
      id: "single_turn",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        const agent = new Agent({
          name: "bench",
          instructions: "",
          model: new ScriptedModel([message("ok")]),
        });
        return async () => {
          const r = await run(agent, "go");
          check(r.finalOutput === "ok", "single_turn output");
          return r;
        };
      },
    },
    {
      id: "stream_3_chunks",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        const model = new ScriptedModel([message("ok!")], ["o", "k", "!"]);
        const agent = new Agent({ name: "bench", instructions: "", model });
        return async () => {
          const r = await run(agent, "go", { stream: true });
          let deltas = 0;
          for await (const event of r) {
            if (
              event.type === "raw_model_stream_event" &&
              event.data.type === "output_text_delta"
            ) deltas++;
          }
          await r.completed;
          check(
            deltas === 3 && r.finalOutput === "ok!",
            "stream_3_chunks deltas",
          );
          return deltas;
        };
      },
    },
    {
      id: "react_2_steps",
      uses: 1,
      steps: 2,
      prepare() {
        const model = new ScriptedModel([CALL, message("expired")]);
        const agent = new Agent({
          name: "bench",
          instructions: "",
          model,
          tools: [LOOKUP],
        });
        return async () => {
          const r = await run(agent, "why?");
          check(
            r.finalOutput === "expired" && model.i === 2,
            "react_2_steps output",
          );
          return r;
        };
      },
    },
    steps(10),
    steps(100),
    steps(1000),
    {
      id: "construct",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        return () =>
          Promise.resolve(
            new Agent({
              name: "bench",
              instructions: "",
              model: new ScriptedModel([CALL, message("expired")]),
            }),
          );
      },
    },
  ];
}
