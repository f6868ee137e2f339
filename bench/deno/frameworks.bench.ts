// The other stacks over our doubles, next to their own:
//
// - ai_sdk_generate_text: one `generateText` call of the AI SDK over
//   aiSdkModel(FakeLLM), against the same call over the SDK's own
//   MockLanguageModelV4 (the baseline). The SDK's work dominates; the adapter
//   must not add much to it (the bar: within 1.5x).
// - cassette_replay: replaying a cassette of n single-exchange turns (opening
//   and parsing the file included), for n = 10, 100 and 1,000; the time per
//   turn should stay flat (under 20 µs) as n grows.
//
// Needs --allow-read --allow-write (the cassette files) and
// --allow-sys=hostname (the AI SDK reads the host name as it loads).
import { generateText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { ChatRequest } from "@agentkit/testing/ports";
import { aiSdkModel, cassette, FakeLLM } from "@agentkit/testing/testing";

const RESULT = {
  content: [{ type: "text" as const, text: "The cert expired." }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 0, text: 0, reasoning: undefined },
  },
  warnings: [],
};

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

const mock = new MockLanguageModelV4({ doGenerate: () => Promise.resolve(RESULT) });
let ours = aiSdkModel(new FakeLLM("The cert expired."));
let uses = 0;

Deno.bench({
  name: "generateText over MockLanguageModelV4 (the SDK's own double)",
  group: "ai_sdk_generate_text",
  baseline: true,
  async fn() {
    const r = await generateText({ model: mock, prompt: "Why?" });
    check(r.text === "The cert expired.", "mock text");
    // The mock records every call; keep its record from growing without bound.
    if (mock.doGenerateCalls.length > 1_000) mock.doGenerateCalls.length = 0;
  },
});

Deno.bench({
  name: "generateText over aiSdkModel(FakeLLM)",
  group: "ai_sdk_generate_text",
  async fn() {
    // The fake records every request: a fresh one every 1,000 runs.
    if (++uses % 1_000 === 0) ours = aiSdkModel(new FakeLLM("The cert expired."));
    const r = await generateText({ model: ours, prompt: "Why?" });
    check(r.text === "The cert expired.", "adapter text");
  },
});

const dir = Deno.makeTempDirSync({ prefix: "agentkit_bench_cassette_" });
const request = (i: number): ChatRequest => ({
  model: "fake-model",
  messages: [
    { role: "system", content: "You answer questions about certificates." },
    { role: "user", content: `Question ${i}: when does the certificate of host-${i} expire?` },
  ],
});
const requests: ChatRequest[] = Array.from({ length: 1_000 }, (_, i) => request(i));

function writeCassette(turns: number): string {
  const path = `${dir}/cassette_${turns}.jsonl`;
  const lines = requests.slice(0, turns).map((r, i) =>
    JSON.stringify({
      request: { model: r.model, messages: r.messages },
      turn: {
        chunks: [`host-${i} `, "expires on 2026-08-01."],
        usage: { inputTokens: 30, outputTokens: 8 },
      },
    })
  );
  Deno.writeTextFileSync(path, lines.join("\n") + "\n");
  return path;
}

for (const turns of [10, 100, 1_000]) {
  const path = writeCassette(turns);
  Deno.bench({
    name: `cassette replay, ${turns} turns (per run; divide by ${turns} for a turn)`,
    group: `cassette_replay_${turns}`,
    n: turns >= 1_000 ? 200 : undefined,
    async fn() {
      const llm = cassette(path, { mode: "replay" });
      for (let i = 0; i < turns; i++) {
        const r = await llm.chat(requests[i]);
        if (i === 0) check(r.content === "host-0 expires on 2026-08-01.", "replayed text");
      }
      llm.verify();
    },
  });
}

globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch {
    // a temp dir left behind is harmless
  }
});
