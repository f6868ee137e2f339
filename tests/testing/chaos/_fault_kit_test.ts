// The pieces every fault table shares: picking the tool a fault names, and
// the pre-rejected promise a provider fault gates its call on.
import { assertEquals, assertRejects, assertStrictEquals } from "@std/assert";
import type { ToolSpec } from "@agentkit/testing/ports";
import { pickTool, rejected } from "../../../testing/chaos/_fault_kit.ts";

const spec = (name: string): ToolSpec => ({
  name,
  description: "",
  parameters: { type: "object" },
});

Deno.test("pickTool() picks by the drawn index, wrapping around the offered tools", () => {
  const tools = [spec("a"), spec("b"), spec("c")];
  assertEquals([0, 1, 2, 3, 7].map((i) => pickTool(tools, i)?.name), ["a", "b", "c", "a", "b"]);
  assertStrictEquals(pickTool(tools, 4), tools[1]);
  assertEquals(pickTool([], 0), undefined);
  assertEquals(pickTool([], 3), undefined);
});

Deno.test("rejected() rejects where it is awaited, and is no unhandled rejection before then", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (event: PromiseRejectionEvent) => {
    unhandled.push(event.reason);
    event.preventDefault();
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    const error = new Error("429");
    // A fault's gate is made when the call is served and awaited only when the call plays it.
    const gate = rejected(error);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assertEquals(unhandled, []);
    const thrown = await assertRejects(() => gate);
    assertStrictEquals(thrown, error);
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});
