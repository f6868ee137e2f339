// The Vercel AI SDK (`ai`) doing the work of each case, on its own test
// double, MockLanguageModelV4 from `ai/test`.
import FakeTimers from "@sinonjs/fake-timers";
import {
  APICallError,
  generateText,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
} from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { check } from "./_check.mjs";

const USAGE = {
  inputTokens: {
    total: 10,
    noCache: 10,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const STOP = { unified: "stop", raw: "stop" };
const text = (t) => ({
  content: [{ type: "text", text: t }],
  finishReason: STOP,
  usage: USAGE,
  warnings: [],
});
const CALL = {
  content: [{
    type: "tool-call",
    toolCallId: "c1",
    toolName: "lookup_cert",
    input: JSON.stringify({ host: "example.com" }),
  }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage: USAGE,
  warnings: [],
};
const TOOLS = {
  lookup_cert: tool({
    description: "Looks up a host's certificate",
    inputSchema: z.object({ host: z.string() }),
    execute: () => Promise.resolve({ notAfter: "2026-08-01" }),
  }),
};

function steps(n) {
  return {
    id: `react_${n}_steps`,
    uses: 1,
    steps: n,
    prepare() {
      const model = new MockLanguageModelV4({
        doGenerate: () => Promise.resolve(CALL),
      });
      return async () => {
        const r = await generateText({
          model,
          prompt: "why?",
          tools: TOOLS,
          stopWhen: stepCountIs(n),
        });
        check(r.steps.length === n, `react_${n}_steps steps`);
        return r;
      };
    },
  };
}

let clock;

export function allCases() {
  return [
    {
      id: "single_turn",
      uses: 1000,
      steps: 1,
      prepare() {
        const model = new MockLanguageModelV4({
          doGenerate: () => Promise.resolve(text("ok")),
        });
        return async () => {
          const r = await generateText({ model, prompt: "go" });
          check(r.text === "ok", "single_turn text");
          return r;
        };
      },
    },
    {
      id: "stream_3_chunks",
      uses: 1000,
      steps: 1,
      prepare() {
        const model = new MockLanguageModelV4({
          doStream: () =>
            Promise.resolve({
              stream: simulateReadableStream({
                initialDelayInMs: null,
                chunkDelayInMs: null,
                chunks: [
                  { type: "stream-start", warnings: [] },
                  { type: "text-start", id: "t1" },
                  { type: "text-delta", id: "t1", delta: "o" },
                  { type: "text-delta", id: "t1", delta: "k" },
                  { type: "text-delta", id: "t1", delta: "!" },
                  { type: "text-end", id: "t1" },
                  { type: "finish", finishReason: STOP, usage: USAGE },
                ],
              }),
            }),
        });
        return async () => {
          const r = streamText({ model, prompt: "go" });
          let deltas = 0;
          for await (const _ of r.textStream) deltas++;
          check(deltas === 3, "stream_3_chunks deltas");
          return deltas;
        };
      },
    },
    {
      id: "react_2_steps",
      uses: 1,
      steps: 2,
      prepare() {
        const model = new MockLanguageModelV4({
          doGenerate: [CALL, text("expired")],
        });
        return async () => {
          const r = await generateText({
            model,
            prompt: "why?",
            tools: TOOLS,
            stopWhen: stepCountIs(5),
          });
          check(
            r.text === "expired" && r.steps.length === 2,
            "react_2_steps steps",
          );
          return r;
        };
      },
    },
    steps(10),
    steps(100),
    steps(1000),
    {
      // Its retry waits on the global setTimeout, so virtual time needs
      // @sinonjs/fake-timers installed over the globals; a retry-after-ms
      // header makes each backoff 30 s, as in our case.
      id: "retry_10x30s",
      uses: 1,
      steps: 1,
      prepare() {
        clock ??= FakeTimers.install({
          toFake: ["setTimeout", "clearTimeout", "Date"],
        });
        let failures = 0;
        const model = new MockLanguageModelV4({
          doGenerate: () => {
            if (failures++ < 10) {
              return Promise.reject(
                new APICallError({
                  message: "upstream timeout",
                  url: "https://example.invalid",
                  requestBodyValues: {},
                  statusCode: 503,
                  responseHeaders: { "retry-after-ms": "30000" },
                  isRetryable: true,
                }),
              );
            }
            return Promise.resolve(text("recovered"));
          },
        });
        return async () => {
          const started = clock.now;
          const pending = generateText({ model, prompt: "go", maxRetries: 10 });
          await clock.runAllAsync();
          const r = await pending;
          check(
            r.text === "recovered" && clock.now - started === 300_000,
            "retry_10x30s time",
          );
          return r;
        };
      },
    },
    {
      id: "construct",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        return () =>
          Promise.resolve(
            new MockLanguageModelV4({ doGenerate: [CALL, text("expired")] }),
          );
      },
    },
  ];
}
