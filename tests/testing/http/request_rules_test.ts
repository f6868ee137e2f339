// The request-field rules of the strict wire (issue 36: testing/http/_request_rules.ts
// and the Gemini signature rule), both ways: each refusal with the API's own
// words at its path, turned off by `except`; and for each rule, the official
// client's valid request of the same kind served.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { assertEquals } from "@std/assert";
import { toolCall } from "@agentkit/testing/ports";
import { FakeLLM, FakeProvider } from "@agentkit/testing/testing";
import { chat, claude, gem, refuses, resp, serves, user } from "./_strict_cases.ts";
import { json } from "./_wire_fetch.ts";

function provider(...turns: string[]): FakeProvider {
  return new FakeProvider({ llm: FakeLLM.script(turns.length ? turns : ["ok"]) });
}

function openai(p: FakeProvider): OpenAI {
  return new OpenAI({ apiKey: "sk-test", fetch: p.fetch, maxRetries: 0 });
}

function anthropic(p: FakeProvider): Anthropic {
  return new Anthropic({ apiKey: "sk-ant-test", fetch: p.fetch, maxRetries: 0 });
}

Deno.test("unknown-field: each API refuses a field it does not know, in its own words", async () => {
  assertEquals(
    (await refuses("chat.completions", chat({ top_k: 40 }), "unknown-field", "top_k")).message,
    "Unrecognized request argument supplied: top_k",
  );
  const r = await refuses("responses", resp({ top_k: 40 }), "unknown-field", "top_k");
  assertEquals([r.message, r.code], ["Unknown parameter: 'top_k'.", "unknown_parameter"]);
  assertEquals(
    (await refuses(
      "messages",
      claude({ response_format: { type: "json_object" } }),
      "unknown-field",
      "response_format",
    )).message,
    "response_format: Extra inputs are not permitted",
  );
  assertEquals(
    (await refuses("generateContent", gem({ temperature: 0.2 }), "unknown-field", "temperature"))
      .message,
    'Invalid JSON payload received. Unknown name "temperature": Cannot find field.',
  );
  for (const key of ["$schema", "const", "additionalProperties"]) {
    const parameters = {
      type: "OBJECT",
      properties: { q: { type: "STRING", ...(key === "const" ? { const: "x" } : {}) } },
      ...(key === "const" ? {} : { [key]: key === "$schema" ? "http://x" : false }),
    };
    const at = key === "const"
      ? "tools[0].function_declarations[0].parameters.properties[q].value"
      : "tools[0].function_declarations[0].parameters";
    const e = await refuses(
      "generateContent",
      gem({ tools: [{ functionDeclarations: [{ name: "f", parameters }] }] }),
      "unknown-field",
      `${at}.${key}`,
    );
    assertEquals(
      e.message,
      `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`,
    );
  }
  // What a JSON Schema needs goes in parametersJsonSchema, and snake_case names are read too.
  await serves(
    "generateContent",
    gem({
      system_instruction: { parts: [{ text: "be brief" }] },
      generation_config: { temperature: 0.2 },
      tools: [{
        function_declarations: [{
          name: "f",
          parametersJsonSchema: {
            $schema: "https://json-schema.org/draft/2020-12/schema",
            type: "object",
            properties: { q: { const: "x" } },
            additionalProperties: false,
          },
        }],
      }],
    }),
  );
});

Deno.test("unknown-field: what the official clients send with every option is served", async () => {
  const p = provider("a", "b", "c");
  await openai(p).chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "developer", content: "terse" }, { role: "user", content: "hi" }],
    n: 1,
    top_p: 0.5,
    presence_penalty: 1,
    frequency_penalty: -1,
    stop: ["a", "b", "c", "d"],
    seed: 7,
    logprobs: true,
    top_logprobs: 20,
    user: "u",
    store: false,
    metadata: { k: "v" },
    parallel_tool_calls: true,
    service_tier: "auto",
    reasoning_effort: "low",
    verbosity: "low",
    prompt_cache_key: "k",
    safety_identifier: "s",
    max_completion_tokens: 50,
    response_format: {
      type: "json_schema",
      json_schema: {
        name: "v",
        strict: true,
        schema: {
          type: "object",
          properties: { ok: { type: "boolean" } },
          required: ["ok"],
          additionalProperties: false,
        },
      },
    },
  });
  await openai(p).responses.create({
    model: "gpt-4.1",
    input: "hi",
    instructions: "terse",
    top_p: 0.5,
    top_logprobs: 5,
    reasoning: { effort: "minimal", summary: "auto" },
    text: {
      verbosity: "low",
      format: {
        type: "json_schema",
        name: "v",
        strict: true,
        schema: {
          type: "object",
          properties: { ok: { type: "boolean" } },
          required: ["ok"],
          additionalProperties: false,
        },
      },
    },
    tools: [{
      type: "function",
      name: "f",
      strict: true,
      parameters: {
        type: "object",
        properties: { q: { type: "string" } },
        required: ["q"],
        additionalProperties: false,
      },
    }],
    store: false,
    include: ["reasoning.encrypted_content"],
    truncation: "auto",
    metadata: { k: "v" },
    max_output_tokens: 64,
    parallel_tool_calls: false,
    service_tier: "default",
    prompt_cache_key: "k",
  });
  // temperature / top_p / top_k: in @anthropic-ai/sdk 0.122.0's types, sent
  // through 1.10.0 as the body it is given.
  const sampled = {
    model: "claude-sonnet-4-5",
    max_tokens: 64,
    system: [{ type: "text", text: "terse", cache_control: { type: "ephemeral" } }],
    messages: [{ role: "user", content: "hi" }],
    temperature: 0.3,
    top_p: 0.9,
    top_k: 5,
    stop_sequences: ["END"],
    metadata: { user_id: "u" },
    service_tier: "auto",
  };
  await anthropic(p).messages.create(sampled as Anthropic.MessageCreateParamsNonStreaming);
  assertEquals(p.rejections, []);
});

