/**
 * The provider wire: `FakeProvider` serves a model script as the OpenAI,
 * Anthropic and Gemini HTTP APIs, so any official or framework client talks
 * to it, and refuses what those APIs refuse (the rules of `WIRE_RULES`).
 *
 * @example
 * ```ts
 * import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const provider = new FakeProvider({ llm: new FakeLLM("hi") });
 * const res = await provider.fetch("https://api.openai.com/v1/chat/completions", {
 *   method: "POST",
 *   headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
 *   body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
 * });
 * assertEquals((await res.json()).choices[0].message.content, "hi");
 * ```
 *
 * @module
 */
export * from "./fake_provider.ts";
export {
  type FakeProviderRejection,
  type FakeProviderStrict,
  WIRE_RULES,
  type WireRule,
} from "./wire_rules.ts";
