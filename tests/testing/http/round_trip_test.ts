// The round-trip property: a script played by FakeLLM directly, and the same
// script served by FakeProvider and read back by a real port, give identical
// responses and stream events, and the model sees the same request. Two
// things differ by design, as they would against the real API: the response
// id is in the provider's format (chatcmpl-…, msg_…, derived from the
// script's), and the cached input count is 0 where the script said none
// (the real APIs always report it: prompt_tokens_details.cached_tokens,
// cache_read_input_tokens).
import fc from "fast-check";
import { assert, assertEquals } from "@std/assert";
import {
  type ChatRequest,
  type ChatResponse,
  type LLMPort,
  ProviderError,
  type StreamEvent,
} from "@agentkit/testing/ports";
import { AnthropicLLM, OpenAIChatLLM } from "@agentkit/testing/runtime";
import { FakeLLM, FakeProvider, type Turn } from "@agentkit/testing/testing";
import { anthropicMessageId, chatCompletionId } from "../../../testing/http/_ids.ts";

const ports: Record<string, (fetch: FakeProvider["fetch"]) => LLMPort> = {
  OpenAIChatLLM: (fetch) => new OpenAIChatLLM({ apiKey: "sk-test", fetch }),
  AnthropicLLM: (fetch) => new AnthropicLLM({ apiKey: "sk-ant-test", fetch }),
};

const wireId: Record<string, (id: string) => string> = {
  OpenAIChatLLM: chatCompletionId,
  AnthropicLLM: anthropicMessageId,
};

// What FakeLLM said, as the port reads it back off the wire.
function onTheWire<T>(value: T, idOf: (id: string) => string): T {
  if (Array.isArray(value)) return value.map((v) => onTheWire(v, idOf)) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if ((k === "messageId" || k === "id") && typeof v === "string" && v.startsWith("fake-")) {
      out[k] = idOf(v);
    } else if (k === "usage" && v && typeof v === "object" && "inputTokens" in v) {
      out[k] = {
        ...v,
        cachedInputTokens: (v as { cachedInputTokens?: number }).cachedInputTokens ?? 0,
      };
    } else out[k] = onTheWire(v, idOf);
  }
  return out as T;
}

const request: ChatRequest = {
  model: "some-model",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "check a and b" },
    {
      role: "assistant",
      content: "Checking.",
      toolCalls: [
        { id: "c1", name: "lookup", args: { host: "a" } },
        { id: "c2", name: "lookup", args: { host: "b", deep: { n: [1, 2] } } },
      ],
    },
    { role: "tool", content: "a up", toolCallId: "c1" },
    { role: "tool", content: "b down", toolCallId: "c2" },
  ],
  tools: [{
    name: "lookup",
    description: "Looks a host up",
    parameters: { type: "object", properties: { host: { type: "string" } } },
  }],
  settings: { maxTokens: 300, temperature: 0.5 },
};

const word = fc.stringMatching(/^[a-zA-Z0-9_]{1,8}$/);
const text = fc.string({ minLength: 1, maxLength: 12 });
const jsonLeaf = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const args = fc.dictionary(
  word.filter((k) => k !== "__proto__"),
  fc.oneof(jsonLeaf, fc.array(jsonLeaf, { maxLength: 3 })),
  { maxKeys: 3 },
);
const usage = fc.record({
  inputTokens: fc.nat(100_000),
  outputTokens: fc.nat(10_000),
  cachedInputTokens: fc.option(fc.nat(50_000), { nil: undefined }),
}).map((u) =>
  u.cachedInputTokens === undefined
    ? { inputTokens: u.inputTokens, outputTokens: u.outputTokens }
    : u
);

function turnArb(withErrors: boolean): fc.Arbitrary<Turn> {
  return fc.record({
    chunks: fc.array(text, { maxLength: 4 }),
    calls: fc.uniqueArray(fc.tuple(word, word, args), { maxLength: 2, selector: ([id]) => id }),
    usage,
    finishReason: fc.option(fc.constantFrom("stop", "length", "tool_calls", "content_filter"), {
      nil: undefined,
    }),
    model: fc.option(word, { nil: undefined }),
    error: withErrors ? fc.option(text, { nil: undefined, freq: 3 }) : fc.constant(undefined),
  }).map((t) => {
    const turn: Record<string, unknown> = { usage: t.usage };
    if (t.chunks.length) turn.chunks = t.chunks;
    if (t.calls.length) {
      turn.toolCalls = t.calls.map(([id, name, a]) => ({ id: `call_${id}`, name, args: a }));
    }
    if (t.finishReason) turn.finishReason = t.finishReason;
    if (t.model) turn.model = t.model;
    if (t.error) turn.error = t.error;
    return turn as Turn;
  });
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const e of events) {
    if (e.type !== "error") out.push(e);
    else {
      const error = e.error as ProviderError;
      // An absent key and a key set to undefined read the same to a consumer.
      out.push(defined({
        ...e,
        error: defined({
          name: error.name,
          message: error.message,
          phase: error.phase,
          retryable: error.retryable,
          usage: error.usage,
          finishReason: error.finishReason,
        }),
      }));
    }
  }
  return out;
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

for (const [name, make] of Object.entries(ports)) {
  Deno.test(`round trip: FakeLLM directly = FakeProvider + ${name}, blocking`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb(false), { minLength: 1, maxLength: 3 }), async (turns) => {
        const direct = FakeLLM.script(turns);
        const served = FakeLLM.script(turns);
        const port = make(new FakeProvider({ llm: served }).fetch);
        for (let i = 0; i < turns.length; i++) {
          const expected: ChatResponse = onTheWire(await direct.chat(request), wireId[name]);
          assertEquals(await port.chat(request), expected);
        }
        assertEquals(
          served.requests.map((r) => [r.messages, r.tools, r.settings]),
          direct.requests.map((r) => [r.messages, r.tools, r.settings]),
        );
      }),
      { numRuns: 60 },
    );
  });

  Deno.test(`round trip: FakeLLM directly = FakeProvider + ${name}, streamed (errors included)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb(true), { minLength: 1, maxLength: 3 }), async (turns) => {
        const direct = FakeLLM.script(turns);
        const served = FakeLLM.script(turns);
        const port = make(new FakeProvider({ llm: served }).fetch);
        for (let i = 0; i < turns.length; i++) {
          const want = onTheWire(await drain(direct.stream(request)), wireId[name]);
          const got = await drain(port.stream(request)).catch((e: ProviderError) => e);
          const failed = want.at(-1) as { type: string; error: { message: string } } | undefined;
          // A script's error before any content is, on the wire, the provider's
          // error event first: the port throws it pre_stream, so retry() can act.
          if (want.length === 2 && failed?.type === "error") {
            if (!(got instanceof ProviderError)) throw new Error(`expected a throw, got ${got}`);
            assertEquals(got.phase, "pre_stream");
            assert(got.message.endsWith(`: ${failed.error.message}`), got.message);
            continue;
          }
          if (got instanceof Error) throw got;
          // The port names the provider and the error's type before the script's message.
          const last = got.at(-1) as { type: string; error: { message: string } } | undefined;
          if (failed?.type === "error" && last?.type === "error") {
            assert(last.error.message.endsWith(`: ${failed.error.message}`), last.error.message);
            last.error.message = failed.error.message;
          }
          assertEquals(got, want);
        }
      }),
      { numRuns: 60 },
    );
  });
}
