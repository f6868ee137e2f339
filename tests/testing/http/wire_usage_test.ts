// Every count a script gives reaches the client through each wire unchanged:
// the reasoning a turn counted (OpenAI reasoning_tokens, Gemini
// thoughtsTokenCount), the cache it read and wrote (Anthropic's input_tokens
// leaves the written tokens to cache_creation_input_tokens), blocking and
// streamed, read back by the library's own ports.
import { assertEquals } from "@std/assert";
import type { LLMPort, Usage } from "@agentkit/testing/ports";
import {
  AnthropicLLM,
  GeminiLLM,
  OpenAIChatLLM,
  OpenAIResponsesLLM,
} from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

const PORTS: Record<string, [(fetch: FakeProvider["fetch"]) => LLMPort, (keyof Usage)[]]> = {
  OpenAIChatLLM: [
    (fetch) => new OpenAIChatLLM({ apiKey: "sk-test", fetch }),
    ["inputTokens", "outputTokens", "cachedInputTokens", "reasoningTokens"],
  ],
  OpenAIResponsesLLM: [
    (fetch) => new OpenAIResponsesLLM({ apiKey: "sk-test", fetch }),
    ["inputTokens", "outputTokens", "cachedInputTokens", "reasoningTokens"],
  ],
  AnthropicLLM: [
    (fetch) => new AnthropicLLM({ apiKey: "sk-ant-test", fetch }),
    ["inputTokens", "outputTokens", "cachedInputTokens", "cacheWriteInputTokens"],
  ],
  GeminiLLM: [
    (fetch) => new GeminiLLM({ apiKey: "AIza-test", fetch }),
    ["inputTokens", "outputTokens", "cachedInputTokens", "reasoningTokens"],
  ],
};

const USAGE: Usage = {
  inputTokens: 40,
  outputTokens: 25,
  cachedInputTokens: 12,
  cacheWriteInputTokens: 9,
  reasoningTokens: 7,
};

function pick(u: Usage | undefined, keys: (keyof Usage)[]): Partial<Usage> {
  return Object.fromEntries(keys.map((k) => [k, u?.[k]]));
}

for (const [name, [make, keys]] of Object.entries(PORTS)) {
  Deno.test(`wire usage: every count the ${name} wire carries reaches the client, blocking and streamed`, async () => {
    const provider = new FakeProvider({
      llm: FakeLLM.script([{ content: "a", usage: USAGE }, { chunks: ["b"], usage: USAGE }]),
    });
    const port = make(provider.fetch);
    const request = {
      model: name === "GeminiLLM" ? "gemini-2.5-flash" : "m",
      messages: [{ role: "user" as const, content: "hi" }],
    };
    const blocking = await port.chat(request);
    assertEquals(pick(blocking.usage, keys), pick(USAGE, keys));
    let streamed: Usage | undefined;
    for await (const e of port.stream(request)) if (e.type === "message_end") streamed = e.usage;
    assertEquals(pick(streamed, keys), pick(USAGE, keys));
    await provider.verify();
  });
}