Deno.test("parameter-range: n, top_p, penalties, top_logprobs, reasoning effort and stop, just outside and just inside", async () => {
  const cases: Array<[Record<string, unknown>, string, string, string]> = [
    [
      { n: 0 },
      "n",
      "integer_below_min_value",
      "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead.",
    ],
    [
      { n: 129 },
      "n",
      "integer_above_max_value",
      "Invalid 'n': integer above maximum value. Expected a value <= 128, but got 129 instead.",
    ],
    [
      { top_p: 2 },
      "top_p",
      "decimal_above_max_value",
      "Invalid 'top_p': decimal above maximum value. Expected a value <= 1, but got 2 instead.",
    ],
    [
      { presence_penalty: 3 },
      "presence_penalty",
      "decimal_above_max_value",
      "Invalid 'presence_penalty': decimal above maximum value. Expected a value <= 2, but got 3 instead.",
    ],
    [
      { frequency_penalty: -2.5 },
      "frequency_penalty",
      "decimal_below_min_value",
      "Invalid 'frequency_penalty': decimal below minimum value. Expected a value >= -2, but got -2.5 instead.",
    ],
    [
      { top_logprobs: 21 },
      "top_logprobs",
      "integer_above_max_value",
      "Invalid 'top_logprobs': integer above maximum value. Expected a value <= 20, but got 21 instead.",
    ],
    [
      { n: "2" },
      "n",
      "invalid_type",
      "Invalid type for 'n': expected an integer, but got a string instead.",
    ],
    [
      { reasoning_effort: "extreme" },
      "reasoning_effort",
      "invalid_value",
      "Invalid value: 'extreme'. Supported values are: 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'.",
    ],
    [
      { stop: ["1", "2", "3", "4", "5"] },
      "stop",
      "array_above_max_length",
      "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length 5 instead.",
    ],
  ];
  for (const [fields, path, code, message] of cases) {
    const e = await refuses("chat.completions", chat(fields), "parameter-range", path);
    assertEquals([e.message, e.code], [message, code]);
  }
  await serves("chat.completions", chat({ n: 128, top_p: 0, presence_penalty: -2, stop: "x" }));
  await serves("chat.completions", chat({ frequency_penalty: 2, top_logprobs: 0, stop: null }));
  for (
    const [fields, path] of [[{ top_p: -0.1 }, "top_p"], [
      { reasoning: { effort: "max!" } },
      "reasoning.effort",
    ]] as const
  ) {
    await refuses("responses", resp(fields), "parameter-range", path);
  }
  await serves("responses", resp({ top_p: 1, reasoning: { effort: "high" } }));
});

Deno.test("stream-options-without-stream, tool-calls-empty, json-schema-format", async () => {
  const e = await refuses(
    "chat.completions",
    chat({ stream_options: { include_usage: true } }),
    "stream-options-without-stream",
    "stream_options",
  );
  assertEquals(
    e.message,
    "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
  );
  await refuses(
    "responses",
    resp({ stream: false, stream_options: {} }),
    "stream-options-without-stream",
    "stream_options",
  );
  const empty = await refuses(
    "chat.completions",
    chat({ messages: [user, { role: "assistant", content: "x", tool_calls: [] }, user] }),
    "tool-calls-empty",
    "messages[1].tool_calls",
  );
  assertEquals(
    empty.message,
    "Invalid 'messages[1].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
  );
  await refuses(
    "chat.completions",
    chat({ response_format: { type: "json_schema" } }),
    "json-schema-format",
    "response_format.json_schema",
  );
  await refuses(
    "chat.completions",
    chat({ response_format: { type: "json_schema", json_schema: { schema: {} } } }),
    "json-schema-format",
    "response_format.json_schema.name",
  );
  const format = await refuses(
    "responses",
    resp({ text: { format: { type: "json_schema", name: "v" } } }),
    "json-schema-format",
    "text.format.schema",
  );
  assertEquals(format.message, "Missing required parameter: 'text.format.schema'.");
  // The official client streams with stream_options, and json_object needs no schema.
  const p = provider("a", "b");
  const stream = await openai(p).chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const _ of stream) { /* drain */ }
  await openai(p).chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: "json" }],
    response_format: { type: "json_object" },
  });
  assertEquals(p.rejections, []);
});

