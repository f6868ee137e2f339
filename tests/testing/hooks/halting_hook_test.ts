import { assertEquals, assertThrows } from "@std/assert";
import { HaltingHook, RecordingHook } from "@agentkit/testing/testing";
import type { StreamEvent } from "@agentkit/testing/ports";

const delta: StreamEvent = { type: "text_delta", messageId: "m", content: "x" };
const start: StreamEvent = { type: "message_start", messageId: "m" };

Deno.test("HaltingHook.beforeRun() halts only when given a reply, recording every request", () => {
  const passing = new HaltingHook();
  assertEquals(passing.beforeRun({ task: "a", context: [] }), undefined);
  const halting = new HaltingHook({ reply: "No." });
  assertEquals(halting.beforeRun({ task: "b", context: [] }), { reply: "No." });
  assertEquals([passing.halted, halting.halted], [0, 1]);
  assertEquals(halting.requests, [{ task: "b", context: [] }]);
});

Deno.test("HaltingHook.onStreamEvent() ends the chain for matching events", () => {
  const hook = new HaltingHook({ when: (e) => e.type === "text_delta", replaceWith: [] });
  assertEquals(hook.onStreamEvent(start), undefined);
  assertEquals(hook.onStreamEvent(delta), []);
  assertEquals([hook.events, hook.ended], [[start, delta], 1]);
  assertEquals(new HaltingHook().onStreamEvent(delta), [delta], "by default the event itself");
});

Deno.test("new HaltingHook() rejects unknown options with a did-you-mean", () => {
  assertThrows(
    () => new HaltingHook({ replaceWth: [] } as never),
    TypeError,
    'new HaltingHook(): unknown option "replaceWth"; did you mean "replaceWith"?',
  );
});

Deno.test("RecordingHook records copies of requests and passes everything on", () => {
  const hook = new RecordingHook({ name: "r" });
  const context = [{ role: "user" as const, content: "earlier" }];
  assertEquals(hook.beforeRun({ task: "t", context }), undefined);
  context.push({ role: "user", content: "later" });
  assertEquals(hook.requests[0].context.length, 1);
  assertEquals(hook.onStreamEvent(delta), undefined);
  assertEquals([hook.name, hook.events], ["r", [delta]]);
});

Deno.test("HaltingHook is named halting unless named, and replaces events with a function's answer", () => {
  assertEquals(new HaltingHook().name, "halting");
  assertEquals(new HaltingHook({ name: "guard" }).name, "guard");
  const hook = new HaltingHook({ replaceWith: (e) => [e, e] });
  assertEquals(hook.onStreamEvent(delta), [delta, delta]);
  assertThrows(
    () => new HaltingHook({ replaceWith: 5 as never }),
    TypeError,
    "an array of events or a function",
  );
});

Deno.test("HaltingHook records a copy of the request's context", () => {
  const hook = new HaltingHook();
  const context = [{ role: "user" as const, content: "earlier" }];
  hook.beforeRun({ task: "t", context });
  context.push({ role: "user", content: "later" });
  assertEquals(hook.requests, [{ task: "t", context: [{ role: "user", content: "earlier" }] }]);
});

Deno.test("RecordingHook is named recording unless named, and names itself on a bad option", () => {
  assertEquals(new RecordingHook().name, "recording");
  assertEquals(new RecordingHook({ name: "tap" }).name, "tap");
  assertThrows(() => new RecordingHook({ name: 5 } as never), TypeError, "new RecordingHook()");
});
