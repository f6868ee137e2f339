// The misbehave kinds as chaos faults: each serves its builder's own turn,
// reads as its call, and picks (or needs) a tool from the request.
import { assertEquals, assertStrictEquals } from "@std/assert";
import * as fc from "fast-check";
import type { JsonSchema, ToolSpec } from "@agentkit/testing/ports";
import { misbehave, MISBEHAVIOUR_KINDS, misbehaviourOf } from "@agentkit/testing/testing";
import { TURN_FAULTS, UNKNOWN_TOOL } from "../../../testing/chaos/_turn_faults.ts";
import type { FaultCall } from "../../../testing/chaos/_fault_kit.ts";

const spec = (name: string, parameters?: JsonSchema): ToolSpec => ({
  name,
  description: "",
  parameters: parameters ?? { type: "object" },
});
const call = (tools: readonly ToolSpec[], n = 2): FaultCall => ({
  n,
  tools,
  sleep: () => Promise.resolve(),
  stopped: new Promise(() => {}),
});
const TOOLS = [
  spec("lookup", { type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
  spec("count", { type: "object", properties: { n: { type: "integer" } } }),
];

Deno.test("TURN_FAULTS has every misbehave kind, in MISBEHAVIOUR_KINDS's order", () => {
  assertEquals(Object.keys(TURN_FAULTS), [...MISBEHAVIOUR_KINDS]);
});

Deno.test("each kind serves its builder's marked turn, its source, and the arguments in between", () => {
  const expected: Record<string, [string, string]> = {
    invalidToolJson: ['misbehave.invalidToolJson("lookup")', '"lookup"'],
    schemaViolatingArgs: [
      'misbehave.schemaViolatingArgs("lookup", {"q":12345})',
      '"lookup", {"q":12345}',
    ],
    unknownTool: ["misbehave.unknownTool()", ""],
    duplicateCallIds: ['misbehave.duplicateCallIds("lookup")', '"lookup"'],
    lengthMidToolCall: ['misbehave.lengthMidToolCall("lookup")', '"lookup"'],
    emptyAnswer: ["misbehave.emptyAnswer()", ""],
    refusal: ["misbehave.refusal()", ""],
    contentFilter: ["misbehave.contentFilter()", ""],
    reasoningOnly: ["misbehave.reasoningOnly()", ""],
    malformedToolCall: ["misbehave.malformedToolCall()", ""],
  };
  for (const kind of MISBEHAVIOUR_KINDS) {
    const served = TURN_FAULTS[kind].serve({ tool: 0 }, call(TOOLS))!;
    const [source, args] = expected[kind];
    assertEquals([kind, served.source, served.args], [kind, source, args]);
    assertEquals(misbehaviourOf(served.turn), { kind, source });
    const built = new Function("misbehave", `return ${source};`)(misbehave);
    assertEquals(served.turn, built, `${kind}: the turn is what its source builds`);
  }
});

Deno.test("a kind that calls a tool picks it by the drawn index, modulo the tools offered", () => {
  for (const kind of ["invalidToolJson", "duplicateCallIds", "lengthMidToolCall"] as const) {
    const pick = (tool: number) =>
      TURN_FAULTS[kind].serve({ tool }, call(TOOLS))!.turn.toolCalls![0].name;
    assertEquals([pick(0), pick(1), pick(2), pick(3)], ["lookup", "count", "lookup", "count"]);
    assertStrictEquals(TURN_FAULTS[kind].serve({ tool: 0 }, call([])), undefined);
  }
  assertStrictEquals(TURN_FAULTS.schemaViolatingArgs.serve({ tool: 0 }, call([])), undefined);
});

Deno.test("schemaViolatingArgs gives the first typed property (the required one first) the wrong type", () => {
  const wrong = (parameters: JsonSchema | undefined) => {
    const tool = { ...spec("t"), parameters } as ToolSpec;
    return TURN_FAULTS.schemaViolatingArgs.serve({ tool: 0 }, call([tool]))?.turn.toolCalls?.[0]
      .args;
  };
  const typed = (type: string) => ({ type: "object", properties: { v: { type } } });
  assertEquals(wrong(typed("string")), { v: 12345 });
  assertEquals(wrong(typed("number")), { v: "not a number" });
  assertEquals(wrong(typed("integer")), { v: "not a number" });
  assertEquals(wrong(typed("boolean")), { v: "not a boolean" });
  assertEquals(wrong(typed("array")), { v: "not an array" });
  assertEquals(wrong(typed("object")), { v: "not an object" });
  assertEquals(
    wrong({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "boolean" } },
      required: ["b"],
    }),
    { b: "not a boolean" },
  );
  assertEquals(
    wrong({ type: "object", properties: { a: { type: "string" } }, required: [] }),
    { a: 12345 },
  );
  // Nothing typed to break: the fault does not apply to this call.
  assertStrictEquals(wrong(typed("null")), undefined);
  assertStrictEquals(wrong({ type: "object", properties: {} }), undefined);
  assertStrictEquals(wrong({ type: "object" }), undefined);
  assertStrictEquals(wrong(undefined), undefined);
});

Deno.test("unknownTool calls a name nobody offered, even when an agent offers the default one", () => {
  const name = (tools: readonly ToolSpec[]) =>
    TURN_FAULTS.unknownTool.serve({}, call(tools))!.turn.toolCalls![0].name;
  assertEquals(name(TOOLS), UNKNOWN_TOOL);
  assertEquals(name([...TOOLS, spec(UNKNOWN_TOOL)]), `${UNKNOWN_TOOL}_2`);
  assertEquals(
    TURN_FAULTS.unknownTool.serve({}, call([spec(UNKNOWN_TOOL)]))!.source,
    `misbehave.unknownTool("${UNKNOWN_TOOL}_2")`,
  );
});

Deno.test("each kind's parameters are what serve() reads: a tool index, or none", () => {
  for (const kind of MISBEHAVIOUR_KINDS) {
    const drawn = fc.sample(TURN_FAULTS[kind].params(fc), { numRuns: 50, seed: 1 });
    const keys = [...new Set(drawn.flatMap((p) => Object.keys(p)))];
    const needsTool = [
      "invalidToolJson",
      "schemaViolatingArgs",
      "duplicateCallIds",
      "lengthMidToolCall",
    ]
      .includes(kind);
    assertEquals(keys, needsTool ? ["tool"] : [], kind);
    if (needsTool) {
      const tools = drawn.map((p) => p.tool as number);
      assertEquals(tools.every((t) => Number.isInteger(t) && t >= 0 && t <= 7), true);
      assertEquals(new Set(tools).size > 1, true, "more than one tool is drawn");
    }
  }
});
