// The OpenAI Responses port against the official client, on the same bytes
// (SPEC §20): a streamed answer through OpenAIResponsesLLM.stream over
// FakeProvider.fetch, next to the official openai client's responses.create
// (stream: true) over the same fetch, and the blocking call both ways. The
// port must cost no more than the client. Both read every event; the answer
// is 24 text deltas with a reasoning summary and a usage.
//
// deno bench --allow-read --allow-env bench/deno/responses.bench.ts
import OpenAI from "openai";
import { OpenAIResponsesLLM, RunContext } from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

const CHUNKS = Array.from({ length: 24 }, (_, i) => `word${i} `);
const ANSWER = CHUNKS.join("");
const TURN = {
  reasoning: "The user asks why the deploy failed; the log says the cert expired.",
  chunks: CHUNKS,
  usage: { inputTokens: 120, outputTokens: 40 },
};

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

// A provider's record grows with every request; a fresh one every 1,000.
function rotating(): () => FakeProvider {
  let provider = new FakeProvider({ llm: new FakeLLM(() => TURN) });
  return () => {
    if (provider.requests.length >= 1_000) {
      provider = new FakeProvider({ llm: new FakeLLM(() => TURN) });
    }
    return provider;
  };
}

const next = rotating();
// Both sides call through a fetch that looks the current provider up, so a
// rotation costs neither a rebuilt client nor a rebuilt port.
const fetch = (input: string | URL | Request, init?: RequestInit) => next().fetch(input, init);
const client = new OpenAI({ apiKey: "sk-bench", fetch, maxRetries: 0 });
// A fetch that is not a FakeProvider's own: the guard needs a production context.
const port = new OpenAIResponsesLLM({ apiKey: "sk-bench", fetch });
const ctx = new RunContext();
const request = { model: "gpt-5-mini", messages: [{ role: "user" as const, content: "Why?" }] };

Deno.bench({
  name: "official openai client, responses.create (stream) over FakeProvider.fetch",
  group: "responses_stream",
  baseline: true,
  async fn() {
    const events = await client.responses.create({
      model: "gpt-5-mini",
      input: "Why?",
      stream: true,
    });
    let text = "";
    for await (const e of events) if (e.type === "response.output_text.delta") text += e.delta;
    check(text === ANSWER, "client stream");
  },
});

Deno.bench({
  name: "OpenAIResponsesLLM.stream over FakeProvider.fetch",
  group: "responses_stream",
  async fn() {
    let text = "";
    for await (const e of port.stream(request, ctx)) if (e.type === "text_delta") text += e.content;
    check(text === ANSWER, "port stream");
  },
});

Deno.bench({
  name: "official openai client, responses.create over FakeProvider.fetch",
  group: "responses_chat",
  baseline: true,
  async fn() {
    const r = await client.responses.create({ model: "gpt-5-mini", input: "Why?" });
    check(r.output_text === ANSWER, "client chat");
  },
});

Deno.bench({
  name: "OpenAIResponsesLLM.chat over FakeProvider.fetch",
  group: "responses_chat",
  async fn() {
    const r = await port.chat(request, ctx);
    check(r.content === ANSWER, "port chat");
  },
});
