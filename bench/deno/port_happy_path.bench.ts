// The real ports' happy path, alone: OpenAIChatLLM.chat, AnthropicLLM.chat and
// GeminiLLM.chat answering from a fetch that returns a fixed, well-formed body (no server,
// no FakeProvider), next to the official openai client on the same fetch,
// the nearest peer. The shape checks the ports make of every answer must
// cost no more than the peer's own handling of it.
import OpenAI from "openai";
import { AnthropicLLM, GeminiLLM, OpenAIChatLLM, RunContext } from "@agentkit/testing/runtime";

const OPENAI_BODY = JSON.stringify({
  id: "chatcmpl-1",
  object: "chat.completion",
  model: "gpt-4o-mini",
  choices: [{
    index: 0,
    message: { role: "assistant", content: "The cert expired.", refusal: null },
    finish_reason: "stop",
  }],
  usage: { prompt_tokens: 12, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 0 } },
});
const ANTHROPIC_BODY = JSON.stringify({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text: "The cert expired." }],
  stop_reason: "end_turn",
  usage: { input_tokens: 12, output_tokens: 5 },
});
const GEMINI_BODY = JSON.stringify({
  candidates: [{
    content: { role: "model", parts: [{ text: "The cert expired." }] },
    finishReason: "STOP",
    index: 0,
  }],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 },
  modelVersion: "gemini-2.5-flash",
  responseId: "r1",
});
const headers = { "content-type": "application/json" };
const openAIFetch = () => Promise.resolve(new Response(OPENAI_BODY, { headers }));
const anthropicFetch = () => Promise.resolve(new Response(ANTHROPIC_BODY, { headers }));
const geminiFetch = () => Promise.resolve(new Response(GEMINI_BODY, { headers }));
const messages = [{ role: "user" as const, content: "Why did the deploy fail?" }];
const ctx = new RunContext();
const openai = new OpenAIChatLLM({ apiKey: "sk-bench", fetch: openAIFetch });
const anthropic = new AnthropicLLM({ apiKey: "sk-ant-bench", fetch: anthropicFetch });
const gemini = new GeminiLLM({ apiKey: "AIza-bench", fetch: geminiFetch });
const client = new OpenAI({ apiKey: "sk-bench", fetch: openAIFetch, maxRetries: 0 });

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

Deno.bench({
  name: "official openai client, chat.completions.create",
  group: "port_happy_path",
  baseline: true,
  async fn() {
    const r = await client.chat.completions.create({ model: "gpt-4o-mini", messages });
    check(r.choices[0].message.content === "The cert expired.", "client");
  },
});

Deno.bench({
  name: "OpenAIChatLLM.chat",
  group: "port_happy_path",
  async fn() {
    const r = await openai.chat({ model: "gpt-4o-mini", messages }, ctx);
    check(r.content === "The cert expired.", "openai port");
  },
});

Deno.bench({
  name: "AnthropicLLM.chat",
  group: "port_happy_path",
  async fn() {
    const r = await anthropic.chat({ model: "claude-sonnet-4-5", messages }, ctx);
    check(r.content === "The cert expired.", "anthropic port");
  },
});

Deno.bench({
  name: "GeminiLLM.chat",
  group: "port_happy_path",
  async fn() {
    const r = await gemini.chat({ model: "gemini-2.5-flash", messages }, ctx);
    check(r.content === "The cert expired.", "gemini port");
  },
});
