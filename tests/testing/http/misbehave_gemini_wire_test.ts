// Each misbehaviour on the Gemini wire, read by @google/genai unchanged,
// blocking and streamed: what the API would send for it (sources in
// testing/http/_gemini_wire.ts).
import {
  type Candidate,
  FinishReason,
  type GenerateContentResponse,
  GoogleGenAI,
  HarmCategory,
} from "@google/genai";
import { assert, assertEquals } from "@std/assert";
import {
  FakeLLM,
  FakeProvider,
  misbehave,
  MISBEHAVIOUR_KINDS,
  type Turn,
} from "@agentkit/testing/testing";

const model = "gemini-3-pro-preview";
const config = {
  tools: [{
    functionDeclarations: [{
      name: "lookup",
      parametersJsonSchema: { type: "object", properties: {} },
    }],
  }],
};

// The turns as built: the script check would refuse two of them (a nameless
// call, bad JSON) were strictTools on.
function provider(turn: Turn): FakeProvider {
  return new FakeProvider({
    llm: FakeLLM.script([turn], { repeatLast: true, strictTools: false }),
  });
}

interface Read {
  readonly candidate: Candidate;
  readonly usage: unknown;
}

// The one candidate, blocking; and streamed, its chunks as the SDK yields them.
async function both(turn: Turn): Promise<{ blocking: Read; chunks: GenerateContentResponse[] }> {
  const p = provider(turn);
  const ai = new GoogleGenAI({
    apiKey: "AIza-test",
    httpOptions: { baseUrl: "https://generativelanguage.googleapis.com", fetch: p.fetch },
  });
  const res = await ai.models.generateContent({ model, contents: "go", config });
  const chunks: GenerateContentResponse[] = [];
  for await (const c of await ai.models.generateContentStream({ model, contents: "go", config })) {
    chunks.push(c);
  }
  assertEquals(p.rejections, []);
  return { blocking: { candidate: res.candidates![0], usage: res.usageMetadata }, chunks };
}

const last = (chunks: GenerateContentResponse[]): Candidate => chunks.at(-1)!.candidates![0];
const parts = (chunks: GenerateContentResponse[]) =>
  chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);

Deno.test("gemini misbehave: a refusal and the content filter are a SAFETY block with no content", async () => {
  for (const turn of [misbehave.refusal("No."), misbehave.contentFilter()]) {
    const { blocking, chunks } = await both(turn);
    for (const c of [blocking.candidate, last(chunks)]) {
      assertEquals(c.finishReason, FinishReason.SAFETY);
      assertEquals(c.content, undefined);
      const blocked = c.safetyRatings!.filter((r) => r.blocked);
      assertEquals(blocked.map((r) => r.category), [HarmCategory.HARM_CATEGORY_DANGEROUS_CONTENT]);
    }
    // The refusal's text has no place on this wire.
    assertEquals(parts(chunks).some((p) => p.text === "No."), false);
  }
});

Deno.test("gemini misbehave: a nameless call and arguments that are not JSON end MALFORMED_FUNCTION_CALL, no call sent", async () => {
  for (const turn of [misbehave.malformedToolCall(), misbehave.invalidToolJson("lookup")]) {
    const { blocking, chunks } = await both(turn);
    for (const c of [blocking.candidate, last(chunks)]) {
      assertEquals([c.finishReason, c.content], [FinishReason.MALFORMED_FUNCTION_CALL, undefined]);
    }
    assertEquals(parts(chunks).filter((p) => p.functionCall), []);
  }
});

Deno.test("gemini misbehave: a call cut by the token limit is not sent; the turn ends MAX_TOKENS", async () => {
  const { blocking, chunks } = await both(misbehave.lengthMidToolCall("lookup"));
  assertEquals(blocking.candidate.finishReason, FinishReason.MAX_TOKENS);
  assertEquals(blocking.candidate.content?.parts, [{ text: "" }]);
  assertEquals(last(chunks).finishReason, FinishReason.MAX_TOKENS);
  assertEquals(parts(chunks).filter((p) => p.functionCall), []);
});

Deno.test("gemini misbehave: thinking with no answer is a thought part, then empty text, STOP", async () => {
  const thought = "Which tool first?";
  const { blocking, chunks } = await both(misbehave.reasoningOnly(thought));
  assertEquals(blocking.candidate.content?.parts, [{ text: thought, thought: true }, { text: "" }]);
  assertEquals(blocking.candidate.finishReason, FinishReason.STOP);
  assertEquals(parts(chunks).filter((p) => p.thought), [{ text: thought, thought: true }]);
  assertEquals(parts(chunks).filter((p) => !p.thought).map((p) => p.text).join(""), "");
  assertEquals(last(chunks).finishReason, FinishReason.STOP);
});

Deno.test("gemini misbehave: an empty answer is one empty text part, STOP", async () => {
  const { blocking, chunks } = await both(misbehave.emptyAnswer());
  assertEquals(blocking.candidate.content?.parts, [{ text: "" }]);
  assertEquals([blocking.candidate.finishReason, last(chunks).finishReason], [
    FinishReason.STOP,
    FinishReason.STOP,
  ]);
});

Deno.test("gemini misbehave: repeated ids, an unknown tool and arguments the schema refuses reach the client as sent, the first call signed", async () => {
  const cases: Array<[Turn, Array<[string | undefined, string | undefined, unknown]>]> = [
    [misbehave.duplicateCallIds("lookup"), [
      ["call_dup", "lookup", {}],
      ["call_dup", "lookup", {}],
    ]],
    [misbehave.unknownTool(), [["call_unknown_tool", "no_such_tool", {}]]],
    [misbehave.schemaViolatingArgs("lookup", { host: 7 }), [[
      "call_schema_violation",
      "lookup",
      { host: 7 },
    ]]],
  ];
  for (const [turn, calls] of cases) {
    const { blocking, chunks } = await both(turn);
    const sent = blocking.candidate.content!.parts!.filter((p) => p.functionCall);
    for (const list of [sent, parts(chunks).filter((p) => p.functionCall)]) {
      assertEquals(
        list.map((p) => [p.functionCall!.id, p.functionCall!.name, p.functionCall!.args]),
        calls,
      );
      // Gemini 3 signs the first function call part of a step only.
      assertEquals(
        list.map((p) => typeof p.thoughtSignature),
        calls.map((_, i) => i === 0 ? "string" : "undefined"),
      );
    }
    assertEquals(blocking.candidate.finishReason, FinishReason.STOP);
  }
});

Deno.test("gemini misbehave: every misbehave kind is served to @google/genai", async () => {
  const built: Record<string, Turn> = {
    invalidToolJson: misbehave.invalidToolJson("lookup"),
    schemaViolatingArgs: misbehave.schemaViolatingArgs("lookup", { host: 7 }),
    unknownTool: misbehave.unknownTool(),
    duplicateCallIds: misbehave.duplicateCallIds("lookup"),
    lengthMidToolCall: misbehave.lengthMidToolCall("lookup"),
    emptyAnswer: misbehave.emptyAnswer(),
    refusal: misbehave.refusal(),
    contentFilter: misbehave.contentFilter(),
    reasoningOnly: misbehave.reasoningOnly(),
    malformedToolCall: misbehave.malformedToolCall(),
  };
  assertEquals(Object.keys(built).sort(), [...MISBEHAVIOUR_KINDS].sort());
  for (const turn of Object.values(built)) {
    const { blocking, chunks } = await both(turn);
    assert(blocking.candidate.finishReason !== undefined);
    assertEquals(last(chunks).finishReason, blocking.candidate.finishReason);
  }
});
