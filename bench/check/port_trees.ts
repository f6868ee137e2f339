// The four real ports of two trees side by side, in one process: each port's
// blocking call and its stream, on the same fixed bytes, timed as the
// regression check times hot paths (bench/check/_ratio.ts: 2 ms batches,
// interleaved, each path's fastest tenth), so a busy machine slows both trees
// alike. Issue 35's "no slower than before the codec change" is this.
//
//   mkdir /tmp/before && git archive <rev> runtime ports | tar -x -C /tmp/before
//   deno run -A bench/check/port_trees.ts /tmp/before [rounds] [after-first]
//
// `after-first` builds and warms this tree's ports first, to see whether the
// order of the two trees (which warms the JIT on whose code) moves the result.
// The bytes are what this tree's FakeProvider sends for one text answer with
// usage (recorded once, untimed); each port then reads them from a fetch that
// returns them as they are (no FakeProvider in the timed path). Prints one
// JSON line: µs per run of each path on each tree, and after over before.
import { ratios } from "./_ratio.ts";
import type { BenchCase } from "../deno/_cases.ts";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
interface Port {
  chat(request: unknown, ctx?: unknown): Promise<{ content: string }>;
  stream(request: unknown, ctx?: unknown): AsyncIterable<{ type: string }>;
}
type PortClass = new (options: { apiKey: string; fetch: Fetch }) => Port;

const [beforeRoot, rounds = "40", order = "before-first"] = Deno.args;
if (!beforeRoot) {
  console.error("usage: port_trees.ts <before tree root> [rounds]");
  Deno.exit(2);
}
const before = await import(new URL(`file://${beforeRoot}/runtime/mod.ts`).href);
const after = await import("../../runtime/mod.ts");
const PORTS = ["OpenAIChatLLM", "OpenAIResponsesLLM", "AnthropicLLM", "GeminiLLM"] as const;
const ANSWER = "The cert expired on the 3rd; renew it and redeploy.";
const TURN = { chunks: ANSWER.split(/(?<= )/), usage: { inputTokens: 120, outputTokens: 14 } };
const request = { model: "m-1", messages: [{ role: "user" as const, content: "Why?" }] };

// One blocking and one streamed answer per wire, as the fake provider sends them.
async function record(Port: PortClass): Promise<{ chat: Response; stream: Response }> {
  const provider = new FakeProvider({ llm: new FakeLLM(() => TURN) });
  const got: Response[] = [];
  const fetch: Fetch = async (input, init) => {
    const r = await provider.fetch(input, init);
    got.push(r.clone());
    return r;
  };
  const port = new Port({ apiKey: "sk-bench-key-0001", fetch });
  await port.chat(request);
  for await (const _ of port.stream(request));
  return { chat: got[0], stream: got[1] };
}

function fixed(r: Response, text: string): Fetch {
  const headers = [...r.headers];
  return () => Promise.resolve(new Response(text, { status: r.status, headers }));
}

const cases: BenchCase[] = [];
for (const name of PORTS) {
  const bytes = await record(after[name] as PortClass);
  const chatText = await bytes.chat.text();
  const streamText = await bytes.stream.text();
  const trees = [["before", before], ["after", after]] as const;
  for (const [tree, mod] of order === "after-first" ? [...trees].reverse() : trees) {
    const ctx = new mod.RunContext();
    const chatPort = new (mod[name] as PortClass)({
      apiKey: "sk-bench-key-0001",
      fetch: fixed(bytes.chat, chatText),
    });
    const streamPort = new (mod[name] as PortClass)({
      apiKey: "sk-bench-key-0001",
      fetch: fixed(bytes.stream, streamText),
    });
    const chat = async () => {
      const r = await chatPort.chat(request, ctx);
      if (r.content !== ANSWER) throw new Error(`${name}@${tree}: chat answered ${r.content}`);
    };
    const stream = async () => {
      let n = 0;
      for await (const e of streamPort.stream(request, ctx)) if (e.type === "text_delta") n++;
      if (n !== TURN.chunks.length) throw new Error(`${name}@${tree}: ${n} deltas`);
    };
    await chat();
    await stream();
    const base = { title: name, uses: Number.MAX_SAFE_INTEGER, steps: 1 };
    cases.push({ ...base, id: `${name}.chat@${tree}`, prepare: () => chat });
    cases.push({ ...base, id: `${name}.stream@${tree}`, prepare: () => stream });
  }
}

const measured = await ratios(cases, { rounds: Number(rounds), batchMs: 2 });
const us = Object.fromEntries(measured.map((p) => [p.id, Number(p.us.toFixed(2))]));
const out: Record<string, { before: number; after: number; ratio: number }> = {};
for (const name of PORTS) {
  for (const call of ["chat", "stream"]) {
    const b = us[`${name}.${call}@before`];
    const a = us[`${name}.${call}@after`];
    out[`${name}.${call}`] = { before: b, after: a, ratio: Number((a / b).toFixed(3)) };
  }
}
console.log(JSON.stringify(out));
