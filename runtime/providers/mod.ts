/**
 * Real model providers over web `fetch`: `OpenAIChatLLM` (OpenAI Chat
 * Completions and every compatible server), `OpenAIResponsesLLM` (OpenAI
 * Responses), `AnthropicLLM` (Messages) and
 * `GeminiLLM` (the Gemini API's generateContent).
 * Under a test context they refuse to send (`ModelRequestsDisallowed`).
 *
 * @example
 * ```ts
 * import { OpenAIChatLLM } from "@agentkit/testing/runtime";
 * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: new FakeLLM("ok") });
 * const llm = new OpenAIChatLLM({ apiKey: "sk-test", fetch: provider.fetch });
 * const res = await llm.chat({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
 * assertEquals(res.content, "ok");
 * ```
 *
 * @module
 */
export * from "./model_requests_disallowed.ts";
export * from "./wire_port.ts";
export * from "./openai_chat_llm.ts";
export * from "./openai_responses_llm.ts";
export * from "./anthropic_llm.ts";
export * from "./gemini_llm.ts";
