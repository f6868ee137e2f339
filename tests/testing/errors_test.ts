import { assertEquals, assertInstanceOf, assertStringIncludes } from "@std/assert";
import { HarnessError } from "@agentkit/testing/runtime";
import {
  InvalidScript,
  ScriptExhausted,
  UnknownToolCall,
  UnmatchedPrompt,
  UnusedTurns,
} from "@agentkit/testing/testing";

Deno.test("every testing error is a HarnessError with its own name", () => {
  const errors = [
    new ScriptExhausted("FakeLLM.script", 2, 3),
    new UnmatchedPrompt("hi", ["a"]),
    new UnusedTurns("FakeLLM.script", 3, 1),
    new InvalidScript("bad"),
    new UnknownToolCall(1, { id: "c1", name: "t", args: {} }, []),
  ];
  assertEquals(errors.map((e) => e.name), [
    "ScriptExhausted",
    "UnmatchedPrompt",
    "UnusedTurns",
    "InvalidScript",
    "UnknownToolCall",
  ]);
  for (const error of errors) assertInstanceOf(error, HarnessError);
});

Deno.test("ScriptExhausted says how many there were and which was asked for, in the double's unit", () => {
  const error = new ScriptExhausted("FakeAsker.answers", 2, 3, "answer");
  assertEquals([error.scripted, error.requested], [2, 3]);
  assertStringIncludes(error.message, "FakeAsker.answers has 2 answer(s)");
  assertStringIncludes(error.message, "asked for answer 3");
  assertStringIncludes(new ScriptExhausted("FakeLLM.script", 1, 2).message, "1 turn(s)");
});

Deno.test("UnmatchedPrompt lists every key on offer, or says there are none", () => {
  const error = new UnmatchedPrompt("weather in Paris?", ["forecast", "news"]);
  assertEquals(error.prompt, "weather in Paris?");
  assertStringIncludes(error.message, '"weather in Paris?"');
  assertStringIncludes(error.message, 'the keys are "forecast", "news";');
  assertStringIncludes(new UnmatchedPrompt("x", []).message, "the keys are none;");
});

Deno.test("UnusedTurns counts what was left and names it when it can", () => {
  const plain = new UnusedTurns("FakeLLM.script", 3, 1);
  assertEquals(plain.unused, 2);
  assertStringIncludes(plain.message, "has 3 turn(s), but the run used only 1;");
  const named = new UnusedTurns("FakeAsker.answers", 3, 1, "answer", ["deploy?", "rollback?"]);
  assertEquals(named.unused, 2);
  assertStringIncludes(
    named.message,
    "has 3 answer(s), but the run used only 1 (never used: deploy?, rollback?);",
  );
  const noNames = new UnusedTurns("FakeAsker.answers", 2, 1, "answer", []);
  assertStringIncludes(noNames.message, "used only 1;");
});

Deno.test("UnknownToolCall keeps the call and lists the tools the request offered", () => {
  const call = { id: "c7", name: "fs_write", args: { path: "a" } };
  const error = new UnknownToolCall(2, call, ["fs_read", "fs_list"]);
  assertEquals(
    [error.turn, error.callId, error.toolName, error.args, error.offered],
    [2, "c7", "fs_write", { path: "a" }, ["fs_read", "fs_list"]],
  );
  assertStringIncludes(
    error.message,
    'turn 2 calls tool "fs_write" (call c7), but the request offered "fs_read", "fs_list";',
  );
  assertStringIncludes(
    new UnknownToolCall(1, call, []).message,
    'turn 1 calls tool "fs_write" (call c7), but the request offered no tools;',
  );
});
