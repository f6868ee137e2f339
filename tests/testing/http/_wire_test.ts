// What every wire shares: the problem test, the SSE frame writers, and the
// memory a FakeProvider keeps of the thought signatures it issued.
import { assert, assertEquals, assertNotEquals } from "@std/assert";
import { data, isProblem, named, WireMemory } from "../../../testing/http/_wire.ts";

Deno.test("WireMemory remembers each thought signature it issues, by signature and by call", () => {
  const memory = new WireMemory();
  const a = memory.issueSignature("gemini-3-pro-preview", "c1", "lookup");
  const b = memory.issueSignature("gemini-3-pro-preview", "c1", "lookup");
  assertNotEquals(a, b);
  assertEquals(atob(a), "agentkit-fake-thought:1:c1");
  assertEquals(memory.issued(a), {
    signature: a,
    model: "gemini-3-pro-preview",
    callId: "c1",
    name: "lookup",
  });
  // A call id scripted twice is the latest's.
  assertEquals(memory.signatureFor("c1")?.signature, b);
  assertEquals(memory.signatureFor("c2"), undefined);
  assertEquals(memory.issued("forged"), undefined);
  // Two providers never share what they issued.
  assertEquals(new WireMemory().issued(a), undefined);
});

Deno.test("isProblem(), data() and named() as every wire uses them", () => {
  assert(isProblem({ status: 400, message: "bad" }));
  assert(!isProblem({ chat: { model: "m", messages: [] }, stream: false, includeUsage: true }));
  assertEquals(data({ a: 1 }), 'data: {"a":1}\n\n');
  assertEquals(named("ping", { type: "ping" }), 'event: ping\ndata: {"type":"ping"}\n\n');
});
