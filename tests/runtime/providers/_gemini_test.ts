// The Gemini wire, client side, called directly: the request JSON, the
// blocking answer and the fold of streamed chunks, edge by edge.
import { assertEquals, assertInstanceOf, assertStringIncludes, assertThrows } from "@std/assert";
import {
  type Message,
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  type StreamEvent,
  toolCall,
} from "@agentkit/testing/ports";
import {
  chatResponseFromGemini,
  finishFromGemini,
  geminiBody,
  GeminiStream,
  modelURL,
  usageFromGemini,
} from "../../../runtime/providers/_gemini.ts";
import { durationMs, errorForStatus, retryInfoMs } from "../../../runtime/providers/_http.ts";

function ids(): () => string {
  let n = 0;
  return () => `gen_${++n}`;
}

function fold(chunks: unknown[], end = true): StreamEvent[] {
  const wire = new GeminiStream(ids());
  const out: StreamEvent[] = [];
  for (const c of chunks) {
    if (wire.done) break;
    wire.push({ event: undefined, id: undefined, data: JSON.stringify(c) }, out);
  }
  if (end && !wire.done) wire.endOfBody(out);
  return out;
}

const part = (p: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: "model", parts: [p] }, ...extra }],
});

Deno.test("finishFromGemini(): each documented reason, an unknown one as error (never stop), none as undefined", () => {
  assertEquals(
    [
      "STOP",
      "MAX_TOKENS",
      "SAFETY",
      "RECITATION",
      "BLOCKLIST",
      "PROHIBITED_CONTENT",
      "SPII",
      "IMAGE_SAFETY",
      "MALFORMED_FUNCTION_CALL",
      "UNEXPECTED_TOOL_CALL",
      "OTHER",
      "CONTINUATION",
      "MALFORMED_RESPONSE",
      "TOO_MANY_TOOL_CALLS",
      "IMAGE_PROHIBITED_CONTENT",
      "LANGUAGE",
      "A_REASON_ADDED_LATER",
    ].map(finishFromGemini),
    [
      "stop",
      "length",
      "content_filter",
      "content_filter",
      "content_filter",
      "content_filter",
      "content_filter",
      "content_filter",
      "error",
      "error",
      "error",
      "length",
      "error",
      "error",
      "content_filter",
      "content_filter",
      "error",
    ],
  );
  assertEquals(finishFromGemini(undefined), undefined);
});

Deno.test("usageFromGemini(): cached content out of input, thinking tokens into output", () => {
  assertEquals(
    usageFromGemini({
      promptTokenCount: 100,
      cachedContentTokenCount: 60,
      candidatesTokenCount: 7,
      thoughtsTokenCount: 20,
      toolUsePromptTokenCount: 5,
      totalTokenCount: 132,
    }),
    { inputTokens: 45, outputTokens: 27, cachedInputTokens: 60, reasoningTokens: 20 },
  );
  assertEquals(usageFromGemini({ promptTokenCount: 3 }), { inputTokens: 3, outputTokens: 0 });
  assertEquals(usageFromGemini(null), { inputTokens: 0, outputTokens: 0 });
  for (
    const bad of [
      { candidatesTokenCount: -1 },
      { thoughtsTokenCount: 1.5 },
      { cachedContentTokenCount: "3" },
      { toolUsePromptTokenCount: true },
    ]
  ) {
    assertThrows(() => usageFromGemini(bad), ProviderResponseError, "non-negative integer");
  }
  assertThrows(
    () => usageFromGemini([1]),
    ProviderResponseError,
    "usageMetadata must be an object",
  );
});

