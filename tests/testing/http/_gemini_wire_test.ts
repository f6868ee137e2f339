// The Gemini wire (POST /v1beta/models/{model}:generateContent and
// :streamGenerateContent?alt=sse) as raw HTTP: the JSON and the SSE chunks a
// client reads, the thought signatures it is given, its error bodies, and the
// answers to a bad path, a missing key and a malformed request.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import {
  ProviderError,
  ProviderResponseError,
  RateLimitError,
  toolCall,
} from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import {
  durationOf,
  geminiWire,
  isGeminiPath,
  signsCalls,
} from "../../../testing/http/_gemini_wire.ts";
import { geminiResponseId } from "../../../testing/http/_ids.ts";

const ORIGIN = "https://generativelanguage.googleapis.com";
const hi = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

function provider(...turns: Array<Turn | string>): { llm: FakeLLM; provider: FakeProvider } {
  const llm = FakeLLM.script(turns, { strictTools: false });
  return { llm, provider: new FakeProvider({ llm }) };
}

// The wire's own parse, with the strict rules (tested in _gemini_rules_test)
// out of the way: it reads what they would refuse.
function lenient(...turns: Array<Turn | string>): { llm: FakeLLM; provider: FakeProvider } {
  const llm = FakeLLM.script(turns, { strictTools: false });
  return { llm, provider: new FakeProvider({ llm, strict: false }) };
}