Deno.test("strict-schema on Responses: a strict function or text format without additionalProperties: false", async () => {
  const loose = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
  await refuses(
    "responses",
    resp({ tools: [{ type: "function", name: "f", strict: true, parameters: loose }] }),
    "strict-schema",
    "tools[0].parameters",
  );
  await refuses(
    "responses",
    resp({ text: { format: { type: "json_schema", name: "v", strict: true, schema: loose } } }),
    "strict-schema",
    "text.format.schema",
  );
  // Not strict: the API takes a loose schema.
  await serves(
    "responses",
    resp({ tools: [{ type: "function", name: "f", strict: false, parameters: loose }] }),
  );
});

Deno.test("a legacy function_call with content: null is served, and its function result read", async () => {
  const llm = FakeLLM.script(["done"]);
  const p = new FakeProvider({ llm });
  const { status } = await json(
    p,
    "/v1/chat/completions",
    chat({
      functions: [{ name: "f", parameters: { type: "object", properties: {} } }],
      messages: [
        user,
        { role: "assistant", content: null, function_call: { name: "f", arguments: '{"a":1}' } },
        { role: "function", name: "f", content: "42" },
      ],
    }),
  );
  assertEquals([status, p.rejections], [200, []]);
  assertEquals(llm.requests[0].messages.slice(1), [
    { role: "assistant", content: "", toolCalls: [{ id: "call_fn_1", name: "f", args: { a: 1 } }] },
    { role: "tool", content: "42", toolCallId: "call_fn_1" },
  ]);
  // Only an assistant's function_call makes content optional: a user's content stays required.
  await refuses(
    "chat.completions",
    chat({
      messages: [{ role: "user", content: null, function_call: { name: "f", arguments: "{}" } }],
    }),
    "message-content-type",
    "messages[0].content",
  );
});

Deno.test("Anthropic thinking: budget, temperature and forced tool choice", async () => {
  const thinking = (budget: number) => ({ thinking: { type: "enabled", budget_tokens: budget } });
  const low = await refuses(
    "messages",
    claude(thinking(1023)),
    "thinking-budget",
    "thinking.budget_tokens",
  );
  assertEquals(
    low.message,
    "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
  );
  const over = await refuses(
    "messages",
    claude(thinking(2048)),
    "thinking-budget",
    "thinking.budget_tokens",
  );
  assertEquals(
    over.message,
    "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size",
  );
  const temp = await refuses(
    "messages",
    claude({ ...thinking(1024), temperature: 0.7 }),
    "thinking-temperature",
    "temperature",
  );
  assertEquals(
    temp.message,
    "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking",
  );
  await refuses(
    "messages",
    claude({ ...thinking(1024), top_k: 5 }),
    "thinking-temperature",
    "top_k",
  );
  await refuses(
    "messages",
    claude({ ...thinking(1024), top_p: 0.5 }),
    "thinking-temperature",
    "top_p",
  );
  for (const choice of [{ type: "any" }, { type: "tool", name: "f" }]) {
    const e = await refuses(
      "messages",
      claude({
        ...thinking(1024),
        tool_choice: choice,
        tools: [{ name: "f", input_schema: { type: "object" } }],
      }),
      "thinking-tool-choice",
      "tool_choice",
    );
    assertEquals(e.message, "Thinking may not be enabled when tool_choice forces tool use.");
  }
  // The official client's valid thinking request: budget 1024 under max_tokens,
  // temperature 1, top_p 0.95, tool_choice auto.
  const p = provider();
  const valid = {
    model: "claude-sonnet-4-5",
    max_tokens: 2048,
    thinking: { type: "enabled", budget_tokens: 1024 },
    temperature: 1,
    top_p: 0.95,
    tool_choice: { type: "auto" },
    tools: [{ name: "f", input_schema: { type: "object" } }],
    messages: [{ role: "user", content: "hi" }],
  };
  await anthropic(p).messages.create(valid as Anthropic.MessageCreateParamsNonStreaming);
  assertEquals(p.rejections, []);
});

