import { assertEquals, assertStrictEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { InvalidScript, parseTurn, type Turn } from "@agentkit/testing/testing";

// A turn that uses every key, each with a value at the edge of what is allowed
// (zero counts, zero delays, a zero cost, the empty text).
function everyKey(): Record<string, unknown> {
  return {
    content: "ab",
    chunks: ["a", "b"],
    toolCalls: [
      { id: "c1", name: "fs_read", args: { path: "a" }, rawArgs: '{"path":"a"}' },
      { id: "c2", name: "fs_list", args: {} },
    ],
    usage: { inputTokens: 0, outputTokens: 3, cachedInputTokens: 0, costUsd: 0 },
    finishReason: "length",
    error: "Hit max tokens",
    failAfterChunks: 0,
    stall: false,
    model: "m-1",
    firstChunkDelayMs: 0,
    chunkDelayMs: 0,
    gate: Promise.resolve(),
  };
}

// A function carrying the given properties (a function's own `name` is not
// writable, so they are defined rather than assigned).
function callable(props: Record<string, unknown>): () => void {
  const f = () => {};
  for (const [key, value] of Object.entries(props)) {
    Object.defineProperty(f, key, { value, enumerable: true });
  }
  return f;
}

Deno.test("parseTurn() reads a string as the content of a turn", () => {
  assertEquals(parseTurn("hi", "turn 1"), { content: "hi" });
  assertEquals(parseTurn("", "turn 1"), { content: "" });
});

Deno.test("parseTurn() refuses what is not a turn object, naming what it got", async (t) => {
  const cases: Array<[string, unknown, string]> = [
    ["null", null, "got null"],
    ["an array", [{ content: "a" }], "got an array"],
    ["a number", 42, "got number"],
    ["undefined", undefined, "got undefined"],
    ["a boolean", true, "got boolean"],
  ];
  for (const [name, value, got] of cases) {
    await t.step(name, () => {
      const error = assertThrows(() => parseTurn(value, "turn 3"), InvalidScript);
      assertStringIncludes(error.message, "turn 3");
      assertStringIncludes(error.message, got);
    });
  }
});

Deno.test("parseTurn() takes a well-formed turn as given, without copying it", async (t) => {
  // The common turn skips zod (a cassette of a thousand lines parses in
  // microseconds); what comes back is the very object that was written.
  const turns: Array<[string, Record<string, unknown>]> = [
    ["every key at its edge", everyKey()],
    ["an Error as the error", { content: "a", error: new Error("boom"), finishReason: "error" }],
    ["the empty text", { content: "" }],
    ["keys set to undefined", { content: "a", model: undefined, usage: undefined }],
    ["a usage with undefined optional counts", {
      usage: { inputTokens: 1, outputTokens: 2, cachedInputTokens: undefined, costUsd: undefined },
    }],
    ["a fractional cost and large counts", {
      usage: { inputTokens: 198_000, outputTokens: 590, cachedInputTokens: 12, costUsd: 0.25 },
    }],
    ["a tool call built by toolCall()", { toolCalls: [toolCall("c1", "search", { q: "x" })] }],
    ["a tool-only turn", { toolCalls: [{ id: "c1", name: "n", args: { a: [1, { b: 2 }] } }] }],
    ["fractional delays", { chunks: ["a", "b"], firstChunkDelayMs: 0.5, chunkDelayMs: 250 }],
    ["a stalled stream", { chunks: ["a"], stall: true }],
    ["a cut after chunks", { chunks: ["a", "b", "c"], failAfterChunks: 3 }],
    ["a cut after the content", { content: "abc", failAfterChunks: 1 }],
    ["a gate that is a thenable", { content: "a", gate: { then: () => {} } }],
    ["each finish reason", { finishReason: "content_filter" }],
  ];
  for (const reason of ["stop", "tool_calls", "length", "content_filter", "error"]) {
    turns.push([`finish reason ${reason}`, { content: "a", finishReason: reason }]);
  }
  for (const [name, turn] of turns) {
    await t.step(name, () => assertStrictEquals(parseTurn(turn, "turn 1"), turn as Turn));
  }
});

Deno.test("parseTurn() fills what zod defaults when the turn leaves it out", () => {
  const turn = { toolCalls: [{ id: "c1", name: "fs_list" }] };
  assertEquals(parseTurn(turn, "turn 1"), { toolCalls: [{ id: "c1", name: "fs_list", args: {} }] });
  // The slow path takes every key the fast one does.
  const full = everyKey();
  const calls = full.toolCalls as Array<Record<string, unknown>>;
  full.toolCalls = [calls[0], { id: "c2", name: "fs_list" }];
  assertEquals(parseTurn(full, "turn 1"), { ...everyKey(), gate: full.gate } as Turn);
});

Deno.test("parseTurn() refuses a bad value at every key, with InvalidScript", async (t) => {
  const call = { id: "c1", name: "n", args: {} };
  const usage = { inputTokens: 1, outputTokens: 1 };
  const bad: Array<[string, Record<string, unknown>]> = [
    ["content not a string", { content: 42 }],
    ["model not a string", { model: 7 }],
    ["model empty", { model: "" }],
    ["chunks not an array", { chunks: "ab" }],
    ["a chunk not a string", { chunks: ["a", 1] }],
    ["toolCalls not an array", { toolCalls: call }],
    ["a tool call that is null", { toolCalls: [null] }],
    ["a tool call that is a string", { toolCalls: ["c1"] }],
    ["a tool call that is a function", { toolCalls: [callable(call)] }],
    ["a tool call with an unknown key", { toolCalls: [{ ...call, argz: {} }] }],
    ["one bad tool call after a good one", { toolCalls: [call, { ...call, id: "" }] }],
    ["a tool call with an empty id", { toolCalls: [{ ...call, id: "" }] }],
    ["a tool call with a numeric id", { toolCalls: [{ ...call, id: 1 }] }],
    ["a tool call with an empty name", { toolCalls: [{ ...call, name: "" }] }],
    ["a tool call with a numeric name", { toolCalls: [{ ...call, name: 1 }] }],
    ["a tool call with null args", { toolCalls: [{ ...call, args: null }] }],
    ["a tool call with string args", { toolCalls: [{ ...call, args: "{}" }] }],
    ["a tool call with array args", { toolCalls: [{ ...call, args: [] }] }],
    ["a tool call with numeric rawArgs", { toolCalls: [{ ...call, rawArgs: 1 }] }],
    ["usage null", { usage: null }],
    ["usage a number", { usage: 5 }],
    ["usage a function", { usage: callable(usage) }],
    ["usage with an unknown key", { usage: { ...usage, totalTokens: 2 } }],
    ["usage without outputTokens", { usage: { inputTokens: 1 } }],
    ["usage without inputTokens", { usage: { outputTokens: 1 } }],
    ["negative inputTokens", { usage: { ...usage, inputTokens: -1 } }],
    ["fractional outputTokens", { usage: { ...usage, outputTokens: 1.5 } }],
    ["negative cachedInputTokens", { usage: { ...usage, cachedInputTokens: -1 } }],
    ["fractional cachedInputTokens", { usage: { ...usage, cachedInputTokens: 0.5 } }],
    ["negative costUsd", { usage: { ...usage, costUsd: -0.01 } }],
    ["NaN costUsd", { usage: { ...usage, costUsd: NaN } }],
    ["infinite costUsd", { usage: { ...usage, costUsd: Infinity } }],
    ["costUsd as text", { usage: { ...usage, costUsd: "0.01" } }],
    ["an unknown finish reason", { finishReason: "done" }],
    ["a finish reason not a string", { finishReason: 1 }],
    ["error not a string or Error", { error: 500 }],
    ["error an error-like object", { error: { message: "boom" } }],
    ["negative failAfterChunks", { chunks: ["a"], failAfterChunks: -1 }],
    ["fractional failAfterChunks", { chunks: ["a"], failAfterChunks: 0.5 }],
    ["stall not a boolean", { stall: "yes" }],
    ["negative firstChunkDelayMs", { firstChunkDelayMs: -1 }],
    ["NaN firstChunkDelayMs", { firstChunkDelayMs: NaN }],
    ["infinite firstChunkDelayMs", { firstChunkDelayMs: Infinity }],
    ["firstChunkDelayMs as text", { firstChunkDelayMs: "5" }],
    ["negative chunkDelayMs", { chunkDelayMs: -1 }],
    ["NaN chunkDelayMs", { chunkDelayMs: NaN }],
    ["infinite chunkDelayMs", { chunkDelayMs: Infinity }],
    ["chunkDelayMs as text", { chunkDelayMs: "5" }],
    ["a gate that is not a promise", { gate: {} }],
    ["a gate that is null", { gate: null }],
    ["an unknown key", { contnet: "a" }],
  ];
  for (const [name, turn] of bad) {
    await t.step(name, () => {
      assertThrows(() => parseTurn(turn, "turn 2"), InvalidScript, "turn 2");
    });
  }
});

Deno.test("parseTurn() holds content and chunks to each other", async (t) => {
  await t.step("both given, the content must be the join", () => {
    assertThrows(
      () => parseTurn({ content: "ab", chunks: ["a", "c"] }, "turn 1"),
      InvalidScript,
      "join of chunks",
    );
    const turn = { content: "ac", chunks: ["a", "c"] };
    assertStrictEquals(parseTurn(turn, "turn 1"), turn);
  });
  await t.step("failAfterChunks may not pass the chunks there are", () => {
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ chunks: ["a"], failAfterChunks: 2 }, 1],
      [{ chunks: ["a"], content: "a", failAfterChunks: 2 }, 1],
      [{ content: "abc", failAfterChunks: 2 }, 1],
      [{ failAfterChunks: 1 }, 0],
      [{ content: "", failAfterChunks: 1 }, 0],
    ];
    for (const [turn, chunks] of cases) {
      const error = assertThrows(() => parseTurn(turn, "turn 4"), InvalidScript, "turn 4");
      assertStringIncludes(error.message, `has only ${chunks} chunk(s)`);
    }
    assertEquals(parseTurn({ failAfterChunks: 0 }, "turn 4"), { failAfterChunks: 0 });
  });
});

