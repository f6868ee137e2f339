// The Anthropic wire's parse and stream at their edges: what it reads of a
// request the strict rules would refuse (strict off), the thinking block it
// opens, and the one ping of a stream however it ends.
import { assertEquals } from "@std/assert";
import { FakeLLM, FakeProvider, misbehave, type Turn } from "@agentkit/testing/testing";
import { frames, json } from "./_wire_fetch.ts";

const PATH = "/v1/messages";
const hi = [{ role: "user", content: "hi" }];

function lenient(...turns: Array<Turn | string>): { llm: FakeLLM; provider: FakeProvider } {
  const llm = FakeLLM.script(turns, { strictTools: false });
  return { llm, provider: new FakeProvider({ llm, strict: false }) };
}

Deno.test("messages wire parse: max_tokens read when a number, refused when another type, absent allowed", async () => {
  const { llm, provider: p } = lenient("a", "b");
  const bad = await json(p, PATH, { model: "m", max_tokens: "100", messages: hi });
  assertEquals([bad.status, (bad.body.error as Record<string, unknown>).message], [
    400,
    "max_tokens: Input should be a valid integer",
  ]);
  assertEquals((await json(p, PATH, { model: "m", max_tokens: 77, messages: hi })).status, 200);
  assertEquals((await json(p, PATH, { model: "m", messages: hi })).status, 200);
  assertEquals(llm.requests.map((r) => r.settings?.maxTokens), [77, undefined]);
});

Deno.test("messages wire parse: a system-role message is read as a system message, its content text or blocks", async () => {
  const { llm, provider: p } = lenient("a", "b");
  const sent = await json(p, PATH, {
    model: "m",
    max_tokens: 10,
    messages: [{ role: "system", content: [{ type: "text", text: "be brief" }] }, ...hi],
  });
  assertEquals(sent.status, 200);
  assertEquals(llm.requests[0].messages[0], { role: "system", content: "be brief" });
  const bad = await json(p, PATH, {
    model: "m",
    max_tokens: 10,
    messages: [...hi, { role: "system", content: 5 }],
  });
  assertEquals([bad.status, (bad.body.error as Record<string, unknown>).message], [
    400,
    "messages.1.content: Input should be a valid list",
  ]);
});

Deno.test("messages wire stream: a thinking block opens empty, signature and all; one ping however the stream ends", async () => {
  const { provider: p } = lenient(
    { content: "yes", reasoning: "hm" },
    misbehave.emptyAnswer(),
    { chunks: ["a", "b"], toolCalls: [] },
  );
  const body = { model: "m", max_tokens: 10, messages: hi, stream: true };
  const first = await frames(p, PATH, body);
  assertEquals(first[1].data, {
    type: "content_block_start",
    index: 0,
    content_block: { type: "thinking", thinking: "", signature: "" },
  });
  for (const events of [first, await frames(p, PATH, body), await frames(p, PATH, body)]) {
    const names = events.map((e) => e.event);
    assertEquals(names.filter((n) => n === "ping").length, 1, names.join(","));
    assertEquals(names.at(-1), "message_stop");
  }
});
