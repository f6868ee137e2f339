// Cold start on the AI SDK (bench/cold_start.ts): import `ai` and its test
// double, run one generateText on MockLanguageModelV4.
import { generateText } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const model = new MockLanguageModelV4({
  doGenerate: {
    content: [{ type: "text", text: "ok" }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 0, text: 0, reasoning: undefined },
    },
    warnings: [],
  },
});
const result = await generateText({ model, prompt: "hi" });
if (result.text !== "ok") throw new Error(`cold start: got ${result.text}`);
