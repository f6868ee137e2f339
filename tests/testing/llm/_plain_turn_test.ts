// The hand-written turn checks against the zod schema they stand in for:
// what plainTurn takes, zod takes unchanged; what readyTurn takes, every
// check of parseTurn passes; and parseTurn, fast paths and all, answers and
// fails exactly as the zod-only check does (the same turn, the same error
// class and message). Generated turns mix valid and invalid values at every
// key, unknown and undefined keys, and turns misbehave built.
import { assert, assertEquals, assertStrictEquals, assertThrows, equal } from "@std/assert";
import fc from "fast-check";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, InvalidScript, misbehave, parseTurn, type Turn } from "@agentkit/testing/testing";
import { plainTurn, readyTurn } from "../../../testing/llm/_plain_turn.ts";
import { checkTurn, schemaTurn, turnSchemas } from "../../../testing/llm/_turn_check.ts";

const SEED = 20261202;
const RUNS = 3_000;

class Box {
  constructor(readonly host: string) {}
}

const text = fc.string({ maxLength: 3 });
// Values no key takes as it is, or only some do.
const odd = fc.constantFrom<unknown>(
  null,
  1,
  -1,
  1.5,
  NaN,
  Infinity,
  2 ** 53,
  true,
  "",
  "x",
  [],
  ["a"],
  {},
  { a: 1 },
  10n,
);
const jsonLeaf = fc.oneof(
  text,
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const args = fc.oneof(
  fc.dictionary(fc.constantFrom("q", "host", "n"), jsonLeaf, { maxKeys: 3 }),
  fc.dictionary(fc.constantFrom("q", "host"), fc.array(jsonLeaf, { maxLength: 2 }), { maxKeys: 2 }),
  fc.constantFrom<unknown>(
    { deep: { n: 1 } },
    { n: NaN },
    { n: Infinity },
    { big: 1n },
    { f: () => 1 },
    { box: new Box("a") },
    { at: new Date(0) },
    { nested: { n: NaN } },
    new Map(),
    Object.create(null),
    new Box("a"),
    [],
    null,
    undefined,
    "x",
  ),
);
const id = fc.oneof(fc.constantFrom("c1", "c2", "lookup", ""), odd);
const call = fc.oneof(
  fc.record(
    {
      id,
      name: id,
      args,
      rawArgs: fc.oneof(fc.constant('{"q":1}'), odd),
      argz: jsonLeaf,
    },
    { requiredKeys: [] },
  ),
  fc.record({ id: fc.constantFrom("c1", "c2"), name: fc.constantFrom("lookup", "fs_read"), args }),
  fc.constantFrom<unknown>(toolCall("c1", "lookup", { host: "a" }), null, "c1", []),
);
const count = fc.oneof(fc.nat(3), odd, fc.constant(2 ** 53 - 1));
const usage = fc.oneof(
  fc.record(
    {
      inputTokens: count,
      outputTokens: count,
      cachedInputTokens: fc.oneof(count, fc.constant(undefined)),
      costUsd: fc.oneof(fc.constantFrom(0, 0.5, -1, Infinity, NaN), odd),
      prompt_tokens: fc.nat(3),
    },
    { requiredKeys: [] },
  ),
  fc.record({ inputTokens: fc.nat(3), outputTokens: fc.nat(3) }),
  odd,
);
const delay = fc.oneof(fc.constantFrom(0, 5, 0.5, -1, NaN, Infinity, "5"), odd);

// A turn, every key optional; an explicit undefined at a key is a case too.
const turn: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    content: fc.oneof(text, fc.constant("ab"), odd, fc.constant(undefined)),
    chunks: fc.oneof(
      fc.array(fc.constantFrom("a", "b", ""), { maxLength: 3 }),
      fc.constant([, "a"]),
      fc.array(odd, { maxLength: 2 }),
      odd,
    ),
    toolCalls: fc.oneof(fc.array(call, { maxLength: 2 }), odd, fc.constant(undefined)),
    usage,
    finishReason: fc.oneof(
      fc.constantFrom("stop", "tool_calls", "length", "content_filter", "error", "bogus"),
      odd,
    ),
    error: fc.oneof(fc.constantFrom<unknown>("boom", new Error("boom"), { message: "boom" }), odd),
    failAfterChunks: count,
    gate: fc.constantFrom<unknown>(Promise.resolve(), { then: () => {} }, {}, null, 1),
    stall: fc.oneof(fc.boolean(), odd),
    model: fc.oneof(fc.constantFrom("m-1", ""), odd),
    refusal: fc.oneof(text, odd),
    reasoning: fc.oneof(text, odd),
    firstChunkDelayMs: delay,
    chunkDelayMs: delay,
    contnet: fc.oneof(text, fc.constant(undefined)),
    tool_calls: fc.constant(undefined),
  },
  { requiredKeys: [] },
);

