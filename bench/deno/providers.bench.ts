// The wire, side by side:
//
// - provider_round_trip: one chat completion through the official openai
//   client against FakeProvider.fetch (in-process), against the same
//   FakeProvider on loopback (listen()), and the AI SDK's own double
//   (generateText over MockLanguageModelV4) giving the same one-turn answer.
//   The in-process fetch should be at least 4x faster than loopback, and
//   faster than the AI SDK's double.
// - sse_parse: OpenAIChatLLM.stream parsing an SSE body of 100 and of 1,000
//   chunks; the time per chunk should stay flat (the Node harness reports it
//   per chunk as sse_parse_1000).
//
// Needs --allow-net=127.0.0.1 (listen()) and --allow-sys=hostname (the AI SDK
// reads the host name as it loads).
import OpenAI from "openai";
import { generateText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { sseParse } from "./_cases.ts";
import { bench } from "./_bench.ts";

const ANSWER = "The cert expired.";
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Why?" }];

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

// A provider's record grows with every request; a fresh one every 1,000.
function rotating(): () => FakeProvider {
  let provider = new FakeProvider({ llm: new FakeLLM(ANSWER) });
  return () => {
    if (provider.requests.length >= 1_000) {
      provider = new FakeProvider({ llm: new FakeLLM(ANSWER) });
    }
    return provider;
  };
}

const inProcess = rotating();
let fetchClient = new OpenAI({ apiKey: "sk-bench", fetch: inProcess().fetch, maxRetries: 0 });
let fetchProvider = inProcess();

Deno.bench({
  name: "openai client over FakeProvider.fetch (in-process)",
  group: "provider_round_trip",
  baseline: true,
  async fn() {
    if (inProcess() !== fetchProvider) {
      fetchProvider = inProcess();
      fetchClient = new OpenAI({ apiKey: "sk-bench", fetch: fetchProvider.fetch, maxRetries: 0 });
    }
    const r = await fetchClient.chat.completions.create({ model: "gpt-4o-mini", messages });
    check(r.choices[0].message.content === ANSWER, "fetch answer");
  },
});

// One server for the whole run: the process ends with the bench.
const served = new FakeProvider({ llm: new FakeLLM(ANSWER) });
const server = await served.listen();
const loopClient = new OpenAI({ apiKey: "sk-bench", baseURL: `${server.url}/v1`, maxRetries: 0 });

Deno.bench({
  name: "openai client over FakeProvider.listen() (loopback)",
  group: "provider_round_trip",
  async fn() {
    const r = await loopClient.chat.completions.create({ model: "gpt-4o-mini", messages });
    check(r.choices[0].message.content === ANSWER, "listen answer");
  },
});

const RESULT = {
  content: [{ type: "text" as const, text: ANSWER }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 0, text: 0, reasoning: undefined },
  },
  warnings: [],
};
const mock = new MockLanguageModelV4({ doGenerate: () => Promise.resolve(RESULT) });

Deno.bench({
  name: "generateText over MockLanguageModelV4 (the AI SDK's own double)",
  group: "provider_round_trip",
  async fn() {
    const r = await generateText({ model: mock, prompt: "Why?" });
    check(r.text === ANSWER, "mock text");
    if (mock.doGenerateCalls.length > 1_000) mock.doGenerateCalls.length = 0;
  },
});

bench(sseParse(100), "sse_parse");
bench(sseParse(1000), "sse_parse");
