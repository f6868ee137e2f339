import { assertEquals } from "@std/assert";
import { stopReasonOf } from "@agentkit/testing/runtime";

Deno.test("stopReasonOf() maps a provider's finish reason to the run's stop reason", () => {
  assertEquals(stopReasonOf("length"), "length");
  assertEquals(stopReasonOf("content_filter"), "error");
  assertEquals(stopReasonOf("error"), "error");
  assertEquals(stopReasonOf("stop"), "stop");
  assertEquals(stopReasonOf("tool_calls"), "stop");
  assertEquals(stopReasonOf(""), "stop");
});
