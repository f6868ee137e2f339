import { assertEquals, assertStrictEquals } from "@std/assert";
import fc from "fast-check";
import { assistantMessage, toolMessage } from "../../../runtime/cognition/_loop_message.ts";
import { toolCall } from "@agentkit/testing/ports";

// The built messages must be indistinguishable from the literals they
// replace: same keys in the same order (JSON, snapshots), the plain prototype
// (deep equality checks it), and no key for an absent field.
function sameAsLiteral(built: object, literal: object): void {
  assertEquals(built, literal);
  assertStrictEquals(Object.getPrototypeOf(built), Object.prototype);
  assertEquals(Object.keys(built), Object.keys(literal));
  assertStrictEquals(JSON.stringify(built), JSON.stringify(literal));
}

Deno.test("an assistant message is the plain object its literal would be", () => {
  const calls = [toolCall("c1", "lookup", { host: "a" })];
  sameAsLiteral(assistantMessage("thinking", calls), {
    role: "assistant",
    content: "thinking",
    toolCalls: calls,
  });
  assertStrictEquals(assistantMessage("", calls).toolCalls, calls);
  sameAsLiteral(assistantMessage("done"), { role: "assistant", content: "done" });
  assertEquals("toolCalls" in assistantMessage("done"), false);
  const providerData = { gemini: { thoughtSignatures: { c1: "sig" } } };
  sameAsLiteral(assistantMessage("", calls, providerData), {
    role: "assistant",
    content: "",
    toolCalls: calls,
    providerData,
  });
  sameAsLiteral(assistantMessage("done", undefined, providerData), {
    role: "assistant",
    content: "done",
    providerData,
  });
  assertEquals("providerData" in assistantMessage("done", calls), false);
});

Deno.test("a tool message is the plain object its literal would be", () => {
  sameAsLiteral(toolMessage("42", "c1"), { role: "tool", content: "42", toolCallId: "c1" });
  assertEquals("isError" in toolMessage("42", "c1"), false);
  sameAsLiteral(toolMessage("Error: boom", "c2", true), {
    role: "tool",
    content: "Error: boom",
    toolCallId: "c2",
    isError: true,
  });
});

Deno.test("built messages equal their literals for any text and id", () => {
  fc.assert(fc.property(fc.string(), fc.string(), fc.boolean(), (content, id, failed) => {
    sameAsLiteral(
      failed ? toolMessage(content, id, true) : toolMessage(content, id),
      failed
        ? { role: "tool", content, toolCallId: id, isError: true }
        : { role: "tool", content, toolCallId: id },
    );
    sameAsLiteral(assistantMessage(content), { role: "assistant", content });
  }));
});
