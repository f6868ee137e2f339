// @langchain/google-genai against FakeProvider.listen(): it takes a base URL
// (`baseUrl`) but no fetch (its @google/generative-ai client calls the global
// fetch), so it is served on 127.0.0.1. Runs with --allow-net=127.0.0.1 only.
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { assertEquals, assertRejects } from "@std/assert";
import { RateLimitError, toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";

Deno.test("FakeProvider.listen() serves @langchain/google-genai: text, stream, a tool loop with the signature back", async () => {
  const llm = FakeLLM.script([
    { content: "Bonjour.", usage: { inputTokens: 5, outputTokens: 2 } },
    { chunks: ["str", "eamed"] },
    { toolCalls: [toolCall("call_1", "get_weather", { city: "Paris" })] },
    "Sunny.",
  ]);
  const provider = new FakeProvider({ llm });
  await using server = await provider.listen();
  const model = new ChatGoogleGenerativeAI({
    model: "gemini-3-flash-preview",
    apiKey: "AIza-test",
    baseUrl: server.url,
    maxRetries: 0,
  });
  const res = await model.invoke("hi");
  assertEquals(res.content, "Bonjour.");
  assertEquals(res.usage_metadata?.input_tokens, 5);
  let text = "";
  for await (const chunk of await model.stream("hi")) text += chunk.content;
  assertEquals(text, "streamed");
  assertEquals(
    provider.requests[1].path,
    "/v1beta/models/gemini-3-flash-preview:streamGenerateContent",
  );

  const withTools = model.bindTools([{
    name: "get_weather",
    description: "Weather by city",
    schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  }]);
  const question = new HumanMessage("Weather in Paris?");
  const call = await withTools.invoke([question]);
  assertEquals(call.tool_calls?.map((c) => [c.name, c.args]), [["get_weather", { city: "Paris" }]]);
  const answer = await withTools.invoke([
    question,
    call,
    new ToolMessage({
      content: "sunny",
      tool_call_id: call.tool_calls![0].id!,
      name: "get_weather",
    }),
  ]);
  assertEquals(answer.content, "Sunny.");
  const sent = provider.requests[3].body as {
    contents: { role: string; parts: Record<string, unknown>[] }[];
  };
  assertEquals(sent.contents.map((c) => c.role), ["user", "model", "user"]);
  const seen = (provider.llm as FakeLLM).requests[3].messages.at(-1);
  // This client wraps a tool's text as { result }; any object but { output } or { error } is the whole result.
  assertEquals([seen?.role, seen?.content], ["tool", '{"result":"sunny"}']);
  // It sends the signature back as issued, and the call without its id (matched by name).
  assertEquals(sent.contents[1].parts, [{
    functionCall: { name: "get_weather", args: { city: "Paris" } },
    thoughtSignature: btoa("agentkit-fake-thought:1:call_1"),
  }]);
});

Deno.test("FakeProvider.listen(): a 429 reaches @langchain/google-genai as its error", async () => {
  const llm = FakeLLM.script([{
    error: new RateLimitError("Quota exceeded", { retryAfterMs: 1500 }),
  }]);
  await using server = await new FakeProvider({ llm }).listen();
  const model = new ChatGoogleGenerativeAI({
    model: "gemini-2.5-flash",
    apiKey: "AIza-test",
    baseUrl: server.url,
    maxRetries: 0,
  });
  const e = await assertRejects(() => model.invoke("hi"));
  assertEquals((e as { status?: number }).status, 429);
});
