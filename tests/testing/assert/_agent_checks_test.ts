// The checks behind the assert* functions and agentMatchers, through both
// faces: which subjects each reads, what it accepts, and what a failure says.
import { assert, assertEquals, assertFalse, assertStringIncludes, assertThrows } from "@std/assert";
import { Agent, ReActCognition, type StreamChunk } from "@agentkit/testing/runtime";
import { type Message, toolCall } from "@agentkit/testing/ports";
import {
  agentMatchers,
  assertCalledTool,
  AssertionError,
  assertSpent,
  assertStopReason,
  assertTranscriptContains,
  assertUsedAllTurns,
  FakeLLM,
  FakeTool,
  makeTestCtx,
  ScriptedProvider,
} from "@agentkit/testing/testing";

// Messages in which the assistant called `name` with each of `args`.
const calling = (name: string, ...args: unknown[]): Message[] => [{
  role: "assistant",
  content: "",
  toolCalls: args.map((a, i) => ({ id: `c${i}`, name, args: a as Record<string, unknown> })),
}];

const failure = (fn: () => unknown): string => assertThrows(fn, AssertionError).message;

Deno.test("assertCalledTool() reads the chunks of a run's events", async () => {
  const llm = FakeLLM.script([{ toolCalls: [toolCall("c", "t", { a: 1 })] }, { content: "ok" }]);
  const tools = [new FakeTool({ name: "t", responder: "done" })];
  const agent = new Agent("a", { model: "fake-model", cognition: new ReActCognition({ tools }) });
  const run = agent.start("go", makeTestCtx({ llm }));
  await run.result.catch(() => {});
  const chunks: StreamChunk[] = [];
  for await (const chunk of run.events) chunks.push(chunk);
  assertCalledTool(chunks, "t", { a: 1 });
  assertStringIncludes(failure(() => assertCalledTool(chunks, "u")), 'Calls made:\n  t {"a":1}');
});

Deno.test("assertCalledTool() reads a ScriptedProvider's recorded calls, raw args too", async () => {
  const provider = new ScriptedProvider({
    tools: [{ name: "fs_read" }],
    results: { fs_read: "x" },
  });
  await provider.executeToolCalls(
    [toolCall("c1", "fs_read", { path: "a" }), {
      id: "c2",
      name: "fs_read",
      args: undefined as unknown as Record<string, unknown>,
      rawArgs: "{not json",
    }],
    makeTestCtx(),
  );
  const calls = provider.recordedCalls;
  assertCalledTool(calls, "fs_read", { path: "a" });
  assertCalledTool(calls, "fs_read", "{not json");
  assertStringIncludes(
    failure(() => assertCalledTool(calls, "fs_write")),
    'Calls made:\n  fs_read {"path":"a"}\n  fs_read "{not json"',
  );
});

Deno.test("assertCalledTool() on a list that is not messages or events finds no call", () => {
  const message = failure(() => assertCalledTool(["hello"] as unknown as Message[], "t"));
  assertStringIncludes(message, "t was never called.\nCalls made:\n  (none)");
});

Deno.test("assertCalledTool() on events without a tool call lists none", () => {
  const events = [
    { type: "message_start", messageId: "m" },
    { type: "text_delta", messageId: "m", content: "hi" },
  ];
  const message = failure(() => assertCalledTool(events as never, "t"));
  assertStringIncludes(message, "Calls made:\n  (none)");
});

Deno.test("assertCalledTool() refuses what holds no calls, and a name that is not a string", () => {
  for (const [subject, got] of [[null, "null"], [5, "number"], ["x", "string"]] as const) {
    assertThrows(
      () => assertCalledTool(subject as never, "t"),
      TypeError,
      `assertCalledTool needs an AgentResult, a Run, messages, a run's events, a FakeLLM, a FakeTool or a ScriptedProvider; got ${got}`,
    );
  }
  // A function is not an AgentResult, whatever it carries.
  const fn = Object.assign(() => {}, { messages: calling("t", {}) });
  assertThrows(() => assertCalledTool(fn as never, "t"), TypeError, "got function");
  assertThrows(
    () => assertCalledTool(calling("t", {}), 5 as never),
    TypeError,
    "needs a tool name",
  );
  assertThrows(() => assertCalledTool(calling("t", {}), ""), TypeError, "needs a tool name");
});

