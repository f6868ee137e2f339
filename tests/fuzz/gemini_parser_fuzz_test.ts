// GeminiLLM's answer and stream parsers under random input, as
// wire_parser_fuzz_test.ts does for the other ports: any JSON value as a
// blocking body, and any sequence of SSE chunks (real chunks mutated,
// arbitrary JSON, non-JSON, cuts) as a stream. Each ends as an answer or a
// ProviderError, never a crash from inside, a hang, a token count that is not
// a count, a call without a name, or a stream that ends twice or not at all.
import fc from "fast-check";
import { assert } from "@std/assert";
import { ProviderError, type StreamEvent, type Usage } from "@agentkit/testing/ports";
import { GeminiLLM, RunContext } from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { fuzz, isInternalError, noHang } from "./_fuzz.ts";

const req = {
  model: "gemini-3-flash-preview",
  messages: [{ role: "user" as const, content: "hi" }],
};

function port(respond: () => Response): GeminiLLM {
  return new GeminiLLM({ apiKey: "k", fetch: () => Promise.resolve(respond()) });
}

function checkUsage(u: Usage | undefined): void {
  if (u === undefined) return;
  for (const k of ["inputTokens", "outputTokens", "cachedInputTokens"] as const) {
    const v = u[k];
    if (v === undefined) continue;
    assert(Number.isSafeInteger(v) && v >= 0, `usage.${k} is ${JSON.stringify(v)}`);
  }
}

function checkFailure(error: unknown): void {
  assert(!isInternalError(error), `internal error: ${(error as Error)?.stack ?? error}`);
  assert(error instanceof ProviderError, `not a ProviderError: ${error}`);
}

const hostile = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.constant("7"),
  fc.constant(-1),
  fc.constant([]),
  fc.constant({}),
);
const part = fc.oneof(
  hostile,
  fc.record({
    text: fc.option(hostile),
    thought: fc.option(hostile),
    thoughtSignature: fc.option(hostile),
    functionCall: fc.option(fc.oneof(
      hostile,
      fc.record({ id: fc.option(hostile), name: fc.option(hostile), args: fc.option(hostile) }, {
        requiredKeys: [],
      }),
    )),
  }, { requiredKeys: [] }),
);
const body = fc.record({
  responseId: fc.option(hostile),
  modelVersion: fc.option(hostile),
  candidates: fc.option(fc.oneof(
    hostile,
    fc.array(
      fc.oneof(
        hostile,
        fc.record({
          content: fc.option(fc.oneof(
            hostile,
            fc.record({
              role: fc.option(hostile),
              parts: fc.option(fc.oneof(hostile, fc.array(part, { maxLength: 3 }))),
            }, {
              requiredKeys: [],
            }),
          )),
          finishReason: fc.option(
            fc.oneof(
              hostile,
              fc.constantFrom("STOP", "MAX_TOKENS", "SAFETY", "MALFORMED_FUNCTION_CALL"),
            ),
          ),
        }, { requiredKeys: [] }),
      ),
      { maxLength: 2 },
    ),
  )),
  usageMetadata: fc.option(fc.oneof(
    hostile,
    fc.record({
      promptTokenCount: hostile,
      candidatesTokenCount: hostile,
      cachedContentTokenCount: hostile,
      thoughtsTokenCount: hostile,
    }, { requiredKeys: [] }),
  )),
  promptFeedback: fc.option(fc.oneof(hostile, fc.record({ blockReason: hostile }))),
  error: fc.option(
    fc.oneof(hostile, fc.record({ code: hostile, message: hostile, status: hostile })),
  ),
}, { requiredKeys: [] });

Deno.test("fuzz: a Gemini blocking body of any shape is an answer or a ProviderError", async () => {
  await fuzz(
    "gemini blocking body",
    24,
    300,
    () =>
      fc.asyncProperty(fc.oneof(body, fc.jsonValue()), async (value) => {
        try {
          const r = await noHang(port(() => Response.json(value)).chat(req, new RunContext()));
          checkUsage(r.usage);
          assert(typeof r.content === "string", `content ${typeof r.content}`);
          for (const c of r.toolCalls) {
            assert(typeof c.name === "string" && c.name !== "", "a call names its tool");
            assert(typeof c.id === "string" && c.id !== "", "a call has an id");
          }
        } catch (error) {
          checkFailure(error);
        }
      }),
  );
});