Deno.test("retryInfoMs() and durationMs(): google.rpc.RetryInfo's retryDelay in milliseconds", () => {
  const body = (details: unknown) => ({ error: { code: 429, details } });
  assertEquals(
    retryInfoMs(body([
      { "@type": "type.googleapis.com/google.rpc.QuotaFailure" },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "58s" },
    ])),
    58_000,
  );
  assertEquals(
    retryInfoMs(
      body([{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1.500s" }]),
    ),
    1500,
  );
  assertEquals(retryInfoMs(body("x")), undefined);
  assertEquals(retryInfoMs(body([null, 3])), undefined);
  assertEquals(retryInfoMs({ error: "x" }), undefined);
  assertEquals(retryInfoMs(undefined), undefined);
  assertEquals([
    durationMs("0.25s"),
    durationMs(" 2s "),
    durationMs("2"),
    durationMs("-1s"),
    durationMs(2),
  ], [
    250,
    2000,
    undefined,
    undefined,
    undefined,
  ]);
  const e = errorForStatus(
    "Gemini",
    429,
    new Headers(),
    JSON.stringify(
      body([{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1.5s" }]),
    ),
  );
  assertInstanceOf(e, RateLimitError);
  assertEquals((e as RateLimitError).retryAfterMs, 1500);
  // A retry-after header, where a gateway adds one, is read first.
  const h = errorForStatus("Gemini", 429, new Headers({ "retry-after": "3" }), "{}");
  assertEquals((h as RateLimitError).retryAfterMs, 3000);
  assertEquals(
    (errorForStatus("Gemini", 429, new Headers(), "not json") as RateLimitError).retryAfterMs,
    undefined,
  );
});

Deno.test("geminiBody(): system joined, consecutive tool results in one content, signatures by call, settings", () => {
  const body = geminiBody({
    model: "gemini-3-pro-preview",
    messages: [
      { role: "system", content: "A." },
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "f", args: { a: 1 } },
          { id: "c2", name: "g", args: {}, rawArgs: '{"b":2}' },
        ],
        providerData: { gemini: { thoughtSignatures: { c1: "sig1", c2: 5 } } },
      },
      { role: "tool", content: "one", toolCallId: "c1" },
      { role: "tool", content: "two", toolCallId: "c2", isError: true },
      { role: "system", content: "B." },
      { role: "assistant", content: "Done.", providerData: { gemini: { textSignature: "t1" } } },
      { role: "assistant", content: "", providerData: { gemini: "nonsense" } },
      { role: "assistant", content: "x", providerData: { anthropic: { thinking: [] } } },
    ],
  }, 128);
  assertEquals(body.systemInstruction, { parts: [{ text: "A.\n\nB." }] });
  assertEquals(body.contents, [
    { role: "user", parts: [{ text: "go" }] },
    {
      role: "model",
      parts: [
        { functionCall: { id: "c1", name: "f", args: { a: 1 } }, thoughtSignature: "sig1" },
        { functionCall: { id: "c2", name: "g", args: { b: 2 } } },
      ],
    },
    {
      role: "user",
      parts: [
        { functionResponse: { id: "c1", name: "f", response: { output: "one" } } },
        { functionResponse: { id: "c2", name: "g", response: { error: "two" } } },
      ],
    },
    { role: "model", parts: [{ text: "Done.", thoughtSignature: "t1" }] },
    { role: "model", parts: [{ text: "" }] },
    { role: "model", parts: [{ text: "x" }] },
  ]);
  assertEquals(body.generationConfig, { maxOutputTokens: 128 });
  assertEquals(body.tools, undefined);
  const plain = geminiBody({ model: "m", messages: [{ role: "user", content: "hi" }] }, undefined);
  assertEquals(plain, { contents: [{ role: "user", parts: [{ text: "hi" }] }] });
  const settings = geminiBody({
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    settings: { maxTokens: 5, temperature: 0 },
  }, 100);
  assertEquals(settings.generationConfig, { maxOutputTokens: 5, temperature: 0 });
});

Deno.test("chatResponseFromGemini(): text joined, thoughts read as reasoning, calls with ids or generated, signatures kept", () => {
  const res = chatResponseFromGemini(
    {
      responseId: "r1",
      modelVersion: "gemini-3-pro-preview-001",
      candidates: [{
        content: {
          role: "model",
          parts: [
            { text: "plan", thought: true },
            { text: "Hel" },
            { text: "lo", thoughtSignature: "ts" },
            { functionCall: { id: "c1", name: "f", args: { a: 1 } }, thoughtSignature: "s1" },
            { functionCall: { name: "g" } },
          ],
        },
        finishReason: "STOP",
      }],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2 },
    },
    "gemini-3-pro-preview",
    ids(),
  );
  assertEquals(res, {
    reasoning: "plan",
    id: "r1",
    model: "gemini-3-pro-preview-001",
    content: "Hello",
    toolCalls: [{ id: "c1", name: "f", args: { a: 1 } }, { id: "gen_1", name: "g", args: {} }],
    finishReason: "tool_calls",
    usage: { inputTokens: 4, outputTokens: 2 },
    providerData: { gemini: { thoughtSignatures: { c1: "s1" }, textSignature: "ts" } },
  });
  const bare = chatResponseFromGemini(part({ text: "x" }), "m", ids());
  assertEquals([bare.id, bare.model, bare.finishReason, bare.providerData], [
    "",
    "m",
    "stop",
    undefined,
  ]);
  const calls = chatResponseFromGemini(part({ functionCall: { name: "f" } }), "m", ids());
  assertEquals(calls.finishReason, "tool_calls");
  const safety = chatResponseFromGemini({ candidates: [{ finishReason: "SAFETY" }] }, "m", ids());
  assertEquals([safety.content, safety.finishReason], ["", "content_filter"]);
  const capped = chatResponseFromGemini(
    { candidates: [{ content: { role: "model" }, finishReason: "MAX_TOKENS" }] },
    "m",
    ids(),
  );
  assertEquals([capped.content, capped.finishReason], ["", "length"]);
});

Deno.test("chatResponseFromGemini(): an error body is classified; a body not the API's shape names the field", () => {
  const limited = assertThrows(
    () =>
      chatResponseFromGemini(
        { error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED" } },
        "m",
        ids(),
      ),
    RateLimitError,
  );
  assertEquals(limited.status, 429);
  const cases: Array<[unknown, string]> = [
    ["text", "the body must be an object"],
    [{ candidates: 1 }, "candidates must be a non-empty array"],
    [{ candidates: [3] }, "candidates[0] must be an object"],
    [{ candidates: [{ content: 1 }] }, "candidates[0].content must be an object"],
    [{ candidates: [{ content: {} }] }, "candidates[0].content.parts must be an array"],
    [
      { candidates: [{ content: { parts: {} }, finishReason: "STOP" }] },
      "content.parts must be an array",
    ],
    [part({ text: "x" }, { finishReason: 5 }), "finishReason must be a string"],
    [part("x" as never), "parts[0] must be an object"],
    [part({ functionCall: "f" }), "functionCall must be an object"],
    [part({ functionCall: { name: 5 } }), "functionCall.name must be a string"],
    [part({ functionCall: { name: "f", args: [1] } }), "functionCall.args must be an object"],
    [part({ functionCall: { name: "f", id: 3 } }), "functionCall.id must be a string"],
    [part({ text: "x", thoughtSignature: 1 }), "thoughtSignature must be a string"],
    [{ ...part({ text: "x" }), responseId: 1 }, "responseId must be a string"],
  ];
  for (const [body, says] of cases) {
    const e = assertThrows(() => chatResponseFromGemini(body, "m", ids()), ProviderResponseError);
    assertEquals(e.message.includes(says), true, `${e.message} / ${says}`);
  }
});

Deno.test("GeminiStream: deltas and calls as they come, finish and usage from the last chunk, signatures on message_end", () => {
  const out = fold([
    { responseId: "r1", ...part({ text: "Hel" }) },
    { responseId: "r1", ...part({ text: "lo" }) },
    part({ functionCall: { id: "c1", name: "f", args: { a: 1 } }, thoughtSignature: "s1" }),
    {
      ...part({ text: "" }, { finishReason: "STOP" }),
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4 },
    },
  ]);
  assertEquals(out, [
    { type: "message_start", messageId: "r1" },
    { type: "text_delta", messageId: "r1", content: "Hel" },
    { type: "text_delta", messageId: "r1", content: "lo" },
    { type: "tool_call", messageId: "r1", call: { id: "c1", name: "f", args: { a: 1 } } },
    {
      type: "message_end",
      messageId: "r1",
      finishReason: "tool_calls",
      usage: { inputTokens: 3, outputTokens: 4 },
      providerData: { gemini: { thoughtSignatures: { c1: "s1" } } },
    },
  ]);
});

Deno.test("GeminiStream: usage-only and empty-candidate chunks, a blocked prompt, a reason without content", () => {
  const out = fold([
    { usageMetadata: { promptTokenCount: 2 } },
    { candidates: [] },
    { candidates: [{ finishReason: "MAX_TOKENS" }] },
  ]);
  assertEquals(out.map((e) => e.type), ["message_start", "message_end"]);
  const end = out.at(-1)!;
  assertEquals(end.type === "message_end" && [end.finishReason, end.usage], ["length", {
    inputTokens: 2,
    outputTokens: 0,
  }]);
  const blocked = fold([{ promptFeedback: { blockReason: "SAFETY" } }]);
  assertEquals(blocked.at(-1)?.type === "message_end" && blocked.at(-1), {
    type: "message_end",
    messageId: "",
    finishReason: "content_filter",
    usage: { inputTokens: 0, outputTokens: 0 },
  });
});

Deno.test("GeminiStream: a body ended before a finish reason was cut; an error chunk before content is thrown", () => {
  const cut = fold([part({ text: "a" })]);
  const last = cut.at(-1)!;
  assertEquals(last.type, "error");
  const error = (last as unknown as { error: ProviderError }).error;
  assertEquals([error.phase, error.message.includes("before a chunk with a finishReason")], [
    "mid_stream",
    true,
  ]);
  const limited = assertThrows(
    () => fold([{ error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED" } }]),
    RateLimitError,
  );
  assertEquals(limited.phase, "pre_stream");
  const mid = fold([part({ text: "a" }), {
    error: { code: 500, message: "boom", status: "INTERNAL" },
  }]);
  const e = mid.at(-1) as unknown as { type: string; error: ProviderError };
  assertEquals([e.type, e.error.phase, e.error.message.includes("boom")], [
    "error",
    "mid_stream",
    true,
  ]);
  assertThrows(() => fold([part({ text: 3 })]), ProviderResponseError, "text must be a string");
  assertThrows(() => fold([[1]]), ProviderResponseError, "a stream chunk must be an object");
});

Deno.test("modelURL(): the model's method under the base, its query kept, alt=sse for a stream only", () => {
  assertEquals(
    modelURL("https://generativelanguage.googleapis.com/v1beta/", "gemini-2.5-flash", false),
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
  );
  assertEquals(
    modelURL("https://gw.example.com/v1?project=p#frag", "a b", true),
    "https://gw.example.com/v1/models/a%20b:streamGenerateContent?project=p&alt=sse",
  );
});

Deno.test("Gemini readers name the field they refuse, and the provider", () => {
  for (
    const field of [
      "promptTokenCount",
      "candidatesTokenCount",
      "cachedContentTokenCount",
      "thoughtsTokenCount",
      "toolUsePromptTokenCount",
    ]
  ) {
    const e = assertThrows(() => usageFromGemini({ [field]: -1 }), ProviderResponseError);
    assertEquals(e.message.startsWith("Gemini sent an answer"), true, e.message);
    assertEquals(e.message.includes(`usageMetadata.${field} must be`), true, e.message);
  }
  const said = (body: unknown) =>
    assertThrows(() => chatResponseFromGemini(body, "m", ids()), ProviderResponseError).message;
  assertEquals(
    said({ ...part({ text: "x" }), modelVersion: 5 }).includes("modelVersion must be"),
    true,
  );
  assertEquals(
    said({ candidates: [{ content: { parts: null } }] }).includes("content.parts must be an array"),
    true,
  );
  assertEquals(said({ promptFeedback: {} }).includes("candidates must be an array"), true);
  const limited = assertThrows(
    () => chatResponseFromGemini({ error: { code: 503, message: "busy" } }, "m", ids()),
    ProviderError,
  );
  assertEquals(limited.message.startsWith("Gemini reported an error"), true, limited.message);
  const folded = (chunks: unknown[]) =>
    assertThrows(() => fold(chunks), ProviderResponseError).message;
  assertEquals(folded([{ responseId: 5 }]).includes("responseId must be a string"), true);
  assertEquals(
    folded([{ candidates: [{ finishReason: 5 }] }]).includes("candidates[0].finishReason must be"),
    true,
  );
  assertEquals(
    folded([{ candidates: [{ content: 5 }] }]).includes("candidates[0].content must be an object"),
    true,
  );
  assertEquals(
    folded([{ candidates: [{ content: { parts: {} } }] }]).includes(
      "candidates[0].content.parts must be an array",
    ),
    true,
  );
});

Deno.test("chatResponseFromGemini(): null fields pass as absent, only signed turns carry providerData", () => {
  const nulls = chatResponseFromGemini(
    { error: null, candidates: [{ content: null, finishReason: "SAFETY" }] },
    "m",
    ids(),
  );
  assertEquals([nulls.content, nulls.finishReason], ["", "content_filter"]);
  const blocked = chatResponseFromGemini(
    { candidates: null, promptFeedback: { blockReason: "OTHER" } },
    "m",
    ids(),
  );
  assertEquals(blocked.finishReason, "content_filter");
  const text = chatResponseFromGemini(
    part({ text: "a", thoughtSignature: "t" }),
    "m",
    ids(),
  );
  assertEquals(text.providerData, { gemini: { textSignature: "t" } });
  const later = chatResponseFromGemini(
    {
      candidates: [{
        content: {
          parts: [{ text: "a", thoughtSignature: "t" }, { text: "b" }, { thoughtSignature: "u" }],
        },
      }],
    },
    "m",
    ids(),
  );
  assertEquals([later.content, later.providerData], ["ab", { gemini: { textSignature: "u" } }]);
  const capped = chatResponseFromGemini(
    part({ functionCall: { name: "f" } }, { finishReason: "MAX_TOKENS" }),
    "m",
    ids(),
  );
  assertEquals(capped.finishReason, "length");
});

Deno.test("chatResponseFromGemini() and GeminiStream: MALFORMED_FUNCTION_CALL and UNEXPECTED_TOOL_CALL are a ProviderResponseError, never an empty answer", () => {
  for (const reason of ["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"]) {
    const e = assertThrows(
      () =>
        chatResponseFromGemini({ candidates: [{ finishReason: reason, index: 0 }] }, "m", ids()),
      ProviderResponseError,
    );
    assertEquals([e.phase, e.retryable], ["pre_stream", false]);
    assertEquals(e.message.startsWith(`Gemini ended the turn with finishReason ${reason}: `), true);
    // Streamed before any content: thrown, as the blocking answer is.
    const before = new GeminiStream(ids());
    assertThrows(
      () =>
        before.push(
          { data: JSON.stringify({ responseId: "r", candidates: [{ finishReason: reason }] }) },
          [],
        ),
      ProviderResponseError,
      reason,
    );
    // After text: the stream ends with an error event carrying it.
    const after = new GeminiStream(ids());
    const out: StreamEvent[] = [];
    after.push({ data: JSON.stringify({ responseId: "r", ...part({ text: "a" }) }) }, out);
    after.push({ data: JSON.stringify({ candidates: [{ finishReason: reason }] }) }, out);
    const last = out.at(-1)!;
    assertEquals(last.type, "error");
    if (last.type === "error") {
      assertInstanceOf(last.error, ProviderResponseError);
      assertEquals((last.error as ProviderResponseError).phase, "mid_stream");
    }
  }
});

Deno.test("GeminiStream: thought parts are reasoning_delta events, never text", () => {
  const s = new GeminiStream(ids());
  const out: StreamEvent[] = [];
  s.push(
    { data: JSON.stringify({ responseId: "r", ...part({ text: "hmm", thought: true }) }) },
    out,
  );
  s.push({ data: JSON.stringify(part({ text: "Hi" }, { finishReason: "STOP" })) }, out);
  s.end(out);
  assertEquals(
    out.filter((e) => e.type !== "message_end").map((
      e,
    ) => [e.type, "content" in e ? e.content : ""]),
    [
      ["message_start", ""],
      ["reasoning_delta", "hmm"],
      ["text_delta", "Hi"],
    ],
  );
});

Deno.test("geminiBody(): no tools key for an empty list, signatures read only from a gemini object", () => {
  const body = geminiBody({
    model: "m",
    messages: [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "f", args: {} }],
        providerData: { gemini: {} },
      },
      { role: "tool", content: "x", toolCallId: "c1" },
    ],
    tools: [],
  }, undefined);
  assertEquals(body.tools, undefined);
  assertEquals(body.contents, [
    { role: "user", parts: [{ text: "go" }] },
    { role: "model", parts: [{ functionCall: { id: "c1", name: "f", args: {} } }] },
    {
      role: "user",
      parts: [{ functionResponse: { id: "c1", name: "f", response: { output: "x" } } }],
    },
  ]);
});

Deno.test("geminiBody(): a tool message answering no call is a clear error, never a functionResponse with an empty name", () => {
  for (const toolCallId of ["zz", ""]) {
    const e = assertThrows(
      () =>
        geminiBody({
          model: "m",
          messages: [
            { role: "user", content: "go" },
            { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "f", args: {} }] },
            { role: "tool", content: "one", toolCallId: "c1" },
            { role: "tool", content: "orphan", toolCallId },
          ],
        }, undefined),
      TypeError,
    );
    assertStringIncludes(
      e.message,
      `messages[3] is a tool message answering the call "${toolCallId}"`,
    );
  }
});

