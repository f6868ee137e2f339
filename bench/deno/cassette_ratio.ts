// The two ratios of issue 41 from one interleaved run each (as
// strict_wire_ratio.ts does): batches alternate between the case and its
// peer, the order swapped every round, and the ratio is the median over
// rounds of the case's batch time over its peer's beside it.
//
// 1. replaying a 20-turn cassette by content key / in order (target ≤ 1.2),
//    and by content with the requests asked last first (no fast path);
// 2. a round trip through a recording FakeProvider / through a forwarding
//    FakeProvider serving the same port without recording (target ≤ 1.1).
//
//   deno run --allow-read --allow-write --allow-env bench/deno/cassette_ratio.ts [rounds] [batch] [replay|proxy|served|floor|all]
//
// The third argument runs only the replay ratios, only the proxy's in-process
// round trip, or only its round trip served over 127.0.0.1 (`served`, which
// needs --allow-net=127.0.0.1); `all` runs all three. Default: the first two.
// `floor` sets what a recorded line's durable write alone costs against the
// forwarding round trip it would be added to: the append a recording makes
// (open, write, close), and one write through a handle held open.
import { OpenAIChatLLM } from "@agentkit/testing/runtime";
import { cassette, FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import type { ChatRequest, Message } from "@agentkit/testing/ports";

const ROUNDS = Number(Deno.args[0] ?? 31);
const BATCH = Number(Deno.args[1] ?? 20);
const ONLY = Deno.args[2];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = Deno.makeTempDirSync({ prefix: "cassette_ratio_" });

function requestAt(n: number): ChatRequest {
  const messages: Message[] = [{ role: "system", content: "You are a concise assistant." }];
  for (let i = 0; i < n; i++) {
    messages.push({ role: "user", content: `Question ${i}: what is ${i} squared, and why?` });
    messages.push({ role: "assistant", content: `${i * i}, because ${i} times ${i} is ${i * i}.` });
  }
  messages.push({ role: "user", content: `Question ${n}: what is ${n} squared, and why?` });
  return { model: "gpt-4o-mini", messages, settings: { temperature: 0 } };
}
const requests = Array.from({ length: 20 }, (_, n) => requestAt(n));
const path = `${dir}/twenty.jsonl`;
{
  const rec = cassette(path, {
    mode: "record",
    upstream: () => FakeLLM.script(requests.map((_, n) => `${n * n}.`)),
  });
  for (const r of requests) await rec.chat(r);
}

// In the recorded order (the case order matching can replay at all), or
// last first: every request then goes by its key (the entry next in file
// order is never the one asked for until the end).
async function replay(match: "order" | "content", reversed = false): Promise<number> {
  const asked = reversed ? [...requests].reverse() : requests;
  const t0 = performance.now();
  for (let i = 0; i < BATCH; i++) {
    const llm = cassette(path, { mode: "replay", match });
    for (const r of asked) await llm.chat(r);
    llm.verify();
  }
  return ((performance.now() - t0) * 1000) / BATCH;
}

const body = JSON.stringify({
  model: "gpt-4o-mini",
  messages: [{ role: "system", content: "Be brief." }, {
    role: "user",
    content: "What is 12 squared?",
  }],
});
const headers = { authorization: "Bearer sk-bench-0123456789", "content-type": "application/json" };
let files = 0;
function provider(recording: boolean): FakeProvider {
  const real = new FakeProvider({ llm: new FakeLLM("144.") });
  return recording
    ? new FakeProvider({
      record: {
        upstream: "https://api.openai.example",
        path: `${dir}/proxy_${++files}.jsonl`,
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
async function roundTrips(recording: boolean): Promise<number> {
  const p = provider(recording);
  const t0 = performance.now();
  for (let i = 0; i < BATCH * 10; i++) {
    const res = await p.fetch("https://proxy.test/v1/chat/completions", {
      method: "POST",
      headers,
      body,
    });
    await res.text();
  }
  return ((performance.now() - t0) * 1000) / (BATCH * 10);
}

// The same round trip as a client that only takes a base URL makes it (the
// AI SDK's, LangChain's): over HTTP to the provider served on 127.0.0.1.
async function servedRoundTrips(recording: boolean): Promise<number> {
  await using server = await provider(recording).listen();
  const url = `${server.url}/v1/chat/completions`;
  const t0 = performance.now();
  for (let i = 0; i < BATCH * 5; i++) {
    const res = await fetch(url, { method: "POST", headers, body });
    await res.text();
  }
  return ((performance.now() - t0) * 1000) / (BATCH * 5);
}

async function ratio(
  name: string,
  caseFn: () => Promise<number>,
  peerFn: () => Promise<number>,
): Promise<void> {
  const cases: number[] = [];
  const peers: number[] = [];
  const ratios: number[] = [];
  for (let r = -3; r < ROUNDS; r++) {
    let c: number, p: number;
    if (r % 2 === 0) {
      p = await peerFn();
      c = await caseFn();
    } else {
      c = await caseFn();
      p = await peerFn();
    }
    if (r < 0) continue;
    cases.push(c);
    peers.push(p);
    ratios.push(c / p);
  }
  console.log(
    `${name}: ${median(cases).toFixed(1)} µs against ${median(peers).toFixed(1)} µs; ratio ${
      median(ratios).toFixed(3)
    } (median of ${ROUNDS} rounds)`,
  );
}

if (ONLY === undefined || ONLY === "replay" || ONLY === "all") {
  await ratio("20-turn replay, content / order", () => replay("content"), () => replay("order"));
  await ratio(
    "20-turn replay, content (asked last first: every request by key) / order",
    () => replay("content", true),
    () => replay("order"),
  );
}
if (ONLY === undefined || ONLY === "proxy" || ONLY === "all") {
  await ratio(
    "round trip, recording proxy / forwarding FakeProvider",
    () => roundTrips(true),
    () => roundTrips(false),
  );
}
// Needs --allow-net=127.0.0.1.
if (ONLY === "served" || ONLY === "all") {
  await ratio(
    "round trip over 127.0.0.1, recording proxy / forwarding FakeProvider",
    () => servedRoundTrips(true),
    () => servedRoundTrips(false),
  );
}

// The floor under the proxy's ratio: a line the proxy really wrote, appended
// as the cassette appends it, against the forwarding round trip in the same
// rounds. A fraction over 0.1 means no recording that writes each exchange
// when it is answered can meet the 1.1 target, whatever else it saves.
if (ONLY === "floor") {
  const proxy = provider(true);
  await (await proxy.fetch("https://proxy.test/v1/chat/completions", {
    method: "POST",
    headers,
    body,
  })).text();
  const line = Deno.readTextFileSync(`${dir}/proxy_${files}.jsonl`);
  const bytes = new TextEncoder().encode(line);
  const target = `${dir}/floor.jsonl`;
  Deno.writeTextFileSync(target, "");
  const appends = (): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < BATCH * 10; i++) Deno.writeTextFileSync(target, line, { append: true });
    return Promise.resolve(((performance.now() - t0) * 1000) / (BATCH * 10));
  };
  const heldWrites = (): Promise<number> => {
    using file = Deno.openSync(target, { append: true });
    const t0 = performance.now();
    for (let i = 0; i < BATCH * 10; i++) file.writeSync(bytes);
    return Promise.resolve(((performance.now() - t0) * 1000) / (BATCH * 10));
  };
  console.log(`one line the proxy wrote: ${bytes.length} bytes`);
  await ratio(
    "append of one recorded line / forwarding round trip",
    appends,
    () => roundTrips(false),
  );
  await ratio(
    "held handle's write of it / forwarding round trip",
    heldWrites,
    () => roundTrips(false),
  );
}
Deno.removeSync(dir, { recursive: true });
