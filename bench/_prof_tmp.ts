import { cassette, FakeLLM } from "@agentkit/testing/testing";
const messages = (n: number) => { const m: any[] = [{ role: "system", content: "You are a concise assistant." }]; for (let i = 0; i < n; i++) { m.push({ role: "user", content: `Question ${i}: what is ${i} squared, and why?` }); m.push({ role: "assistant", content: `${i*i}.` }); } m.push({ role: "user", content: `Question ${n}?` }); return m; };
const requests = Array.from({ length: 20 }, (_, n) => ({ model: "gpt-4o-mini", messages: messages(n), settings: { temperature: 0 } }));
const path = "/tmp/x/twenty.jsonl";
{ const rec = cassette(path, { mode: "record", upstream: () => FakeLLM.script(requests.map((_, n) => `${n}.`)) }); for (const r of requests) await rec.chat(r as any); }
const mode = Deno.args[0] as "order" | "content";
for (let k = 0; k < 300; k++) { const llm = cassette(path, { mode: "replay", match: mode }); for (const r of requests) await llm.chat(r as any); }
const t0 = performance.now();
for (let k = 0; k < 200; k++) { const llm = cassette(path, { mode: "replay", match: mode }); for (const r of requests) await llm.chat(r as any); }
console.log(mode, ((performance.now() - t0) / 200).toFixed(2), "ms");