Deno.test("parseTurn: a tool call without an id shows the toolCall(id, name, args) shape, not zod's text", () => {
  const e = assertThrows(
    () => parseTurn({ toolCalls: [{ name: "f", args: {} }] }, "turn 1"),
    InvalidScript,
    "turn 1 toolCalls[0].id: is missing; every tool call needs an id",
  );
  assertStringIncludes(
    e.message,
    'a tool call is toolCall(id, name, args) from "@agentkit/testing/ports"',
  );
  assertStringIncludes(e.message, 'toolCall("c1", "search", { q: "x" })');
  assertEquals(e.message.includes("expected string, received undefined"), false, e.message);
});

Deno.test("parseTurn: an empty id or a missing name says so, with the shape", () => {
  const empty = assertThrows(
    () => parseTurn({ toolCalls: [{ id: "", name: "f" }] }, "turn 2"),
    InvalidScript,
    "turn 2 toolCalls[0].id: is empty",
  );
  assertStringIncludes(empty.message, "toolCall(id, name, args)");
  const noName = assertThrows(
    () => parseTurn({ toolCalls: [{ id: "c1" }] }, "turn 1"),
    InvalidScript,
    "turn 1 toolCalls[0].name: is missing; every tool call needs a name",
  );
  assertStringIncludes(noName.message, "toolCall(id, name, args)");
});

Deno.test("parseTurn: a bad turn whose tool calls are fine gets no tool-call hint", () => {
  const e = assertThrows(
    () => parseTurn({ toolCalls: [toolCall("c1", "f")], content: 42 }, "turn 1"),
    InvalidScript,
  );
  assertEquals(e.message.includes("toolCall(id, name, args)"), false, e.message);
});
