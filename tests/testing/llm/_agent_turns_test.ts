import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import fc from "fast-check";
import { agentTurns, type TurnCall } from "../../../testing/llm/_agent_turns.ts";
import { FakeLLM, ScriptExhausted } from "@agentkit/testing/testing";
import { ProviderTimeoutError } from "@agentkit/testing/ports";

const user = (content: string): TurnCall => ({ messages: [{ role: "user", content }], tools: [] });

Deno.test("agentTurns: the same conversation right after a failed call is a retry", () => {
  const a = user("a"), b = user("b");
  assertEquals(agentTurns([a, b, b, b], new Set([1, 2])), { turn: 2, retries: 2 });
  // After an answer, the same conversation is a new turn (a second run).
  assertEquals(agentTurns([a, a, a], new Set()), { turn: 3, retries: 0 });
  // After a failure, another conversation is a new turn.
  assertEquals(agentTurns([a, b], new Set([0])), { turn: 2, retries: 0 });
  // Other tools are another request.
  const withTool: TurnCall = { ...a, tools: [{ name: "t", description: "", parameters: {} }] };
  assertEquals(agentTurns([a, withTool], new Set([0])), { turn: 2, retries: 0 });
  assertEquals(agentTurns([], new Set()), { turn: 0, retries: 0 });
});

Deno.test("agentTurns: turns plus retries is the number of calls, and a failure-free run has no retry", () => {
  fc.assert(fc.property(
    fc.array(fc.record({ c: fc.constantFrom("a", "b"), failed: fc.boolean() }), { maxLength: 30 }),
    (xs) => {
      const calls = xs.map((x) => user(x.c));
      const failed = new Set(xs.flatMap((x, i) => x.failed ? [i] : []));
      const { turn, retries } = agentTurns(calls, failed);
      assertEquals(turn + retries, calls.length);
      if (calls.length > 0) assertEquals(turn >= 1, true);
      assertEquals(agentTurns(calls, new Set()), { turn: calls.length, retries: 0 });
    },
  ));
});

Deno.test("FakeLLM.script: a client retrying the call that ran out is counted apart from the agent's turns", async () => {
  const llm = FakeLLM.script(["one"]);
  await llm.chat({ model: "m", messages: [{ role: "user", content: "hi" }] });
  const second = {
    model: "m",
    messages: [
      { role: "user" as const, content: "hi" },
      { role: "assistant" as const, content: "one" },
      { role: "user" as const, content: "again" },
    ],
  };
  const first = await llm.chat(second).catch((e) => e);
  assertEquals([first.requested, first.retries], [2, 0]);
  // Six retries of the same request, as LangChain's default policy sends.
  let last: ScriptExhausted | undefined;
  for (let i = 0; i < 6; i++) last = await llm.chat(second).catch((e) => e);
  assertEquals([last!.requested, last!.retries, last!.calls], [2, 6, 8]);
  assertStringIncludes(last!.message, "has 1 turn(s), but the agent asked for turn 2 (call 8");
  assertStringIncludes(last!.message, "retried 6 time(s)");
  // verify() rethrows the first, which names turn 2.
  assertThrows(() => llm.verify(), ScriptExhausted, "asked for turn 2; script another");
});

Deno.test("FakeLLM.script: a scripted failure retried by the client is not a turn", async () => {
  const llm = FakeLLM.script(["one"], { failTimes: 2, failWith: new ProviderTimeoutError("slow") });
  const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };
  for (let i = 0; i < 2; i++) await llm.chat(request).catch(() => {});
  assertEquals((await llm.chat(request)).content, "one");
  const next = {
    model: "m",
    messages: [...request.messages, { role: "user" as const, content: "more" }],
  };
  const e = await llm.chat(next).catch((e) => e);
  assertEquals([e.requested, e.retries, e.calls], [2, 2, 4]);
});
