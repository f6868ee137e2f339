// The provider ports' response and stream parsers under random input: any
// JSON value as a blocking body, and any sequence of SSE messages (valid
// events mutated, arbitrary JSON, non-JSON, cuts) as a stream. Each ends as
// an answer or a ProviderError, never a crash from inside, a hang, a token
// count that is not a count, or a stream that ends twice or not at all.
import fc from "fast-check";
import { assert } from "@std/assert";
import { ProviderError, type StreamEvent, type Usage } from "@agentkit/testing/ports";
import { AnthropicLLM, OpenAIChatLLM, RunContext } from "@agentkit/testing/runtime";
import { fuzz, isInternalError, noHang } from "./_fuzz.ts";

const req = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

function port(api: "openai" | "anthropic", respond: () => Response): OpenAIChatLLM | AnthropicLLM {
  const fetch = () => Promise.resolve(respond());
  return api === "openai"
    ? new OpenAIChatLLM({ apiKey: "k", fetch })
    : new AnthropicLLM({ apiKey: "k", fetch });
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

// Plausible wire values: the fields the parsers read, with hostile values.
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
const openAIBody = fc.record({
  id: fc.option(hostile),
  choices: fc.option(fc.oneof(
    hostile,
    fc.array(
      fc.record({
        message: fc.option(fc.oneof(
          hostile,
          fc.record({
            content: fc.option(hostile),
            refusal: fc.option(hostile),
            tool_calls: fc.option(fc.oneof(
              hostile,
              fc.array(
                fc.record({
                  id: fc.option(hostile),
                  function: fc.option(fc.oneof(
                    hostile,
                    fc.record({ name: fc.option(hostile), arguments: fc.option(hostile) }),
                  )),
                }),
                { maxLength: 2 },
              ),
            )),
          }, { requiredKeys: [] }),
        )),
        finish_reason: fc.option(hostile),
      }, { requiredKeys: [] }),
      { maxLength: 2 },
    ),
  )),
  usage: fc.option(fc.oneof(
    hostile,
    fc.record({
      prompt_tokens: hostile,
      completion_tokens: hostile,
      prompt_tokens_details: fc.option(fc.record({ cached_tokens: hostile })),
    }, { requiredKeys: [] }),
  )),
  error: fc.option(fc.oneof(hostile, fc.record({ message: hostile, type: hostile }))),
}, { requiredKeys: [] });
const anthropicBody = fc.record({
  type: fc.option(fc.constantFrom("message", "error")),
  content: fc.option(fc.oneof(
    hostile,
    fc.array(
      fc.oneof(
        hostile,
        fc.record({
          type: fc.option(fc.oneof(hostile, fc.constantFrom("text", "tool_use", "thinking"))),
          text: fc.option(hostile),
          id: fc.option(hostile),
          name: fc.option(hostile),
          input: fc.option(hostile),
        }, { requiredKeys: [] }),
      ),
      { maxLength: 3 },
    ),
  )),
  stop_reason: fc.option(hostile),
  usage: fc.option(fc.oneof(
    hostile,
    fc.record({ input_tokens: hostile, output_tokens: hostile }, { requiredKeys: [] }),
  )),
}, { requiredKeys: [] });

Deno.test("fuzz: a blocking body of any shape is an answer or a ProviderError", async () => {
  for (const [api, body] of [["openai", openAIBody], ["anthropic", anthropicBody]] as const) {
    await fuzz(
      `${api} blocking body`,
      24,
      300,
      () =>
        fc.asyncProperty(fc.oneof(body, fc.jsonValue()), async (value) => {
          const p = port(api, () => Response.json(value));
          try {
            const r = await noHang(p.chat(req, new RunContext()));
            checkUsage(r.usage);
            assert(typeof r.content === "string", `content ${typeof r.content}`);
            for (const c of r.toolCalls) assert(typeof c.name === "string" && c.name !== "");
          } catch (error) {
            checkFailure(error);
          }
        }),
    );
  }
});

// SSE messages: real events of each wire, mutated, mixed with junk.
const openAIEvents = fc.array(
  fc.oneof(
    fc.constant('{"id":"c","choices":[{"delta":{"content":"Hi"}}]}'),
    fc.constant(
      '{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"t","function":{"name":"f","arguments":"{\\"a\\""}}]}}]}',
    ),
    fc.constant(
      '{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}}]}',
    ),
    fc.constant('{"choices":[{"delta":{},"finish_reason":"stop"}]}'),
    fc.constant('{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2}}'),
    fc.constant('{"error":{"message":"boom","type":"server_error"}}'),
    fc.constant("[DONE]"),
    fc.constant("{oops"),
    openAIBody.map((v) => JSON.stringify({ ...v, choices: [{ delta: v.choices }] })),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  ),
  { maxLength: 8 },
);
const anthropicEvents = fc.array(
  fc.oneof(
    fc.constant('{"type":"message_start","message":{"id":"m","usage":{"input_tokens":4}}}'),
    fc.constant(
      '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"He"}}',
    ),
    fc.constant(
      '{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"f"}}',
    ),
    fc.constant(
      '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
    ),
    fc.constant(
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"y"}}',
    ),
    fc.constant('{"type":"content_block_stop","index":1}'),
    fc.constant(
      '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}',
    ),
    fc.constant('{"type":"message_stop"}'),
    fc.constant('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
    fc.constant("{oops"),
    anthropicBody.map((v) =>
      JSON.stringify({ type: "content_block_start", index: 0, content_block: v })
    ),
    fc.record({
      type: fc.constantFrom("content_block_delta", "message_delta", "message_start"),
      index: hostile,
      delta: hostile,
      usage: hostile,
      message: hostile,
    }, { requiredKeys: ["type"] })
      .map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  ),
  { maxLength: 8 },
);

Deno.test("fuzz: any stream ends once, as message_end or an error, or throws a ProviderError", async () => {
  for (const [api, events] of [["openai", openAIEvents], ["anthropic", anthropicEvents]] as const) {
    await fuzz(
      `${api} stream`,
      25,
      300,
      () =>
        fc.asyncProperty(events, fc.boolean(), async (messages, crlf) => {
          const nl = crlf ? "\r\n" : "\n";
          const text = messages.map((m) => `data: ${m}${nl}${nl}`).join("");
          const p = port(
            api,
            () => new Response(text, { headers: { "content-type": "text/event-stream" } }),
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
            if (e.type === "tool_call") assert(e.call.name !== "", "a call names its tool");
          }
        }),
    );
  }
});