function post(
  p: FakeProvider,
  path: string,
  body: unknown,
  headers: Record<string, string> = { "x-goog-api-key": "AIza-test" },
  method = "POST",
): Promise<Response> {
  return p.fetch(`${ORIGIN}${path}`, {
    method,
    headers,
    ...(method === "GET" ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

// Google's JSON, read field by field as a client does.
// deno-lint-ignore no-explicit-any
type Json = any;

async function json(
  p: FakeProvider,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, Json> }> {
  const res = await post(p, path, body);
  return { status: res.status, body: await res.json() };
}

// The SSE chunks of a streamed answer, split on blank lines as the clients do.
async function chunks(p: FakeProvider, path: string, body: unknown): Promise<Json[]> {
  const res = await post(p, path, body);
  assertEquals(res.status, 200, await res.clone().text());
  assertEquals(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  const text = await res.text();
  assert(text.endsWith("\r\n\r\n"), "Gemini frames end in CRLF CRLF");
  return text.split(/\r\n\r\n/).filter((b) => b.trim()).map((b) => {
    assert(b.startsWith("data: "), b);
    return JSON.parse(b.slice(6));
  });
}

const G3 = "/v1beta/models/gemini-3-pro-preview:generateContent";
const G25 = "/v1beta/models/gemini-2.5-flash:generateContent";

Deno.test("gemini wire: a blocking answer is one candidate, text then signed function calls, with usage", async () => {
  const { provider: p, llm } = provider({
    content: "Checking.",
    toolCalls: [toolCall("c1", "f", { a: 1 }), {
      id: "c2",
      name: "g",
      args: {},
      rawArgs: '{"b":2}',
    }],
    usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 5 },
  });
  const { status, body } = await json(p, G3, hi);
  assertEquals(status, 200);
  const sig = btoa("agentkit-fake-thought:1:c1");
  assertEquals(body.candidates, [{
    index: 0,
    content: {
      role: "model",
      parts: [
        { text: "Checking." },
        { functionCall: { id: "c1", name: "f", args: { a: 1 } }, thoughtSignature: sig },
        { functionCall: { id: "c2", name: "g", args: { b: 2 } } },
      ],
    },
    finishReason: "STOP",
    finishMessage: "Model generated function call(s).",
  }]);
  assertEquals(body.usageMetadata, {
    promptTokenCount: 8,
    candidatesTokenCount: 2,
    totalTokenCount: 10,
    cachedContentTokenCount: 5,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: 8 }],
    cacheTokensDetails: [{ modality: "TEXT", tokenCount: 5 }],
    serviceTier: "standard",
  });
  assertEquals(body.modelVersion, "gemini-3-pro-preview");
  assertEquals(body.responseId, geminiResponseId("fake-chat-1"));
  assert(/^[A-Za-z0-9]{23}$/.test(body.responseId));
  assertEquals(llm.requests[0].model, "gemini-3-pro-preview");
});

Deno.test("gemini wire: only gemini-3 models sign their calls; every response's first call is signed", async () => {
  assertEquals(signsCalls("gemini-3-flash-preview"), true);
  assertEquals(signsCalls("models/gemini-3.1-pro"), true);
  assertEquals(signsCalls("gemini-2.5-pro"), false);
  const { provider: p } = provider(
    { toolCalls: [toolCall("c1", "f")] },
    { toolCalls: [toolCall("c2", "f")] },
    { toolCalls: [toolCall("c3", "f")] },
  );
  const a = await json(p, G25, hi);
  assertEquals(a.body.candidates[0].content.parts[0].thoughtSignature, undefined);
  // A gemini-2.x call carries no id, as the API's (issue 36).
  assertEquals(a.body.candidates[0].content.parts[0].functionCall, { name: "f", args: {} });
  const b = await json(p, G3, hi);
  const c = await json(p, G3, hi);
  const sb = b.body.candidates[0].content.parts[0].thoughtSignature;
  const sc = c.body.candidates[0].content.parts[0].thoughtSignature;
  assert(sb && sc && sb !== sc, "each step gets its own signature");
});

Deno.test("gemini wire: finish reasons, MAX_TOKENS, SAFETY and MALFORMED_FUNCTION_CALL among them", async () => {
  const cases = [
    ["stop", "STOP"],
    ["tool_calls", "STOP"],
    ["length", "MAX_TOKENS"],
    ["content_filter", "SAFETY"],
    ["error", "MALFORMED_FUNCTION_CALL"],
  ] as const;
  for (const [ours, wire] of cases) {
    const { provider: p } = provider({ content: "x", finishReason: ours });
    assertEquals((await json(p, G25, hi)).body.candidates[0].finishReason, wire, ours);
  }
});

Deno.test("gemini wire: a stream is one chunk per delta or call, the last with finishReason and usage", async () => {
  const { provider: p } = provider({
    chunks: ["Hel", "lo"],
    toolCalls: [toolCall("c1", "f", { a: 1 }), toolCall("c2", "g")],
    usage: { inputTokens: 4, outputTokens: 6 },
  });
  const out = await chunks(
    p,
    "/v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse",
    hi,
  );
  const parts = out.map((c) => c.candidates[0].content.parts[0]);
  assertEquals(parts, [
    { text: "Hel" },
    { text: "lo" },
    {
      functionCall: { id: "c1", name: "f", args: { a: 1 } },
      thoughtSignature: btoa("agentkit-fake-thought:1:c1"),
    },
    { functionCall: { id: "c2", name: "g", args: {} } },
    { text: "" },
  ]);
  assertEquals(out.slice(0, -1).map((c) => c.candidates[0].finishReason), [
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  assertEquals(out.at(-1).candidates[0].finishReason, "STOP");
  assertEquals(out.at(-1).candidates[0].finishMessage, "Model generated function call(s).");
  assertEquals(out.at(-1).usageMetadata, {
    promptTokenCount: 4,
    candidatesTokenCount: 6,
    totalTokenCount: 10,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: 4 }],
    serviceTier: "standard",
  });
  // Every chunk carries usageMetadata, modelVersion and responseId (recorded streams).
  for (const c of out) {
    assertEquals(typeof c.usageMetadata.promptTokenCount, "number");
    assertEquals([c.modelVersion, c.responseId], [
      "gemini-3-flash-preview",
      geminiResponseId("fake-stream-1"),
    ]);
  }
  assertEquals(p.requests[0].stream, true);
});

Deno.test("gemini wire: an error after content is an error chunk, with the finish reason and usage first", async () => {
  const { provider: p } = provider({
    chunks: ["partial"],
    finishReason: "length",
    error: "Internal error encountered.",
    usage: { inputTokens: 1, outputTokens: 2 },
  });
  const out = await chunks(p, "/v1beta/models/m:streamGenerateContent?alt=sse", hi);
  assertEquals(out.at(-2).candidates[0].finishReason, "MAX_TOKENS");
  assertEquals(out.at(-2).usageMetadata.candidatesTokenCount, 2);
  assertEquals(out.at(-1), {
    error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" },
  });
});

Deno.test("gemini wire: the request read into ours: system, roles, calls, responses by id or by name, tools, settings", async () => {
  const { provider: p, llm } = lenient("ok");
  await json(p, G25, {
    systemInstruction: { parts: [{ text: "Be " }, { text: "brief." }] },
    contents: [
      { role: "user", parts: [{ text: "go" }] },
      {
        role: "model",
        parts: [
          { text: "thinking...", thought: true },
          { text: "On it." },
          { functionCall: { id: "k1", name: "f", args: { a: 1 } }, thoughtSignature: "s1" },
          { functionCall: { name: "g" } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "g", response: { error: "boom" } } },
          { functionResponse: { id: "k1", name: "f", response: { output: { n: 1 } } } },
          { text: "and?" },
        ],
      },
      { parts: [{ functionResponse: { name: "h", response: { whole: true } } }] },
    ],
    tools: [
      { googleSearch: {} },
      {
        functionDeclarations: [
          { name: "f", description: "F", parametersJsonSchema: { type: "object" } },
          {
            name: "g",
            parameters: { type: "OBJECT", properties: { x: { type: "STRING" } } },
          },
          { name: "h" },
        ],
      },
    ],
    generationConfig: {
      maxOutputTokens: 50,
      temperature: 0.5,
      responseMimeType: "application/json",
      responseSchema: { type: "OBJECT", properties: { y: { type: "INTEGER" } } },
    },
  });
  const req = llm.requests[0];
  assertEquals(req.messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: "On it.",
      toolCalls: [{ id: "k1", name: "f", args: { a: 1 } }, { id: "call_1_3", name: "g", args: {} }],
    },
    { role: "tool", content: "boom", toolCallId: "call_1_3", isError: true },
    { role: "tool", content: '{"n":1}', toolCallId: "k1" },
    { role: "user", content: "and?" },
    { role: "tool", content: '{"whole":true}', toolCallId: "h" },
  ]);
  assertEquals(req.tools.map((t) => [t.name, t.parameters]), [
    ["f", { type: "object" }],
    ["g", { type: "object", properties: { x: { type: "string" } } }],
    ["h", { type: "object", properties: {} }],
  ]);
  assertEquals([req.settings?.maxTokens, req.settings?.temperature], [50, 0.5]);
  assertEquals(req.settings?.jsonSchema, {
    type: "object",
    properties: { y: { type: "integer" } },
  });
});