Deno.test("Anthropic: more than 4 cache_control breakpoints, and an image type the API does not take", async () => {
  const mark = { cache_control: { type: "ephemeral" } };
  const e = await refuses(
    "messages",
    claude({
      system: [{ type: "text", text: "s", ...mark }],
      tools: [{ name: "f", input_schema: { type: "object" }, ...mark }],
      messages: [{
        role: "user",
        content: [1, 2, 3].map((i) => ({ type: "text", text: `p${i}`, ...mark })),
      }],
    }),
    "cache-control-limit",
    "cache_control",
  );
  assertEquals(e.message, "A maximum of 4 blocks with cache_control may be provided. Found 5.");
  const image = (media_type: string) => ({
    type: "image",
    source: { type: "base64", media_type, data: "AAAA" },
  });
  const bmp = await refuses(
    "messages",
    claude({
      messages: [{ role: "user", content: [{ type: "text", text: "see" }, image("image/bmp")] }],
    }),
    "media-type",
    "messages[0].content[1].source.media_type",
  );
  assertEquals(
    bmp.message,
    "messages.0.content.1.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
  );
  // Four breakpoints and the four image types, from the official client.
  const p = provider();
  await anthropic(p).messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 64,
    system: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }],
    tools: [{ name: "f", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } }],
    messages: [{
      role: "user",
      content: [
        ...(["image/jpeg", "image/png", "image/gif", "image/webp"] as const).map((m) => ({
          type: "image" as const,
          source: { type: "base64" as const, media_type: m, data: "AAAA" },
        })),
        { type: "text", text: "a", cache_control: { type: "ephemeral" } },
        { type: "text", text: "b", cache_control: { type: "ephemeral" } },
      ],
    }],
  });
  assertEquals(p.rejections, []);
});

Deno.test("Anthropic: max-tokens-required and system-role-in-messages are turned off by except, wherever checked", async () => {
  for (
    const [rule, body] of [
      ["max-tokens-required", { model: "claude-sonnet-4-5", messages: [user] }],
      ["system-role-in-messages", claude({ messages: [{ role: "system", content: "s" }, user] })],
    ] as const
  ) {
    const llm = FakeLLM.script(["ok"]);
    const p = new FakeProvider({ llm, strict: { except: [rule] } });
    const { status } = await json(p, "/v1/messages", body);
    assertEquals([status, p.rejections, llm.calls], [200, [], 1], rule);
  }
});

Deno.test("Gemini 3: every step's first call must be signed, id or not; Google's dummy signatures pass", async () => {
  const path = "/v1beta/models/gemini-3-pro-preview:generateContent";
  const step = (part: Record<string, unknown>) => [
    { role: "user", parts: [{ text: "hi" }] },
    { role: "model", parts: [part, { functionCall: { name: "g", args: {} } }] },
    {
      role: "user",
      parts: [
        { functionResponse: { name: "f", response: { output: 1 } } },
        { functionResponse: { name: "g", response: { output: 2 } } },
      ],
    },
  ];
  for (
    const part of [{ functionCall: { name: "f", args: {} } }, {
      functionCall: { id: "x", name: "f", args: {} },
    }]
  ) {
    const p = provider();
    const { status } = await json(p, path, { contents: step(part) });
    assertEquals([status, p.rejections.map((r) => [r.rule, r.path])], [400, [[
      "thought-signature-missing",
      "contents[1].parts[0].thoughtSignature",
    ]]]);
  }
  for (
    const sig of [
      "context_engineering_is_the_way_to_go",
      "skip_thought_signature_validator",
      btoa("skip_thought_signature_validator"),
    ]
  ) {
    const p = provider();
    const part = { functionCall: { name: "f", args: {} }, thoughtSignature: sig };
    const { status } = await json(p, path, { contents: step(part) });
    assertEquals([status, p.rejections], [200, []], sig);
  }
  // A call this provider signed may come back with a dummy too; its own
  // signature, issued through @google/genai, passes.
  const p = new FakeProvider({
    llm: FakeLLM.script([{ toolCalls: [toolCall("call_1", "f", {})] }, "done"], {
      strictTools: false,
    }),
  });
  const ai = new GoogleGenAI({
    apiKey: "AIza-test",
    httpOptions: { baseUrl: "https://g.example", fetch: p.fetch } as never,
  });
  const first = await ai.models.generateContent({ model: "gemini-3-pro-preview", contents: "hi" });
  const parts = first.candidates![0].content!.parts!;
  assertEquals(typeof parts[0].thoughtSignature, "string");
  await ai.models.generateContent({
    model: "gemini-3-pro-preview",
    contents: [
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts },
      {
        role: "user",
        parts: [{ functionResponse: { id: "call_1", name: "f", response: { output: 1 } } }],
      },
    ],
  });
  assertEquals(p.rejections, []);
});
