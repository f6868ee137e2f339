/**
 * Other agent stacks over this package's doubles: `aiSdkModel` turns any
 * model port (a `FakeLLM` script, a cassette, a real port) into a Vercel AI
 * SDK language model, without a dependency on `ai`.
 *
 * @example generateText's model, called as the SDK calls it
 * ```ts
 * import { aiSdkModel, FakeLLM } from "@agentkit/testing/testing";
 * import { assertEquals } from "@std/assert";
 *
 * const model = aiSdkModel(new FakeLLM("Hello!"));
 * const result = await model.doGenerate({
 *   prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
 * });
 * assertEquals(result.content, [{ type: "text", text: "Hello!" }]);
 * ```
 *
 * @module
 */
export type * from "./ai_sdk_spec.ts";
export * from "./ai_sdk_model.ts";