Deno.test("gemini wire: faults as Google sends them", async (t) => {
  await t.step(
    "429 RESOURCE_EXHAUSTED with RetryInfo in the body and no retry header",
    async () => {
      const { provider: p } = provider({
        error: new RateLimitError("Quota exceeded", { retryAfterMs: 1500 }),
      });
      const res = await post(p, G25, hi);
      assertEquals(res.status, 429);
      assertEquals([res.headers.get("retry-after"), res.headers.get("retry-after-ms")], [
        null,
        null,
      ]);
      assertEquals(await res.json(), {
        error: {
          code: 429,
          message: "Quota exceeded",
          status: "RESOURCE_EXHAUSTED",
          details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1.5s" }],
        },
      });
    },
  );
  await t.step("a 429 without a wait has no details", async () => {
    const { provider: p } = provider({ error: new RateLimitError("slow") });
    assertEquals((await json(p, G25, hi)).body.error.details, undefined);
  });
  await t.step("503 UNAVAILABLE, 400 INVALID_ARGUMENT, an unnamed 5xx INTERNAL", async () => {
    for (
      const [error, status, name] of [
        [new ProviderError("overloaded", { status: 503, retryable: true }), 503, "UNAVAILABLE"],
        [new ProviderResponseError("bad", { status: 400 }), 400, "INVALID_ARGUMENT"],
        [new ProviderError("odd", { status: 502, retryable: true }), 502, "INTERNAL"],
        [new ProviderResponseError("odd", { status: 422 }), 422, "INVALID_ARGUMENT"],
      ] as const
    ) {
      const { provider: p } = provider({ error });
      const { status: s, body } = await json(p, G25, hi);
      assertEquals([s, body.error.code, body.error.status], [status, status, name]);
    }
  });
  await t.step("a cut stream ends without its last chunk", async () => {
    const { provider: p } = provider({ chunks: ["a", "b"], failAfterChunks: 1 });
    const res = await post(p, "/v1beta/models/m:streamGenerateContent?alt=sse", hi);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assertStringIncludes(first, '"text":"a"');
    let failed = false;
    try {
      while (!(await reader.read()).done);
    } catch {
      failed = true;
    }
    assert(failed, "the body errors");
  });
});

