// The Gemini wire at its edges: the thinking count at its bounds, the
// finishMessage only a turn that called functions carries, the usage a
// stream's early chunks carry, and the snake_case part names the API reads.
import { assertEquals } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import { json, post } from "./_wire_fetch.ts";

const MODEL = "gemini-2.5-flash";
const PATH = `/v1beta/models/${MODEL}:generateContent`;
const STREAM = `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`;
const hi = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

function lenient(...turns: Array<Turn | string>): FakeProvider {
  return new FakeProvider({ llm: FakeLLM.script(turns, { strictTools: false }), strict: false });
}

// Gemini frames end in CRLF CRLF.
async function chunks(p: FakeProvider): Promise<Body[]> {
  const text = await (await post(p, STREAM, hi)).text();
  return text.split(/\r?\n\r?\n/).filter((b) => b.startsWith("data: ")).map((b) =>
    JSON.parse(b.slice(6))
  );
}

type Body = Record<string, unknown> & {
  candidates: Array<Record<string, unknown>>;
  usageMetadata: Record<string, unknown>;
};

Deno.test("gemini wire: thoughtsTokenCount when the turn thought, all of the output at most; candidates the rest", async () => {
  const usage = (outputTokens: number, reasoningTokens?: number) => ({
    content: "x",
    usage: {
      inputTokens: 3,
      outputTokens,
      ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    },
  });
  const p = lenient(usage(5, 5), usage(5, 6), usage(5, 0), usage(5));
  const counts = [];
  for (let i = 0; i < 4; i++) {
    const u = ((await json(p, PATH, hi)).body as Body).usageMetadata;
    counts.push([u.candidatesTokenCount, u.thoughtsTokenCount, u.totalTokenCount]);
  }
  assertEquals(counts, [[0, 5, 8], [5, undefined, 8], [5, undefined, 8], [5, undefined, 8]]);
});

Deno.test("gemini wire: finishMessage only on a turn that called functions and was not cut", async () => {
  const p = lenient(
    "plain",
    { content: "cut", finishReason: "length" },
    { toolCalls: [toolCall("c1", "f", {})], finishReason: "length" },
    { toolCalls: [toolCall("c2", "f", {})] },
  );
  const ends = [];
  for (let i = 0; i < 4; i++) {
    const c = ((await json(p, PATH, hi)).body as Body).candidates[0];
    ends.push([c.finishReason, c.finishMessage]);
  }
  assertEquals(ends, [
    ["STOP", undefined],
    ["MAX_TOKENS", undefined],
    ["MAX_TOKENS", undefined],
    ["STOP", "Model generated function call(s)."],
  ]);
});

Deno.test("gemini wire: a stream's chunks before the last say no usage yet, the tier included; each stream its own id", async () => {
  const p = lenient({ chunks: ["a", "b"] }, { chunks: ["c", "d"] });
  const one = await chunks(p);
  assertEquals(one[0].usageMetadata, {
    promptTokenCount: 0,
    totalTokenCount: 0,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: 0 }],
    serviceTier: "standard",
  });
  const two = await chunks(p);
  assertEquals([one.length, new Set(one.map((c) => c.responseId)).size], [3, 1]);
  assertEquals(one[0].responseId === two[0].responseId, false);
});

Deno.test("gemini wire parse: every data part is read in either spelling", async () => {
  const kinds = [
    { inline_data: { mime_type: "image/png", data: "AAAA" } },
    { file_data: { file_uri: "https://x/f", mime_type: "application/pdf" } },
    { executable_code: { language: "PYTHON", code: "1" } },
    { code_execution_result: { outcome: "OUTCOME_OK", output: "1" } },
    { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } },
    { fileData: { fileUri: "https://x/f", mimeType: "application/pdf" } },
  ];
  const p = lenient(...kinds.map(() => "ok"));
  for (const part of kinds) {
    const res = await json(p, PATH, {
      contents: [{ role: "user", parts: [{ text: "see" }, part] }],
    });
    assertEquals(res.status, 200, JSON.stringify(part));
  }
  const bad = await json(p, PATH, {
    contents: [{ role: "user", parts: [{ video_metadata: {} }] }],
  });
  assertEquals(bad.status, 400);
});
