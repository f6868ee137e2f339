/**
 * The fake is as strict as the real API: a request the provider would refuse
 * is refused by FakeProvider too, with the provider's 400, the rule and the
 * path, so the bug fails in the test instead of in production.
 *
 * Run it: `deno run --allow-read --allow-env examples/strict_wire.ts`
 */
import Anthropic from "@anthropic-ai/sdk";
import { FakeLLM, FakeProvider, toolCall } from "@agentkit/testing";
import { assertEquals, assertRejects } from "@std/assert";

using llm = FakeLLM.script([
  { toolCalls: [toolCall("toolu_1", "get_weather", { city: "Paris" })] },
  "Sunny in Paris.",
]);
const provider = new FakeProvider({ llm });
const client = new Anthropic({ apiKey: "sk-ant-test", fetch: provider.fetch, maxRetries: 0 });
const tools: Anthropic.Tool[] = [{
  name: "get_weather",
  input_schema: { type: "object", properties: { city: { type: "string" } } },
}];
const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris?" }];

const first = await client.messages.create({
  model: "claude-sonnet-4-6",
  max_tokens: 256,
  messages,
  tools,
});
const use = first.content.find((b) => b.type === "tool_use")!;
console.log("the model calls:", use.type === "tool_use" && use.name); // the model calls: get_weather
assertEquals(use.type === "tool_use" && use.name, "get_weather");

// A careless loop sends the tool result but drops the assistant turn that
// asked for it: the real API refuses that, and so does the fake.
const careless = [...messages, {
  role: "user" as const,
  content: [{ type: "tool_result" as const, tool_use_id: use.id, content: "sunny" }],
}];
const refused = await assertRejects(
  () =>
    client.messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 256,
      messages: careless,
      tools,
    }),
  Anthropic.BadRequestError,
);
const rejection = provider.rejections[0];
console.log("status:", refused.status); // status: 400
console.log("rule:", rejection.rule, "at", rejection.path); // rule: tool-result-without-use at messages[1].content[0].tool_use_id
assertEquals(refused.status, 400);
assertEquals([rejection.rule, rejection.path], [
  "tool-result-without-use",
  "messages[1].content[0].tool_use_id",
]);
console.log("turns used:", llm.calls); // turns used: 1
assertEquals(llm.calls, 1);

// The fixed loop sends the assistant turn back, then the result: served.
const fixed: Anthropic.MessageParam[] = [
  ...messages,
  { role: "assistant", content: first.content },
  careless[1],
];
const final = await client.messages.create({
  model: "claude-sonnet-4-6",
  max_tokens: 256,
  messages: fixed,
  tools,
});
const text = final.content[0].type === "text" ? final.content[0].text : "";
console.log("answer:", text); // answer: Sunny in Paris.
assertEquals(text, "Sunny in Paris.");
assertEquals(provider.rejections.length, 1);