// Turns a valid test script is made of: the fast path must take them all.
const validTurn: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ content: text }),
  fc.record({
    toolCalls: fc.array(
      fc.record({
        id: fc.constantFrom("c1", "c2"),
        name: fc.constantFrom("lookup", "fs_read"),
        args: fc.dictionary(fc.constantFrom("q", "host", "n"), jsonLeaf, { maxKeys: 3 }),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  fc.record(
    {
      content: fc.constant("ab"),
      chunks: fc.constant(["a", "b"]),
      usage: fc.record({ inputTokens: fc.nat(9), outputTokens: fc.nat(9) }),
      finishReason: fc.constantFrom("stop", "length"),
      failAfterChunks: fc.constantFrom(0, 1, 2),
      model: fc.constant("m-1"),
      reasoning: text,
      firstChunkDelayMs: fc.nat(5),
      chunkDelayMs: fc.nat(5),
    },
    { requiredKeys: ["content", "chunks"] },
  ),
  fc.record({ refusal: text, error: fc.constant("boom"), stall: fc.boolean() }),
);

// A valid turn with one key, known or not, set to undefined.
const withUndefined = fc.tuple(
  validTurn,
  fc.constantFrom(
    "content",
    "chunks",
    "toolCalls",
    "usage",
    "finishReason",
    "error",
    "failAfterChunks",
    "gate",
    "stall",
    "model",
    "refusal",
    "reasoning",
    "firstChunkDelayMs",
    "chunkDelayMs",
    "contnet",
  ),
).map(([t, key]) => ({ ...t, [key]: undefined }));

const marked: readonly Turn[] = [
  misbehave.refusal(),
  misbehave.malformedToolCall(),
  misbehave.invalidToolJson("lookup"),
  misbehave.unknownTool(),
  misbehave.lengthMidToolCall("lookup"),
  misbehave.emptyAnswer(),
];

type Outcome = { turn: unknown } | { error: string; message: string };

function outcome(f: () => unknown): Outcome {
  try {
    return { turn: f() };
  } catch (e) {
    // Only the check's own refusal: anything else is a failure here.
    if (!(e instanceof InvalidScript)) throw e;
    return { error: e.constructor.name, message: e.message };
  }
}

// The check with no hand-written path: zod, then the checks across keys.
function zodOnly(value: Record<string, unknown>, where: string): Turn {
  return checkTurn(schemaTurn(value, where), where);
}

// Keys set to undefined dropped (zod may keep or drop them), so a turn and
// zod's copy of it compare by what they say.
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(defined);
  if (value === null || typeof value !== "object") return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = defined(v);
  return out;
}

Deno.test("plainTurn: a turn it takes, zod takes too, unchanged", () => {
  let taken = 0;
  fc.assert(
    fc.property(fc.oneof(turn, validTurn), (t) => {
      if (plainTurn(t) === undefined) return;
      taken++;
      const r = turnSchemas().turn.safeParse(t);
      assert(r.success, `zod refuses what plainTurn took: ${Deno.inspect(t)}`);
      assertEquals(defined(r.data), defined(t));
    }),
    { seed: SEED, numRuns: RUNS },
  );
  assert(taken > RUNS / 50, `the generator reaches the fast path (${taken} of ${RUNS})`);
});

Deno.test("readyTurn: a turn it takes is one plainTurn takes and every check across keys passes", () => {
  fc.assert(
    fc.property(fc.oneof(turn, validTurn), (t) => {
      if (readyTurn(t) === undefined) return;
      assertStrictEquals(readyTurn(t), t);
      assertStrictEquals(plainTurn(t), t);
      assertStrictEquals(checkTurn(t as Turn, "turn 1"), t);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

Deno.test("readyTurn takes every turn of a valid script, as given", () => {
  fc.assert(
    fc.property(validTurn, (t) => {
      const ok = zodOnly(t, "turn 1") !== undefined;
      assert(ok);
      assertStrictEquals(readyTurn(t), t, Deno.inspect(t));
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

Deno.test("parseTurn answers and fails as the zod-only check does: the same turn, the same error", () => {
  let fast = 0;
  let refused = 0;
  fc.assert(
    fc.property(
      fc.oneof(turn, validTurn, withUndefined),
      fc.constantFrom("turn 1", "turn 7"),
      (t, where) => {
        const got = outcome(() => parseTurn(t, where));
        const want = outcome(() => zodOnly(t, where));
        if ("error" in want) {
          refused++;
          assertEquals(got, want, Deno.inspect(t));
          return;
        }
        if (!("turn" in got)) {
          throw new Error(`parseTurn refused what zod took: ${Deno.inspect(got)}`);
        }
        assertEquals(defined(got.turn), defined(want.turn));
        // A turn zod takes unchanged is taken as given, not copied.
        const z = turnSchemas().turn.safeParse(t);
        if (z.success && equal(defined(z.data), defined(t))) assertStrictEquals(got.turn, t);
        if (readyTurn(t) !== undefined) {
          fast++;
          assertStrictEquals(got.turn, t);
        }
      },
    ),
    { seed: SEED, numRuns: RUNS },
  );
  assert(fast > RUNS / 10 && refused > RUNS / 10, `both paths reached (${fast}, ${refused})`);
});

Deno.test("parseTurn takes a turn misbehave built as it is, whatever the checks would say", () => {
  for (const m of marked) assertStrictEquals(parseTurn(m, "turn 1"), m);
  // A copy loses the mark and is checked like any other turn.
  const copy = { ...misbehave.malformedToolCall() };
  assertThrows(() => parseTurn(copy, "turn 1"), InvalidScript, "turn 1");
});

Deno.test("readyTurn leaves to the full check what it cannot vouch for", async (t) => {
  const cases: Record<string, unknown> = {
    "null": null,
    "a string": "hi",
    "an array": [{ content: "a" }],
    "an unknown key": { contnet: "a" },
    "an unknown key set to undefined": { content: "a", contnet: undefined },
    "a known key set to undefined": { content: undefined },
    "nested arguments": { toolCalls: [toolCall("c1", "q", { deep: { n: 1 } })] },
    "arguments that are a Map": { toolCalls: [{ id: "c1", name: "q", args: new Map() }] },
    "arguments that are an array": { toolCalls: [{ id: "c1", name: "q", args: [] }] },
    "arguments with NaN": { toolCalls: [{ id: "c1", name: "q", args: { n: NaN } }] },
    "arguments with Infinity": { toolCalls: [{ id: "c1", name: "q", args: { n: Infinity } }] },
    "arguments with a function": { toolCalls: [{ id: "c1", name: "q", args: { f: () => 1 } }] },
    "a tool call without args": { toolCalls: [{ id: "c1", name: "q" }] },
    "a tool call with an extra key": { toolCalls: [{ id: "c1", name: "q", args: {}, x: 1 }] },
    "a tool call with rawArgs set to undefined": {
      toolCalls: [{ id: "c1", name: "q", args: {}, rawArgs: undefined }],
    },
    "a tool call with a bad rawArgs": {
      toolCalls: [{ id: "c1", name: "q", args: {}, rawArgs: 1 }],
    },
    "a tool call that is an array": {
      toolCalls: [Object.assign([], { id: "c1", name: "q", args: {} })],
    },
    "a tool call that is null": { toolCalls: [null] },
    "a tool call with an empty id": { toolCalls: [{ id: "", name: "q", args: {} }] },
    "a tool call with an empty name": { toolCalls: [{ id: "c1", name: "", args: {} }] },
    "a tool call with a numeric id": { toolCalls: [{ id: 1, name: "q", args: {} }] },
    "a tool call with a numeric name": { toolCalls: [{ id: "c1", name: 1, args: {} }] },
    "arguments that are null": { toolCalls: [{ id: "c1", name: "q", args: null }] },
    "toolCalls not an array": { toolCalls: { id: "c1" } },
    "content not a string": { content: 1 },
    "chunks with a hole": { chunks: [, "a"] },
    "chunks not an array": { chunks: "ab" },
    "chunks whose join is not the content": { content: "ab", chunks: ["a"] },
    "a refusal with content": { refusal: "no", content: "a" },
    "a refusal with chunks": { refusal: "no", chunks: [] },
    "a refusal with tool calls": { refusal: "no", toolCalls: [toolCall("c1", "q")] },
    "a refusal not a string": { refusal: 1 },
    "failAfterChunks past the chunks": { content: "a", failAfterChunks: 2 },
    "failAfterChunks not a count": { failAfterChunks: -1 },
    "failAfterChunks past the safe integers": { failAfterChunks: 2 ** 53 },
    "a usage count past the safe integers": { usage: { inputTokens: 2 ** 53, outputTokens: 0 } },
    "a usage with an unknown key": { usage: { inputTokens: 1, outputTokens: 0, x: 1 } },
    "a usage without outputTokens": { usage: { inputTokens: 1 } },
    "a usage that is null": { usage: null },
    "a usage with a bad cachedInputTokens": {
      usage: { inputTokens: 1, outputTokens: 0, cachedInputTokens: -1 },
    },
    "a usage with a bad reasoningTokens": {
      usage: { inputTokens: 1, outputTokens: 0, reasoningTokens: 0.5 },
    },
    "a usage with a bad cacheWriteInputTokens": {
      usage: { inputTokens: 1, outputTokens: 0, cacheWriteInputTokens: -1 },
    },
    "a usage with an infinite cost": {
      usage: { inputTokens: 1, outputTokens: 0, costUsd: Infinity },
    },
    "a bad finishReason": { finishReason: "done" },
    "an error that is neither text nor an Error": { error: { message: "x" } },
    "a gate that is null": { gate: null },
    "a gate without then": { gate: {} },
    "a stall that is not boolean": { stall: "yes" },
    "an empty model": { model: "" },
    "a model not a string": { model: 1 },
    "reasoning not a string": { reasoning: 1 },
    "a negative delay": { firstChunkDelayMs: -1 },
    "an infinite delay": { chunkDelayMs: Infinity },
    "a delay that is text": { chunkDelayMs: "5" },
  };
  for (const [name, value] of Object.entries(cases)) {
    await t.step(name, () => assertEquals(readyTurn(value), undefined));
  }
});

Deno.test("readyTurn takes each key of a plain turn at its edge", () => {
  const gate = Promise.resolve();
  const edge = {
    content: "ab",
    chunks: ["a", "b"],
    toolCalls: [
      {
        id: "c1",
        name: "fs_read",
        args: { path: "a", n: 0, ok: false, none: null },
        rawArgs: "{}",
      },
      { id: "c2", name: "fs_list", args: Object.create(null) },
    ],
    usage: {
      inputTokens: 0,
      outputTokens: 2 ** 53 - 1,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      reasoningTokens: 2 ** 53 - 1,
      costUsd: 0,
    },
    finishReason: "content_filter",
    error: new Error("x"),
    failAfterChunks: 2,
    gate,
    stall: false,
    model: "m",
    reasoning: "",
    firstChunkDelayMs: 0,
    chunkDelayMs: 0.5,
  };
  assertStrictEquals(readyTurn(edge), edge);
  for (const finishReason of ["stop", "tool_calls", "length", "content_filter", "error"]) {
    const t = { finishReason };
    assertStrictEquals(readyTurn(t), t);
  }
  const refusal = { refusal: "no", toolCalls: [] };
  assertStrictEquals(readyTurn(refusal), refusal);
  const noChunks = { failAfterChunks: 0 };
  assertStrictEquals(readyTurn(noChunks), noChunks);
  const thenable = { gate: { then: () => {} } };
  assertStrictEquals(readyTurn(thenable), thenable);
});

Deno.test("FakeLLM.script checks every turn when built: a hole or a mistyped key fails at once", () => {
  assertThrows(
    () => FakeLLM.script([{ content: "a" }, { contnet: "b" } as Turn]),
    InvalidScript,
    'unknown key "contnet" in turn 2; did you mean "content"?',
  );
  assertThrows(
    // deno-lint-ignore no-sparse-arrays
    () => FakeLLM.script([, "b"] as unknown as string[]),
    InvalidScript,
    "turn 1 must be a turn object or a string, got undefined",
  );
  assertThrows(
    () => FakeLLM.script([{ content: "a", contnet: undefined } as Turn]),
    InvalidScript,
    'unknown key "contnet" in turn 1',
  );
});
