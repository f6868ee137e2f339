import { assertEquals } from "@std/assert";
import { Agent, ReActCognition } from "@agentkit/testing/runtime";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeTool, makeTestCtx } from "@agentkit/testing/testing";
import { appendOnly, isAppendOnly, release } from "../../runtime/_append_only.ts";

Deno.test("appendOnly() marks an array until release()", () => {
  const a: number[] = [];
  assertEquals(isAppendOnly(a), false);
  assertEquals(appendOnly(a), a);
  assertEquals(isAppendOnly(a), true);
  release(a);
  assertEquals(isAppendOnly(a), false);
});

Deno.test("ReActCognition.run() releases its transcript when it returns it", async () => {
  const tool = new FakeTool({ name: "t", responder: "r" });
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c", "t")] }, "done", "again"]);
  const agent = new Agent("a", {
    model: "fake-model",
    cognition: new ReActCognition({ tools: [tool] }),
  });
  const result = await agent.run("go", makeTestCtx({ llm }));
  assertEquals(isAppendOnly(result.messages), false);
  // The returned transcript, edited in place and sent again, is recorded as edited.
  const messages = result.messages as { role: "user"; content: string }[];
  messages[0] = { role: "user", content: "edited" };
  await llm.chat({ model: "fake-model", messages });
  assertEquals(llm.requests.map((r) => r.messages[0].content), ["go", "go", "edited"]);
});

Deno.test("appendOnly(): a second mark is the same mark; the oldest of too many is unmarked", () => {
  const a: number[] = [];
  appendOnly(a);
  appendOnly(a);
  release(a);
  assertEquals(isAppendOnly(a), false);
  // Loops that never release (abandoned streams) cannot pile up: past 64
  // marks the oldest is dropped, and is then checked like any other array.
  const arrays = Array.from({ length: 65 }, () => appendOnly([] as number[]));
  assertEquals(arrays.map(isAppendOnly), [false, ...Array(64).fill(true)]);
  for (const x of arrays) release(x);
  assertEquals(arrays.some(isAppendOnly), false);
  // Releasing one in the middle keeps the others marked.
  const [x, y, z] = [appendOnly([1]), appendOnly([2]), appendOnly([3])];
  release(y);
  assertEquals([x, y, z].map(isAppendOnly), [true, false, true]);
  release(x);
  release(z);
});

Deno.test("release() of an array never marked leaves every mark in place", () => {
  const [x, y] = [appendOnly([1]), appendOnly([2])];
  release([3]);
  assertEquals([x, y].map(isAppendOnly), [true, true]);
  release(x);
  release(y);
});