Deno.test("assertCalledTool() with args passes when any call of the tool matches", () => {
  const messages = calling("t", { n: 1 }, { n: 2 });
  assertCalledTool(messages, "t", { n: 2 });
  assertCalledTool(messages, "t", { n: 1 });
  assertStringIncludes(
    failure(() => assertCalledTool(messages, "t", { n: 3 })),
    'Calls made:\n  t {"n":1}\n  t {"n":2}',
  );
});

Deno.test("assertCalledTool() compares args deeply, ignoring undefined keys", () => {
  const passes = (actual: unknown, expected: unknown) => {
    try {
      assertCalledTool(calling("t", actual), "t", expected);
      return true;
    } catch (error) {
      if (!(error instanceof AssertionError)) throw error;
      return false;
    }
  };
  assert(passes(null, null));
  assert(passes({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }));
  assert(passes({ a: 1 }, { a: 1, b: undefined }));
  assert(passes({ a: 1, b: undefined }, { a: 1 }));
  assertFalse(passes(null, {}));
  assertFalse(passes({}, null));
  assertFalse(passes(5, {}));
  assertFalse(passes({}, 5));
  assertFalse(passes([], {}));
  assertFalse(passes({}, []));
  assertFalse(passes({ a: 1, b: 2 }, { a: 1, b: 3 }));
  assertFalse(passes({ a: 1, b: 2 }, { a: 1 }));
  assertFalse(passes({ a: 1 }, { a: 1, b: 2 }));
  // Only an object is taken for an asymmetric matcher; a function is compared as itself.
  assertFalse(passes({ a: 1 }, Object.assign(() => {}, { asymmetricMatch: () => true })));
});

Deno.test("a failure on a subject with no transcript ends with its calls", () => {
  // Messages without a stop reason: calls to read, but no result to render.
  const partial = { messages: calling("u", { a: 1 }) };
  const message = failure(() => assertCalledTool(partial as never, "t"));
  assertEquals(
    message,
    'Expected a call to t, but t was never called.\nCalls made:\n  u {"a":1}',
  );
});

Deno.test("agentMatchers explain each check under .not", async () => {
  const messages = calling("t", { a: 1 });
  const called = await agentMatchers.toHaveCalledTool.call({ isNot: true }, messages, "t");
  assert(called.pass);
  assertEquals(
    called.message(),
    'Expected no call to t, but it was called.\nCalls made:\n  t {"a":1}\n\nTranscript:\n  assistant calls t [call_1] {"a":1}',
  );
  const budget = { spent: () => "0.5" };
  const spent = agentMatchers.toHaveSpent.call({ isNot: true }, budget, "0.5");
  assert(spent.pass);
  assertEquals(spent.message(), "Expected the budget not to have spent $0.500000, but it has.");
  const llm = FakeLLM.script([{ content: "a" }]);
  await llm.complete({ model: "m", system: "", user: "q" });
  const used = agentMatchers.toHaveUsedAllTurns.call({ isNot: true }, llm);
  assert(used.pass);
  assertStringIncludes(
    used.message(),
    "Expected FakeLLM to have turns left, but every scripted turn was used.\n\nTranscript:\n",
  );
  const contains = await agentMatchers.toHaveTranscriptContaining.call(
    { isNot: true },
    messages,
    "calls t",
  );
  assert(contains.pass);
  assertStringIncludes(contains.message(), 'Expected the transcript not to contain "calls t".');
});

Deno.test("assertStopReason() names the reasons it knows and refuses what has none", () => {
  assertThrows(
    () => assertStopReason({ stopReason: "stop" } as never, "done" as never),
    TypeError,
    'assertStopReason needs one of "stop", "max_iterations", "length", "halted", "error"; got "done"',
  );
  for (const [subject, got] of [[null, "null"], [5, "number"], [{}, "an object (Object)"]]) {
    assertThrows(
      () => assertStopReason(subject as never, "stop"),
      TypeError,
      `assertStopReason needs an AgentResult or a Run; got ${got}`,
    );
  }
});

