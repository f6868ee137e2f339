// What content-key matching and the recording proxy cost (issue 41).
//
// 1. Replaying a 20-turn conversation (request n carries the n-1 earlier
//    exchanges: 2n messages) from its cassette: opened, all 20 requests
//    served, verified; by content key (the default) against
//    `{ match: "order" }`, the strict order as before. Target: ≤ 1.2×.
// 2. One OpenAI Chat round trip through a recording FakeProvider
//    (`record: { upstream, path }`, the exchange appended to a cassette)
//    against the same round trip through a FakeProvider serving the same
//    port without recording: the recording is what is measured. Target:
//    ≤ 1.1×. Both forward to a third FakeProvider by in-process fetch.
//
//   deno bench --allow-read --allow-write --allow-env bench/deno/cassette.bench.ts
import { OpenAIChatLLM } from "@agentkit/testing/runtime";
import { cassette, FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import type { ChatRequest, Message } from "@agentkit/testing/ports";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

const dir = Deno.makeTempDirSync({ prefix: "cassette_bench_" });
const TURNS = 20;

// The conversation: a system prompt, then per turn a question and its answer.
function requestAt(n: number): ChatRequest {
  const messages: Message[] = [{ role: "system", content: "You are a concise assistant." }];
  for (let i = 0; i < n; i++) {
    messages.push({ role: "user", content: `Question ${i}: what is ${i} squared, and why?` });
    messages.push({ role: "assistant", content: `${i * i}, because ${i} times ${i} is ${i * i}.` });
  }
  messages.push({ role: "user", content: `Question ${n}: what is ${n} squared, and why?` });
  return { model: "gpt-4o-mini", messages, settings: { temperature: 0 } };
}
const requests = Array.from({ length: TURNS }, (_, n) => requestAt(n));
const path = `${dir}/twenty.jsonl`;
{
  const rec = cassette(path, {
    mode: "record",
    upstream: () =>
      FakeLLM.script(requests.map((_, n) => `${n * n}, because ${n} times ${n} is ${n * n}.`)),
  });
  for (const r of requests) await rec.chat(r);
}

for (const match of ["order", "content"] as const) {
  Deno.bench({
    name: `replay a 20-turn cassette, match: "${match}"`,
    group: "cassette_replay",
    baseline: match === "order",
    async fn() {
      const llm = cassette(path, { mode: "replay", match });
      let last = "";
      for (const r of requests) last = (await llm.chat(r)).content;
      llm.verify();
      check(last === "361, because 19 times 19 is 361.", "last answer");
    },
  });
}

const body = JSON.stringify({
  model: "gpt-4o-mini",
  messages: [{ role: "system", content: "Be brief." }, {
    role: "user",
    content: "What is 12 squared?",
  }],
});
const headers = { authorization: "Bearer sk-bench-0123456789", "content-type": "application/json" };
let n = 0;
function fresh(recording: boolean): FakeProvider {
  const real = new FakeProvider({ llm: new FakeLLM("144.") });
  return recording
    ? new FakeProvider({
      record: {
        upstream: "https://api.openai.example",
        path: `${dir}/proxy_${++n}.jsonl`,
        fetch: real.fetch,
      },
    })
    : new FakeProvider({
      llm: new OpenAIChatLLM({
        apiKey: "sk-bench-0123456789",
        baseURL: "https://api.openai.example/v1",
        fetch: real.fetch,
      }),
    });
}
for (const recording of [false, true]) {
  let provider = fresh(recording);
  Deno.bench({
    name: recording ? "round trip, recording proxy" : "round trip, forwarding FakeProvider",
    group: "record_proxy",
    baseline: !recording,
    async fn() {
      // A fresh provider (and file) every 1,000 requests, as the strict-wire bench does.
      if (provider.requests.length >= 1_000) provider = fresh(recording);
      const res = await provider.fetch("https://proxy.test/v1/chat/completions", {
        method: "POST",
        headers,
        body,
      });
      check((await res.json()).choices[0].message.content === "144.", "answer");
    },
  });
}

globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