Deno.test("gemini wire: the key in x-goog-api-key, ?key= or a bearer token; none is Google's 403", async () => {
  const { provider: p } = provider("a", "b", "c");
  assertEquals((await post(p, `${G25}?key=AIza-q`, hi, {})).status, 200);
  assertEquals((await post(p, G25, hi, { authorization: "Bearer ya29.x" })).status, 200);
  assertEquals((await post(p, G25, hi)).status, 200);
  const res = await post(p, G25, hi, {});
  assertEquals(res.status, 403);
  assertEquals((await res.json()).error, {
    code: 403,
    message:
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    status: "PERMISSION_DENIED",
  });
  // The key in the query never reaches the record.
  assertEquals(p.requests[0].path, "/v1beta/models/gemini-2.5-flash:generateContent");
  assertEquals(p.requests[2].headers["x-goog-api-key"], "***");
});

Deno.test("gemini wire: a bad path is Google's 404 (no model, unknown method) or 400 (no alt=sse)", async (t) => {
  const { provider: p, llm } = provider("never");
  const cases: Array<[string, number, RegExp]> = [
    ["/v1beta/models/:generateContent", 404, /^models\/ is not found for API version v1beta/],
    ["/v1/models/%20:streamGenerateContent?alt=sse", 404, /is not found for API version v1,/],
    ["/v1beta/models/gemini-2.5-flash:bogus", 404, /Method not found: POST .*:bogus/],
    ["/v1beta/models/gemini-2.5-flash", 404, /Method not found/],
    ["/v1beta/models/gemini-2.5-flash:countTokens", 404, /serves only/],
    ["/v1beta/models/gemini-2.5-flash:streamGenerateContent", 400, /add \?alt=sse/],
    ["/v1beta/models/gemini%E0:generateContent", 404, /was not found/],
  ];
  for (const [path, status, says] of cases) {
    await t.step(path, async () => {
      const { status: s, body } = await json(p, path, hi);
      assertEquals(s, status);
      assertEquals(body.error.status, status === 404 ? "NOT_FOUND" : "INVALID_ARGUMENT");
      assertMatch(body.error.message, says);
    });
  }
  await t.step("a GET is a 404 in Google's shape", async () => {
    const res = await post(p, G25, undefined, { "x-goog-api-key": "k" }, "GET");
    assertEquals(res.status, 404);
    assertEquals((await res.json()).error.status, "NOT_FOUND");
  });
  assertEquals(llm.requests.length, 0);
  assertEquals(isGeminiPath("/v1/models"), false);
  assertEquals(isGeminiPath("/v1/chat/completions"), false);
  assertEquals(isGeminiPath("/proxy/v1beta/models/m:generateContent"), true);
});

Deno.test("gemini wire: a malformed request is Google's 400, naming the field", async (t) => {
  const { provider: p, llm } = lenient("never");
  const cases: Array<[string, unknown, string]> = [
    ["not JSON", "{", "Invalid JSON payload received. Unexpected token."],
    ["not an object", [1], "Invalid JSON payload received. Expected an object"],
    ["no contents", {}, "* GenerateContentRequest.contents: contents is not specified"],
    ["contents not a list", { contents: {} }, "contents: Invalid value, expected a list"],
    ["a content not an object", { contents: [1] }, "contents[0]: Invalid value"],
    [
      "empty parts",
      { contents: [{ role: "user", parts: [] }] },
      "contents[0].parts: contents.parts must not be empty.",
    ],
    [
      "a part not an object",
      { contents: [{ parts: [null] }] },
      "contents[0].parts[0]: Invalid value",
    ],
    [
      "a part with no data",
      { contents: [{ parts: [{ thought: true }] }] },
      "contents[0].parts[0].data: required oneof field 'data' must have one initialized field",
    ],
    [
      "a call without a name",
      { contents: [{ role: "model", parts: [{ functionCall: { args: {} } }] }] },
      "contents[0].parts[0].function_call.name: Name cannot be empty.",
    ],
    [
      "call args not an object",
      { contents: [{ role: "model", parts: [{ functionCall: { name: "f", args: [1] } }] }] },
      "function_call.args: Invalid value",
    ],
    [
      "a response without a name",
      { contents: [{ parts: [{ functionResponse: { response: {} } }] }] },
      "function_response.name: Name cannot be empty.",
    ],
    [
      "a response that is not an object",
      { contents: [{ parts: [{ functionResponse: { name: "f", response: "x" } }] }] },
      "function_response.response: Invalid value",
    ],
    ["tools not a list", { ...hi, tools: {} }, "tools: Invalid value"],
    ["a tool not an object", { ...hi, tools: [1] }, "tools[0]: Invalid value"],
    [
      "declarations not a list",
      { ...hi, tools: [{ functionDeclarations: {} }] },
      "function_declarations: Invalid value",
    ],
    [
      "a declaration without a name",
      { ...hi, tools: [{ functionDeclarations: [{}] }] },
      "tools[0].function_declarations[0].name: [FIELD_INVALID] Invalid function name.",
    ],
    [
      "generationConfig not an object",
      { ...hi, generationConfig: 1 },
      "generation_config: Invalid value",
    ],
    [
      "a system instruction without parts",
      { ...hi, systemInstruction: {} },
      "system_instruction.parts",
    ],
  ];
  for (const [name, body, says] of cases) {
    await t.step(name, async () => {
      const { status, body: b } = await json(p, G25, body);
      assertEquals([status, b.error.code, b.error.status], [400, 400, "INVALID_ARGUMENT"]);
      assertStringIncludes(b.error.message, says);
    });
  }
  assertEquals(llm.requests.length, 0);
});