Deno.test("GeminiStream: a later chunk keeps what an earlier one said; length with calls stays length", () => {
  const kept = fold([
    { ...part({ text: "a" }), usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 } },
    part({ text: "" }, { finishReason: "STOP" }),
    { candidates: [{ content: { parts: [{ text: "" }] } }] },
    { candidates: [{ content: null }] },
  ]);
  assertEquals(kept.at(-1), {
    type: "message_end",
    messageId: "",
    finishReason: "stop",
    usage: { inputTokens: 3, outputTokens: 1 },
  });
  const capped = fold([part({ functionCall: { name: "f" } }, { finishReason: "MAX_TOKENS" })]);
  const end = capped.at(-1)!;
  assertEquals(end.type === "message_end" && end.finishReason, "length");
  // Chunks without a candidate say nothing of the finish: the body still ends cut.
  const cut = fold([
    { usageMetadata: { promptTokenCount: 1 } },
    { candidates: [] },
    part({ text: "a" }),
  ]);
  assertEquals(cut.at(-1)?.type, "error");
});

// SPEC §20: parts the port does not model, kept and sent back in place.

const CODE = { executableCode: { language: "PYTHON", code: "print(1)" } };
const RESULT = { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1\n" } };

Deno.test("chatResponseFromGemini(): unmodelled parts keep the whole answer's parts in order", () => {
  const r = chatResponseFromGemini(
    {
      candidates: [{
        content: {
          role: "model",
          parts: [
            { text: "thinking", thought: true },
            { text: "Run" },
            { text: "ning.", thoughtSignature: "sig" },
            CODE,
            RESULT,
            { functionCall: { id: "c1", name: "f", args: {} }, thoughtSignature: "s1" },
            { text: "Done." },
          ],
        },
        finishReason: "STOP",
      }],
    },
    "m",
    ids(),
  );
  assertEquals(r.content, "Running.Done.");
  assertEquals(r.providerData, {
    gemini: {
      thoughtSignatures: { c1: "s1" },
      textSignature: "sig",
      parts: [
        { text: "thinking", thought: true },
        { text: "Run" },
        { text: "ning.", thoughtSignature: "sig" },
        CODE,
        RESULT,
        { functionCall: { id: "c1", name: "f" } },
        { text: "Done." },
      ],
    },
  });
  // Only modelled parts: no parts kept.
  const plain = chatResponseFromGemini(part({ text: "a" }, { finishReason: "STOP" }), "m", ids());
  assertEquals(plain.providerData, undefined);
  // An image alone is kept, not an empty answer that drops it.
  const image = chatResponseFromGemini(
    part({ inlineData: { mimeType: "image/png", data: "AA==" } }, { finishReason: "STOP" }),
    "m",
    ids(),
  );
  assertEquals(image.providerData, {
    gemini: { parts: [{ inlineData: { mimeType: "image/png", data: "AA==" } }] },
  });
});

Deno.test("GeminiStream: streamed text runs merge into one kept part around the unmodelled ones", () => {
  const out = fold([
    part({ text: "Let me " }),
    part({ text: "run it." }),
    part(CODE),
    part(RESULT),
    part({ text: "It printed " }),
    part({ text: "1." }, { finishReason: "STOP" }),
  ]);
  const end = out.at(-1) as Extract<StreamEvent, { type: "message_end" }>;
  assertEquals(end.providerData, {
    gemini: {
      parts: [{ text: "Let me run it." }, CODE, RESULT, { text: "It printed 1." }],
    },
  });
});

Deno.test("geminiBody(): kept parts go back in place, with the transcript's text and calls", () => {
  const kept = [
    { text: "thought", thought: true },
    { text: "Running." },
    CODE,
    RESULT,
    { functionCall: { id: "c1", name: "f" } },
    { functionCall: { id: "gone", name: "g" } },
    { text: "Done." },
  ];
  const calls = [{ id: "c1", name: "f", args: { a: 1 } }, { id: "c2", name: "h", args: {} }];
  const sent = (content: string, toolCalls = calls, parts: unknown = kept) =>
    (geminiBody({
      model: "m",
      messages: [{
        role: "assistant",
        content,
        toolCalls,
        providerData: { gemini: { parts, thoughtSignatures: { c1: "s1" } } },
      }],
    }, undefined).contents as { parts: unknown[] }[])[0].parts;
  assertEquals(sent("Running.Done."), [
    { text: "Running." },
    CODE,
    RESULT,
    { functionCall: { id: "c1", name: "f", args: { a: 1 } }, thoughtSignature: "s1" },
    { text: "Done." },
    { functionCall: { id: "c2", name: "h", args: {} } },
  ]);
  assertEquals(sent("Rewritten.", []), [{ text: "Rewritten." }, CODE, RESULT]);
  assertEquals(sent("", []), [CODE, RESULT]);
  assertEquals(sent("New.", [], [CODE]), [CODE, { text: "New." }]);
  // parts that are not an array: the plain path.
  assertEquals(sent("Hi.", [], "x"), [{ text: "Hi." }]);
});

Deno.test("RetryInfo in an error body is read wherever it comes: a 200 body, a stream chunk", () => {
  const body = {
    error: {
      code: 429,
      status: "RESOURCE_EXHAUSTED",
      message: "quota",
      details: [
        { "@type": "type.googleapis.com/google.rpc.QuotaFailure" },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "2.5s" },
      ],
    },
  };
  const blocking = assertThrows(() => chatResponseFromGemini(body, "m", ids()), RateLimitError);
  assertEquals(blocking.retryAfterMs, 2500);
  const streamed = assertThrows(() => fold([body]), RateLimitError);
  assertEquals(streamed.retryAfterMs, 2500);
  const none = assertThrows(
    () => chatResponseFromGemini({ error: { ...body.error, details: [] } }, "m", ids()),
    RateLimitError,
  );
  assertEquals(none.retryAfterMs, undefined);
});