const chunks = fc.array(
  fc.oneof(
    fc.constant(
      '{"responseId":"r","candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]}',
    ),
    fc.constant(
      '{"candidates":[{"content":{"parts":[{"functionCall":{"id":"c","name":"f","args":{"a":1}},"thoughtSignature":"s"}]}}]}',
    ),
    fc.constant(
      '{"candidates":[{"content":{"parts":[{"text":""}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2}}',
    ),
    fc.constant('{"candidates":[{"finishReason":"MAX_TOKENS"}]}'),
    fc.constant('{"promptFeedback":{"blockReason":"SAFETY"}}'),
    fc.constant('{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}'),
    fc.constant("{oops"),
    body.map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  ),
  { maxLength: 8 },
);

Deno.test("fuzz: any Gemini stream ends once, as message_end or an error, or throws a ProviderError", async () => {
  await fuzz(
    "gemini stream",
    25,
    300,
    () =>
      fc.asyncProperty(chunks, fc.boolean(), async (messages, crlf) => {
        const nl = crlf ? "\r\n" : "\n";
        const text = messages.map((m) => `data: ${m}${nl}${nl}`).join("");
        const p = port(() =>
          new Response(text, { headers: { "content-type": "text/event-stream" } })
        );
        let out: StreamEvent[] = [];
        try {
          out = await noHang(Array.fromAsync(p.stream(req, new RunContext())));
        } catch (error) {
          checkFailure(error);
          return;
        }
        const ends = out.filter((e) => e.type === "message_end" || e.type === "error");
        assert(ends.length === 1 && ends[0] === out.at(-1), `ends: ${JSON.stringify(out)}`);
        assert(out[0].type === "message_start", "starts with message_start");
        for (const e of out) {
          if (e.type === "message_end") checkUsage(e.usage);
          if (e.type === "error") {
            checkUsage(e.usage);
            checkFailure(e.error);
          }
          if (e.type === "text_delta") assert(typeof e.content === "string" && e.content !== "");
          if (e.type === "tool_call") {
            assert(e.call.name !== "" && e.call.id !== "", "a call names its tool");
          }
        }
      }),
  );
});

// What a careless client may send: the request fields the wire reads, hostile.
const request = fc.record({
  contents: fc.option(fc.oneof(
    hostile,
    fc.array(
      fc.oneof(
        hostile,
        fc.record({
          role: fc.option(fc.oneof(hostile, fc.constantFrom("user", "model", "system"))),
          parts: fc.option(fc.oneof(
            hostile,
            fc.array(
              fc.oneof(
                part,
                fc.record({
                  functionResponse: fc.oneof(
                    hostile,
                    fc.record({ id: hostile, name: hostile, response: hostile }, {
                      requiredKeys: [],
                    }),
                  ),
                }),
              ),
              { maxLength: 3 },
            ),
          )),
        }, { requiredKeys: [] }),
      ),
      { maxLength: 3 },
    ),
  )),
  systemInstruction: fc.option(hostile),
  tools: fc.option(fc.oneof(
    hostile,
    fc.array(
      fc.record({
        functionDeclarations: fc.oneof(
          hostile,
          fc.array(fc.record({ name: hostile, parameters: hostile }, { requiredKeys: [] }), {
            maxLength: 2,
          }),
        ),
      }, { requiredKeys: [] }),
      { maxLength: 2 },
    ),
  )),
  generationConfig: fc.option(
    fc.oneof(
      hostile,
      fc.record({
        maxOutputTokens: hostile,
        temperature: hostile,
        responseMimeType: hostile,
        responseSchema: hostile,
      }, { requiredKeys: [] }),
    ),
  ),
}, { requiredKeys: [] });

Deno.test("fuzz: FakeProvider's Gemini wire answers any request body with 200 or Google's 400, never a 500", async () => {
  await fuzz(
    "gemini wire request",
    24,
    300,
    () =>
      fc.asyncProperty(fc.oneof(request, fc.jsonValue()), fc.boolean(), async (value, stream) => {
        const provider = new FakeProvider({ llm: new FakeLLM("ok") });
        const method = stream ? "streamGenerateContent?alt=sse" : "generateContent";
        const res = await noHang(provider.fetch(
          `https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:${method}`,
          { method: "POST", headers: { "x-goog-api-key": "k" }, body: JSON.stringify(value) },
        ));
        const text = await res.text();
        assert(res.status === 200 || res.status === 400, `${res.status}: ${text}`);
        if (res.status === 400) {
          const error = JSON.parse(text).error;
          assert(error.code === 400 && error.status === "INVALID_ARGUMENT", text);
          assert(typeof error.message === "string" && error.message !== "", text);
        }
        provider.verify();
      }),
  );
});
