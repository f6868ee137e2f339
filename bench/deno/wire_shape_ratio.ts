// What the fuller answers (issue 36: every field the real APIs always send,
// ids in their formats) cost a FakeProvider round trip, as a ratio from one
// interleaved run: batches of round trips alternate between this tree's
// FakeProvider and an earlier tree's (a `git archive` of the commit to compare
// with, unpacked somewhere), so both see the same machine load; the ratio is
// the median over the rounds of this tree's batch time over the earlier one's
// (the order swapped every round). Blocking and streamed, on every wire, a
// turn with text and two parallel tool calls. Time is the process's CPU time
// (process.cpuUsage), not the wall clock: on a shared machine under load the
// wall clock measures the scheduler.
//
//   git archive <commit> | tar -x -C /tmp/before
//   deno run --allow-read --allow-env bench/deno/wire_shape_ratio.ts /tmp/before [rounds] [batch]
import process from "node:process";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import { toolCall } from "@agentkit/testing/ports";

const BEFORE = Deno.args[0];
if (!BEFORE) throw new Error("usage: wire_shape_ratio.ts <earlier tree> [rounds] [batch]");
const ROUNDS = Number(Deno.args[1] ?? 41);
const BATCH = Number(Deno.args[2] ?? 100);

const old = await import(new URL(`file://${BEFORE}/testing/mod.ts`).href) as {
  FakeLLM: typeof FakeLLM;
  FakeProvider: typeof FakeProvider;
};

const TURN = {
  chunks: ["All three ", "hosts are up."],
  toolCalls: [
    toolCall("call_a", "ping_host", { host: "db1" }),
    toolCall("call_b", "read_logs", {}),
  ],
  usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64 },
} as unknown as Turn;

const tools = ["ping_host", "read_logs"];
interface Case {
  readonly name: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  body(stream: boolean): Record<string, unknown>;
}

const CASES: Case[] = [
  {
    name: "chat.completions",
    url: "https://api.openai.com/v1/chat/completions",
    headers: { authorization: "Bearer sk-bench" },
    body: (stream: boolean) => ({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Are they up?" }],
      tools: tools.map((name) => ({
        type: "function",
        function: { name, parameters: { type: "object" } },
      })),
      ...(stream ? { stream, stream_options: { include_usage: true } } : {}),
    }),
  },
  {
    name: "responses",
    url: "https://api.openai.com/v1/responses",
    headers: { authorization: "Bearer sk-bench" },
    body: (stream: boolean) => ({
      model: "gpt-4.1",
      input: "Are they up?",
      tools: tools.map((name) => ({ type: "function", name, parameters: { type: "object" } })),
      ...(stream ? { stream } : {}),
    }),
  },
  {
    name: "messages",
    url: "https://api.anthropic.com/v1/messages",
    headers: { "x-api-key": "sk-ant-bench", "anthropic-version": "2023-06-01" },
    body: (stream: boolean) => ({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "Are they up?" }],
      tools: tools.map((name) => ({ name, input_schema: { type: "object" } })),
      ...(stream ? { stream } : {}),
    }),
  },
  {
    name: "generateContent",
    url: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:",
    headers: { "x-goog-api-key": "AIza-bench" },
    body: () => ({
      contents: [{ role: "user", parts: [{ text: "Are they up?" }] }],
      tools: [{ functionDeclarations: tools.map((name) => ({ name })) }],
    }),
  },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type Ctor = { FakeLLM: typeof FakeLLM; FakeProvider: typeof FakeProvider };

async function batch(tree: Ctor, c: Case, stream: boolean): Promise<number> {
  const llm = tree.FakeLLM.script([TURN], { repeatLast: true, strictTools: false } as never);
  // strict: false on both: the answers' cost alone (strict_wire_ratio.ts has the checks').
  const provider = new tree.FakeProvider({ llm, strict: false });
  const url = c.name === "generateContent"
    ? `${c.url}${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`
    : c.url;
  const init: RequestInit = {
    method: "POST",
    headers: c.headers,
    body: JSON.stringify(c.body(stream)),
  };
  const t0 = process.cpuUsage();
  for (let i = 0; i < BATCH; i++) {
    const res = await provider.fetch(url, init);
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${await res.text()}`);
    await res.text();
  }
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / BATCH;
}

const current: Ctor = { FakeLLM, FakeProvider };
for (const c of CASES) {
  for (const stream of [false, true]) {
    const now: number[] = [];
    const before: number[] = [];
    const ratios: number[] = [];
    for (let r = -3; r < ROUNDS; r++) {
      let a: number, b: number;
      if (r % 2 === 0) {
        b = await batch(old, c, stream);
        a = await batch(current, c, stream);
      } else {
        a = await batch(current, c, stream);
        b = await batch(old, c, stream);
      }
      if (r < 0) continue;
      now.push(a);
      before.push(b);
      ratios.push(a / b);
    }
    console.log(
      `${c.name}${stream ? " streamed" : ""}: now ${median(now).toFixed(1)} µs, before ${
        median(before).toFixed(1)
      } µs a round trip; now / before ${
        median(ratios).toFixed(3)
      } (median of ${ROUNDS} rounds of ${BATCH})`,
    );
  }
}