Deno.test("assertSpent() says how much was spent over how many calls and tokens", () => {
  const budget = (extra: object) => ({ spent: () => "0.000300", ...extra });
  const says = (subject: object) => failure(() => assertSpent(subject, "0.0001"));
  assertEquals(
    says(budget({ calls: 2, tokens: 30 })),
    "Expected the budget to have spent $0.000100, but it spent $0.000300 over 2 call(s), 30 token(s).",
  );
  assertStringIncludes(says(budget({ calls: 2 })), "spent $0.000300 over 2 call(s).");
  assertStringIncludes(says(budget({ tokens: 30 })), "spent $0.000300 over 30 token(s).");
  assertStringIncludes(says(budget({ calls: "2" })), "spent $0.000300.");
});

Deno.test("assertSpent() reads an amount exactly, with a $ in front and spaces around", () => {
  const spending = (amount: string) => ({ spent: () => amount });
  assertSpent(spending("12.5"), " $12.50 ");
  assertSpent(spending("1"), "1");
  assertSpent(spending("1.000000"), "1");
  assertSpent(spending("0.1"), "0.10000000");
  assertSpent(spending("0.1"), 0.1);
  // More than six decimals never rounds to a match.
  assertThrows(() => assertSpent(spending("0.0000001"), "0.0000002"), AssertionError);
  assertThrows(() => assertSpent(spending("0.000000"), "0.0000001"), AssertionError);
  for (const bad of ["abc0.10", "0.10abc", "0.5$", "1.", ".5", "-1"]) {
    assertThrows(
      () => assertSpent(spending("0"), bad),
      TypeError,
      `assertSpent needs a decimal amount such as "0.000100", got ${JSON.stringify(bad)}`,
    );
  }
  assertThrows(
    () => assertSpent(spending("0"), -1),
    RangeError,
    "needs a non-negative amount, got -1",
  );
  assertThrows(() => assertSpent(spending("0"), NaN), RangeError, "got NaN");
  assertThrows(
    () => assertSpent(spending("0"), true as never),
    TypeError,
    "assertSpent needs an amount as a string or number, got boolean",
  );
});

Deno.test("assertSpent() names what it got instead of a budget", () => {
  const cases: [unknown, string][] = [
    [null, "null"],
    [undefined, "undefined"],
    [[], "an array"],
    [{}, "an object (Object)"],
    [Object.create(null), "an object (no prototype)"],
    [new Map(), "an object (Map)"],
    [5, "number"],
    [{ spent: 1 }, "an object (Object)"],
  ];
  for (const [subject, got] of cases) {
    assertThrows(
      () => assertSpent(subject, 0),
      TypeError,
      `assertSpent needs a Budget (anything with spent()); got ${got}`,
    );
  }
});

Deno.test("assertUsedAllTurns() reads unusedTurns or unusedAnswers, and names the double", () => {
  const bare = Object.assign(Object.create(null), { unusedTurns: 2 });
  assertStringIncludes(
    failure(() => assertUsedAllTurns(bare)),
    "Expected the double to have used every scripted turn, but 2 were never used",
  );
  class Asker {
    unusedAnswers = 1;
  }
  assertStringIncludes(failure(() => assertUsedAllTurns(new Asker())), "Expected Asker to have");
  assertUsedAllTurns({ unusedAnswers: 0 });
  for (const subject of [null, {}, { unusedAnswers: "2" }, { unusedTurns: "2" }]) {
    assertThrows(
      () => assertUsedAllTurns(subject),
      TypeError,
      "assertUsedAllTurns needs a scripted double",
    );
  }
});

Deno.test("assertTranscriptContains() names itself when the subject cannot be rendered", () => {
  assertThrows(
    () => assertTranscriptContains(5 as never, "x"),
    TypeError,
    "assertTranscriptContains: Cannot make a transcript of",
  );
  assertThrows(
    () => assertTranscriptContains([], 5 as never),
    TypeError,
    "assertTranscriptContains needs the text to look for, got number",
  );
  // An error that is not about the subject's type passes through as it is.
  const broken = [{
    get role(): string {
      throw new RangeError("unreadable");
    },
  }];
  const error = assertThrows(() => assertTranscriptContains(broken as never, "x"), RangeError);
  assertEquals(error.message, "unreadable");
});