Deno.test("gemini wire: other part kinds pass as they are; a string system instruction is the system prompt", async () => {
  const { provider: p, llm } = provider("ok");
  const { status } = await json(p, G25, {
    systemInstruction: "Be brief.",
    contents: [{
      role: "user",
      parts: [{ inlineData: { mimeType: "image/png", data: "AA==" } }, { text: "what?" }],
    }],
  });
  assertEquals(status, 200);
  assertEquals(llm.requests[0].messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "what?" },
  ]);
});

Deno.test("durationOf(): milliseconds as google.protobuf.Duration's JSON", () => {
  assertEquals([durationOf(1500), durationOf(250), durationOf(60_000), durationOf(0)], [
    "1.5s",
    "0.25s",
    "60s",
    "0s",
  ]);
});

Deno.test("gemini wire: the parsed request keeps what a rule reads: roles as sent, parts, ids, signatures", () => {
  const url = new URL(`${ORIGIN}/v1beta/models/gemini-3-pro-preview:generateContent`);
  const parsed = geminiWire.parse({
    contents: [
      { role: "user", parts: [{ text: "go" }] },
      {
        role: "model",
        parts: [
          { functionCall: { id: "k1", name: "f", args: { a: 1 } }, thoughtSignature: "s1" },
          { functionCall: { name: "g", args: null }, thoughtSignature: 7 },
        ],
      },
      { role: "function", parts: [{ functionResponse: { id: "k1", name: "f", response: {} } }] },
      { parts: [{ fileData: { fileUri: "gs://x" } }, { executableCode: { code: "1" } }] },
    ],
    tools: [{ functionDeclarations: [{ name: "f", description: 5 }] }],
    generationConfig: {
      maxOutputTokens: "9",
      temperature: null,
      responseMimeType: "text/plain",
      responseJsonSchema: {},
    },
  }, url);
  if ("status" in parsed) throw new Error(parsed.message);
  assertEquals(parsed.stream, false);
  assertEquals(parsed.includeUsage, true);
  assertEquals(parsed.gemini?.model, "gemini-3-pro-preview");
  assertEquals(parsed.gemini?.method, "generateContent");
  assertEquals(parsed.gemini?.contents, [
    { role: "user", parts: [{ text: "go" }] },
    {
      role: "model",
      parts: [
        { thoughtSignature: "s1", functionCall: { id: "k1", name: "f", args: { a: 1 } } },
        { functionCall: { name: "g", args: {} } },
      ],
    },
    { role: "function", parts: [{ functionResponse: { id: "k1", name: "f", response: {} } }] },
    { role: undefined, parts: [{ other: "fileData" }, { other: "executableCode" }] },
  ]);
  assertEquals([...parsed.gemini!.callIds], [["1.0", "k1"], ["1.1", "call_1_1"]]);
  assertEquals(parsed.chat.tools, [{
    name: "f",
    description: "",
    parameters: { type: "object", properties: {} },
  }]);
  // Settings of the wrong type are not read; a JSON schema without the JSON mime type is not output.
  assertEquals(parsed.chat.settings, undefined);
  // The answer to a function response comes first; a content of other parts is an empty user turn.
  assertEquals(parsed.chat.messages.slice(2), [
    { role: "tool", content: "{}", toolCallId: "k1" },
    { role: "user", content: "" },
  ]);
});

Deno.test("gemini wire: an authorization that is not a bearer token is no key", async () => {
  const { provider: p } = provider("never");
  for (const auth of ["Basic dXNlcjpwYXNz", "Bearer ", "bearer"]) {
    assertEquals((await post(p, G25, hi, { authorization: auth })).status, 403, auth);
  }
});
