// Each misbehaviour through aiSdkModel, as the AI SDK (ai 7) sees it: the
// parts, the finish reason, and what its own tool loop does with it.
import { generateText, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";
import { assertEquals, assertStringIncludes } from "@std/assert";
import { aiSdkModel, FakeLLM, misbehave, type Turn } from "@agentkit/testing/testing";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const lookup = tool({
  inputSchema: z.object({ host: z.string().optional() }),
  execute: () => "found",
});

async function both(turn: Turn) {
  const llm = FakeLLM.script([turn, "Done."], { allowUnused: true });
  const generated = await generateText({
    model: aiSdkModel(llm),
    prompt: "go",
    tools: { lookup },
    stopWhen: stepCountIs(3),
  });
  const streamLlm = FakeLLM.script([turn, "Done."], { allowUnused: true });
  const streamed = streamText({
    model: aiSdkModel(streamLlm),
    prompt: "go",
    tools: { lookup },
    stopWhen: stepCountIs(3),
  });
  const parts: string[] = [];
  for await (const p of streamed.fullStream) parts.push(p.type);
  return {
    generated,
    parts,
    streamed: {
      text: await streamed.text,
      finishReason: await streamed.finishReason,
      reasoningText: await streamed.reasoningText,
    },
    sent: llm.requests.at(-1)!.messages,
  };
}

Deno.test("aiSdkModel: a refusal is text that finishes content-filter, raw reason refusal", async () => {
  const { generated, streamed } = await both(misbehave.refusal("No."));
  assertEquals([generated.text, generated.finishReason, generated.rawFinishReason], [
    "No.",
    "content-filter",
    "refusal",
  ]);
  assertEquals([streamed.text, streamed.finishReason], ["No.", "content-filter"]);
});

Deno.test("aiSdkModel: the content filter finishes content-filter with nothing said", async () => {
  const { generated, streamed, parts } = await both(misbehave.contentFilter());
  assertEquals([generated.text, generated.finishReason, generated.rawFinishReason], [
    "",
    "content-filter",
    "content_filter",
  ]);
  assertEquals(generated.content, []);
  assertEquals(streamed.finishReason, "content-filter");
  assertEquals(parts, ["start", "start-step", "finish-step", "finish"]);
});

Deno.test("aiSdkModel: thinking with no answer is a reasoning part and no text", async () => {
  const { generated, streamed, parts } = await both(misbehave.reasoningOnly("Hm."));
  assertEquals(generated.content, [{ type: "reasoning", text: "Hm." }]);
  assertEquals([generated.text, generated.reasoningText, generated.finishReason], [
    "",
    "Hm.",
    "stop",
  ]);
  assertEquals([streamed.text, streamed.reasoningText], ["", "Hm."]);
  assertEquals(parts.filter((p) => p.startsWith("reasoning")), [
    "reasoning-start",
    "reasoning-delta",
    "reasoning-end",
  ]);
});

Deno.test("aiSdkModel: an empty answer is no content at all, finishing stop", async () => {
  const { generated, streamed } = await both(misbehave.emptyAnswer());
  assertEquals([generated.content, generated.finishReason], [[], "stop"]);
  assertEquals([streamed.text, streamed.finishReason], ["", "stop"]);
});

Deno.test("aiSdkModel: bad arguments, a cut call, an unknown and a nameless tool become the SDK's tool errors", async (t) => {
  const cases: Array<[string, Turn, string]> = [
    ["invalidToolJson", misbehave.invalidToolJson("lookup"), "AI_InvalidToolInputError"],
    ["lengthMidToolCall", misbehave.lengthMidToolCall("lookup"), "AI_InvalidToolInputError"],
    ["unknownTool", misbehave.unknownTool(), "AI_NoSuchToolError"],
    ["malformedToolCall", misbehave.malformedToolCall(), "AI_NoSuchToolError"],
  ];
  for (const [kind, turn, error] of cases) {
    await t.step(kind, async () => {
      const { generated, parts, sent } = await both(turn);
      const first = generated.steps[0];
      assertEquals(first.content.map((c) => c.type), ["tool-call", "tool-error"]);
      if (kind === "lengthMidToolCall") assertEquals(first.finishReason, "length");
      assertEquals(parts.filter((p) => p.startsWith("tool-")), [
        "tool-input-start",
        "tool-input-delta",
        "tool-input-end",
        "tool-call",
        "tool-error",
      ]);
      // The SDK's loop goes on: it sends its error to the model as the tool's result.
      const reply = sent.at(-1)!;
      assertEquals([reply.role, reply.isError], ["tool", true]);
      assertStringIncludes(reply.content, error);
      assertEquals(generated.text, "Done.");
    });
  }
});

Deno.test("aiSdkModel: repeated call ids reach the SDK as sent, and it answers each under the one id", async () => {
  const { generated, sent } = await both(misbehave.duplicateCallIds("lookup"));
  const first = generated.steps[0].content;
  assertEquals(first.map((c) => [c.type, (c as { toolCallId?: string }).toolCallId]), [
    ["tool-call", "call_dup"],
    ["tool-call", "call_dup"],
    ["tool-result", "call_dup"],
    ["tool-result", "call_dup"],
  ]);
  assertEquals(sent.filter((m) => m.role === "tool").map((m) => m.toolCallId), [
    "call_dup",
    "call_dup",
  ]);
});
