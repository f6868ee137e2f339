// Turns as FakeLLM.script source, and the reproduction of a run.
import { assertEquals } from "@std/assert";
import {
  ProviderError,
  ProviderResponseError,
  ProviderTimeoutError,
  RateLimitError,
} from "@agentkit/testing/ports";
import { FakeLLM, parseTurn } from "@agentkit/testing/testing";
import { reproduction, turnSource } from "../../../testing/chaos/_source.ts";

Deno.test("turnSource() writes a content-only turn as its string, any other as an object literal", () => {
  assertEquals(turnSource({ content: "It is 42." }), '"It is 42."');
  assertEquals(
    turnSource({
      content: "x",
      toolCalls: [{ id: "c1", name: "lookup", args: { q: "a" } }, {
        id: "c2",
        name: "lookup",
        args: {},
        rawArgs: '{"q": ',
      }],
      finishReason: "length",
      usage: { inputTokens: 3, outputTokens: 1 },
      failAfterChunks: 0,
      gate: new Promise(() => {}),
      stall: true,
    }),
    '{ content: "x", toolCalls: [{ id: "c1", name: "lookup", args: {"q":"a"} }, { id: "c2", name: "lookup", args: {}, rawArgs: "{\\"q\\": " }], finishReason: "length", usage: {"inputTokens":3,"outputTokens":1}, failAfterChunks: 0, gate: new Promise(() => {}), stall: true }',
  );
});

Deno.test("turnSource() writes a scripted error as the expression that makes it", () => {
  const cases: Array<[unknown, string]> = [
    ["boom", '"boom"'],
    [new Error("boom"), 'new Error("boom")'],
    [new TypeError("boom"), 'new Error("boom")'],
    [
      new RateLimitError("slow", { retryAfterMs: 250 }),
      'new RateLimitError("slow", { retryAfterMs: 250 })',
    ],
    [new RateLimitError("slow"), 'new RateLimitError("slow")'],
    [new ProviderTimeoutError("late"), 'new ProviderTimeoutError("late")'],
    [
      new ProviderError("bad", { retryable: true, status: 503 }),
      'new ProviderError("bad", { retryable: true, status: 503 })',
    ],
    [
      new ProviderResponseError("cut", { phase: "mid_stream" }),
      'new ProviderResponseError("cut", { retryable: false, phase: "mid_stream" })',
    ],
  ];
  for (const [error, source] of cases) {
    assertEquals(turnSource({ error: error as Error }), `{ error: ${source} }`);
  }
});

Deno.test("reproduction() lists the played turns in call order, marks faults, and notes tool faults", () => {
  const text = reproduction({
    served: [
      { turn: { toolCalls: [{ id: "c1", name: "lookup", args: {} }] } },
      undefined,
      {
        turn: { content: "" },
        fault: { label: "call 3: emptyAnswer()" },
      },
      { turn: {}, source: "{ gate: new Promise(() => {}) }", fault: { label: "call 4: stall()" } },
    ],
    injected: [
      { target: "model", label: "call 3: emptyAnswer()" },
      { target: "tool", label: 'tool call 1: toolError("lookup")' },
    ],
  });
  assertEquals(
    text,
    [
      '// tool call 1: toolError("lookup"): this fault hit the tool; make your tool fail that call to replay it',
      "FakeLLM.script([",
      '  { toolCalls: [{ id: "c1", name: "lookup", args: {} }] },',
      '  "", // call 3: emptyAnswer()',
      "  { gate: new Promise(() => {}) }, // call 4: stall()",
      "])",
    ].join("\n"),
  );
  // It is a script: every turn parses.
  const llm = new Function("FakeLLM", `return (\n${text}\n);`)(FakeLLM) as FakeLLM;
  assertEquals(llm.unusedTurns, 3);
  parseTurn(JSON.parse('""'), "x");
});