Deno.test("geminiBody(): on gemini-3 a step's first unsigned call part gets Google's dummy signature, a real one is kept, 2.x untouched", () => {
  const calls = [toolCall("a", "f", {}), toolCall("b", "g", {})];
  const providerData = { gemini: { thoughtSignatures: { c: "real-sig" } } };
  const messages: Message[] = [
    { role: "user", content: "go" },
    { role: "assistant", content: "", toolCalls: calls },
    { role: "tool", toolCallId: "a", content: "1" },
    { role: "tool", toolCallId: "b", content: "2" },
    { role: "assistant", content: "", toolCalls: [toolCall("c", "f", {})], providerData },
    { role: "tool", toolCallId: "c", content: "3" },
  ];
  const signatures = (model: string) =>
    (geminiBody({ model, messages }, undefined).contents as Array<
      { parts: Array<Record<string, unknown>> }
    >)
      .filter((c) => c.parts.some((p) => p.functionCall))
      .map((c) => c.parts.map((p) => p.thoughtSignature));
  assertEquals(signatures("gemini-3-pro-preview"), [
    ["skip_thought_signature_validator", undefined],
    ["real-sig"],
  ]);
  assertEquals(signatures("models/gemini-3-flash"), [
    ["skip_thought_signature_validator", undefined],
    ["real-sig"],
  ]);
  assertEquals(signatures("gemini-2.5-flash"), [[undefined, undefined], ["real-sig"]]);
  // The transcript's own data is never written to.
  assertEquals(providerData, { gemini: { thoughtSignatures: { c: "real-sig" } } });
});
